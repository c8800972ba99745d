// Two builds of this package side by side in one process, point gets only, against sorted-btree:
// both builds get trees built from the same random int keys, then ROUNDS rounds alternate
// A, B and sorted-btree (50,000 random gets each). Prints the median of the per-round ratios.
//   node bench/gets-ab.js /path/to/a/index.js /path/to/b/index.js
//   GETS_SIZES=1000000 GETS_ROUNDS=21 GETS_KEY_OBJECTS=1 node bench/gets-ab.js A B
// GETS_KEY_OBJECTS=1 passes one of N prebuilt Uint8Arrays per get; otherwise the key is encoded
// into one reused buffer (as bench/gets.js). GETS_KEY=int64 makes the keys BIGINTs (nine bytes,
// the first six the same for every key, as a BIGINT primary key below 2^40 is).
import os from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import SortedBTree from 'sorted-btree';
import { KeyCodec } from '../dist/index.js';
import { int1, memoryPool, randomKeys, valueFor } from './data.js';

const [pathA, pathB] = process.argv.slice(2);
if (pathA === undefined || pathB === undefined) {
  console.error('usage: node bench/gets-ab.js BUILD_A BUILD_B');
  process.exit(2);
}
const load = (p) => import(pathToFileURL(isAbsolute(p) ? p : resolve(p)).href);
const builds = [
  { name: 'A', mod: await load(pathA) },
  { name: 'B', mod: await load(pathB) },
];
const BTreeClass = SortedBTree.default ?? SortedBTree;
const sizes = (process.env.GETS_SIZES ?? '200000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.GETS_ROUNDS ?? 15);
const PER_ROUND = 50_000;
const keyObjects = process.env.GETS_KEY_OBJECTS === '1';
const wide = process.env.GETS_KEY === 'int64';
const codec = wide ? new KeyCodec([{ type: 'int64' }]) : int1;
const scratch = new Uint8Array(wide ? 9 : 5);
function encodeInto(k) {
  if (wide) {
    // int64 of a non-negative int32: tag, 0x80, four zero bytes, then the value's four bytes
    const u = k >>> 0;
    scratch[0] = 0x11;
    scratch[1] = 0x80;
    scratch[5] = u >>> 24;
    scratch[6] = (u >>> 16) & 0xff;
    scratch[7] = (u >>> 8) & 0xff;
    scratch[8] = u & 0xff;
    return scratch;
  }
  const u = (k ^ 0x80000000) >>> 0;
  scratch[0] = 0x10;
  scratch[1] = u >>> 24;
  scratch[2] = (u >>> 16) & 0xff;
  scratch[3] = (u >>> 8) & 0xff;
  scratch[4] = u & 0xff;
  return scratch;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `A = ${pathA}\nB = ${pathB}\n${keyObjects ? 'prebuilt key objects' : 'keys encoded into one buffer per get'}; node ${process.version}, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| keys | A × sorted-btree | B × sorted-btree | B × A |');
console.log('|---:|---:|---:|---:|');
for (const n of sizes) {
  // BIGINT keys are made non-negative (as an AUTO_INCREMENT key is)
  const keys = wide ? randomKeys(n).map((k) => k + 1_000_000) : randomKeys(n);
  const enc = Array.from(keys, (k) => codec.encode([wide ? BigInt(k) : k]));
  const vals = Array.from(keys, (k) => valueFor(k));
  const trees = builds.map(({ mod }) => {
    const t = mod.BTree.create(memoryPool(n * 40));
    for (let i = 0; i < n; i++) t.insert(enc[i], vals[i]);
    return t;
  });
  const sorted = new BTreeClass();
  for (let i = 0; i < n; i++) sorted.set(keys[i], vals[i]);
  const order = randomKeys(n, 9).map((k) => (k + 1_000_000) / 7);
  // the index into keys[] is the same either way; the wide keys are shifted by a constant
  let k = 0;
  let sink = 0;
  const time = (get) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) {
      const idx = order[k++ % n];
      sink += get(idx).length;
    }
    return Number(process.hrtime.bigint() - t0);
  };
  const gets = trees.map((t) => (idx) => t.get(keyObjects ? enc[idx] : encodeInto(keys[idx])));
  const ra = [];
  const rb = [];
  const rab = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = time(gets[0]);
    const b = time(gets[1]);
    const c = time((idx) => sorted.get(keys[idx]));
    ra.push(c / a);
    rb.push(c / b);
    rab.push(a / b);
  }
  if (sink < 0) console.log(sink);
  console.log(
    `| ${n.toLocaleString('en')} | ${median(ra).toFixed(2)} | ${median(rb).toFixed(2)} | ${median(rab).toFixed(2)} |`,
  );
}
