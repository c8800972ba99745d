// Worker of the latches bench: random fixes of a few hot pages, every 8th with an X latch.
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
    const latch = (x & 7) === 0 ? 2 : 1;
    const f = pool.fix(0, (x >>> 3) % pages, latch);
    const at = f * pool.pageSize + 41;
    if (latch === 2) pool.bytes[at]++;
    else sink += pool.bytes[at];
    pool.unfix(f, latch);
  }
  ops += 256;
}
pool.detach();
parentPort.postMessage({ ops, sink });
