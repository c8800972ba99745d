// The shared lock table on its own: S/X compatibility, FIFO queues and grants on release,
// upgrades, deadlock cycles (the lighter transaction is the victim), timeouts withdrawing a
// request, one record lock given back (READ COMMITTED's unlock of a rejected row), a full table, checkValid() after every step of a random run against a model of the
// queues, and two real worker threads contending for the same records through one buffer.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  DEADLOCK,
  GRANTED,
  LockTable,
  LockTableFullError,
  MUST_WAIT,
  WAIT_GRANTED,
  WAIT_NONE,
  WAIT_VICTIM,
  WAIT_WAITING,
} from '../../src/txn/lock-table.js';

const key = (n: number): Uint8Array => Uint8Array.of(n >> 8, n & 255);
const lock = (t: LockTable, trx: number, k: number, mode: 'S' | 'X', table = 1) =>
  t.lock(trx, table, key(k), 0, 2, mode);

describe('lock table', () => {
  it('S is shared, X excludes; a release grants the queue in order', () => {
    const t = LockTable.create({ capacity: 64, transactions: 8 });
    const a = t.begin(1);
    const b = t.begin(2);
    const c = t.begin(3);
    expect(lock(t, a, 1, 'S')).toBe(GRANTED);
    expect(lock(t, b, 1, 'S')).toBe(GRANTED);
    expect(lock(t, c, 1, 'X')).toBe(MUST_WAIT);
    expect(t.waitState(c)).toBe(WAIT_WAITING);
    // a later S request queues behind the waiting X (no overtaking)
    const d = t.begin(4);
    expect(lock(t, d, 1, 'S')).toBe(MUST_WAIT);
    t.checkValid();
    t.end(a);
    expect(t.waitState(c)).toBe(WAIT_WAITING);
    t.end(b);
    expect(t.waitState(c)).toBe(WAIT_GRANTED);
    expect(t.waitState(d)).toBe(WAIT_WAITING);
    expect(t.finishWait(c, 5)).toBe(WAIT_GRANTED);
    t.end(c);
    expect(t.waitState(d)).toBe(WAIT_GRANTED);
    t.finishWait(d, 1);
    // a different table or key never conflicts
    const e = t.begin(5);
    expect(lock(t, e, 1, 'X', 2)).toBe(GRANTED);
    expect(lock(t, e, 2, 'X')).toBe(GRANTED);
    t.checkValid();
    t.end(d);
    t.end(e);
    expect(t.inUse).toBe(0);
    expect(t.counters().Innodb_row_lock_waits).toBe(2);
    expect(t.counters().Innodb_row_lock_time).toBe(6);
    expect(t.counters().Innodb_row_lock_time_max).toBe(5);
  });

  it('a transaction re-requesting a lock it holds gets it at once; S upgrades to X when alone', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const a = t.begin(1);
    expect(lock(t, a, 1, 'S')).toBe(GRANTED);
    expect(lock(t, a, 1, 'S')).toBe(GRANTED);
    expect(lock(t, a, 1, 'X')).toBe(GRANTED);
    expect(lock(t, a, 1, 'S')).toBe(GRANTED);
    expect(t.inUse).toBe(1);
    const b = t.begin(2);
    expect(lock(t, b, 1, 'S')).toBe(MUST_WAIT);
    t.checkValid();
    t.end(a);
    expect(t.waitState(b)).toBe(WAIT_GRANTED);
  });

  it('unlocks one record lock of a mode and grants the queue behind it (lock_rec_unlock)', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const a = t.begin(1);
    const b = t.begin(2);
    const rec = (trx: number, k: number, mode: 'S' | 'X', noWait = false) =>
      t.lockRecord(trx, 1, 0, key(k), 0, 2, mode, 8, noWait);
    expect(rec(a, 1, 'X')).toBe(GRANTED);
    expect(t.lastGrantNew).toBe(true);
    // held already: granted without a new lock record (InnoDB's DB_SUCCESS, not ..._LOCKED_REC)
    expect(rec(a, 1, 'X')).toBe(GRANTED);
    expect(t.lastGrantNew).toBe(false);
    expect(rec(a, 2, 'X')).toBe(GRANTED);
    // a request that must not wait leaves nothing queued
    expect(rec(b, 1, 'X', true)).toBe(MUST_WAIT);
    expect(t.waitState(b)).toBe(WAIT_NONE);
    expect(rec(b, 1, 'X')).toBe(MUST_WAIT);
    t.checkValid();
    // the wrong mode, the wrong key or another transaction's lock is not released
    expect(t.unlockRecord(a, 1, 0, key(1), 0, 2, 'S')).toBe(false);
    expect(t.unlockRecord(a, 1, 0, key(3), 0, 2, 'X')).toBe(false);
    expect(t.unlockRecord(b, 1, 0, key(1), 0, 2, 'X')).toBe(false);
    expect(t.waitState(b)).toBe(WAIT_WAITING);
    expect(t.unlockRecord(a, 1, 0, key(1), 0, 2, 'X')).toBe(true);
    expect(t.waitState(b)).toBe(WAIT_GRANTED);
    t.finishWait(b, 0);
    t.checkValid();
    // a keeps its other lock; b's lock on key 1 is in place
    expect(rec(b, 2, 'X', true)).toBe(MUST_WAIT);
    expect(rec(a, 1, 'S', true)).toBe(MUST_WAIT);
    t.end(a);
    t.end(b);
    expect(t.inUse).toBe(0);
  });

  it('finds a two-way deadlock and rolls back the requester when it is not heavier', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const a = t.begin(1);
    const b = t.begin(2);
    expect(lock(t, a, 1, 'X')).toBe(GRANTED);
    expect(lock(t, b, 2, 'X')).toBe(GRANTED);
    expect(lock(t, a, 2, 'X')).toBe(MUST_WAIT);
    expect(lock(t, b, 1, 'X')).toBe(DEADLOCK);
    expect(t.waitState(b)).toBe(WAIT_NONE);
    expect(t.counters().Innodb_deadlocks).toBe(1);
    const d = t.takeDeadlock();
    expect(d?.cycle).toEqual([b, a]);
    expect(d?.victim).toBe(b);
    t.checkValid();
    t.end(b);
    expect(t.waitState(a)).toBe(WAIT_GRANTED);
  });

  it('an S-S upgrade deadlock; the lighter waiting transaction is chosen and woken', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const a = t.begin(1);
    const b = t.begin(2);
    expect(lock(t, a, 1, 'S')).toBe(GRANTED);
    expect(lock(t, b, 1, 'S')).toBe(GRANTED);
    t.setWeight(b, 10); // b has written more
    expect(lock(t, a, 1, 'X')).toBe(MUST_WAIT);
    // b asks for X too: a cycle; a weighs less, so a is the victim and b waits on
    expect(lock(t, b, 1, 'X')).toBe(MUST_WAIT);
    expect(t.waitState(a)).toBe(WAIT_VICTIM);
    expect(t.takeDeadlock()?.victim).toBe(a);
    t.checkValid();
    // the victim rolls back and releases: b's upgrade goes through
    t.finishWait(a, 0);
    t.end(a);
    expect(t.waitState(b)).toBe(WAIT_GRANTED);
    t.finishWait(b, 0);
    t.end(b);
    t.checkValid();
  });

  it('a requester on two cycles: after one victim, the search runs again', () => {
    // the queue on record 5 once was [a:S, b:X waiting, c:X waiting]; a's upgrade closes a
    // cycle with b and another with c; both are lighter than a and both must go
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const [a, b, c] = [t.begin(1), t.begin(2), t.begin(3)];
    expect(lock(t, a, 5, 'S')).toBe(GRANTED);
    t.setWeight(a, 5);
    expect(lock(t, b, 5, 'X')).toBe(MUST_WAIT);
    expect(lock(t, c, 5, 'X')).toBe(MUST_WAIT);
    expect(lock(t, a, 5, 'X')).toBe(MUST_WAIT);
    expect([t.waitState(b), t.waitState(c)]).toEqual([WAIT_VICTIM, WAIT_VICTIM]);
    expect(t.waitState(a)).toBe(WAIT_GRANTED);
    expect(t.counters().Innodb_deadlocks).toBe(2);
    t.checkValid();
  });

  it('a three-way cycle', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const [a, b, c] = [t.begin(1), t.begin(2), t.begin(3)];
    lock(t, a, 1, 'X');
    lock(t, b, 2, 'X');
    lock(t, c, 3, 'X');
    expect(lock(t, a, 2, 'S')).toBe(MUST_WAIT);
    expect(lock(t, b, 3, 'S')).toBe(MUST_WAIT);
    expect(lock(t, c, 1, 'S')).toBe(DEADLOCK);
    expect(t.takeDeadlock()?.cycle).toEqual([c, a, b]);
  });

  it('a timed-out request is withdrawn and lets later ones through', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const [a, b, c] = [t.begin(1), t.begin(2), t.begin(3)];
    lock(t, a, 1, 'S');
    expect(lock(t, b, 1, 'X')).toBe(MUST_WAIT);
    expect(lock(t, c, 1, 'S')).toBe(MUST_WAIT);
    // b gives up: c no longer queues behind an X
    expect(t.finishWait(b, 50)).toBe(WAIT_WAITING);
    expect(t.waitState(c)).toBe(WAIT_GRANTED);
    t.checkValid();
    expect(t.cancel(c)).toBe(false);
  });

  it('reports a full table and refuses a buffer it did not make', () => {
    const t = LockTable.create({ capacity: 2, maxCapacity: 2, transactions: 1 });
    const a = t.begin(1);
    lock(t, a, 1, 'S');
    lock(t, a, 2, 'S');
    expect(() => lock(t, a, 3, 'S')).toThrow(LockTableFullError);
    expect(() => t.begin(2)).toThrow(LockTableFullError);
    expect(() => new LockTable(new SharedArrayBuffer(64))).toThrow(RangeError);
    expect(() => LockTable.create({ capacity: 0 })).toThrow(RangeError);
  });

  it('random requests and ends keep the structure valid and never grant conflicting locks', () => {
    const t = LockTable.create({ capacity: 512, transactions: 6 });
    let x = 12345;
    const pick = (n: number): number => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const slots: number[] = [];
    for (let i = 0; i < 6; i++) slots.push(t.begin(i + 1));
    // model: granted holders per key; a waiting transaction does nothing until woken
    for (let step = 0; step < 3000; step++) {
      const s = slots[pick(slots.length)]!;
      const st = t.waitState(s);
      if (st === WAIT_WAITING) continue;
      if (st !== WAIT_NONE) t.finishWait(s, 0);
      if (st === WAIT_VICTIM || pick(8) === 0) {
        t.end(s);
        slots[slots.indexOf(s)] = t.begin(100 + step);
      } else if (pick(6) === 0) {
        // a READ COMMITTED read giving back a row the WHERE clause rejected
        t.unlockRecord(s, 1, 0, key(pick(6)), 0, 2, pick(2) === 0 ? 'S' : 'X');
      } else {
        const r = lock(t, s, pick(6), pick(2) === 0 ? 'S' : 'X');
        if (r === DEADLOCK) {
          t.end(s);
          slots[slots.indexOf(s)] = t.begin(100 + step);
        }
      }
      t.checkValid();
    }
    expect(t.counters().Innodb_deadlocks).toBeGreaterThan(0);
  });

  it('two worker threads share one table through its SharedArrayBuffer', async () => {
    const t = LockTable.create({ capacity: 64, transactions: 4 });
    const main = t.begin(1);
    expect(lock(t, main, 7, 'X')).toBe(GRANTED);
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const { int32, index, start } = workerData;
      // sleep until the main thread's grant wakes this thread's wait word
      parentPort.postMessage('waiting');
      const r = Atomics.wait(int32, index, start, 10000);
      parentPort.postMessage(r + ':' + Atomics.load(int32, index));
    `;
    // the waiter: a transaction queued behind main's X lock, sleeping in another thread
    const other = t.begin(2);
    expect(lock(t, other, 7, 'S')).toBe(MUST_WAIT);
    const w = t.waitWord(other);
    const worker = new Worker(code, {
      eval: true,
      workerData: { int32: w.int32, index: w.index, start: WAIT_WAITING },
    });
    const messages: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: string) => {
        messages.push(m);
        if (m === 'waiting') setTimeout(() => t.end(main), 50);
        else resolve();
      });
      worker.on('error', reject);
    });
    await done;
    await worker.terminate();
    expect(messages[1]).toBe(`ok:${WAIT_GRANTED}`);
    // and a second attachment over the same buffer sees the same state
    const view = new LockTable(t.buffer);
    expect(view.waitState(other)).toBe(WAIT_GRANTED);
    expect(view.inUse).toBe(1);
  });
});
