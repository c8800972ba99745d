// Benchmarks of the built package against pure-rand 8 and Math.random, in one process run.
// Each benny case runs LOOP calls so the harness overhead is amortized; figures are ns per call.
// Every suite runs ROUNDS times, its cases in reverse order on odd rounds, up to a second per
// case in samples of 1 ms or more; a figure is the median over the rounds of benny's median
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
// Results accumulate in a local and reach the module-level sink once per LOOP calls: a module
// variable written on every call is a memory round trip per call (about 0.5 ns here, more for
// the cases whose result comes late), which would be the harness's cost, not the generator's.
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
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= x128.nextUint32();
        sink ^= s;
      },
      'enginekit pcg32 nextUint32': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= pcg.nextUint32();
        sink ^= s;
      },
      'enginekit xoshiro256** nextUint32': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= x256.nextUint32();
        sink ^= s;
      },
      'enginekit splitmix64 nextUint32': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= sm.nextUint32();
        sink ^= s;
      },
      'pure-rand xoroshiro128plus next': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= peer.next();
        sink ^= s;
      },
      'Math.random * 2^32': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= (Math.random() * 4294967296) >>> 0;
        sink ^= s;
      },
    },
  },
  {
    title: 'nextBelow(1000)',
    baseline: 'pure-rand uniformInt(xoroshiro128plus, 0, 999)',
    cases: {
      'enginekit xoshiro128** nextBelow(1000)': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= x128.nextBelow(1000);
        sink ^= s;
      },
      'enginekit pcg32 nextBelow(1000)': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= pcg.nextBelow(1000);
        sink ^= s;
      },
      'pure-rand uniformInt(xoroshiro128plus, 0, 999)': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= prUniformInt(peer, 0, 999);
        sink ^= s;
      },
      'Math.floor(Math.random() * 1000)': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= Math.floor(Math.random() * 1000);
        sink ^= s;
      },
    },
  },
  {
    title: 'nextBelow(3·2^30)',
    baseline: 'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)',
    cases: {
      'enginekit xoshiro128** nextBelow(3·2^30)': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= x128.nextBelow(3221225472);
        sink ^= s;
      },
      'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)': () => {
        let s = 0;
        for (let i = 0; i < LOOP; i++) s ^= prUniformInt(peer, 0, 3221225471);
        sink ^= s;
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
      b.configure({ cases: { minTime: 0.001, maxTime: 1, minSamples: 50 } }),
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
