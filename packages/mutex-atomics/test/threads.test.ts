import { describe, expect, it } from 'vitest';
import { lib } from './built.js';
import { spawn, spawnMany } from './harness.js';

const {
  Barrier,
  Condition,
  LatchCounters,
  LegacyRWLock,
  LockTimeoutError,
  Mutex,
  RWLock,
  Semaphore,
  X_LOCK_DECR,
} = lib;

const sharedInts = (): { shared: SharedArrayBuffer; s: Int32Array } => {
  const shared = new SharedArrayBuffer(16 * 4);
  return { shared, s: new Int32Array(shared) };
};

describe('classes across real worker threads', () => {
  it('Mutex: 4 workers x 5000 read-modify-write sections give the exact total; counters are shared', async () => {
    const counters = new LatchCounters();
    const m = new Mutex({ counters });
    const { shared, s } = sharedInts();
    const replies = await spawnMany(4, {
      scenario: 'mutex-count',
      lock: m.descriptor(),
      shared,
      iterations: 5000,
    });
    expect(s[0]).toBe(20_000);
    expect(m.locked).toBe(false);
    m.checkValid();
    expect(new Set(replies.map((r) => r.threadId)).size).toBe(4);
    const snap = counters.snapshot();
    expect(snap.mutex.osWaits).toBeLessThanOrEqual(snap.reservations);
    expect(snap.rwShared.spinWaits + snap.rwExcl.spinWaits).toBe(0);
  });

  it('RWLock: 4 workers, 90/10 mix: no reader beside a writer, writers exclusive, exact writes', async () => {
    const l = new RWLock();
    const { shared, s } = sharedInts();
    await spawnMany(4, {
      scenario: 'rw-mix',
      lock: l.descriptor(),
      shared,
      iterations: 4000,
      writeEvery: 10,
    });
    expect(s[3]).toBe(0);
    expect(s[0]).toBe(4 * 400);
    l.checkValid();
    expect(l.state).toEqual({ lockWord: X_LOCK_DECR, readers: 0, xDepth: 0, waitEx: false });
  });

  it('LegacyRWLock: same invariants with the mutex-guarded design', async () => {
    const l = new LegacyRWLock();
    const { shared, s } = sharedInts();
    await spawnMany(4, {
      scenario: 'legacy-mix',
      lock: l.descriptor(),
      shared,
      iterations: 2000,
      writeEvery: 2,
    });
    expect(s[3]).toBe(0);
    expect(s[0]).toBe(4 * 1000);
    l.checkValid();
  });

  it('RWLock: recursive X in 3 workers keeps depth 3 and exclusivity', async () => {
    const l = new RWLock();
    const { shared, s } = sharedInts();
    const replies = await spawnMany(3, {
      scenario: 'rw-recursion',
      lock: l.descriptor(),
      shared,
      iterations: 500,
    });
    expect(s[3]).toBe(0);
    expect(s[0]).toBe(1500);
    for (const r of replies) expect([r.minDepth, r.maxDepth]).toEqual([3, 3]);
  });

  it('wait-ex: a writer gets in while readers keep arriving with overlapping holds', async () => {
    const l = new RWLock();
    const { shared, s } = sharedInts();
    const readers = 3;
    const readerRuns = Array.from({ length: readers }, () =>
      spawn({ scenario: 'reader-stream', lock: l.descriptor(), shared, boundMs: 5000 }),
    );
    const writer = await spawn({ scenario: 'writer-in-stream', lock: l.descriptor(), shared, readers });
    const rs = await Promise.all(readerRuns);
    expect(writer.readersInside).toBe(0);
    expect(s[4]).toBe(1);
    // every reader stopped because the writer finished, not because its 5 s bound ran out
    for (const r of rs) expect(r.writerDone).toBe(true);
  });

  it('timed lock across threads: LockTimeoutError while a worker holds it, lockAsync once released', async () => {
    const m = new Mutex();
    const { shared, s } = sharedInts();
    const holder = spawn({ scenario: 'hold-until-flag', kind: 'Mutex', lock: m.descriptor(), shared });
    while (Atomics.load(s, 6) === 0) await new Promise((r) => setTimeout(r, 2));
    expect(() => m.lock(10)).toThrow(LockTimeoutError);
    await expect(m.lockAsync(10)).rejects.toThrow(LockTimeoutError);
    expect(m.tryLock()).toBe(false);
    const acquired = m.lockAsync(10_000);
    Atomics.store(s, 4, 1);
    Atomics.notify(s, 4);
    await acquired;
    expect(m.owner).toBe(1);
    m.unlock();
    await holder;
  });

  it('RWLock timed S and async X while a worker holds X', async () => {
    const l = new RWLock();
    const { shared, s } = sharedInts();
    const holder = spawn({ scenario: 'hold-until-flag', kind: 'RWLock', lock: l.descriptor(), shared });
    while (Atomics.load(s, 6) === 0) await new Promise((r) => setTimeout(r, 2));
    expect(() => l.sLock(10)).toThrow(LockTimeoutError);
    expect(() => l.xLock(10)).toThrow(LockTimeoutError);
    await expect(l.sLockAsync(10)).rejects.toThrow(LockTimeoutError);
    const x = l.xLockAsync(10_000);
    Atomics.store(s, 4, 1);
    Atomics.notify(s, 4);
    await x;
    expect(l.xOwned).toBe(true);
    l.xUnlock();
    await holder;
  });

  it('unlock by a non-owner worker is a LockStateError naming both threads', async () => {
    const m = new Mutex();
    const rw = new RWLock();
    m.lock();
    rw.xLock();
    const { shared } = sharedInts();
    const r = await spawn({ scenario: 'misuse', lock: m.descriptor(), rw: rw.descriptor(), shared });
    const errors = r.errors as string[];
    expect(errors[0]).toMatch(/^true:mutexUnlock: .* held by thread 1, not by the caller \(thread \d+\)/);
    expect(errors[1]).toMatch(/^true:rwXUnlock: .* X-locked by thread 1, not by the caller/);
    m.unlock();
    rw.xUnlock();
  });

  it('Semaphore(2): never more than 2 workers inside', async () => {
    const sem = new Semaphore(2);
    const { shared, s } = sharedInts();
    await spawnMany(4, { scenario: 'semaphore', lock: sem.descriptor(), shared, iterations: 300 });
    expect(s[5]).toBeGreaterThanOrEqual(1);
    expect(s[5]).toBeLessThanOrEqual(2);
    expect(sem.permits).toBe(2);
  });

  it('Barrier: 4 parties x 100 rounds, one serial thread per round', async () => {
    const b = new Barrier(4);
    const { shared, s } = sharedInts();
    const rs = await spawnMany(4, {
      scenario: 'barrier',
      lock: b.descriptor(),
      shared,
      iterations: 100,
      parties: 4,
    });
    expect(s[3]).toBe(0);
    expect(rs.reduce((t, r) => t + (r.serial as number), 0)).toBe(200);
  });

  it('Condition: bounded buffer, 2 producers and 2 consumers hand over every item', async () => {
    const m = new Mutex();
    const c = new Condition();
    const { shared, s } = sharedInts();
    const base = { lock: m.descriptor(), cond: c.descriptor(), shared, iterations: 500 };
    const rs = await Promise.all([
      spawn({ ...base, scenario: 'condition-producer' }),
      spawn({ ...base, scenario: 'condition-producer' }),
      spawn({ ...base, scenario: 'condition-consumer' }),
      spawn({ ...base, scenario: 'condition-consumer' }),
    ]);
    expect(s[6]).toBe(1000);
    expect(s[0]).toBe(0);
    expect(rs.filter((r) => r.got === 500)).toHaveLength(2);
  });

  it('no lost wake-ups when every wait goes straight to sleep (innodb_sync_spin_loops = 0)', async () => {
    const counters = new LatchCounters();
    const opts = { innodb_sync_spin_loops: 0, innodb_spin_wait_delay: 0, counters };
    const m = new Mutex(opts);
    const a = sharedInts();
    const rw = new RWLock(opts);
    const b = sharedInts();
    const legacy = new LegacyRWLock(opts);
    const c = sharedInts();
    await Promise.all([
      spawnMany(3, { scenario: 'mutex-count', lock: m.descriptor(), shared: a.shared, iterations: 3000 }),
      spawnMany(3, {
        scenario: 'rw-mix',
        lock: rw.descriptor(),
        shared: b.shared,
        iterations: 3000,
        writeEvery: 3,
      }),
      spawnMany(3, {
        scenario: 'legacy-mix',
        lock: legacy.descriptor(),
        shared: c.shared,
        iterations: 1500,
        writeEvery: 3,
      }),
    ]);
    expect(a.s[0]).toBe(9000);
    expect(b.s[3]).toBe(0);
    expect(b.s[0]).toBe(3 * 1000);
    expect(c.s[3]).toBe(0);
    expect(c.s[0]).toBe(3 * 500);
    const snap = counters.snapshot();
    expect(snap.mutex.spinRounds).toBe(0); // no spinning at all with 0 loops
  });
});
