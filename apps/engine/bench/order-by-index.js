// ORDER BY … LIMIT read in order (no filesort) beside the same query made to sort (the ORDER BY
// key written as an expression, `k + 0`, which no index follows), on one table of 100,000 rows
// in one process; the ratio is the filesort's time over the ordered read's.
//   node bench/order-by-index.js            (after `pnpm exec tsup`)
//   ENGINE_BENCH_ROWS=1000000 node bench/order-by-index.js
import { Database, Session } from '../dist/index.js';

const rows = Number(process.env.ENGINE_BENCH_ROWS ?? 100_000);
const s = new Session(Database.temporary());
s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, v VARCHAR(20), KEY kk (k))');
for (let b = 0; b < rows; b += 1000) {
  const vals = [];
  for (let id = b + 1; id <= Math.min(rows, b + 1000); id++)
    vals.push(`(${id}, ${(id * 7919) % 10007}, 'v${id}')`);
  s.query(`INSERT INTO t VALUES ${vals.join(',')}`);
}
s.query('ANALYZE TABLE t');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(sql, n) {
  s.query(sql);
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    s.query(sql);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

console.log(`| query (${rows.toLocaleString('en')} rows) | in order, ms | with a filesort, ms | ratio |`);
console.log('|---|---:|---:|---:|');
for (const [ordered, sorted, n] of [
  ['SELECT * FROM t ORDER BY id LIMIT 10', 'SELECT * FROM t ORDER BY id + 0 LIMIT 10', 15],
  ['SELECT k, id FROM t ORDER BY k, id LIMIT 10', 'SELECT k, id FROM t ORDER BY k + 0, id LIMIT 10', 15],
  [
    'SELECT * FROM t WHERE k BETWEEN 100 AND 400 ORDER BY k LIMIT 10',
    'SELECT * FROM t WHERE k BETWEEN 100 AND 400 ORDER BY k + 0 LIMIT 10',
    51,
  ],
]) {
  const a = time(ordered, n);
  const b = time(sorted, n);
  console.log(`| \`${ordered}\` | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(0)}× |`);
}
