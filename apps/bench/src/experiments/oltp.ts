import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Experiment, ExperimentContext, ExperimentOutput } from '../experiment.js';
import { onExit } from '../internal/cleanup.js';
import {
  onPath,
  parseSysbench,
  type SysbenchFigures,
  type SysbenchTarget,
  sysbench,
  sysbenchVersion,
} from '../internal/sysbench.js';
import mysql from 'mysql2/promise';
import { round } from '../measure.js';
import { EngineServer } from '../peers/enginekit-serve.js';
import { findMariaDb, MARIADB_ABSENT, MariaDb } from '../peers/mariadb.js';
import type { Chart, Claim, Column, Table } from '../result.js';

/** The one line printed (and recorded) when there is no sysbench to drive the servers. */
export const SYSBENCH_ABSENT =
  'sysbench is not installed (not on PATH): oltp skipped; `apt-get install sysbench` runs it';

const TESTS = ['oltp_point_select', 'oltp_read_only', 'oltp_write_only', 'oltp_read_write'] as const;
/** Tests that write: run in transactions, restarted after a deadlock or a lock wait timeout. */
const WRITES: ReadonlySet<string> = new Set(['oltp_write_only', 'oltp_read_write']);
/** The goal for writers beside MariaDB: this share of its TPS from 4 client threads up. */
const GOAL = 0.7;
/** Status counters read before and after each point: lock waits and deadlocks per second. */
const LOCK_COUNTERS = ['Innodb_row_lock_waits', 'Innodb_deadlocks'] as const;
const POOL = 128 << 20;
/** Both servers write the redo log at commit and flush it once a second. */
const FLUSH = 2;

interface Server {
  readonly id: string;
  readonly label: string;
  readonly start: () => Promise<{ target: SysbenchTarget; stop: () => Promise<void> }>;
}

interface Point extends SysbenchFigures {
  readonly test: string;
  readonly threads: number;
  readonly server: string;
  readonly load: string;
  /** Innodb_row_lock_waits and Innodb_deadlocks per second over the point. */
  readonly lockWaitsPerS: number;
  readonly deadlocksPerS: number;
}

/** The server's global lock counters (SHOW GLOBAL STATUS), over a connection of its own. */
async function lockCounters(target: SysbenchTarget): Promise<Record<string, number>> {
  const c = await mysql.createConnection({
    socketPath: target.socket,
    user: 'root',
    ...(target.password === undefined ? {} : { password: target.password }),
  });
  try {
    const [rows] = await c.query(
      `SHOW GLOBAL STATUS WHERE Variable_name IN (${LOCK_COUNTERS.map((n) => `'${n}'`).join(', ')})`,
    );
    const out: Record<string, number> = {};
    for (const r of rows as Array<{ Variable_name: string; Value: string }>)
      out[r.Variable_name] = Number(r.Value);
    return out;
  } finally {
    await c.end();
  }
}

const loadText = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

function runOptions(test: string, threads: number, seconds: number): string[] {
  const out = [`--threads=${threads}`, `--time=${seconds}`, '--report-interval=0'];
  // writers in transactions: a deadlock or lock wait timeout restarts the transaction.
  if (WRITES.has(test)) out.push('--skip_trx=off', '--mysql-ignore-errors=1213,1205');
  else out.push('--skip_trx=on');
  return out;
}

function skipped(reason: string): ExperimentOutput {
  return {
    config: { skipped: reason },
    claims: [{ text: 'sysbench against enginekit serve and MariaDB', post: '—', ours: reason, holds: null }],
    tables: [],
    charts: [],
    data: { skipped: reason },
  };
}

async function run(ctx: ExperimentContext): Promise<ExperimentOutput> {
  const bin = onPath('sysbench');
  if (bin === undefined) {
    ctx.log(SYSBENCH_ABSENT);
    return skipped(SYSBENCH_ABSENT);
  }
  const shape = ctx.quick ? { tables: 1, rows: 2_000 } : { tables: 4, rows: 25_000 };
  const threads = ctx.quick ? [1, 4] : [1, 2, 4, 8, 16, 32];
  // point selects also at 64 clients: the server must answer every one of them
  const threadsOf = (test: string): number[] =>
    test === 'oltp_point_select' && !ctx.quick ? [...threads, 64] : threads;
  const seconds = ctx.quick ? 2 : 10;
  const version = sysbenchVersion(bin);
  const maria = findMariaDb();
  if (maria === undefined) ctx.log(MARIADB_ABSENT);

  const base = process.env.ENGINEKIT_BENCH_DIR ?? tmpdir();
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'enginekit-oltp-'));
  const release = onExit(() => rmSync(dir, { recursive: true, force: true }));
  const dbFile = join(dir, 'sbtest.ekdb');
  const engineArgs = [
    '--innodb_buffer_pool_size',
    String(POOL),
    '--innodb_flush_log_at_trx_commit',
    String(FLUSH),
    '--max_connections',
    '200',
  ];
  const engine = (id: string, label: string, more: readonly string[]): Server => ({
    id,
    label,
    start: async () => {
      const s = await EngineServer.start(dbFile, join(dir, `${id}.sock`), [...engineArgs, ...more]);
      return { target: { socket: s.socket, db: 'test', password: s.password }, stop: () => s.stop() };
    },
  });
  // sessions on worker threads (one per core, the default), and all on the main thread
  const servers: Server[] = [engine('ek', 'enginekit', [])];
  if (!ctx.quick) servers.push(engine('ek0', 'enginekit --threads 0', ['--threads', '0']));
  if (maria !== undefined)
    servers.push({
      id: 'maria',
      label: 'MariaDB',
      start: async () => {
        const m = await MariaDb.start(maria, { innodb_buffer_pool_size: POOL, log: ctx.log });
        return { target: { socket: m.socket, db: 'dbt3' }, stop: () => m.stop() };
      },
    });

  const points: Point[] = [];
  const prepareS: Record<string, number> = {};
  let enginePrepared = false;
  try {
    for (const server of servers) {
      let live = await server.start();
      try {
        const isEngine = server.id !== 'maria';
        if (!isEngine || !enginePrepared) {
          const t0 = performance.now();
          sysbench(bin, 'oltp_read_write', live.target, shape, [`--threads=${shape.tables}`, 'prepare']);
          prepareS[server.id] = round((performance.now() - t0) / 1000, 2);
          ctx.log(
            `oltp: ${server.label}: prepared ${shape.tables} × ${shape.rows} rows in ${prepareS[server.id]} s`,
          );
          if (isEngine) {
            enginePrepared = true;
            // every enginekit configuration then starts from the file the same way
            await live.stop();
            live = await server.start();
          }
        }
        // not counted: the JIT and the buffer pool warm up
        sysbench(
          bin,
          'oltp_read_only',
          live.target,
          shape,
          runOptions('oltp_read_only', 4, seconds).concat('run'),
        );
        for (const test of TESTS) {
          for (const n of threadsOf(test)) {
            const load = loadText();
            const before = await lockCounters(live.target);
            const t0 = performance.now();
            const figures = parseSysbench(
              sysbench(bin, test, live.target, shape, [...runOptions(test, n, seconds), 'run']),
            );
            const s = (performance.now() - t0) / 1000;
            const after = await lockCounters(live.target);
            const rate = (name: string): number => round(((after[name] ?? 0) - (before[name] ?? 0)) / s, 2);
            const lockWaitsPerS = rate('Innodb_row_lock_waits');
            const deadlocksPerS = rate('Innodb_deadlocks');
            points.push({
              test,
              threads: n,
              server: server.id,
              load,
              ...figures,
              lockWaitsPerS,
              deadlocksPerS,
            });
            ctx.log(
              `oltp: ${server.label} ${test} ${n}: ${figures.tps} tps, p95 ${figures.p95Ms} ms, ` +
                `${figures.errors} restarts, ${lockWaitsPerS} lock waits/s, ${deadlocksPerS} deadlocks/s (load ${load})`,
            );
          }
        }
      } finally {
        await live.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    release();
  }
  return output(points, servers, {
    shape,
    threads: [...new Set(TESTS.flatMap(threadsOf))],
    seconds,
    version,
    prepareS,
    mariadb: maria?.version ?? null,
  });
}

function output(
  points: readonly Point[],
  servers: readonly Server[],
  config: {
    shape: { tables: number; rows: number };
    threads: readonly number[];
    seconds: number;
    version: string;
    prepareS: Record<string, number>;
    mariadb: string | null;
  },
): ExperimentOutput {
  const find = (test: string, n: number, id: string): Point | undefined =>
    points.find((p) => p.test === test && p.threads === n && p.server === id);
  const hasMaria = servers.some((s) => s.id === 'maria');
  const engines = servers.filter((s) => s.id !== 'maria');
  const rows: Record<string, string | number | null>[] = [];
  for (const test of TESTS) {
    for (const n of config.threads) {
      if (!points.some((p) => p.test === test && p.threads === n)) continue;
      const row: Record<string, string | number | null> = { test, threads: n };
      const maria = find(test, n, 'maria');
      for (const s of servers) {
        const p = find(test, n, s.id);
        row[`${s.id}Tps`] = p ? round(p.tps, 1) : null;
        row[`${s.id}P95`] = p ? p.p95Ms : null;
        row[`${s.id}Errors`] = p ? p.errors : null;
        row[`${s.id}Waits`] = p ? p.lockWaitsPerS : null;
        row[`${s.id}Deadlocks`] = p ? p.deadlocksPerS : null;
        if (s.id !== 'maria' && hasMaria)
          row[`${s.id}Ratio`] = p && maria && maria.tps > 0 ? round(p.tps / maria.tps, 2) : null;
      }
      row.load = find(test, n, servers[0]?.id ?? '')?.load ?? null;
      rows.push(row);
    }
  }
  const columns: Column[] = [
    { key: 'test', label: 'test' },
    { key: 'threads', label: 'threads' },
  ];
  for (const s of servers) {
    columns.push(
      { key: `${s.id}Tps`, label: `${s.label} TPS`, digits: 1 },
      { key: `${s.id}P95`, label: `${s.label} p95 ms`, digits: 2 },
      { key: `${s.id}Errors`, label: `${s.label} restarts` },
      { key: `${s.id}Waits`, label: `${s.label} lock waits/s`, digits: 2 },
      { key: `${s.id}Deadlocks`, label: `${s.label} deadlocks/s`, digits: 2 },
    );
  }
  if (hasMaria)
    for (const s of engines)
      columns.push({ key: `${s.id}Ratio`, label: `${s.label} / MariaDB TPS`, digits: 2 });
  columns.push({ key: 'load', label: 'load average (first server)' });
  const tables: Table[] = [
    {
      id: 'points',
      title: `${config.version}, ${config.shape.tables} × ${config.shape.rows} rows, ${config.seconds} s per point: TPS, p95, restarts (ignored 1213/1205), lock waits and deadlocks per second`,
      columns,
      rows,
      note:
        `enginekit serve runs sessions on worker threads (one per core, the default)${engines.length > 1 ? ' and, in the second columns, on the main thread (--threads 0)' : ''}; ` +
        `both servers have innodb_buffer_pool_size ${POOL >> 20} MiB and innodb_flush_log_at_trx_commit ${FLUSH}. ` +
        'point_select and read_only run in autocommit (--skip_trx=on); write_only and read_write in transactions ' +
        "(--skip_trx=off), restarting after 1213/1205. Lock waits and deadlocks are the servers' Innodb_row_lock_waits " +
        'and Innodb_deadlocks over the point. ' +
        (hasMaria ? `Peer: ${config.mariadb}.` : `${MARIADB_ABSENT}.`) +
        ' The servers share the machine with sysbench: the figures are the whole box.',
    },
  ];
  const charts: Chart[] = TESTS.map((test) => ({
    id: `tps-${test}`,
    kind: 'lines',
    title: `${test}: transactions per second vs client threads`,
    xLabel: 'threads',
    yLabel: 'TPS',
    xScale: 'log',
    series: servers.map((s) => ({
      name: s.label,
      points: config.threads.flatMap((n) => {
        const p = find(test, n, s.id);
        return p ? [{ x: n, y: round(p.tps, 1) }] : [];
      }),
    })),
  }));
  const ratios = rows.filter((r) => r.ekRatio !== null && r.ekRatio !== undefined);
  const writers = ratios.filter((r) => WRITES.has(String(r.test)) && Number(r.threads) >= 4);
  const wide = find('oltp_point_select', Math.max(...config.threads), 'ek');
  const claims: Claim[] = [
    {
      text: 'enginekit serve beside MariaDB under sysbench, TPS ratio per test and thread count',
      post: '—',
      ours: hasMaria
        ? ratios.map((r) => `${r.test} ${r.threads}: ×${r.ekRatio}`).join('; ')
        : `enginekit alone (${MARIADB_ABSENT})`,
      holds: null,
    },
    {
      text: `writers (oltp_write_only, oltp_read_write) at ≥ ${GOAL}× MariaDB's TPS from 4 client threads up`,
      post: `≥ ${GOAL}×`,
      ours:
        writers.length > 0
          ? writers.map((r) => `${r.test} ${r.threads}: ×${r.ekRatio}`).join('; ')
          : 'no MariaDB',
      holds: writers.length > 0 ? writers.every((r) => Number(r.ekRatio) >= GOAL) : null,
    },
    {
      text: `oltp_point_select at ${wide?.threads ?? '—'} client threads finishes with no error`,
      post: 'no error',
      ours: wide === undefined ? 'not run' : `${round(wide.tps, 1)} TPS, ${wide.errors} errors`,
      holds: wide === undefined ? null : wide.errors === 0,
    },
  ];
  return {
    config: { ...config, tests: TESTS, innodb_buffer_pool_size: POOL, innodb_flush_log_at_trx_commit: FLUSH },
    claims,
    tables,
    charts,
    data: points,
  };
}

export const oltp: Experiment = {
  name: 'oltp',
  title: 'sysbench point_select, read_only, write_only and read_write against enginekit serve and MariaDB',
  post: {
    title: 'sysbench OLTP against the server over its unix socket',
    sources: [],
    claim:
      'TPS, p95, lock waits and deadlocks per thread count, MariaDB beside the engine, and the ratio; writers at ≥ 0.7× MariaDB from 4 threads.',
  },
  options: 'needs sysbench on PATH (skipped otherwise); MariaDB columns when mariadbd is installed',
  run,
};
