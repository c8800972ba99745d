// A worker of the latches experiment: attach to the shared lock (its counters travel with it),
// warm up on a private lock of the same class, then lock / touch shared data / unlock until the
// stop flag is set. An RW lock is taken in X with probability writePercent, else in S.
import { parentPort, workerData } from 'node:worker_threads';
import { LegacyRWLock, Mutex, RWLock } from '@enginekit/mutex-atomics';

const { kind, lock: descriptor, control, writePercent, seed, warmup } = workerData;
const c = new Int32Array(control); // [0] ready, [1] go, [2] stop, [3] shared data
const cls = kind === 'Mutex' ? Mutex : kind === 'RWLock' ? RWLock : LegacyRWLock;
const threshold = Math.floor((writePercent / 100) * 4294967296);
let x = seed >>> 0 || 1;
let sink = 0;

function loop(lock, budget, watchStop) {
  let ops = 0;
  for (;;) {
    for (let k = 0; k < 64; k++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      if (kind === 'Mutex') {
        lock.lock();
        c[3] = c[3] + 1;
        lock.unlock();
      } else if (x >>> 0 < threshold) {
        lock.xLock();
        c[3] = c[3] + 1;
        lock.xUnlock();
      } else {
        lock.sLock();
        sink ^= c[3];
        lock.sUnlock();
      }
    }
    ops += 64;
    if (ops >= budget || (watchStop && Atomics.load(c, 2) !== 0)) return ops;
  }
}

loop(new cls({ counters: null }), warmup, false);
const lock = cls.fromDescriptor(descriptor);
Atomics.add(c, 0, 1);
while (Atomics.load(c, 1) === 0) Atomics.wait(c, 1, 0, 100);
const ops = loop(lock, Number.POSITIVE_INFINITY, true);
parentPort.postMessage({ ops, sink });
