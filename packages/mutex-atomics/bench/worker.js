// One contending worker: lock / small critical section / unlock until the stop flag is set.
// control Int32 slots: [0] ready count, [1] go flag, [2] stop flag, [3], [4] plain shared data
import { parentPort, workerData } from 'node:worker_threads';
import { configureLatches, LatchCounters, LegacyRWLock, Mutex, RWLock } from '../dist/index.js';

const { kind, lock: descriptor, control, writePercent, counters, warmup } = workerData;
configureLatches({ counters: LatchCounters.fromDescriptor(counters) });
const c = new Int32Array(control);
const attach = (d) =>
  kind === 'Mutex'
    ? Mutex.fromDescriptor(d)
    : kind === 'RWLock'
      ? RWLock.fromDescriptor(d)
      : LegacyRWLock.fromDescriptor(d);
const lock = attach(descriptor);
// writes happen when the next xorshift value is below this threshold (no modulo in the loop)
const threshold = Math.floor((writePercent / 100) * 4294967296);
const SAMPLE_MASK = 63; // time one acquisition in 64
const SAMPLES = 1 << 15;
const waits = new Float64Array(SAMPLES);
let nWaits = 0;
let seed = workerData.seed | 0 || 1;
let sink = 0;

function run(l, budget, stopFlag, record) {
  let ops = 0;
  for (;;) {
    for (let k = 0; k < 64; k++) {
      const sample = record && (ops & SAMPLE_MASK) === 0 && nWaits < SAMPLES;
      const t0 = sample ? performance.now() : 0;
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      if (kind === 'Mutex') {
        l.lock();
        if (sample) waits[nWaits++] = performance.now() - t0;
        const v = c[3];
        c[3] = v + 1;
        l.unlock();
      } else if (seed >>> 0 < threshold) {
        l.xLock();
        if (sample) waits[nWaits++] = performance.now() - t0;
        const v = c[3];
        c[3] = v + 1;
        l.xUnlock();
      } else {
        l.sLock();
        if (sample) waits[nWaits++] = performance.now() - t0;
        sink ^= c[3];
        l.sUnlock();
      }
      ops++;
    }
    if (ops >= budget || (stopFlag && Atomics.load(c, 2) !== 0)) return ops;
  }
}

// warm the JIT on a private lock of the same class before the clock starts
const own =
  kind === 'Mutex'
    ? new Mutex({ counters: null })
    : kind === 'RWLock'
      ? new RWLock({ counters: null })
      : new LegacyRWLock({ counters: null });
run(own, warmup, false, false);

Atomics.add(c, 0, 1);
Atomics.notify(c, 0);
while (Atomics.load(c, 1) === 0) Atomics.wait(c, 1, 0, 1000);
const ops = run(lock, Number.POSITIVE_INFINITY, true, true);
parentPort.postMessage({ ops, waits: waits.slice(0, nWaits), sink });
