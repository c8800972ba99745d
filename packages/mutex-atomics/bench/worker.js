// One contending worker: lock / small critical section / unlock until the stop flag is set.
// control Int32 slots: [0] ready count, [1] go flag, [2] stop flag, [3..] plain shared data
import { parentPort, workerData } from 'node:worker_threads';
import { configureLatches, LatchCounters, LegacyRWLock, Mutex, RWLock } from '../dist/index.js';

const { kind, lock: descriptor, control, writePercent, counters, sampleEvery } = workerData;
configureLatches({ counters: LatchCounters.fromDescriptor(counters) });
const c = new Int32Array(control);
const lock =
  kind === 'Mutex'
    ? Mutex.fromDescriptor(descriptor)
    : kind === 'RWLock'
      ? RWLock.fromDescriptor(descriptor)
      : LegacyRWLock.fromDescriptor(descriptor);

// per-thread xorshift for the read/write choice
let seed = workerData.seed | 0 || 1;
const SAMPLES = 1 << 16;
const waits = new Float64Array(SAMPLES);
let nWaits = 0;

function criticalSection() {
  // small: read-modify-write of shared plain words
  const v = c[3];
  c[4] = c[4] + (v & 1);
  c[3] = v + 1;
}
function readSection() {
  return (c[3] + c[4]) | 0;
}

Atomics.add(c, 0, 1);
Atomics.notify(c, 0);
while (Atomics.load(c, 1) === 0) Atomics.wait(c, 1, 0, 1000);

let ops = 0;
let sink = 0;
const isMutex = kind === 'Mutex';
for (;;) {
  for (let k = 0; k < 64; k++) {
    const sample = (ops & (sampleEvery - 1)) === 0 && nWaits < SAMPLES;
    const t0 = sample ? performance.now() : 0;
    if (isMutex) {
      lock.lock();
      if (sample) waits[nWaits++] = performance.now() - t0;
      criticalSection();
      lock.unlock();
    } else {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      if ((seed >>> 0) % 100 < writePercent) {
        lock.xLock();
        if (sample) waits[nWaits++] = performance.now() - t0;
        criticalSection();
        lock.xUnlock();
      } else {
        lock.sLock();
        if (sample) waits[nWaits++] = performance.now() - t0;
        sink ^= readSection();
        lock.sUnlock();
      }
    }
    ops++;
  }
  if (Atomics.load(c, 2) !== 0) break;
}
parentPort.postMessage({ ops, waits: waits.slice(0, nWaits), sink });
