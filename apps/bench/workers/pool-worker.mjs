// A worker of the buffer-pool experiment: attach to the shared pool, wait for the start flag,
// then fix + S-latch + read a byte + unfix random pages until the stop flag is set.
import { parentPort, workerData } from 'node:worker_threads';
import { BufferPool } from '@enginekit/buffer-pool';

const { desc, pages, seed, control } = workerData;
const pool = BufferPool.attach(desc);
const c = new Int32Array(control); // [0] ready count, [1] go, [2] stop
Atomics.add(c, 0, 1);
while (Atomics.load(c, 1) === 0) Atomics.wait(c, 1, 0, 100);
let x = seed >>> 0 || 1;
let ops = 0;
let sink = 0;
while (Atomics.load(c, 2) === 0) {
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
