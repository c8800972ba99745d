// @enginekit/mrr over real structures: a btree-sampler clustered tree + secondary index on
// buffer-pool pages (run from apps/engine after `pnpm build`).
//   node bench/mrr-io.js                     200k rows, 10k and 100k lookups
//   MRR_BENCH_ROWS=1000000 MRR_BENCH_LOOKUPS=10000,100000,300000 node bench/mrr-io.js
// IO-bound: a SimulatedDevice('hdd') under a cold pool of 5% of the data pages.
// In memory: a warm pool holding every page (benny, CPU only).
import { buildDataset } from './mrr-dataset.js';
import { runGetOrder, runInMemory, runInMemoryInterleaved } from './mrr-warm.js';
import { CONFIGS, equalityLookups, expectedMatches, intervalLookup, runOnce } from './mrr-io-runs.js';

const rows = Number(process.env.MRR_BENCH_ROWS ?? 200000);
const lookups = (process.env.MRR_BENCH_LOOKUPS ?? '10000,100000').split(',').map(Number);

const t0 = performance.now();
const ds = buildDataset(rows);
const poolPages = Math.ceil(ds.dataPages * 0.05);
console.log(
  `# ${rows} rows, ${ds.dataPages} pages of 16 KiB (${((ds.dataPages * 16) / 1024).toFixed(1)} MiB); ` +
    `IO-bound pool ${poolPages} pages (5%), hdd model; built in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
);

const fmt = (x, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

console.log('## IO-bound (cold pool at 5% of the data, SimulatedDevice hdd)\n');
console.log(
  '| workload | strategy | rows | pages read | read-ahead | read requests | seeks | modeled s | vs default | CPU ms | Handler_read_key | Handler_read_rnd | Handler_mrr_rowid_refills | Handler_mrr_key_refills |',
);
console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
const workloads = [];
for (const n of lookups) {
  workloads.push([`${fmt(n)} equality keys`, equalityLookups(ds, n)]);
  workloads.push([`1 range, ~${fmt(n)} rows`, intervalLookup(ds, n)]);
}
for (const [name, ranges] of workloads) {
  const want = expectedMatches(ds, ranges);
  let base = 0;
  for (const c of CONFIGS) {
    if (c.keysOnly && !('key' in ranges[0])) continue;
    const r = runOnce(ds, ranges, c, { poolPages, hdd: true });
    if (r.rows !== want) throw new Error(`${c.label}: ${r.rows} rows, expected ${want}`);
    if (base === 0) base = r.modeledS;
    const k = r.counters;
    console.log(
      `| ${name} | ${r.label} | ${fmt(r.rows)} | ${fmt(r.pagesRead)} | ${fmt(r.readAhead)} | ${fmt(r.readRequests)} | ${fmt(r.positionings)} | ${fmt(r.modeledS, 1)} | ${(base / r.modeledS).toFixed(1)}× | ${fmt(r.cpuMs)} | ${fmt(k.Handler_read_key)} | ${fmt(k.Handler_read_rnd)} | ${k.Handler_mrr_rowid_refills} | ${k.Handler_mrr_key_refills} |`,
    );
  }
}

const memLookups = lookups[0];
const memWorkloads = [
  [`${fmt(memLookups)} equality keys`, equalityLookups(ds, memLookups)],
  [`1 range, ~${fmt(memLookups)} rows`, intervalLookup(ds, memLookups)],
];
console.log('\n## In memory: median CPU ms per scan, 21 interleaved rounds (warm pool holding every page)\n');
for (const [name, ranges] of memWorkloads) {
  const rows = runInMemoryInterleaved(ds, ranges);
  console.log(`\n| ${name} | median CPU ms | vs default |`);
  console.log('|---|--:|--:|');
  for (const r of rows)
    console.log(`| ${r.label} | ${r.cpuMs.toFixed(1)} | ${(r.cpuMs / rows[0].cpuMs).toFixed(2)}× |`);
}

console.log('\n## In memory (warm pool holding every page; benny, one full scan per op)\n');
for (const [name, ranges] of memWorkloads) {
  const { results } = await runInMemory(ds, ranges, name);
  const base = results[0].ops;
  console.log(`\n| ${name} | scans/s | ± % | time vs default |`);
  console.log('|---|--:|--:|--:|');
  for (const r of results)
    console.log(`| ${r.label} | ${r.ops.toFixed(1)} | ${r.margin} | ${(base / r.ops).toFixed(2)}× |`);
}
{
  const pks = equalityLookups(ds, memLookups, 11).map((r) => r.key);
  const { results } = await runGetOrder(ds, pks, 'clustered gets only');
  const base = results[0].ops;
  console.log(
    `\n| ${fmt(memLookups)} clustered-index gets, nothing else | passes/s | ± % | time vs random order |`,
  );
  console.log('|---|--:|--:|--:|');
  for (const r of results)
    console.log(`| ${r.label} | ${r.ops.toFixed(1)} | ${r.margin} | ${(base / r.ops).toFixed(2)}× |`);
}
console.log(`\ntotal ${((performance.now() - t0) / 1000).toFixed(0)} s`);
