// Benchmarks of the built package (run `pnpm exec tsup` first):
//   node bench/index.js                              all three, default sizes (about a minute)
//   BENCH_ONLY=point|build|accuracy|bug node bench/index.js
//   BENCH_N=1000000 BENCH_ROWS=1000000 node bench/index.js    1M keys and rows
import os from 'node:os';
import { runAccuracy, runBugScenario } from './accuracy.js';
import { runBuild } from './build.js';
import { runPoint } from './point.js';

const only = process.env.BENCH_ONLY ?? '';
const n = Number(process.env.BENCH_N ?? 200_000);
const rows = Number(process.env.BENCH_ROWS ?? 200_000);
const f = (x, d = 2) => x.toFixed(d);
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

if (only === '' || only === 'point') {
  const { gets, inserts, stats } = await runPoint(n);
  console.log(
    `\n### Point operations, ${n.toLocaleString('en')} random int keys (tree height ${stats.height}, ${stats.pagesPerLevel[0]} leaves)\n`,
  );
  console.log('| operation | M ops/s | × sorted-btree |');
  console.log('|---|---:|---:|');
  for (const r of gets) {
    const interleaved = r.name.endsWith('rounds');
    const peer = gets.find((x) => x.name.startsWith('sorted') && x.name.endsWith('rounds') === interleaved);
    const margin = r.margin > 0 ? ` ± ${f(r.margin, 1)} %` : '';
    console.log(`| ${r.name} | ${f(r.opsPerSec / 1e6)}${margin} | ${f(r.opsPerSec / peer.opsPerSec)} |`);
  }
  const i0 = inserts.find((r) => r.name.startsWith('sorted'));
  for (const r of inserts)
    console.log(`| ${r.name} | ${f(r.opsPerSec / 1e6)} | ${f(r.opsPerSec / i0.opsPerSec)} |`);
}

if (only === '' || only === 'build') {
  const rs = runBuild(n);
  console.log(`\n### Building a tree of ${n.toLocaleString('en')} keys (16 KiB pages, median of 3)\n`);
  console.log('| method | seconds | × bulk loader | height | leaves | leaf fill |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const base = rs[0].seconds;
  for (const r of rs) {
    console.log(
      `| ${r.name} | ${f(r.seconds, 3)} | ${f(r.seconds / base)} | ${r.stats.height} | ${r.stats.pagesPerLevel[0]} | ${f(100 * r.stats.leafFill, 1)} % |`,
    );
  }
}

if (only === '' || only === 'accuracy') {
  const rs = runAccuracy(rows);
  console.log(
    `\n### Estimator accuracy, ${rows.toLocaleString('en')} rows, 4 KiB pages, n_diff of the leading column (and of the whole composite key), 10 runs\n`,
  );
  console.log(
    '| data set | estimator | exact | mean | min–max | mean rel. err | max rel. err | distinct leaves | identical runs | pages read/run |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rs) {
    console.log(
      `| ${r.dataSet} (${r.leafPages} leaves) | ${r.estimator} | ${r.exact} | ${Math.round(r.mean)} | ${r.min}–${r.max} | ${f(100 * r.meanRelError, 1)} % | ${f(100 * r.maxRelError, 1)} % | ${r.distinctLeaves} | ${r.identicalRuns ? 'yes' : 'no'} | ${Math.round(r.pagesRead)} |`,
    );
  }
}

if (only === '' || only === 'bug') {
  const { stats, rows: rs } = runBugScenario(10);
  console.log(
    `\n### Bug #43660: root with ${stats.recordsPerLevel[1]} node pointers, height ${stats.height}, 8 dives (5.1), 10 ANALYZE runs\n`,
  );
  console.log('| generator | exact | estimates of 10 runs | mean rel. err | distinct leaves |');
  console.log('|---|---:|---|---:|---:|');
  for (const r of rs) {
    console.log(
      `| ${r.label} | ${r.exact} | ${r.estimates.join(', ')} | ${f(100 * r.meanRelError, 1)} % | ${r.distinctLeaves} |`,
    );
  }
}
