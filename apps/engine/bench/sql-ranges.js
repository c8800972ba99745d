// sysbench oltp_read_only's statement mix, prepared, on a sysbench-shaped table (id INT primary
// key, k INT with index k_1, c CHAR(120), pad CHAR(60); c and pad groups of 11 random digits
// joined by '-', k uniform in 1..rows, as sysbench's oltp_common.lua makes them), enginekit vs
// better-sqlite3 on the same rows, in memory, one thread. Each of the five statements runs with
// sysbench's parameters (a uniformly random id; ranges of `range_size` = 100 ids starting at a
// random id), and then the whole transaction as sysbench sends it (10 point selects, then one
// of each range query); last, the point select and `SELECT 1` sent as text. Old and new builds
// can be compared by pointing ENGINE_BENCH_DIST at another build's dist folder. Imports the
// built package (`pnpm build` first).
//   node bench/sql-ranges.js
//   ENGINE_BENCH_ROWS=10000 ENGINE_BENCH_PASSES=3 node bench/sql-ranges.js
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import { CREATE, INDEX, sbtestRandom } from './sbtest-shape.js';

const dist = process.env.ENGINE_BENCH_DIST;
const { Database, Session } = await import(
  dist === undefined ? '../dist/index.js' : pathToFileURL(resolve(dist, 'index.js')).href
);

const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

const rows = Number(process.env.ENGINE_BENCH_ROWS ?? 100_000);
const passes = Number(process.env.ENGINE_BENCH_PASSES ?? 5);
const rangeSize = 100;
const batch = 1000;

const { next, digits } = sbtestRandom();

// sysbench 1.0.20 oltp_common.lua's statements (point_selects, simple_ranges, sum_ranges,
// order_ranges, distinct_ranges) and how many of each one oltp_read_only transaction sends
const STATEMENTS = [
  { name: 'point', sql: 'SELECT c FROM sbtest1 WHERE id=?', range: false, perTxn: 10 },
  { name: 'simple range', sql: 'SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?', range: true, perTxn: 1 },
  { name: 'sum range', sql: 'SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?', range: true, perTxn: 1 },
  {
    name: 'order range',
    sql: 'SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c',
    range: true,
    perTxn: 1,
  },
  {
    name: 'distinct range',
    sql: 'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c',
    range: true,
    perTxn: 1,
  },
];

const lite = new Sqlite(':memory:');
lite.exec(CREATE);
const ins = lite.prepare('INSERT INTO sbtest1 VALUES (?, ?, ?, ?)');
const ek = await Database.temporary({ innodb_buffer_pool_size: 256 * 1024 * 1024 });
const session = new Session(ek);
session.query(CREATE);

const t = performance.now();
lite.exec('BEGIN');
for (let id = 1; id <= rows; id += batch) {
  const values = [];
  for (let r = id; r < Math.min(id + batch, rows + 1); r++) {
    const row = [r, 1 + (next() % rows), digits(10), digits(5)];
    ins.run(row);
    values.push(`(${row[0]}, ${row[1]}, '${row[2]}', '${row[3]}')`);
  }
  session.query(`INSERT INTO sbtest1 VALUES ${values.join(', ')}`);
}
lite.exec('COMMIT');
lite.exec(INDEX);
lite.exec('ANALYZE');
session.query(INDEX);
session.query('ANALYZE TABLE sbtest1');
console.log(`${rows} rows loaded into both in ${((performance.now() - t) / 1000).toFixed(1)} s`);

// parameters: a random id, or a range [start, start + range_size - 1] as sysbench draws it
// calls per pass: point selects, range queries
const calls = Number(process.env.ENGINE_BENCH_CALLS ?? 1000);
const params = (range) => {
  const out = [];
  const n = range ? calls : calls * 20;
  for (let i = 0; i < n; i++) {
    const a = 1 + (next() % rows);
    out.push(range ? [a, a + rangeSize - 1] : [a]);
  }
  return out;
};

// each engine's run of one statement over its parameter list; returns a checksum of the rows
const liteRunner = (sql) => {
  const st = lite.prepare(sql).raw(true);
  return (ps) => {
    let sum = 0;
    for (const p of ps) for (const r of st.all(p)) sum += String(r[0]).length;
    return sum;
  };
};
const ekRunner = (sql) => {
  const st = session.prepare(sql);
  return (ps) => {
    let sum = 0;
    for (const p of ps) for (const r of st.run(p).rows) sum += String(r[0]).length;
    return sum;
  };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timeUs = (f, ps) => {
  const t0 = performance.now();
  const check = f(ps);
  return { us: ((performance.now() - t0) * 1000) / ps.length, check };
};

const results = [];
for (const s of STATEMENTS) {
  const ps = params(s.range);
  const l = liteRunner(s.sql);
  const e = ekRunner(s.sql);
  // warm-up, then alternate the two engines; the median µs per statement of each
  timeUs(l, ps);
  timeUs(e, ps);
  const lu = [];
  const eu = [];
  let mismatch = false;
  for (let i = 0; i < passes; i++) {
    const a = timeUs(l, ps);
    const b = timeUs(e, ps);
    lu.push(a.us);
    eu.push(b.us);
    if (a.check !== b.check) mismatch = true;
  }
  if (mismatch) console.log(`WARNING: ${s.name}: the two engines' rows differ`);
  results.push({ ...s, lite: median(lu), ek: median(eu) });
}

// one oltp_read_only transaction's statements, by the per-statement medians
const txn = (k) => results.reduce((acc, r) => acc + r.perTxn * r[k], 0);

// The same point select and `SELECT 1` as text, parsed and planned every time: session.query
// beside better-sqlite3's prepare + get of the same text (SQLite's own per-statement path).
const TEXT = [
  { sql: 'SELECT c FROM sbtest1 WHERE id=', point: true },
  { sql: 'SELECT 1', point: false },
];
const texts = [];
for (const t of TEXT) {
  const ids = params(false).slice(0, calls * 2);
  const lite1 = (ps) => {
    let sum = 0;
    for (const p of ps) {
      const r = lite
        .prepare(t.point ? `${t.sql}${p[0]}` : t.sql)
        .raw(true)
        .get();
      sum += String(r[0]).length;
    }
    return sum;
  };
  const ek1 = (ps) => {
    let sum = 0;
    for (const p of ps) sum += String(session.query(t.point ? `${t.sql}${p[0]}` : t.sql).rows[0][0]).length;
    return sum;
  };
  timeUs(lite1, ids);
  timeUs(ek1, ids);
  const lu = [];
  const eu = [];
  for (let i = 0; i < passes; i++) {
    const a = timeUs(lite1, ids);
    const b = timeUs(ek1, ids);
    lu.push(a.us);
    eu.push(b.us);
    if (a.check !== b.check) console.log(`WARNING: ${t.sql}: the two engines' rows differ`);
  }
  texts.push({ sql: t.point ? `${t.sql}N` : t.sql, lite: median(lu), ek: median(eu) });
}

console.log(
  `\nsysbench oltp_read_only statements, prepared, ${rows} rows, range_size ${rangeSize}, ${calls * 20} point selects and ${calls} of each range per pass, median of ${passes} passes, load average ${loadAverage()}:\n`,
);
console.log('| statement | enginekit µs | better-sqlite3 µs | enginekit ÷ better-sqlite3 |');
console.log('|---|---:|---:|---:|');
for (const r of results)
  console.log(`| \`${r.sql}\` | ${r.ek.toFixed(1)} | ${r.lite.toFixed(1)} | ${(r.ek / r.lite).toFixed(2)} |`);
console.log(
  `| one transaction (10 point + 4 ranges) | ${txn('ek').toFixed(1)} | ${txn('lite').toFixed(1)} | ${(txn('ek') / txn('lite')).toFixed(2)} |`,
);
console.log('\nAs text (session.query; better-sqlite3 prepare + get), every statement parsed and planned:\n');
console.log('| statement | enginekit µs | better-sqlite3 µs | enginekit ÷ better-sqlite3 |');
console.log('|---|---:|---:|---:|');
for (const r of texts)
  console.log(`| \`${r.sql}\` | ${r.ek.toFixed(1)} | ${r.lite.toFixed(1)} | ${(r.ek / r.lite).toFixed(2)} |`);
session.close();
ek.close();
lite.close();
