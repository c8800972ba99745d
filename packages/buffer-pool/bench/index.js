// Benchmarks of the built package (run `pnpm exec tsup` first):
//   node bench/index.js                         all four, default sizes (about a minute)
//   BENCH_ONLY=hit|ratio|scan|instances|latches node bench/index.js
//   BENCH_ACCESSES=1000000 BENCH_MS=3000 BENCH_SCAN_PAGES=16384 node bench/index.js   bigger runs
import os from 'node:os';
import { runHitPath } from './hit-path.js';
import { runHitRatio } from './hit-ratio.js';
import { runInstances } from './instances.js';
import { runLatches } from './latches.js';
import { runScan } from './scan-hdd.js';

const only = process.env.BENCH_ONLY ?? '';
const pct = (x) => `${(100 * x).toFixed(2)} %`;
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

if (only === '' || only === 'hit') {
  const rows = await runHitPath();
  const base = rows.find((r) => r.name === 'lru-cache get (hit)');
  console.log('\n### Hit path (one thread, 1,000 cached pages, random order)\n');
  console.log('| operation | M ops/s | ± % | × lru-cache get |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${(r.opsPerSec / 1e6).toFixed(2)} | ${r.margin.toFixed(1)} | ${(r.opsPerSec / base.opsPerSec).toFixed(2)} |`,
    );
  }
}

if (only === '' || only === 'ratio') {
  const accesses = Number(process.env.BENCH_ACCESSES ?? 300000);
  const rows = runHitRatio({ accesses });
  console.log(`\n### Hit ratio, 2,048 frames, ${accesses.toLocaleString('en')} accesses per trace\n`);
  console.log(
    '| trace | midpoint (old_blocks_time 1000) | midpoint (time 0) | LRU | CLOCK | Belady (optimum) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.trace} | ${pct(r.midpoint)} | ${pct(r.midpoint0)} | ${pct(r.lru)} | ${pct(r.clock)} | ${pct(r.belady)} |`,
    );
  }
}

if (only === '' || only === 'scan') {
  const pages = Number(process.env.BENCH_SCAN_PAGES ?? 4096);
  const rows = runScan({ pages });
  console.log(`\n### Scan of ${pages.toLocaleString('en')} linked 16 KiB pages, modeled device time\n`);
  console.log('| disk | access | modeled ms | read requests | positionings | read_ahead | reads |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.profile} | ${r.label} | ${r.modeledMs.toFixed(1)} | ${r.requests} | ${r.positionings} | ${r.readAhead} | ${r.reads} |`,
    );
  }
}

if (only === '' || only === 'instances') {
  const durationMs = Number(process.env.BENCH_MS ?? 1000);
  const rows = await runInstances({ durationMs });
  console.log(
    `\n### Instances: workers fixing random pages (S latch) on 2,048 frames, ${durationMs} ms each\n`,
  );
  console.log('| pages | workers | instances | hit ratio | M fixes/s | mutex spin waits | mutex OS waits |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.pages} | ${r.workers} | ${r.instances} | ${pct(r.hitRatio)} | ${r.mops.toFixed(3)} | ${r.spinWaits} | ${r.osWaits} |`,
    );
  }
}

if (only === 'latches') {
  const durationMs = Number(process.env.BENCH_MS ?? 1000);
  const rows = await runLatches({ durationMs });
  console.log(
    `\n### Page latches: workers fixing 16 hot pages (1 in 8 with X), ${durationMs} ms each, atomics vs 5.1\n`,
  );
  console.log(
    '| workers | latches | M fixes/s | RW-shared spins | RW-excl spins | RW OS waits | mutex spin waits |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.workers} | ${r.latches} | ${r.mops.toFixed(3)} | ${r.sSpins} | ${r.xSpins} | ${r.osWaits} | ${r.mutexSpins} |`,
    );
  }
}
