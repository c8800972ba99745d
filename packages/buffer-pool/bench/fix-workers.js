// Starts `workers` fix-worker.js threads on `pool`, lets them attach, releases them together and
// returns their { ops, sink } reports.
import { Worker } from 'node:worker_threads';

export async function runFixWorkers(
  pool,
  { workers, pages, durationMs, seed, exclusiveEvery = 0, settleMs = 200 },
) {
  const start = new SharedArrayBuffer(4);
  const done = Array.from({ length: workers }, (_, i) => {
    const w = new Worker(new URL('./fix-worker.js', import.meta.url), {
      workerData: {
        desc: pool.descriptor(),
        pages,
        durationMs,
        seed: seed + i * 104729,
        start,
        exclusiveEvery,
      },
    });
    return new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
  });
  await new Promise((r) => setTimeout(r, settleMs)); // let the workers load and attach
  Atomics.store(new Int32Array(start), 0, 1);
  Atomics.notify(new Int32Array(start), 0);
  return Promise.all(done);
}
