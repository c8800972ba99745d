// Worker for functional-layer tests: hammers one lock and a NON-atomic counter.
import { parentPort, workerData } from 'node:worker_threads';
import {
  mutexLock,
  mutexUnlock,
  rwSLock,
  rwSUnlock,
  rwXLock,
  rwXUnlock,
  X_LOCK_DECR,
} from '../dist/index.js';

const { buffer, mode, iterations, writeEvery } = workerData;
const int32 = new Int32Array(buffer);
// layout: [0..8) lock, [8] plain counter, [9] active readers (atomic), [10] active writers (atomic), [11] violations
const plain = new Int32Array(buffer); // plain (non-atomic) reads and writes of slot 8
let reads = 0;
if (mode === 'mutex') {
  for (let i = 0; i < iterations; i++) {
    mutexLock(int32, 0);
    const v = plain[8];
    plain[8] = v + 1;
    mutexUnlock(int32, 0);
  }
} else {
  for (let i = 0; i < iterations; i++) {
    if (i % writeEvery === 0) {
      rwXLock(int32, 0);
      if (Atomics.add(int32, 10, 1) !== 0 || Atomics.load(int32, 9) !== 0) Atomics.add(int32, 11, 1);
      if (Atomics.load(int32, 0) > 0 || Atomics.load(int32, 0) <= -X_LOCK_DECR) Atomics.add(int32, 11, 1);
      const v = plain[8];
      plain[8] = v + 1;
      Atomics.sub(int32, 10, 1);
      rwXUnlock(int32, 0);
    } else {
      rwSLock(int32, 0);
      Atomics.add(int32, 9, 1);
      if (Atomics.load(int32, 10) !== 0) Atomics.add(int32, 11, 1);
      reads += plain[8] >= 0 ? 1 : 0;
      Atomics.sub(int32, 9, 1);
      rwSUnlock(int32, 0);
    }
  }
}
parentPort.postMessage({ done: true, reads });
