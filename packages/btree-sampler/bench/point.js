// Point gets (benny) and random inserts (timed passes) on N int keys: btree-sampler on the
// BufferPool vs sorted-btree, the whole tree in the pool.
import b from 'benny';
import SortedBTree from 'sorted-btree';
import { BTree } from '../dist/index.js';
import { int1, memoryPool, randomKeys, valueFor } from './data.js';

const BTreeClass = SortedBTree.default ?? SortedBTree;
const LOOP = 1000;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function runPoint(n) {
  const keys = randomKeys(n);
  const enc = Array.from(keys, (k) => int1.encode([k]));
  const vals = Array.from(keys, (k) => valueFor(k));

  // Inserts: N random keys into an empty structure, 3 passes, median.
  const ours = [];
  const theirs = [];
  let tree;
  let sorted;
  for (let pass = 0; pass < 3; pass++) {
    const pool = memoryPool(n * 40);
    let t0 = process.hrtime.bigint();
    tree = BTree.create(pool);
    for (let i = 0; i < n; i++) tree.insert(enc[i], vals[i]);
    ours.push(Number(process.hrtime.bigint() - t0) / 1e9);
    t0 = process.hrtime.bigint();
    sorted = new BTreeClass();
    for (let i = 0; i < n; i++) sorted.set(keys[i], vals[i]);
    theirs.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  const inserts = [
    { name: 'btree-sampler insert (BufferPool, 16 KiB pages)', opsPerSec: n / median(ours) },
    { name: 'sorted-btree set', opsPerSec: n / median(theirs) },
  ];

  // Gets: random existing keys, LOOP per benny op.
  const order = randomKeys(n, 9);
  let k = 0;
  let sink = 0;
  const gets = [];
  await b.suite(
    `point get, ${n} keys`,
    b.add('btree-sampler get (BufferPool, 16 KiB pages)', () => {
      for (let i = 0; i < LOOP; i++) {
        const idx = (order[k++ % n] + 1_000_000) / 7;
        sink += tree.get(enc[idx]).length;
      }
    }),
    b.add('sorted-btree get', () => {
      for (let i = 0; i < LOOP; i++) {
        const idx = (order[k++ % n] + 1_000_000) / 7;
        sink += sorted.get(keys[idx]).length;
      }
    }),
    b.cycle(),
    b.complete((summary) => {
      for (const r of summary.results) gets.push({ name: r.name, opsPerSec: r.ops * LOOP, margin: r.margin });
    }),
  );
  // The same gets interleaved in rounds (20 × 20,000 each, alternating), so load drift on a shared
  // machine hits both alike: the ratio of the summed times.
  let ourNs = 0;
  let theirNs = 0;
  for (let round = 0; round < 20; round++) {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < 20000; i++) sink += tree.get(enc[(order[k++ % n] + 1_000_000) / 7]).length;
    ourNs += Number(process.hrtime.bigint() - t0);
    t0 = process.hrtime.bigint();
    for (let i = 0; i < 20000; i++) sink += sorted.get(keys[(order[k++ % n] + 1_000_000) / 7]).length;
    theirNs += Number(process.hrtime.bigint() - t0);
  }
  gets.push({ name: 'btree-sampler get, interleaved rounds', opsPerSec: 400000 / (ourNs / 1e9), margin: 0 });
  gets.push({ name: 'sorted-btree get, interleaved rounds', opsPerSec: 400000 / (theirNs / 1e9), margin: 0 });
  if (sink < 0) console.log(sink);
  const st = tree.stats();
  return { gets, inserts, stats: st };
}
