// Reads in an index's order beside the same query made to read everything (the key written as an
// expression, `k + 0`, which no index follows), on one table of 100,000 rows in one process:
// ORDER BY … LIMIT read forward and backward (no filesort), GROUP BY read in index order (no
// temporary table), MIN/MAX from the index's ends; the ratio is the second time over the first.
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

console.log(`| query (${rows.toLocaleString('en')} rows) | in index order, ms | read whole, ms | ratio |`);
console.log('|---|---:|---:|---:|');
for (const [ordered, sorted, n] of [
  ['SELECT * FROM t ORDER BY id LIMIT 10', 'SELECT * FROM t ORDER BY id + 0 LIMIT 10', 15],
  ['SELECT k, id FROM t ORDER BY k, id LIMIT 10', 'SELECT k, id FROM t ORDER BY k + 0, id LIMIT 10', 15],
  [
    'SELECT * FROM t WHERE k BETWEEN 100 AND 400 ORDER BY k LIMIT 10',
    'SELECT * FROM t WHERE k BETWEEN 100 AND 400 ORDER BY k + 0 LIMIT 10',
    51,
  ],
  ['SELECT * FROM t ORDER BY id DESC LIMIT 10', 'SELECT * FROM t ORDER BY id + 0 DESC LIMIT 10', 15],
  [
    'SELECT k, COUNT(*) FROM t GROUP BY k LIMIT 10',
    'SELECT k + 0, COUNT(*) FROM t GROUP BY k + 0 LIMIT 10',
    15,
  ],
  ['SELECT k, COUNT(*) FROM t GROUP BY k', 'SELECT k + 0, COUNT(*) FROM t GROUP BY k + 0', 7],
  ['SELECT MIN(k), MAX(k) FROM t', 'SELECT MIN(k + 0), MAX(k + 0) FROM t', 15],
]) {
  const a = time(ordered, n);
  const b = time(sorted, n);
  const r = b / a;
  console.log(`| \`${ordered}\` | ${a.toFixed(3)} | ${b.toFixed(3)} | ${r.toFixed(r >= 10 ? 0 : 2)}× |`);
}
