// Profile point gets alone (after the build), with prebuilt key arrays, as bench/gets.js does:
//   pnpm exec tsup && node bench/profile-gets.js [keys] [gets]   writes gets.cpuprofile here
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { BTree } from '../dist/index.js';
import { int1, memoryPool, randomKeys, valueFor } from './data.js';

const n = Number(process.argv[2] ?? 1_000_000);
const gets = Number(process.argv[3] ?? 3_000_000);
const keys = randomKeys(n);
const enc = Array.from(keys, (k) => int1.encode([k]));
const tree = BTree.create(memoryPool(n * 40));
for (let i = 0; i < n; i++) tree.insert(enc[i], valueFor(keys[i]));
const order = randomKeys(n, 9).map((k) => (k + 1_000_000) / 7);
let sink = 0;
const run = (count) => {
  let k = 0;
  for (let i = 0; i < count; i++) sink += tree.get(enc[order[k++ % n]]).length;
};
run(200_000); // warm up
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const t0 = process.hrtime.bigint();
run(gets);
const ns = Number(process.hrtime.bigint() - t0);
const { profile } = await session.post('Profiler.stop');
writeFileSync('gets.cpuprofile', JSON.stringify(profile));
console.log(
  `${(gets / (ns / 1e9) / 1e6).toFixed(3)} M gets/s (${(ns / gets).toFixed(0)} ns per get), sink ${sink}`,
);
