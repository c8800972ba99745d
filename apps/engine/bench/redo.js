// The redo log measured, in one run:
//  1. commit throughput and fsyncs per commit for innodb_flush_log_at_trx_commit 1 / 2 / 0 with
//     1, 4, 16 concurrent committers (sessions on one thread; each INSERT's acknowledgement waits
//     for redo.waitCommitted, so commits arriving during an fsync share the next one); the same
//     through the server (mysql2 over loopback TCP), with the sessions on the main thread and on
//     2 worker threads (one redo log for every thread, group commit across them);
//  2. recovery time against the amount of redo after the last checkpoint;
//  3. write amplification: bytes written (log + doublewrite + data pages) per committed row;
//  4. the cost of the durable path: row inserts through Table with the redo log on vs off,
//     alternating runs in this one process.
//   node bench/redo.js                  (REDO_BENCH_MS=2000 per throughput point)
// Imports the built package: run `pnpm exec tsup` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { Database, Session, MysqlServer, WorkerSessionHost } from '../dist/index.js';

const ms = Number(process.env.REDO_BENCH_MS ?? 2000);
const dir = mkdtempSync(join(process.env.ENGINE_BENCH_DIR ?? tmpdir(), 'engine-redo-bench-'));
let n = 0;
const fresh = () => join(dir, `b${n++}.ekdb`);
const SCHEMA = 'CREATE TABLE t (id INT PRIMARY KEY, k INT, c VARCHAR(120), KEY k_1 (k))';
const pad = 'x'.repeat(100);

async function throughput(flush, clients) {
  const path = fresh();
  const db = Database.create(path, { innodb_flush_log_at_trx_commit: flush });
  new Session(db).query(SCHEMA);
  const redo = db.redo;
  const f0 = redo.stats.Innodb_os_log_fsyncs;
  let next = 0;
  let commits = 0;
  const end = performance.now() + ms;
  const client = async () => {
    const s = new Session(db);
    s.deferCommitWait = true;
    while (performance.now() < end) {
      const id = next++;
      s.query(`INSERT INTO t VALUES (${id}, ${id % 1000}, '${pad}')`);
      await redo.waitCommitted(s.lastCommitLsn);
      commits++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const secs = (performance.now() - t0) / 1000;
  const fsyncs = redo.stats.Innodb_os_log_fsyncs - f0;
  db.close();
  rmSync(path, { force: true });
  return { tps: commits / secs, fsyncsPerCommit: fsyncs / commits, commits };
}

async function serverThroughput(flush, clients, threads = 0) {
  const path = fresh();
  const db = Database.create(path, { innodb_flush_log_at_trx_commit: flush });
  const host = threads > 0 ? await WorkerSessionHost.start(db, { threads }) : undefined;
  const server = new MysqlServer(db, { port: 0, ...(host === undefined ? {} : { host }) });
  const address = await server.listen();
  const conns = await Promise.all(
    Array.from({ length: clients }, () =>
      mysql.createConnection({ host: '127.0.0.1', port: address.port, user: 'root' }),
    ),
  );
  await conns[0].query(SCHEMA);
  const redo = db.redo;
  const f0 = redo.stats.Innodb_os_log_fsyncs;
  let next = 0;
  let commits = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    conns.map(async (c) => {
      while (performance.now() < end) {
        const id = next++;
        await c.query(`INSERT INTO t VALUES (${id}, ${id % 1000}, '${pad}')`);
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
  return { tps: commits / secs, fsyncsPerCommit: fsyncs / commits };
}

function recovery(rows) {
  const path = fresh();
  const opts = { innodb_log_file_size: 256 << 20, innodb_buffer_pool_size: 512 << 20 };
  const db = Database.create(path, opts);
  const t = db.createTable({
    name: 't',
    columns: [
      { name: 'id', type: { kind: 'int' } },
      { name: 'k', type: { kind: 'int' } },
      { name: 'c', type: { kind: 'varchar', length: 120 } },
    ],
    primaryKey: ['id'],
    indexes: [{ name: 'k_1', columns: ['k'] }],
  });
  db.flush();
  for (let i = 0; i < rows; i++) t.insert([i, i % 1000, pad]);
  db.commit();
  const redoBytes = Number(db.redo.lsn - db.redo.checkpoint.lsn);
  db.abandon();
  const t0 = performance.now();
  const again = Database.open(path, opts);
  const openMs = performance.now() - t0;
  const r = again.recovery;
  again.close();
  return { rows, redoBytes, mtrs: r.mtrs, pages: r.pagesApplied, recoveryMs: r.ms, openMs };
}

function amplification(rows) {
  const path = fresh();
  const db = Database.create(path, {});
  const s = new Session(db);
  s.query(SCHEMA);
  db.flush();
  const st0 = db.status();
  for (let i = 0; i < rows; i++) s.query(`INSERT INTO t VALUES (${i}, ${i % 1000}, '${pad}')`);
  db.flush();
  const st = db.status();
  const log = st.Innodb_os_log_written - st0.Innodb_os_log_written;
  const ps = db.pool.pageSize;
  const dblwr = (st.Innodb_dblwr_pages_written - st0.Innodb_dblwr_pages_written) * ps;
  const data = (st.Innodb_pages_written - st0.Innodb_pages_written) * ps;
  const logical = db.store.mtrs;
  db.close();
  return {
    rows,
    log: log / rows,
    dblwr: dblwr / rows,
    data: data / rows,
    total: (log + dblwr + data) / rows,
    mtrs: logical,
  };
}

function insertCost(redo, rows) {
  const path = fresh();
  const db = Database.create(path, { redo });
  const t = db.createTable({
    name: 't',
    columns: [
      { name: 'id', type: { kind: 'int' } },
      { name: 'k', type: { kind: 'int' } },
      { name: 'c', type: { kind: 'varchar', length: 120 } },
    ],
    primaryKey: ['id'],
    indexes: [{ name: 'k_1', columns: ['k'] }],
  });
  const t0 = performance.now();
  for (let i = 0; i < rows; i++) t.insert([(i * 7919) % rows, i % 1000, pad]);
  db.commit();
  const secs = (performance.now() - t0) / 1000;
  db.close();
  return rows / secs;
}

const out = [];
const say = (s) => {
  out.push(s);
  console.log(s);
};
say(
  `load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
say('\n| innodb_flush_log_at_trx_commit | committers | commits/s | fsyncs per commit |');
say('|---|---|---|---|');
for (const flush of [1, 2, 0]) {
  for (const c of [1, 4, 16]) {
    const r = await throughput(flush, c);
    say(`| ${flush} | ${c} | ${Math.round(r.tps)} | ${r.fsyncsPerCommit.toFixed(3)} |`);
  }
}
say(
  '\n| through the server (mysql2, loopback TCP), flush_log_at_trx_commit | connections | commits/s | fsyncs per commit |',
);
say('|---|---|---|---|');
for (const flush of [1, 2]) {
  for (const c of [1, 4, 16]) {
    const r = await serverThroughput(flush, c);
    say(`| ${flush} | ${c} | ${Math.round(r.tps)} | ${r.fsyncsPerCommit.toFixed(3)} |`);
  }
}
say(
  '\n| through the server (mysql2, loopback TCP), flush_log_at_trx_commit=1 | connections | commits/s | fsyncs per commit |',
);
say('|---|---|---|---|');
for (const threads of [0, 2]) {
  for (const c of [1, 4, 16]) {
    const r = await serverThroughput(1, c, threads);
    const where = threads === 0 ? 'sessions on the main thread' : `sessions on ${threads} worker threads`;
    say(`| ${where} | ${c} | ${Math.round(r.tps)} | ${r.fsyncsPerCommit.toFixed(3)} |`);
  }
}
say('\n| rows after the checkpoint | redo bytes | mtrs | pages applied | recovery ms | open ms |');
say('|---|---|---|---|---|---|');
for (const rows of [2000, 10000, 40000]) {
  const r = recovery(rows);
  say(
    `| ${r.rows} | ${r.redoBytes} | ${r.mtrs} | ${r.pages} | ${r.recoveryMs.toFixed(1)} | ${r.openMs.toFixed(1)} |`,
  );
}
const a = amplification(5000);
say(
  '\n| rows (autocommit INSERTs) | log bytes/row | doublewrite bytes/row | data bytes/row | total bytes/row |',
);
say('|---|---|---|---|---|');
say(
  `| ${a.rows} | ${a.log.toFixed(0)} | ${a.dblwr.toFixed(0)} | ${a.data.toFixed(0)} | ${a.total.toFixed(0)} |`,
);
const on = [];
const off = [];
for (let r = 0; r < 3; r++) {
  off.push(insertCost(false, 20000));
  on.push(insertCost(true, 20000));
}
const med = (xs) => [...xs].sort((x, y) => x - y)[1];
say('\n| Table.insert, 20,000 rows, 2 indexes | rows/s (median of 3, alternating) |');
say('|---|---|');
say(`| redo: false | ${Math.round(med(off))} |`);
say(`| redo log on (one commit at the end) | ${Math.round(med(on))} |`);
say(`| ratio on/off | ${(med(on) / med(off)).toFixed(2)} |`);
say(
  `\nload average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
rmSync(dir, { recursive: true, force: true });
