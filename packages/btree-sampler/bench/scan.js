// Full range scans of N entries: forEachRange (two views per entry) vs forEachRangeRaw (offsets),
// 11 interleaved rounds, median. Both callbacks read the value's first byte.
//   pnpm exec tsup && node bench/scan.js          BENCH_N=1000000 for 1M entries
import { BTree } from '../dist/index.js';
import { int1, memoryPool, valueFor } from './data.js';

const n = Number(process.env.BENCH_N ?? 200_000);
const tree = BTree.create(memoryPool(n * 40));
const loader = tree.bulkLoader();
for (let i = 0; i < n; i++) loader.add(int1.encode([i]), valueFor(i));
loader.finish();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let sink = 0;
const views = [];
const raw = [];
for (let round = 0; round < 11; round++) {
  let t0 = process.hrtime.bigint();
  tree.forEachRange(null, null, (_k, v) => {
    sink += v[0];
    return undefined;
  });
  views.push(Number(process.hrtime.bigint() - t0) / 1e6);
  t0 = process.hrtime.bigint();
  tree.forEachRangeRaw(null, null, (b, _ko, _kl, vo) => {
    sink += b[vo];
    return undefined;
  });
  raw.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
if (sink < 0) console.log(sink);
const a = median(views);
const r = median(raw);
console.log(
  `| ${n.toLocaleString('en')} | ${a.toFixed(1)} ms | ${r.toFixed(1)} ms | ${(a / r).toFixed(2)}× |`,
);
