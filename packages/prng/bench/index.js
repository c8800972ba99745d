// Benchmarks of the built package against pure-rand 8 and Math.random, in one process run.
// Each benny case runs LOOP calls so the harness overhead is amortized; figures are ns per call.
// Every suite runs ROUNDS times, its cases in reverse order on odd rounds, up to a second per
// case in samples of 5 ms or more; a figure is the median over the rounds of benny's median
// sample, a ratio the median of the per-round ratios, shown with their range (the machine this
// was measured on is shared, and load comes in bursts).
// Both libraries are seeded from the same BigInt. bench/loop.js measures the same cases in plain
// timed loops.
//   pnpm --filter @enginekit/prng bench          (or: node bench/index.js after pnpm build)
//   ROUNDS=9 node bench/index.js
import { loadavg } from 'node:os';
import b from 'benny';
import { uniformInt as prUniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { createGenerator } from '../dist/index.js';

const LOOP = 1000;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SEED = 0x2an; // 42; pure-rand takes a number, so it gets Number(SEED)
let sink = 0;

// Every case is its own function literal: V8 keeps type feedback per literal, so a case built
// by mapping over several generators would make its call site polymorphic and measure that.
const x128 = createGenerator('xoshiro128**', { seed: SEED });
const pcg = createGenerator('pcg32', { seed: SEED });
const x256 = createGenerator('xoshiro256**', { seed: SEED });
const sm = createGenerator('splitmix64', { seed: SEED });
const peer = xoroshiro128plus(Number(SEED));

const suites = [
  {
    title: 'nextUint32',
    baseline: 'pure-rand xoroshiro128plus next',
    cases: {
      'enginekit xoshiro128** nextUint32': () => {
        for (let i = 0; i < LOOP; i++) sink ^= x128.nextUint32();
      },
      'enginekit pcg32 nextUint32': () => {
        for (let i = 0; i < LOOP; i++) sink ^= pcg.nextUint32();
      },
      'enginekit xoshiro256** nextUint32': () => {
        for (let i = 0; i < LOOP; i++) sink ^= x256.nextUint32();
      },
      'enginekit splitmix64 nextUint32': () => {
        for (let i = 0; i < LOOP; i++) sink ^= sm.nextUint32();
      },
      'pure-rand xoroshiro128plus next': () => {
        for (let i = 0; i < LOOP; i++) sink ^= peer.next();
      },
      'Math.random * 2^32': () => {
        for (let i = 0; i < LOOP; i++) sink ^= (Math.random() * 4294967296) >>> 0;
      },
    },
  },
  {
    title: 'nextBelow(1000)',
    baseline: 'pure-rand uniformInt(xoroshiro128plus, 0, 999)',
    cases: {
      'enginekit xoshiro128** nextBelow(1000)': () => {
        for (let i = 0; i < LOOP; i++) sink ^= x128.nextBelow(1000);
      },
      'enginekit pcg32 nextBelow(1000)': () => {
        for (let i = 0; i < LOOP; i++) sink ^= pcg.nextBelow(1000);
      },
      'pure-rand uniformInt(xoroshiro128plus, 0, 999)': () => {
        for (let i = 0; i < LOOP; i++) sink ^= prUniformInt(peer, 0, 999);
      },
      'Math.floor(Math.random() * 1000)': () => {
        for (let i = 0; i < LOOP; i++) sink ^= Math.floor(Math.random() * 1000);
      },
    },
  },
  {
    title: 'nextBelow(3·2^30)',
    baseline: 'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)',
    cases: {
      'enginekit xoshiro128** nextBelow(3·2^30)': () => {
        for (let i = 0; i < LOOP; i++) sink ^= x128.nextBelow(3221225472);
      },
      'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)': () => {
        for (let i = 0; i < LOOP; i++) sink ^= prUniformInt(peer, 0, 3221225471);
      },
    },
  },
];

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const loadBefore = loadavg();
const reports = [];
for (const { title, baseline, cases } of suites) {
  const names = Object.keys(cases);
  const ns = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    const summary = await b.suite(
      `${title}, round ${round + 1} of ${ROUNDS}`,
      ...order.map((name) => b.add(name, cases[name])),
      b.configure({ cases: { minTime: 0.005, maxTime: 1, minSamples: 20 } }),
      b.cycle(),
    );
    for (const r of summary.results) ns[r.name].push((r.details.median * 1e9) / LOOP);
  }
  const rows = names.map((name) => {
    const ratios = ns[name].map((v, round) => ns[baseline][round] / v);
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    return `| ${name} | ${median(ns[name]).toFixed(2)} | ${median(ratios).toFixed(2)}× | ${range} |`;
  });
  reports.push(
    `### ${title}\n\n| case | ns/call | speed vs ${baseline} | per round |\n|---|---:|---:|---:|\n${rows.join('\n')}`,
  );
}
const loadAfter = loadavg();

const fmt = (l) => l.map((x) => x.toFixed(2)).join(' ');
console.log(`\n${ROUNDS} rounds per suite; medians\n`);
for (const text of reports) console.log(`${text}\n`);
console.log(`load average before: ${fmt(loadBefore)}, after: ${fmt(loadAfter)}`);
if (sink === 0.5) console.log(sink); // keeps the loops observable
