// Two builds of this package side by side in one process: random inserts, a full raw scan and
// random deletes,
// rounds alternating the builds (A first in even rounds, B first in odd ones), so load drift on a
// shared machine hits both alike. Prints the medians and the median of the per-round ratios.
// Point gets: bench/gets-ab.js.
//   node bench/insert-scan-ab.js /path/to/a/index.js /path/to/b/index.js
//   AB_SIZES=1000000 AB_ROUNDS=21 node bench/insert-scan-ab.js A B
// Inserts: N random int keys into an empty tree on a BufferPool of 16 KiB pages (single inserts).
// Scan: forEachRangeRaw over that tree, the callback reading the value's first byte (5 scans a
// round, the mean). Deletes: every other key of the insert order (N/2 single deletes, random
// order), after the scans.
import os from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { int1, memoryPool, randomKeys, valueFor } from './data.js';

const [pathA, pathB] = process.argv.slice(2);
if (pathA === undefined || pathB === undefined) {
  console.error('usage: node bench/insert-scan-ab.js BUILD_A BUILD_B');
  process.exit(2);
}
const load = (p) => import(pathToFileURL(isAbsolute(p) ? p : resolve(p)).href);
const builds = [await load(pathA), await load(pathB)];
const sizes = (process.env.AB_SIZES ?? '200000').split(',').map(Number);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 11);
/** Full scans per build and round (one lasts a few milliseconds). */
const SCANS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (ns) => (ns / 1e6).toFixed(1);
console.log(
  `A = ${pathA}\nB = ${pathB}\n${ROUNDS} rounds; node ${process.version}, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| keys | operation | A (median) | B (median) | B speed × A (median of rounds) |');
console.log('|---:|---|---:|---:|---:|');
let sink = 0;
for (const n of sizes) {
  const keys = randomKeys(n);
  const enc = Array.from(keys, (k) => int1.encode([k]));
  const vals = Array.from(keys, (k) => valueFor(k));
  const t = { insert: [[], []], scan: [[], []], delete: [[], []] };
  for (let round = 0; round < ROUNDS; round++) {
    const seq = round % 2 === 0 ? [0, 1] : [1, 0];
    const trees = [];
    for (const b of seq) {
      const pool = memoryPool(n * 40);
      const t0 = process.hrtime.bigint();
      const tree = builds[b].BTree.create(pool);
      for (let i = 0; i < n; i++) tree.insert(enc[i], vals[i]);
      t.insert[b].push(Number(process.hrtime.bigint() - t0));
      trees[b] = tree;
    }
    for (const b of seq) {
      const t0 = process.hrtime.bigint();
      for (let s = 0; s < SCANS; s++) {
        trees[b].forEachRangeRaw(null, null, (bytes, _ko, _kl, vo) => {
          sink += bytes[vo];
          return undefined;
        });
      }
      t.scan[b].push(Number(process.hrtime.bigint() - t0) / SCANS);
    }
    for (const b of seq) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i += 2) trees[b].delete(enc[i]);
      t.delete[b].push(Number(process.hrtime.bigint() - t0));
    }
  }
  for (const op of ['insert', 'scan', 'delete']) {
    const [a, b] = t[op];
    const ratio = median(a.map((x, i) => x / b[i]));
    console.log(
      `| ${n.toLocaleString('en')} | ${op} | ${ms(median(a))} ms | ${ms(median(b))} ms | ${ratio.toFixed(3)} |`,
    );
  }
}
if (sink < 0) console.log(sink);
