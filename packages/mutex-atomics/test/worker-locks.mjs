// Worker for class-level tests. workerData: { scenario, lock (descriptor), shared (SharedArrayBuffer), ... }
// shared Int32 slots used by scenarios: [0] plain counter, [1] active readers, [2] active writers,
// [3] violations, [4] flag, [5] max concurrency seen, [6] scratch, [7] scratch
import { parentPort, workerData } from 'node:worker_threads';
import {
  Barrier,
  Condition,
  LatchCounters,
  LegacyRWLock,
  LockStateError,
  Mutex,
  RWLock,
  Semaphore,
  THREAD_ID,
  configureLatches,
} from '../dist/index.js';

const w = workerData;
const s = new Int32Array(w.shared);
const post = (m) => parentPort.postMessage(m);
if (w.counters) configureLatches({ counters: LatchCounters.fromDescriptor(w.counters) });

function busy(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x + i) | 0;
  return x;
}

function rwLoop(lock, iterations, writeEvery) {
  for (let i = 0; i < iterations; i++) {
    if (i % writeEvery === 0) {
      lock.xLock();
      if (Atomics.add(s, 2, 1) !== 0 || Atomics.load(s, 1) !== 0) Atomics.add(s, 3, 1);
      s[0] = s[0] + 1;
      busy(20);
      Atomics.sub(s, 2, 1);
      lock.xUnlock();
    } else {
      lock.sLock();
      Atomics.add(s, 1, 1);
      if (Atomics.load(s, 2) !== 0) Atomics.add(s, 3, 1);
      busy(20);
      Atomics.sub(s, 1, 1);
      lock.sUnlock();
    }
  }
}

switch (w.scenario) {
  case 'mutex-count': {
    const m = Mutex.fromDescriptor(w.lock);
    for (let i = 0; i < w.iterations; i++) {
      m.lock();
      const v = s[0];
      busy(5);
      s[0] = v + 1;
      m.unlock();
    }
    post({ ok: true, threadId: THREAD_ID });
    break;
  }
  case 'rw-mix': {
    rwLoop(RWLock.fromDescriptor(w.lock), w.iterations, w.writeEvery);
    post({ ok: true });
    break;
  }
  case 'legacy-s-once': {
    // One S lock and unlock; reports how long it waited.
    const l = LegacyRWLock.fromDescriptor(w.lock);
    const t0 = performance.now();
    l.sLock();
    const waited = performance.now() - t0;
    l.sUnlock();
    post({ ok: true, waited });
    break;
  }
  case 'legacy-mix': {
    rwLoop(LegacyRWLock.fromDescriptor(w.lock), w.iterations, w.writeEvery);
    post({ ok: true });
    break;
  }
  case 'rw-recursion': {
    const l = RWLock.fromDescriptor(w.lock);
    const depths = [];
    for (let i = 0; i < w.iterations; i++) {
      l.xLock();
      l.xLock();
      l.xLock();
      if (Atomics.add(s, 2, 1) !== 0) Atomics.add(s, 3, 1);
      depths.push(l.state.xDepth);
      s[0] = s[0] + 1;
      Atomics.sub(s, 2, 1);
      l.xUnlock();
      l.xUnlock();
      if (l.state.xDepth !== 1 || !l.xOwned) Atomics.add(s, 3, 1);
      l.xUnlock();
    }
    post({ ok: true, maxDepth: Math.max(...depths), minDepth: Math.min(...depths) });
    break;
  }
  case 'reader-stream': {
    // keep S holds overlapping with the other readers until the writer is done or a time bound passes
    const l = RWLock.fromDescriptor(w.lock);
    const until = Date.now() + w.boundMs;
    let holds = 0;
    Atomics.add(s, 6, 1); // readers started
    while (Atomics.load(s, 4) === 0 && Date.now() < until) {
      l.sLock();
      holds++;
      busy(2000);
      l.sUnlock();
    }
    post({ ok: true, holds, writerDone: Atomics.load(s, 4) === 1 });
    break;
  }
  case 'writer-in-stream': {
    const l = RWLock.fromDescriptor(w.lock);
    while (Atomics.load(s, 6) < w.readers) Atomics.wait(s, 7, 0, 1); // wait until readers run
    busy(200_000);
    const t0 = Date.now();
    l.xLock();
    const readersInside = Atomics.load(s, 1);
    Atomics.store(s, 4, 1);
    l.xUnlock();
    post({ ok: true, ms: Date.now() - t0, readersInside });
    break;
  }
  case 'hold-until-flag': {
    const l = w.kind === 'RWLock' ? RWLock.fromDescriptor(w.lock) : Mutex.fromDescriptor(w.lock);
    if (w.kind === 'RWLock') l.xLock();
    else l.lock();
    Atomics.store(s, 6, 1);
    Atomics.notify(s, 6);
    const r = Atomics.wait(s, 4, 0, 10_000);
    if (w.kind === 'RWLock') l.xUnlock();
    else l.unlock();
    post({ ok: true, waited: r });
    break;
  }
  case 'misuse': {
    const m = Mutex.fromDescriptor(w.lock);
    const errors = [];
    try {
      m.unlock();
    } catch (e) {
      errors.push(`${e instanceof LockStateError}:${e.message}`);
    }
    const r = RWLock.fromDescriptor(w.rw);
    try {
      r.xUnlock();
    } catch (e) {
      errors.push(`${e instanceof LockStateError}:${e.message}`);
    }
    post({ ok: true, errors });
    break;
  }
  case 'semaphore': {
    const sem = Semaphore.fromDescriptor(w.lock);
    for (let i = 0; i < w.iterations; i++) {
      sem.acquire(10_000);
      const now = Atomics.add(s, 1, 1) + 1;
      let max = Atomics.load(s, 5);
      while (now > max) {
        const seen = Atomics.compareExchange(s, 5, max, now);
        if (seen === max) break;
        max = seen;
      }
      busy(500);
      Atomics.sub(s, 1, 1);
      sem.release();
    }
    post({ ok: true });
    break;
  }
  case 'barrier': {
    const b = Barrier.fromDescriptor(w.lock);
    let serial = 0;
    for (let round = 0; round < w.iterations; round++) {
      Atomics.add(s, 0, 1);
      if (b.wait(10_000)) serial++;
      // after the barrier every party of this round has arrived
      if (Atomics.load(s, 0) < (round + 1) * w.parties) Atomics.add(s, 3, 1);
      if (b.wait(10_000)) serial++;
    }
    post({ ok: true, serial });
    break;
  }
  case 'condition-consumer': {
    const m = Mutex.fromDescriptor(w.lock);
    const c = Condition.fromDescriptor(w.cond);
    let got = 0;
    m.lock();
    while (got < w.iterations) {
      while (s[0] === 0) c.wait(m, 10_000);
      s[0] = s[0] - 1;
      got++;
      c.notifyAll();
    }
    m.unlock();
    post({ ok: true, got });
    break;
  }
  case 'condition-producer': {
    const m = Mutex.fromDescriptor(w.lock);
    const c = Condition.fromDescriptor(w.cond);
    for (let i = 0; i < w.iterations; i++) {
      m.lock();
      while (s[0] >= 4) c.wait(m, 10_000);
      s[0] = s[0] + 1;
      s[6] = s[6] + 1;
      c.notifyAll();
      m.unlock();
    }
    post({ ok: true });
    break;
  }
  default:
    throw new Error(`unknown scenario ${w.scenario}`);
}
