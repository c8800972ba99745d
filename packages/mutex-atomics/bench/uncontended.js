// Uncontended lock+unlock on one thread, ns per pair, with benny. LOOP pairs per benny call.
import b from 'benny';
import { Mutex as AsyncMutex } from 'async-mutex';
import {
  LegacyRWLock,
  Mutex,
  MUTEX_SLOTS,
  mutexInit,
  mutexLock,
  mutexUnlock,
  RWLOCK_SLOTS,
  RWLock,
  rwInit,
  rwSLock,
  rwSUnlock,
  rwXLock,
  rwXUnlock,
  utDelay,
} from '../dist/index.js';

const LOOP = 1000;
const ASYNC_LOOP = 100;

function ns(result, loop) {
  return 1e9 / (result.ops * loop);
}

export async function runUncontended() {
  const a = new Int32Array(new SharedArrayBuffer((MUTEX_SLOTS + RWLOCK_SLOTS + 2) * 4));
  mutexInit(a, 0);
  rwInit(a, MUTEX_SLOTS);
  const bare = MUTEX_SLOTS + RWLOCK_SLOTS;
  const m = new Mutex();
  const rw = new RWLock();
  const legacy = new LegacyRWLock();
  const am = new AsyncMutex();
  const loops = new Map();
  const add = (name, loop, fn) => {
    loops.set(name, loop);
    return b.add(name, fn);
  };
  const rows = [];
  const units = new Int32Array(8).fill(1);
  await b.suite(
    'uncontended lock + unlock',
    b.configure({ cases: { maxTime: Number(process.env.BENCH_CASE_S ?? 2) } }),
    add('bare CAS + store (floor)', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        Atomics.compareExchange(a, bare, 0, 1);
        Atomics.store(a, bare, 0);
      }
    }),
    add('mutexLock/mutexUnlock (functional)', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        mutexLock(a, 0);
        mutexUnlock(a, 0);
      }
    }),
    add('Mutex lock/unlock', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        m.lock();
        m.unlock();
      }
    }),
    add('rwSLock/rwSUnlock (functional)', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        rwSLock(a, MUTEX_SLOTS);
        rwSUnlock(a, MUTEX_SLOTS);
      }
    }),
    add('rwXLock/rwXUnlock (functional)', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        rwXLock(a, MUTEX_SLOTS);
        rwXUnlock(a, MUTEX_SLOTS);
      }
    }),
    add('RWLock sLock/sUnlock', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        rw.sLock();
        rw.sUnlock();
      }
    }),
    add('RWLock xLock/xUnlock', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        rw.xLock();
        rw.xUnlock();
      }
    }),
    add('LegacyRWLock sLock/sUnlock', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        legacy.sLock();
        legacy.sUnlock();
      }
    }),
    add('LegacyRWLock xLock/xUnlock', LOOP, () => {
      for (let i = 0; i < LOOP; i++) {
        legacy.xLock();
        legacy.xUnlock();
      }
    }),
    add('Atomics.notify with nobody waiting (what unlock skips)', LOOP, () => {
      for (let i = 0; i < LOOP; i++) Atomics.notify(a, bare + 1);
    }),
    add('Mutex lockAsync/unlock (await)', ASYNC_LOOP, async () => {
      for (let i = 0; i < ASYNC_LOOP; i++) {
        await m.lockAsync();
        m.unlock();
      }
    }),
    add('async-mutex acquire/release (await, peer)', ASYNC_LOOP, async () => {
      for (let i = 0; i < ASYNC_LOOP; i++) {
        const release = await am.acquire();
        release();
      }
    }),
    add('ut_delay(1): one spin-delay unit (argument read from memory)', LOOP, () => {
      // a constant argument lets the JIT fold the 50-step loop away; a lock passes a random one
      for (let i = 0; i < LOOP; i++) utDelay(units[i & 7]);
    }),
    b.cycle(),
    b.complete((s) => {
      for (const r of s.results) rows.push({ name: r.name, ns: ns(r, loops.get(r.name)), margin: r.margin });
    }),
  );
  return rows;
}
