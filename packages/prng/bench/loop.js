// A plain-loop benchmark beside benny (bench/index.js): nothing between the loop and the call.
// Both libraries are seeded from the same BigInt and live in one process. Every case runs once per
// round, the order rotating from round to round, each timing COUNT calls (about a millisecond);
// figures are medians over the rounds. A ratio is the median of the per-round ratios: the two
// sides of one round ran within milliseconds of each other, so a burst of load on a shared
// machine moves both alike.
//   pnpm --filter @enginekit/prng bench:loop     (or: node bench/loop.js after pnpm build)
//   ROUNDS=301 COUNT=300000 node bench/loop.js
import { loadavg } from 'node:os';
import { uniformInt as prUniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { createGenerator } from '../dist/index.js';

const SEED = 0x2an; // 42, as a BigInt: pure-rand takes a number, so it gets Number(SEED)
const ROUNDS = Number(process.env.ROUNDS ?? 101);
const COUNT = Number(process.env.COUNT ?? 300_000);

const x128 = createGenerator('xoshiro128**', { seed: SEED });
const pcg = createGenerator('pcg32', { seed: SEED });
const peer = xoroshiro128plus(Number(SEED));

// One function literal per case, so every call site sees one receiver class.
const cases = {
  'enginekit xoshiro128** nextUint32': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= x128.nextUint32();
    return sink;
  },
  'enginekit pcg32 nextUint32': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= pcg.nextUint32();
    return sink;
  },
  'pure-rand xoroshiro128plus next': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= peer.next();
    return sink;
  },
  'enginekit xoshiro128** nextBelow(1000)': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= x128.nextBelow(1000);
    return sink;
  },
  'enginekit pcg32 nextBelow(1000)': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= pcg.nextBelow(1000);
    return sink;
  },
  'pure-rand uniformInt(xoroshiro128plus, 0, 999)': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= prUniformInt(peer, 0, 999);
    return sink;
  },
  'enginekit xoshiro128** nextBelow(3·2^30)': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= x128.nextBelow(3221225472);
    return sink;
  },
  'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)': (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) sink ^= prUniformInt(peer, 0, 3221225471);
    return sink;
  },
};

// Each enginekit case against its pure-rand counterpart.
const baselines = {
  'enginekit xoshiro128** nextUint32': 'pure-rand xoroshiro128plus next',
  'enginekit pcg32 nextUint32': 'pure-rand xoroshiro128plus next',
  'enginekit xoshiro128** nextBelow(1000)': 'pure-rand uniformInt(xoroshiro128plus, 0, 999)',
  'enginekit pcg32 nextBelow(1000)': 'pure-rand uniformInt(xoroshiro128plus, 0, 999)',
  'enginekit xoshiro128** nextBelow(3·2^30)': 'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)',
};

const names = Object.keys(cases);
const samples = Object.fromEntries(names.map((name) => [name, []]));
let sink = 0;

function time(fn) {
  const start = process.hrtime.bigint();
  sink ^= fn(COUNT);
  return Number(process.hrtime.bigint() - start) / COUNT;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.ceil(at)] - sorted[lo]) * (at - lo);
}
const median = (values) => quantile(values, 0.5);

const loadBefore = loadavg();
for (let k = 0; k < 5; k++) for (const name of names) time(cases[name]); // warm-up: optimized code
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    samples[name].push(time(cases[name]));
  }
}
const loadAfter = loadavg();

const rows = names.map((name) => {
  const base = baselines[name] ?? name;
  const ratios = samples[name].map((ns, r) => samples[base][r] / ns);
  const middle = `${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)}`;
  return `| ${name} | ${median(samples[name]).toFixed(2)} | ${median(ratios).toFixed(2)}× | ${middle} |`;
});
console.log(`${ROUNDS} interleaved rounds of ${COUNT} calls per case; medians, ns per call`);
console.log('| case | ns/call | speed vs pure-rand | middle half of rounds |\n|---|---:|---:|---:|');
console.log(rows.join('\n'));
const fmt = (l) => l.map((x) => x.toFixed(2)).join(' ');
console.log(`load average before: ${fmt(loadBefore)}, after: ${fmt(loadAfter)}`);
if (sink === 0.5) console.log(sink); // keeps the loops observable
