// ANALYZE TABLE lineitem under each estimator the variables choose: time, pages it reads, and the
// n_diff of each secondary index's leading column next to the exact count.
//   node bench/analyze.js                                generates and loads SF 0.1 first (temp dir)
//   ENGINE_BENCH_DB=/path/tpch.ekdb node bench/analyze.js an existing database
//   ENGINE_BENCH_SF=1 ENGINE_BENCH_RUNS=5 node bench/analyze.js
// One ANALYZE of each kind first (warm pool), then RUNS timed ones per kind, alternating kinds;
// the median time and the mean logical page reads (Innodb_buffer_pool_read_requests) per ANALYZE.
// Imports the built package: run `pnpm exec tsup` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, Session, exactStatistics, loadTpch } from '../dist/index.js';

const sf = Number(process.env.ENGINE_BENCH_SF ?? 0.1);
const runs = Number(process.env.ENGINE_BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const KINDS = [
  { label: 'persistent, A = 20 (5.6 default)', set: ['innodb_stats_persistent = ON'] },
  {
    label: 'transient, 8 dives, page_rnd (5.1 default)',
    set: ['innodb_stats_persistent = OFF', 'innodb_use_legacy_cardinality_algorithm = ON'],
  },
  {
    label: 'transient, 8 dives, LCG (the fix)',
    set: ['innodb_stats_persistent = OFF', 'innodb_use_legacy_cardinality_algorithm = OFF'],
  },
];

let dir;
let path = process.env.ENGINE_BENCH_DB;
if (path === undefined) {
  dir = mkdtempSync(join(process.env.ENGINE_BENCH_DIR ?? tmpdir(), 'engine-analyze-bench-'));
  path = join(dir, 'tpch.ekdb');
  const t = performance.now();
  loadTpch({ db: path, sf, innodb_buffer_pool_size: 128 << 20 });
  console.log(`SF ${sf} generated and loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const db = Database.open(path, { innodb_buffer_pool_size: 1024 << 20 });
try {
  const s = new Session(db);
  const t = db.table('lineitem');
  const reads = () => db.pool.stats().Innodb_buffer_pool_read_requests;
  const analyzeOnce = (kind) => {
    for (const v of kind.set) s.query(`SET GLOBAL ${v}`);
    const r0 = reads();
    const t0 = performance.now();
    s.query('ANALYZE TABLE lineitem');
    return { ms: performance.now() - t0, pages: reads() - r0, stats: db.statistics(t) };
  };
  const results = KINDS.map(() => ({ ms: [], pages: [], nDiff: [] }));
  for (const k of KINDS) analyzeOnce(k);
  for (let r = 0; r < runs; r++)
    for (const [i, k] of KINDS.entries()) {
      const x = analyzeOnce(k);
      results[i].ms.push(x.ms);
      results[i].pages.push(x.pages);
      results[i].nDiff.push(new Map([...x.stats.indexes].map(([n, ix]) => [n, ix.nDiff[0]])));
    }
  const r0 = reads();
  const t0 = performance.now();
  const exact = exactStatistics(t);
  const exactMs = performance.now() - t0;
  const exactPages = reads() - r0;
  const indexes = [t.primary, ...t.secondary].map((ix) => ix.name);
  const treePages = [t.primary, ...t.secondary].reduce((a, ix) => a + ix.tree.shape().indexPages, 0);

  console.log(
    `lineitem at SF ${sf}: ${t.rows} rows, ${treePages} pages in its ${indexes.length} trees; ${runs} ANALYZE runs per kind, interleaved`,
  );
  console.log("\n| kind | ms (median) | pages read | share of the trees' pages |");
  console.log('|---|---:|---:|---:|');
  const meanPages = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const [i, k] of KINDS.entries()) {
    const p = meanPages(results[i].pages);
    console.log(
      `| ${k.label} | ${median(results[i].ms).toFixed(1)} | ${p.toFixed(0)} | ${((100 * p) / treePages).toFixed(1)} % |`,
    );
  }
  // exactStatistics walks every tree twice (its page counts, then its leaves)
  const share = ((100 * exactPages) / treePages).toFixed(1);
  console.log(`| exact (exactStatistics) | ${exactMs.toFixed(1)} | ${exactPages} | ${share} % |`);

  console.log('\nn_diff of the leading column: exact, then min–max over the runs per kind');
  console.log(`\n| index | exact | ${KINDS.map((k) => k.label).join(' | ')} |`);
  console.log(`|---|---:|${KINDS.map(() => '---:').join('|')}|`);
  for (const name of indexes) {
    const cells = results.map((r) => {
      const v = r.nDiff.map((m) => m.get(name));
      return `${Math.min(...v)}–${Math.max(...v)}`;
    });
    console.log(`| ${name} | ${exact.indexes.get(name).nDiff[0]} | ${cells.join(' | ')} |`);
  }
} finally {
  db.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
