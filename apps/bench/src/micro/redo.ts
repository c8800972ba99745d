import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { median } from '../measure.js';
import { type EngineDatabase, importEngine, loadAverage, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

const SCHEMA = 'CREATE TABLE t (id INT PRIMARY KEY, k INT, c VARCHAR(120), KEY k_1 (k))';
const PAD = 'x'.repeat(100);
const TABLE = {
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'int' as const } },
    { name: 'k', type: { kind: 'int' as const } },
    { name: 'c', type: { kind: 'varchar' as const, length: 120 } },
  ],
  primaryKey: ['id'],
  indexes: [{ name: 'k_1', columns: ['k'] }],
};

/** The database's redo log (these databases are all created with one). */
function redoOf(db: EngineDatabase): NonNullable<EngineDatabase['redo']> {
  if (db.redo === null) throw new Error('the database has no redo log');
  return db.redo;
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const ms = a.number('ms');
  const { Database, Session, MysqlServer, WorkerSessionHost } = await importEngine();
  const { dir, remove } = runDir('redo');
  let n = 0;
  const fresh = (): string => join(dir, `b${n++}.ekdb`);

  /** Commits of `clients` sessions on one thread for `ms`; each waits for its commit's flush. */
  const throughput = async (
    flush: 0 | 1 | 2,
    clients: number,
  ): Promise<{ tps: number; perCommit: number }> => {
    const db = Database.create(fresh(), { innodb_flush_log_at_trx_commit: flush });
    new Session(db).query(SCHEMA);
    const redo = redoOf(db);
    const f0 = redo.stats.Innodb_os_log_fsyncs;
    let next = 0;
    let commits = 0;
    const end = performance.now() + ms;
    const client = async (): Promise<void> => {
      const s = new Session(db);
      s.deferCommitWait = true;
      while (performance.now() < end) {
        const id = next++;
        s.query(`INSERT INTO t VALUES (${id}, ${id % 1000}, '${PAD}')`);
        await redo.waitCommitted(s.lastCommitLsn);
        commits++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: clients }, client));
    const secs = (performance.now() - t0) / 1000;
    const fsyncs = redo.stats.Innodb_os_log_fsyncs - f0;
    db.close();
    return { tps: commits / secs, perCommit: fsyncs / commits };
  };

  /** The same through the server over loopback TCP, sessions on the main thread or on workers. */
  const serverThroughput = async (
    flush: 0 | 1 | 2,
    clients: number,
    threads = 0,
  ): Promise<{ tps: number; perCommit: number }> => {
    const db = Database.create(fresh(), { innodb_flush_log_at_trx_commit: flush });
    const host = threads > 0 ? await WorkerSessionHost.start(db, { threads }) : undefined;
    const server = new MysqlServer(db, { port: 0, ...(host === undefined ? {} : { host }) });
    const address = await server.listen();
    const port = typeof address === 'object' && address !== null && 'port' in address ? address.port : 0;
    const conns = await Promise.all(
      Array.from({ length: clients }, () =>
        mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }),
      ),
    );
    await conns[0]?.query(SCHEMA);
    const redo = redoOf(db);
    const f0 = redo.stats.Innodb_os_log_fsyncs;
    let next = 0;
    let commits = 0;
    const end = performance.now() + ms;
    const t0 = performance.now();
    await Promise.all(
      conns.map(async (c) => {
        while (performance.now() < end) {
          const id = next++;
          await c.query(`INSERT INTO t VALUES (${id}, ${id % 1000}, '${PAD}')`);
          commits++;
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const fsyncs = redo.stats.Innodb_os_log_fsyncs - f0;
    for (const c of conns) c.destroy();
    await server.close();
    await host?.stop();
    db.close();
    return { tps: commits / secs, perCommit: fsyncs / commits };
  };

  /** Rows inserted after a checkpoint, the process "crashes", and the next open recovers them. */
  const recovery = (rows: number): string => {
    const path = fresh();
    const opts = { innodb_log_file_size: 256 << 20, innodb_buffer_pool_size: 512 << 20 };
    const db = Database.create(path, opts);
    const t = db.createTable(TABLE);
    db.flush();
    for (let i = 0; i < rows; i++) t.insert([i, i % 1000, PAD]);
    db.commit();
    const log = redoOf(db);
    const redoBytes = Number(log.lsn - log.checkpoint.lsn);
    db.abandon();
    const t0 = performance.now();
    const again = Database.open(path, opts);
    const openMs = performance.now() - t0;
    const r = again.recovery;
    again.close();
    return `| ${rows} | ${redoBytes} | ${r?.mtrs} | ${r?.pagesApplied} | ${r?.ms.toFixed(1)} | ${openMs.toFixed(1)} |`;
  };

  /** Bytes written per committed row: log, doublewrite and data pages. */
  const amplification = (rows: number): string => {
    const db = Database.create(fresh(), {});
    const s = new Session(db);
    s.query(SCHEMA);
    db.flush();
    const st0 = db.status();
    for (let i = 0; i < rows; i++) s.query(`INSERT INTO t VALUES (${i}, ${i % 1000}, '${PAD}')`);
    db.flush();
    const st = db.status();
    const ps = db.pool.pageSize;
    const log = (st.Innodb_os_log_written ?? 0) - (st0.Innodb_os_log_written ?? 0);
    const dblwr = ((st.Innodb_dblwr_pages_written ?? 0) - (st0.Innodb_dblwr_pages_written ?? 0)) * ps;
    const data = ((st.Innodb_pages_written ?? 0) - (st0.Innodb_pages_written ?? 0)) * ps;
    db.close();
    const f = (x: number): string => (x / rows).toFixed(0);
    return `| ${rows} | ${f(log)} | ${f(dblwr)} | ${f(data)} | ${f(log + dblwr + data)} |`;
  };

  /** Table.insert rows per second with the redo log on or off. */
  const insertCost = (redo: boolean, rows: number): number => {
    const db = Database.create(fresh(), { redo });
    const t = db.createTable(TABLE);
    const t0 = performance.now();
    for (let i = 0; i < rows; i++) t.insert([(i * 7919) % rows, i % 1000, PAD]);
    db.commit();
    const secs = (performance.now() - t0) / 1000;
    db.close();
    return rows / secs;
  };

  try {
    io.out(`load average before: ${loadAverage(2, ' ')}`);
    io.out('');
    io.out('| innodb_flush_log_at_trx_commit | committers | commits/s | fsyncs per commit |');
    io.out('|---|---|---|---|');
    for (const flush of [1, 2, 0] as const)
      for (const c of [1, 4, 16]) {
        const r = await throughput(flush, c);
        io.out(`| ${flush} | ${c} | ${Math.round(r.tps)} | ${r.perCommit.toFixed(3)} |`);
      }
    io.out('');
    io.out(
      '| through the server (mysql2, loopback TCP), flush_log_at_trx_commit | connections | commits/s | fsyncs per commit |',
    );
    io.out('|---|---|---|---|');
    for (const flush of [1, 2] as const)
      for (const c of [1, 4, 16]) {
        const r = await serverThroughput(flush, c);
        io.out(`| ${flush} | ${c} | ${Math.round(r.tps)} | ${r.perCommit.toFixed(3)} |`);
      }
    io.out('');
    io.out(
      '| through the server (mysql2, loopback TCP), flush_log_at_trx_commit=1 | connections | commits/s | fsyncs per commit |',
    );
    io.out('|---|---|---|---|');
    for (const threads of [0, 2])
      for (const c of [1, 4, 16]) {
        const r = await serverThroughput(1, c, threads);
        const where = threads === 0 ? 'sessions on the main thread' : `sessions on ${threads} worker threads`;
        io.out(`| ${where} | ${c} | ${Math.round(r.tps)} | ${r.perCommit.toFixed(3)} |`);
      }
    io.out('');
    io.out('| rows after the checkpoint | redo bytes | mtrs | pages applied | recovery ms | open ms |');
    io.out('|---|---|---|---|---|---|');
    for (const rows of [2000, 10000, 40000]) io.out(recovery(rows));
    io.out('');
    io.out(
      '| rows (autocommit INSERTs) | log bytes/row | doublewrite bytes/row | data bytes/row | total bytes/row |',
    );
    io.out('|---|---|---|---|---|');
    io.out(amplification(5000));
    const on: number[] = [];
    const off: number[] = [];
    for (let r = 0; r < 3; r++) {
      off.push(insertCost(false, 20000));
      on.push(insertCost(true, 20000));
    }
    io.out('');
    io.out('| Table.insert, 20,000 rows, 2 indexes | rows/s (median of 3, alternating) |');
    io.out('|---|---|');
    io.out(`| redo: false | ${Math.round(median(off))} |`);
    io.out(`| redo log on (one commit at the end) | ${Math.round(median(on))} |`);
    io.out(`| ratio on/off | ${(median(on) / median(off)).toFixed(2)} |`);
    io.out('');
    io.out(`load average after: ${loadAverage(2, ' ')}`);
  } finally {
    remove();
  }
}

export const redo: MicroBench = {
  name: 'redo',
  title: 'the redo log: group commit, recovery time, write amplification, the durable path',
  about: `1. commits/s and fsyncs per commit for innodb_flush_log_at_trx_commit 1, 2, 0 with 1, 4 and 16
   committers (sessions on one thread, each INSERT waiting for its commit's flush, so commits
   during an fsync share the next one); the same through the server (mysql2, loopback TCP) with
   the sessions on the main thread and on 2 worker threads;
2. recovery time against the redo written after the last checkpoint;
3. bytes written (log + doublewrite + data pages) per committed row;
4. Table.insert with the redo log on and off, alternating runs in this one process.`,
  options: {
    ms: { kind: 'number', default: '2000', about: 'milliseconds per throughput point' },
  },
  run,
};
