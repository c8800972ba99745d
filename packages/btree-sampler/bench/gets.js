// Point gets only, btree-sampler (BufferPool, 16 KiB pages) vs sorted-btree, in one process run:
// for each size, both structures are built from the same random keys (single inserts), then
// ROUNDS interleaved rounds of 50,000 random gets per peer. Reports the median round of each
// and the median of the per-round ratios (load drift on a shared machine hits both alike).
//   pnpm exec tsup && node bench/gets.js                  200,000 and 1,000,000 keys
//   GETS_SIZES=200000 GETS_ROUNDS=21 node bench/gets.js
//   GETS_ONLY_OURS=1 node --cpu-prof bench/gets.js       a get-only loop to profile
//   GETS_KEY_OBJECTS=1 node bench/gets.js                 look up prebuilt key arrays instead
//   GETS_BUILD=/path/to/index.js node bench/gets.js       another build of this package (A/B runs)
// By default both peers take the key from the same Int32Array: sorted-btree as the number,
// btree-sampler encoded (KeyCodec int32 format) into one reused 5-byte buffer, as an engine
// encodes a search key into a scratch buffer. GETS_KEY_OBJECTS=1 instead passes one of N
// prebuilt Uint8Arrays per get, which adds a cache miss on the key object itself that the
// numeric peer does not pay.
import os from 'node:os';
import SortedBTree from 'sorted-btree';
import { int1, memoryPool, randomKeys, valueFor } from './data.js';

const { BTree } = await import(process.env.GETS_BUILD ?? '../dist/index.js');
const BTreeClass = SortedBTree.default ?? SortedBTree;
const sizes = (process.env.GETS_SIZES ?? '200000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.GETS_ROUNDS ?? 15);
const PER_ROUND = 50_000;
const onlyOurs = process.env.GETS_ONLY_OURS === '1';
const keyObjects = process.env.GETS_KEY_OBJECTS === '1';
const scratch = new Uint8Array(5);
/** int1.encode([k]) into `scratch`: tag 0x10, then the int with its sign bit flipped, big-endian. */
function encodeInto(k) {
  const u = (k ^ 0x80000000) >>> 0;
  scratch[0] = 0x10;
  scratch[1] = u >>> 24;
  scratch[2] = (u >>> 16) & 0xff;
  scratch[3] = (u >>> 8) & 0xff;
  scratch[4] = u & 0xff;
  return scratch;
}
for (const k of [-2147483648, -1, 0, 1, 123456789, 2147483647]) {
  if (Buffer.compare(encodeInto(k), int1.encode([k])) !== 0) throw new Error(`encodeInto(${k}) differs`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `${keyObjects ? 'prebuilt key objects' : 'keys encoded into one buffer per get'}; node ${process.version}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(
  '| keys | height | btree-sampler get, M ops/s | sorted-btree get, M ops/s | × sorted-btree (median of rounds) |',
);
console.log('|---:|---:|---:|---:|---:|');
for (const n of sizes) {
  const keys = randomKeys(n);
  const enc = Array.from(keys, (k) => int1.encode([k]));
  const vals = Array.from(keys, (k) => valueFor(k));
  const tree = BTree.create(memoryPool(n * 40));
  for (let i = 0; i < n; i++) tree.insert(enc[i], vals[i]);
  const sorted = new BTreeClass();
  if (!onlyOurs) for (let i = 0; i < n; i++) sorted.set(keys[i], vals[i]);
  // Lookup order: a second seeded shuffle, mapped to key indexes.
  const order = randomKeys(n, 9).map((k) => (k + 1_000_000) / 7);
  let k = 0;
  let sink = 0;
  const ours = [];
  const theirs = [];
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) {
      const idx = order[k++ % n];
      sink += tree.get(keyObjects ? enc[idx] : encodeInto(keys[idx])).length;
    }
    const a = Number(process.hrtime.bigint() - t0);
    ours.push(PER_ROUND / (a / 1e9));
    if (onlyOurs) continue;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) {
      const idx = order[k++ % n];
      sink += sorted.get(keys[idx]).length;
    }
    const c = Number(process.hrtime.bigint() - t0);
    theirs.push(PER_ROUND / (c / 1e9));
    ratios.push(c / a);
  }
  if (sink < 0) console.log(sink);
  const st = tree.stats();
  const f = (x) => (x === undefined ? '—' : (x / 1e6).toFixed(2));
  console.log(
    `| ${n.toLocaleString('en')} | ${st.height} | ${f(median(ours))} | ${f(theirs.length ? median(theirs) : undefined)} | ${ratios.length ? median(ratios).toFixed(2) : '—'} |`,
  );
}
