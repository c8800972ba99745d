import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import type { ExperimentContext } from '../../experiment.js';
import { onExit } from '../../internal/cleanup.js';
import {
  onPath,
  parseSysbench,
  type SysbenchFigures,
  type SysbenchTarget,
  sysbench,
  sysbenchVersion,
} from '../../internal/sysbench.js';
import { round } from '../../measure.js';
import { EngineServer } from '../../peers/enginekit-serve.js';
import { findMariaDb, MARIADB_ABSENT, MariaDb } from '../../peers/mariadb.js';
import { FLUSH, POOL, TESTS, WRITES } from './setup.js';

/** The one line printed (and recorded) when there is no sysbench to drive the servers. */
export const SYSBENCH_ABSENT =
  'sysbench is not installed (not on PATH): oltp skipped; `apt-get install sysbench` runs it';

/** Status counters read before and after each point: lock waits and deadlocks per second. */
const LOCK_COUNTERS = ['Innodb_row_lock_waits', 'Innodb_deadlocks'] as const;

interface Server {
  readonly id: string;
  readonly label: string;
  readonly start: () => Promise<{ target: SysbenchTarget; stop: () => Promise<void> }>;
}

/** One test at one thread count on one server. */
export interface Point extends SysbenchFigures {
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

/** A server that ran, as the tables name it (`maria` is MariaDB; every other id is enginekit). */
export interface ServerRef {
  readonly id: string;
  readonly label: string;
}

/** The run's settings, as the result's config records them. */
export interface OltpSettings {
  readonly shape: { readonly tables: number; readonly rows: number };
  /** Every thread count any test ran at. */
  readonly threads: readonly number[];
  readonly seconds: number;
  /** `sysbench --version`. */
  readonly version: string;
  /** Seconds of `prepare` per server id. */
  readonly prepareS: Readonly<Record<string, number>>;
  readonly mariadb: string | null;
}

/**
 * What `oltp` measures; every field survives JSON. Without sysbench on the PATH nothing runs and
 * the measurement is only the reason.
 */
export type OltpMeasurement =
  | { readonly skipped: string }
  | {
      readonly points: readonly Point[];
      /** In the order they ran: enginekit's configurations, then MariaDB when installed. */
      readonly servers: readonly ServerRef[];
      readonly settings: OltpSettings;
    };

export async function measure(ctx: ExperimentContext): Promise<OltpMeasurement> {
  const bin = onPath('sysbench');
  if (bin === undefined) {
    ctx.log(SYSBENCH_ABSENT);
    return { skipped: SYSBENCH_ABSENT };
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
  return {
    points,
    servers: servers.map((s) => ({ id: s.id, label: s.label })),
    settings: {
      shape,
      threads: [...new Set(TESTS.flatMap(threadsOf))],
      seconds,
      version,
      prepareS,
      mariadb: maria?.version ?? null,
    },
  };
}
