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
import { round } from '../measure.js';
import { EngineServer } from '../peers/enginekit-serve.js';
import { findMariaDb, MARIADB_ABSENT, MariaDb } from '../peers/mariadb.js';
import type { Chart, Claim, Column, Table } from '../result.js';

/** The one line printed (and recorded) when there is no sysbench to drive the servers. */
export const SYSBENCH_ABSENT =
  'sysbench is not installed (not on PATH): oltp skipped; `apt-get install sysbench` runs it';

const TESTS = ['oltp_point_select', 'oltp_read_only', 'oltp_read_write'] as const;
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
}

const loadText = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

function runOptions(test: string, threads: number, seconds: number): string[] {
  const out = [`--threads=${threads}`, `--time=${seconds}`, '--report-interval=0'];
  // read_write in transactions: a deadlock or lock wait timeout restarts the transaction.
  if (test === 'oltp_read_write') out.push('--skip_trx=off', '--mysql-ignore-errors=1213,1205');
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
  const threads = ctx.quick ? [1, 4] : [1, 4, 16];
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
    '--threads',
    '0',
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
  const servers: Server[] = [engine('ek', 'enginekit', [])];
  if (!ctx.quick)
    servers.push(engine('ek8', 'enginekit 8 instances', ['--innodb_buffer_pool_instances', '8']));
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
          for (const n of threads) {
            const load = loadText();
            const figures = parseSysbench(
              sysbench(bin, test, live.target, shape, [...runOptions(test, n, seconds), 'run']),
            );
            points.push({ test, threads: n, server: server.id, load, ...figures });
            ctx.log(
              `oltp: ${server.label} ${test} ${n}: ${figures.tps} tps, p95 ${figures.p95Ms} ms (load ${load})`,
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
    threads,
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
      const row: Record<string, string | number | null> = { test, threads: n };
      const maria = find(test, n, 'maria');
      for (const s of servers) {
        const p = find(test, n, s.id);
        row[`${s.id}Tps`] = p ? round(p.tps, 1) : null;
        row[`${s.id}Qps`] = p ? round(p.qps, 1) : null;
        row[`${s.id}P95`] = p ? p.p95Ms : null;
        row[`${s.id}Errors`] = p ? p.errors : null;
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
      { key: `${s.id}Qps`, label: `${s.label} QPS`, digits: 1 },
      { key: `${s.id}P95`, label: `${s.label} p95 ms`, digits: 2 },
      { key: `${s.id}Errors`, label: `${s.label} errors` },
    );
  }
  if (hasMaria)
    for (const s of engines)
      columns.push({ key: `${s.id}Ratio`, label: `${s.label} / MariaDB TPS`, digits: 2 });
  columns.push({ key: 'load', label: 'load average (enginekit point)' });
  const tables: Table[] = [
    {
      id: 'points',
      title: `${config.version}, ${config.shape.tables} × ${config.shape.rows} rows, ${config.seconds} s per point: TPS, QPS, p95 and ignored errors`,
      columns,
      rows,
      note:
        `enginekit serve runs sessions on the main thread (--threads 0); both servers have innodb_buffer_pool_size ${POOL >> 20} MiB ` +
        `and innodb_flush_log_at_trx_commit ${FLUSH}. point_select and read_only run in autocommit (--skip_trx=on); ` +
        'read_write in transactions (--skip_trx=off), restarting after 1213/1205. ' +
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
  const claims: Claim[] = [
    {
      text: 'enginekit serve beside MariaDB under sysbench, TPS ratio per test and thread count',
      post: '—',
      ours: hasMaria
        ? ratios.map((r) => `${r.test} ${r.threads}: ×${r.ekRatio}`).join('; ')
        : `enginekit alone (${MARIADB_ABSENT})`,
      holds: null,
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
  title: 'sysbench point_select, read_only and read_write against enginekit serve and MariaDB',
  post: {
    title: 'sysbench OLTP against the server over its unix socket',
    sources: [],
    claim: 'TPS, QPS and p95 per thread count, MariaDB beside the engine, and the ratio.',
  },
  options: 'needs sysbench on PATH (skipped otherwise); MariaDB columns when mariadbd is installed',
  run,
};
