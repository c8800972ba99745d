// N workers (1, 2, 4, 8) contending for one lock: throughput, p99 wait, spin/OS-wait counters.
import { Worker } from 'node:worker_threads';
import { LatchCounters, LegacyRWLock, Mutex, RWLock } from '../dist/index.js';

const workerUrl = new URL('./worker.js', import.meta.url);

async function runOne({ kind, workers, writePercent, durationMs, spin }) {
  const counters = new LatchCounters();
  const options = { counters, ...spin };
  const lock =
    kind === 'Mutex'
      ? new Mutex(options)
      : kind === 'RWLock'
        ? new RWLock(options)
        : new LegacyRWLock(options);
  const control = new SharedArrayBuffer(64);
  const c = new Int32Array(control);
  const threads = [];
  const results = [];
  for (let i = 0; i < workers; i++) {
    const w = new Worker(workerUrl, {
      workerData: {
        kind,
        lock: lock.descriptor(),
        control,
        writePercent,
        counters: counters.descriptor(),
        warmup: 200_000,
        seed: 0x9e3779b9 * (i + 1),
      },
    });
    threads.push(
      new Promise((resolve, reject) => {
        w.once('message', (m) => {
          results.push(m);
          resolve();
        });
        w.once('error', reject);
      }),
    );
  }
  while (Atomics.load(c, 0) < workers) await new Promise((r) => setTimeout(r, 1));
  counters.reset();
  const t0 = performance.now();
  Atomics.store(c, 1, 1);
  Atomics.notify(c, 1);
  await new Promise((r) => setTimeout(r, durationMs));
  Atomics.store(c, 2, 1);
  await Promise.all(threads);
  const elapsed = performance.now() - t0;
  const ops = results.reduce((t, r) => t + r.ops, 0);
  const all = new Float64Array(results.reduce((t, r) => t + r.waits.length, 0));
  let o = 0;
  for (const r of results) {
    all.set(r.waits, o);
    o += r.waits.length;
  }
  all.sort();
  const p99 = all.length ? all[Math.min(all.length - 1, Math.floor(all.length * 0.99))] : 0;
  return {
    kind,
    mix: kind === 'Mutex' ? '—' : `${100 - writePercent}/${writePercent}`,
    workers,
    opsPerSec: ops / (elapsed / 1000),
    nsPerOp: (elapsed * 1e6) / ops,
    p99us: p99 * 1000,
    counts: counters.snapshot(),
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Every configuration runs `repeat` times; the rounds are interleaved (all configurations once,
 * then again) so load from other processes hits them alike. The run with the median throughput
 * is reported.
 */
export async function runContended({
  durationMs,
  workerCounts,
  repeat,
  spin = {},
  locks = ['Mutex', 'RWLock', 'LegacyRWLock'],
}) {
  let plans = [];
  for (const workers of workerCounts) plans.push({ kind: 'Mutex', workers, writePercent: 100 });
  for (const writePercent of [0, 10, 50]) {
    for (const workers of workerCounts) {
      plans.push({ kind: 'RWLock', workers, writePercent });
      plans.push({ kind: 'LegacyRWLock', workers, writePercent });
    }
  }
  plans = plans.filter((p) => locks.includes(p.kind));
  const runs = plans.map(() => []);
  for (let k = 0; k < repeat; k++) {
    for (let p = 0; p < plans.length; p++) runs[p].push(await runOne({ ...plans[p], durationMs, spin }));
    console.error(`  round ${k + 1}/${repeat} done`);
  }
  return runs.map((rs) => {
    const m = median(rs.map((r) => r.opsPerSec));
    return { ...rs.find((r) => r.opsPerSec === m), repeat };
  });
}
