import { median } from '../measure.js';
import { importEngine } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

/** [read in index order, the same read whole (key as an expression), timed runs] */
const PAIRS: readonly (readonly [string, string, number])[] = [
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
];

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const rows = a.number('rows');
  const { Database, Session } = await importEngine();
  const db = Database.temporary();
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, v VARCHAR(20), KEY kk (k))');
  for (let b = 0; b < rows; b += 1000) {
    const vals: string[] = [];
    for (let id = b + 1; id <= Math.min(rows, b + 1000); id++)
      vals.push(`(${id}, ${(id * 7919) % 10007}, 'v${id}')`);
    s.query(`INSERT INTO t VALUES ${vals.join(',')}`);
  }
  s.query('ANALYZE TABLE t');
  /** The median ms of `n` runs after one warm-up run. */
  const time = (sql: string, n: number): number => {
    s.query(sql);
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      s.query(sql);
      ms.push(performance.now() - t0);
    }
    return median(ms);
  };
  io.out(`| query (${rows.toLocaleString('en')} rows) | in index order, ms | read whole, ms | ratio |`);
  io.out('|---|---:|---:|---:|');
  for (const [ordered, whole, n] of PAIRS) {
    const x = time(ordered, n);
    const y = time(whole, n);
    const r = y / x;
    io.out(`| \`${ordered}\` | ${x.toFixed(3)} | ${y.toFixed(3)} | ${r.toFixed(r >= 10 ? 0 : 2)}× |`);
  }
  s.close();
  db.close();
}

export const orderByIndex: MicroBench = {
  name: 'order-by-index',
  title: "reads in an index's order beside the same query made to read everything",
  about: `One table of --rows rows in one process: ORDER BY … LIMIT read forward and backward (no
filesort), GROUP BY read in index order (no temporary table), MIN/MAX from the index's ends,
each beside the same query with the key written as an expression (\`k + 0\`, which no index
follows). Median ms after a warm-up run; the ratio is the second time over the first.`,
  options: {
    rows: { kind: 'number', default: '100000', about: 'rows of t' },
  },
  run,
};
