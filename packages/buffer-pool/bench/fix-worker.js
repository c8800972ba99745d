// A worker of the instances and latches benches: attach to the shared pool, wait for the start
// flag, then fix random pages for `durationMs`. With `exclusiveEvery` 0 every fix takes an S latch
// and reads a byte; with 8, every 8th fix takes an X latch and writes the byte instead.
import { parentPort, workerData } from 'node:worker_threads';
import { BufferPool } from '../dist/index.js';

const { desc, pages, durationMs, seed, start, exclusiveEvery } = workerData;
const pool = BufferPool.attach(desc);
Atomics.wait(new Int32Array(start), 0, 0, 5000); // all workers begin together
const mask = exclusiveEvery - 1;
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
    const exclusive = exclusiveEvery > 0 && (x & mask) === 0;
    const latch = exclusive ? 2 : 1;
    const f = pool.fix(0, (exclusiveEvery > 0 ? x >>> 3 : x) % pages, latch);
    const at = f * pool.pageSize + 41;
    if (exclusive) pool.bytes[at]++;
    else sink += pool.bytes[at];
    pool.unfix(f, latch);
  }
  ops += 256;
}
pool.detach();
parentPort.postMessage({ ops, sink });
