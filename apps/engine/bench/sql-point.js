// Prepared point select `SELECT c FROM sbtest1 WHERE id=?` on a sysbench-shaped table (id INT
// primary key, k INT with index k_1, c CHAR(120), pad CHAR(60); c and pad are groups of 11 random
// digits joined by '-', k uniform in 1..rows, as sysbench's oltp tables), enginekit vs
// better-sqlite3 on the same rows, in memory (enginekit's buffer pool holds the table:
// ENGINE_BENCH_POOL_MB, default 1024), one thread, uniformly random ids. Imports the built
// package (`pnpm build` first).
//   node bench/sql-point.js
//   ENGINE_BENCH_ROWS=100000 ENGINE_BENCH_QUERIES=200000 node bench/sql-point.js
import { loadavg } from 'node:os';
import Sqlite from 'better-sqlite3';
import { CREATE, INDEX, sbtestRandom } from './sbtest-shape.js';
import { Database, Session } from '../dist/index.js';

const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

const rows = Number(process.env.ENGINE_BENCH_ROWS ?? 1_000_000);
const queries = Number(process.env.ENGINE_BENCH_QUERIES ?? 300_000);
const batch = 1000;
// a pool that holds the whole table (about 300 MB at 1M rows), as SQLite's :memory: database does
const poolBytes = Number(process.env.ENGINE_BENCH_POOL_MB ?? 1024) * 1024 * 1024;

const { next, digits } = sbtestRandom();
const POINT = 'SELECT c FROM sbtest1 WHERE id=?';

const lite = new Sqlite(':memory:');
lite.exec(CREATE);
const ins = lite.prepare('INSERT INTO sbtest1 VALUES (?, ?, ?, ?)');

let ek;
let session;
const temporary = Database.temporary;
if (typeof temporary === 'function') {
  ek = await Database.temporary({ innodb_buffer_pool_size: poolBytes });
  session = new Session(ek);
  session.query(CREATE);
} else console.log('this build of enginekit has no SQL session: SQLite only');

let t = performance.now();
let ekLoad = 0;
lite.exec('BEGIN');
for (let id = 1; id <= rows; id += batch) {
  const values = [];
  for (let r = id; r < Math.min(id + batch, rows + 1); r++) {
    const row = [r, 1 + (next() % rows), digits(10), digits(5)];
    ins.run(row);
    values.push(`(${row[0]}, ${row[1]}, '${row[2]}', '${row[3]}')`);
  }
  if (session !== undefined) {
    const e = performance.now();
    session.query(`INSERT INTO sbtest1 VALUES ${values.join(', ')}`);
    ekLoad += performance.now() - e;
  }
}
lite.exec('COMMIT');
lite.exec(INDEX);
lite.exec('ANALYZE');
if (session !== undefined) {
  const e = performance.now();
  session.query(INDEX);
  try {
    session.query('ANALYZE TABLE sbtest1');
  } catch (e) {
    console.log(`enginekit: ANALYZE TABLE skipped (${e.message})`);
  }
  ekLoad += performance.now() - e;
}
console.log(
  `${rows} rows loaded in ${((performance.now() - t) / 1000).toFixed(1)} s (enginekit's share ${(ekLoad / 1000).toFixed(1)} s)`,
);

const ids = new Int32Array(queries);
for (let i = 0; i < queries; i++) ids[i] = 1 + (next() % rows);

const liteStmt = lite.prepare(POINT);
const runLite = () => {
  let bytes = 0;
  for (let i = 0; i < queries; i++) bytes += liteStmt.get(ids[i]).c.length;
  return bytes;
};
const ekStmt = session?.prepare(POINT);
const runEk = () => {
  let bytes = 0;
  for (let i = 0; i < queries; i++) bytes += String(ekStmt.run([ids[i]]).rows[0][0]).length;
  return bytes;
};

// warm-up, then alternate the two five times; report the median rate of each
const rate = (f) => {
  t = performance.now();
  const check = f();
  return { qps: queries / ((performance.now() - t) / 1000), check };
};
rate(runLite);
if (ekStmt !== undefined) rate(runEk);
const l = [];
const e = [];
for (let i = 0; i < 5; i++) {
  l.push(rate(runLite));
  if (ekStmt !== undefined) e.push(rate(runEk));
}
const med = (xs) => [...xs].sort((a, b) => a.qps - b.qps)[Math.floor(xs.length / 2)];
const lm = med(l);
const em = e.length > 0 ? med(e) : undefined;
if (em !== undefined && em.check !== lm.check)
  console.log(`WARNING: answers differ (${em.check} vs ${lm.check} bytes)`);
console.log(
  `\n${POINT} on ${rows} rows, ${queries} random ids per pass, median of 5 passes, load average ${loadAverage()}:\n`,
);
console.log('| engine | queries/s | × better-sqlite3 |');
console.log('|---|---:|---:|');
console.log(
  `| enginekit (prepared) | ${em === undefined ? '-' : Math.round(em.qps)} | ${em === undefined ? '-' : (em.qps / lm.qps).toFixed(2)} |`,
);
console.log(`| better-sqlite3 (prepared .get) | ${Math.round(lm.qps)} | 1.00 |`);
session?.close?.();
ek?.close();
lite.close();
