import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** One sysbench run's summary: transactions and queries per second, p95 latency, ignored errors. */
export interface SysbenchFigures {
  readonly tps: number;
  readonly qps: number;
  readonly p95Ms: number;
  readonly errors: number;
}

/**
 * Reads the summary sysbench 1.0.20 prints after `run`: the `transactions:`, `queries:` (the
 * total line, not the read/write/other breakdown), `ignored errors:` and `95th percentile:`
 * lines. A summary without the transactions or queries line is an error naming what is missing.
 */
export function parseSysbench(output: string): SysbenchFigures {
  const tps = /^\s*transactions:\s+\d+\s+\(([\d.]+) per sec\.\)/m.exec(output);
  const qps = /^\s*queries:\s+\d+\s+\(([\d.]+) per sec\.\)/m.exec(output);
  const p95 = /^\s*95th percentile:\s+([\d.]+)/m.exec(output);
  const errors = /^\s*ignored errors:\s+(\d+)/m.exec(output);
  if (tps === null || qps === null)
    throw new Error(
      `sysbench output has no ${tps === null ? '"transactions:"' : '"queries:"'} line: ${output.slice(0, 200)}`,
    );
  return {
    tps: Number(tps[1]),
    qps: Number(qps[1]),
    p95Ms: p95 === null ? Number.NaN : Number(p95[1]),
    errors: errors === null ? 0 : Number(errors[1]),
  };
}

/** The full path of `name` on PATH, or undefined. */
export function onPath(name: string, path: string = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** `sysbench 1.0.20` (first line of `sysbench --version`). */
export function sysbenchVersion(bin: string): string {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return (r.stdout ?? '').trim().split('\n')[0] || 'sysbench (unknown version)';
}

export interface SysbenchTarget {
  readonly socket: string;
  readonly db: string;
  /** root's password, when the server has one (enginekit serve always does). */
  readonly password?: string;
}

/** Runs `sysbench <test> ... <command>`; the output, or an error with sysbench's own words. */
export function sysbench(
  bin: string,
  test: string,
  target: SysbenchTarget,
  shape: { tables: number; rows: number },
  extra: readonly string[],
): string {
  const args = [
    test,
    '--db-driver=mysql',
    `--mysql-socket=${target.socket}`,
    '--mysql-user=root',
    ...(target.password === undefined ? [] : [`--mysql-password=${target.password}`]),
    `--mysql-db=${target.db}`,
    `--tables=${shape.tables}`,
    `--table-size=${shape.rows}`,
    ...extra,
  ];
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0)
    throw new Error(
      `sysbench ${args.join(' ')} failed (${r.status}): ${`${r.stdout}\n${r.stderr}`.trim().slice(-400)}`,
    );
  return r.stdout;
}
