// Benchmarks of the built package against pure-rand 8 and Math.random, in one process run.
// Each benny case runs LOOP calls so the harness overhead is amortized; figures are ns per call.
//   pnpm --filter @enginekit/prng bench          (or: node bench/index.js after pnpm build)
import b from 'benny';
import { uniformInt as prUniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { createGenerator } from '../dist/index.js';

const LOOP = 1000;
let sink = 0;

const ours = {
  'xoshiro128**': createGenerator('xoshiro128**', { seed: 42 }),
  pcg32: createGenerator('pcg32', { seed: 42 }),
  'xoshiro256**': createGenerator('xoshiro256**', { seed: 42 }),
  splitmix64: createGenerator('splitmix64', { seed: 42 }),
};
const peer = xoroshiro128plus(42);

function nsPerCall(result) {
  return 1e9 / (result.ops * LOOP);
}

function table(summary, baselineName) {
  const base = summary.results.find((r) => r.name === baselineName);
  const rows = summary.results.map((r) => {
    const ns = nsPerCall(r);
    const ratio = base ? (nsPerCall(base) / ns).toFixed(2) : '';
    return `| ${r.name} | ${ns.toFixed(2)} | ${ratio}× |`;
  });
  return [`| case | ns/call | speed vs ${baselineName} |`, '|---|---:|---:|', ...rows].join('\n');
}

const reports = [];

// Every case is its own function literal: V8 keeps type feedback per literal, so a case built
// by mapping over several generators would make its call site polymorphic and measure that.
const x128 = ours['xoshiro128**'];
const pcg = ours.pcg32;
const x256 = ours['xoshiro256**'];
const sm = ours.splitmix64;

await b.suite(
  'nextUint32 (32 random bits)',
  b.add('enginekit xoshiro128** nextUint32', () => {
    for (let i = 0; i < LOOP; i++) sink ^= x128.nextUint32();
  }),
  b.add('enginekit pcg32 nextUint32', () => {
    for (let i = 0; i < LOOP; i++) sink ^= pcg.nextUint32();
  }),
  b.add('enginekit xoshiro256** nextUint32', () => {
    for (let i = 0; i < LOOP; i++) sink ^= x256.nextUint32();
  }),
  b.add('enginekit splitmix64 nextUint32', () => {
    for (let i = 0; i < LOOP; i++) sink ^= sm.nextUint32();
  }),
  b.add('pure-rand xoroshiro128plus next', () => {
    for (let i = 0; i < LOOP; i++) sink ^= peer.next();
  }),
  b.add('Math.random * 2^32', () => {
    for (let i = 0; i < LOOP; i++) sink ^= (Math.random() * 4294967296) >>> 0;
  }),
  b.cycle(),
  b.complete((s) => reports.push(['nextUint32', table(s, 'pure-rand xoroshiro128plus next')])),
);

await b.suite(
  'bounded integer in [0, 1000)',
  b.add('enginekit xoshiro128** nextBelow(1000)', () => {
    for (let i = 0; i < LOOP; i++) sink ^= x128.nextBelow(1000);
  }),
  b.add('enginekit pcg32 nextBelow(1000)', () => {
    for (let i = 0; i < LOOP; i++) sink ^= pcg.nextBelow(1000);
  }),
  b.add('pure-rand uniformInt(xoroshiro128plus, 0, 999)', () => {
    for (let i = 0; i < LOOP; i++) sink ^= prUniformInt(peer, 0, 999);
  }),
  b.add('Math.floor(Math.random() * 1000)', () => {
    for (let i = 0; i < LOOP; i++) sink ^= Math.floor(Math.random() * 1000);
  }),
  b.cycle(),
  b.complete((s) =>
    reports.push(['nextBelow(1000)', table(s, 'pure-rand uniformInt(xoroshiro128plus, 0, 999)')]),
  ),
);

await b.suite(
  'bounded integer in [0, 3·2^30) (the wide path)',
  b.add('enginekit xoshiro128** nextBelow(3·2^30)', () => {
    for (let i = 0; i < LOOP; i++) sink ^= x128.nextBelow(3221225472);
  }),
  b.add('pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)', () => {
    for (let i = 0; i < LOOP; i++) sink ^= prUniformInt(peer, 0, 3221225471);
  }),
  b.cycle(),
  b.complete((s) =>
    reports.push(['nextBelow(3·2^30)', table(s, 'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)')]),
  ),
);

console.log('\n');
for (const [title, text] of reports) console.log(`### ${title}\n\n${text}\n`);
if (sink === 0.5) console.log(sink); // keeps the loops observable
