// Full scan of lineitem and secondary-index range lookups on a TPC-H database, timed in-process.
//   node bench/scan.js                               generates and loads SF 0.1 first (temp dir)
//   ENGINE_BENCH_DB=/path/tpch.ekdb node bench/scan.js   an existing database
//   ENGINE_BENCH_SF=1 ENGINE_BENCH_RUNS=9 node bench/scan.js
// The pool is large enough to hold the database, so the figures are CPU (decode + tree walk);
// one warm-up pass of each first. GCs are counted with a PerformanceObserver over the timed passes.
// Imports the built package: run `pnpm exec tsup` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { Database, loadTpch, TableHandler } from '../dist/index.js';

const sf = Number(process.env.ENGINE_BENCH_SF ?? 0.1);
const runs = Number(process.env.ENGINE_BENCH_RUNS ?? 7);
const poolBytes = Number(process.env.ENGINE_BENCH_POOL_MB ?? 1024) * 1024 * 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const settle = () => new Promise((r) => setTimeout(r, 50)); // let the GC observer report

let gcs = 0;
new PerformanceObserver((l) => {
  gcs += l.getEntries().length;
}).observe({ entryTypes: ['gc'] });

let dir;
let path = process.env.ENGINE_BENCH_DB;
if (path === undefined) {
  dir = mkdtempSync(join(process.env.ENGINE_BENCH_DIR ?? tmpdir(), 'engine-scan-bench-'));
  path = join(dir, 'tpch.ekdb');
  const t = performance.now();
  loadTpch({ db: path, sf, innodb_buffer_pool_size: 128 << 20 });
  console.log(`SF ${sf} generated and loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const db = Database.open(path, { innodb_buffer_pool_size: poolBytes });
try {
  const t = db.table('lineitem');
  const h = new TableHandler(t);
  const quantity = t.columnIndex('l_quantity');
  const comment = t.columnIndex('l_comment');
  const scan = () => {
    let sum = 0;
    let bytes = 0;
    const n = h.rndScan((row) => {
      sum += row.nums[quantity];
      bytes += row.len[comment];
      return true;
    });
    return { n, check: `${sum}/${bytes}` };
  };
  // the same scan reading l_quantity only (`RowBuffer.wantOnly`), as a query reading one column
  // does: the codec starts at the first wanted column and decodes nothing else
  const narrowMask = new Uint8Array(t.columns.length);
  narrowMask[quantity] = 1;
  const narrow = () => {
    let sum = 0;
    const n = h.rndScan((row) => {
      if (row.want !== narrowMask) row.wantOnly(narrowMask);
      sum += row.nums[quantity];
      return true;
    });
    return { n, check: String(sum) };
  };
  // 100 ship dates from 1993-01-01 (day 8401): ~250 rows each at SF 0.1, each row an i_l_shipdate
  // entry and then its clustered record by primary key
  const lookup = () => {
    let n = 0;
    let bytes = 0;
    for (let d = 8401; d < 8501; d++)
      h.lookup('i_l_shipdate', [d], (row) => {
        n++;
        bytes += row.len[comment];
        return true;
      });
    return { n, check: String(bytes) };
  };
  const measure = async (name, f) => {
    f();
    await settle();
    const g0 = gcs;
    const ms = [];
    let last;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      last = f();
      ms.push(performance.now() - t0);
    }
    await settle();
    const m = median(ms);
    console.log(
      `| ${name} | ${last.n} | ${m.toFixed(1)} | ${((m * 1e6) / last.n).toFixed(0)} | ${gcs - g0} |`,
    );
    return last.check;
  };
  console.log(`\nlineitem of ${path}, median of ${runs} passes:\n`);
  console.log('| pass | rows | ms | ns/row | GCs in all passes |');
  console.log('|---|---:|---:|---:|---:|');
  const c1 = await measure('full scan (`rndScan`)', scan);
  const c3 = await measure('full scan reading `l_quantity` only', narrow);
  const c2 = await measure('`lookup(i_l_shipdate, [day])` × 100 days', lookup);
  console.log(`\nchecksums: ${c1} ${c3} ${c2}`);
} finally {
  db.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
