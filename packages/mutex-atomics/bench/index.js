// Benchmarks of the built package (run `pnpm exec tsup` first):
//   node bench/index.js                    uncontended (benny) + contended, 300 ms per run, median of 3
//   BENCH_MS=2000 BENCH_REPEAT=5 node bench/index.js      longer contended runs
//   BENCH_CASE_S=5 node bench/index.js     longer benny cases (seconds per case, default 2)
//   BENCH_WORKERS=1,2,4,8,16 node bench/index.js
//   BENCH_ONLY=contended|uncontended node bench/index.js
//   BENCH_LOCKS=Mutex node bench/index.js   only some lock kinds (Mutex, RWLock, LegacyRWLock)
//   BENCH_SPIN_LOOPS=0 BENCH_SPIN_DELAY=6 node bench/index.js   innodb_sync_spin_loops / innodb_spin_wait_delay
import os from 'node:os';
import { runContended } from './contended.js';
import { runUncontended } from './uncontended.js';

const durationMs = Number(process.env.BENCH_MS ?? 300);
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
const workerCounts = (process.env.BENCH_WORKERS ?? '1,2,4,8').split(',').map(Number);
const only = process.env.BENCH_ONLY ?? '';
const locks = (process.env.BENCH_LOCKS ?? 'Mutex,RWLock,LegacyRWLock').split(',');
const spin = {};
if (process.env.BENCH_SPIN_LOOPS !== undefined)
  spin.innodb_sync_spin_loops = Number(process.env.BENCH_SPIN_LOOPS);
if (process.env.BENCH_SPIN_DELAY !== undefined)
  spin.innodb_spin_wait_delay = Number(process.env.BENCH_SPIN_DELAY);

console.log(
  `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

if (only !== 'contended') {
  const rows = await runUncontended();
  const floor = rows.find((r) => r.name.startsWith('bare CAS'));
  console.log('\n### Uncontended lock + unlock (one thread)\n');
  console.log('| case | ns per call (a lock+unlock pair) | × bare CAS+store |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.ns.toFixed(1)} | ${(r.ns / floor.ns).toFixed(2)} |`);
}

if (only !== 'uncontended') {
  const rows = await runContended({ durationMs, workerCounts, repeat, spin, locks });
  console.log(
    `\n### Contended: N workers, lock / small critical section / unlock, ${durationMs} ms per run, median of ${repeat} runs, innodb_sync_spin_loops ${spin.innodb_sync_spin_loops ?? 30}, innodb_spin_wait_delay ${spin.innodb_spin_wait_delay ?? 6}\n`,
  );
  console.log(
    '| lock | S/X mix | workers | Mops/s | ns per section | p99 wait µs | spin waits | rounds | OS waits | inner-mutex OS waits |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const k = r.counts;
    const own =
      r.kind === 'Mutex'
        ? k.mutex
        : {
            spinWaits: k.rwShared.spinWaits + k.rwExcl.spinWaits,
            spinRounds: k.rwShared.spinRounds + k.rwExcl.spinRounds,
            osWaits: k.rwShared.osWaits + k.rwExcl.osWaits,
          };
    const inner = r.kind === 'LegacyRWLock' ? String(k.mutex.osWaits) : '—';
    console.log(
      `| ${r.kind} | ${r.mix} | ${r.workers} | ${(r.opsPerSec / 1e6).toFixed(2)} | ${r.nsPerOp.toFixed(1)} | ${r.p99us.toFixed(1)} | ${own.spinWaits} | ${own.spinRounds} | ${own.osWaits} | ${inner} |`,
    );
  }
  console.log('\n### RWLock vs LegacyRWLock throughput\n');
  console.log('| mix | workers | RWLock / LegacyRWLock |');
  console.log('|---|---:|---:|');
  for (const r of rows.filter((x) => x.kind === 'RWLock')) {
    const l = rows.find((x) => x.kind === 'LegacyRWLock' && x.mix === r.mix && x.workers === r.workers);
    if (l) console.log(`| ${r.mix} | ${r.workers} | ${(r.opsPerSec / l.opsPerSec).toFixed(2)}× |`);
  }
}
