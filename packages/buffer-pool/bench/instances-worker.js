// Worker of the instances bench: fix + S-latch + unfix random cached pages for `durationMs`.
import { parentPort, workerData } from 'node:worker_threads';
import { BufferPool } from '../dist/index.js';

const { desc, pages, durationMs, seed, start } = workerData;
const pool = BufferPool.attach(desc);
const view = new Int32Array(start);
Atomics.wait(view, 0, 0, 5000); // all workers begin together
let x = seed >>> 0 || 1;
let ops = 0;
let sink = 0;
const end = performance.now() + durationMs;
while (performance.now() < end) {
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    const f = pool.fix(0, x % pages, 1);
    sink += pool.bytes[f * pool.pageSize + 41];
    pool.unfix(f, 1);
  }
  ops += 256;
}
pool.detach();
parentPort.postMessage({ ops, sink });
