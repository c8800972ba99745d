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

await b.suite(
  'nextUint32 (32 random bits)',
  ...Object.entries(ours).map(([name, gen]) =>
    b.add(`enginekit ${name} nextUint32`, () => {
      for (let i = 0; i < LOOP; i++) sink ^= gen.nextUint32();
    }),
  ),
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
  ...Object.entries(ours)
    .slice(0, 2)
    .map(([name, gen]) =>
      b.add(`enginekit ${name} nextBelow(1000)`, () => {
        for (let i = 0; i < LOOP; i++) sink += gen.nextBelow(1000);
      }),
    ),
  b.add('pure-rand uniformInt(xoroshiro128plus, 0, 999)', () => {
    for (let i = 0; i < LOOP; i++) sink += prUniformInt(peer, 0, 999);
  }),
  b.add('Math.floor(Math.random() * 1000) (biased-free only by luck of 2^53)', () => {
    for (let i = 0; i < LOOP; i++) sink += Math.floor(Math.random() * 1000);
  }),
  b.cycle(),
  b.complete((s) =>
    reports.push(['nextBelow(1000)', table(s, 'pure-rand uniformInt(xoroshiro128plus, 0, 999)')]),
  ),
);

await b.suite(
  'bounded integer in [0, 3·2^30) (needs the wide path)',
  b.add('enginekit xoshiro128** nextBelow(3·2^30)', () => {
    for (let i = 0; i < LOOP; i++) sink += ours['xoshiro128**'].nextBelow(3221225472);
  }),
  b.add('pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)', () => {
    for (let i = 0; i < LOOP; i++) sink += prUniformInt(peer, 0, 3221225471);
  }),
  b.cycle(),
  b.complete((s) =>
    reports.push(['nextBelow(3·2^30)', table(s, 'pure-rand uniformInt(xoroshiro128plus, 0, 3·2^30-1)')]),
  ),
);

console.log('\n');
for (const [title, text] of reports) console.log(`### ${title}\n\n${text}\n`);
if (sink === 0.5) console.log(sink);
