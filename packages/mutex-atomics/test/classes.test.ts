import { describe, expect, it } from 'vitest';
import {
  Barrier,
  Condition,
  configureLatches,
  defaultLatchConfig,
  formatInnodbStatus,
  LatchCounters,
  LegacyRWLock,
  LockStateError,
  LockTimeoutError,
  Mutex,
  MUTEX_SLOTS,
  mutexLockTimeout,
  RW_MAX_X_RECURSION,
  RWLock,
  RWLOCK_SLOTS,
  Semaphore,
  withLock,
  withLockAsync,
  X_LOCK_DECR,
} from '../src/index.js';

describe('Mutex', () => {
  it('lives in its own buffer or in a caller region', () => {
    const own = new Mutex();
    expect(own.int32.length).toBe(MUTEX_SLOTS);
    const region = new Int32Array(new SharedArrayBuffer(64));
    const m = new Mutex({ region: { int32: region, index: 8 } });
    m.lock();
    expect(region[8]).toBe(1);
    expect(region[10]).toBe(1);
    expect(m.owner).toBe(1);
    m.unlock();
    expect(() => new Mutex({ region: { int32: region, index: 14 } })).toThrow(RangeError);
  });

  it('descriptor round-trips to the same lock', () => {
    const m = new Mutex({ innodb_sync_spin_loops: 7, innodb_spin_wait_delay: 2 });
    const d = m.descriptor();
    expect(d).toMatchObject({ kind: 'Mutex', index: 0, spinLoops: 7, spinDelay: 2, length: MUTEX_SLOTS });
    const copy = Mutex.fromDescriptor(structuredClone(d));
    m.lock();
    expect(copy.locked).toBe(true);
    expect(copy.tryLock()).toBe(false);
    copy.unlock(); // same thread: same owner
    expect(m.locked).toBe(false);
  });

  it('rejects bad descriptors with TypeError', () => {
    const d = new Mutex().descriptor();
    expect(() => Mutex.fromDescriptor(null as never)).toThrow(/bad descriptor: expected an object/);
    expect(() => Mutex.fromDescriptor({ ...d, kind: 'RWLock' })).toThrow(/kind must be "Mutex"/);
    expect(() => Mutex.fromDescriptor({ ...d, buffer: new ArrayBuffer(16) as never })).toThrow(
      /SharedArrayBuffer/,
    );
    expect(() => Mutex.fromDescriptor({ ...d, index: -1 })).toThrow(/index must be a non-negative integer/);
    expect(() => Mutex.fromDescriptor({ ...d, index: 1 })).toThrow(RangeError);
    expect(() => Mutex.fromDescriptor({ ...d, length: 100 })).toThrow(/do not fit/);
    expect(() => RWLock.fromDescriptor(d)).toThrow(TypeError);
  });

  it('timed lock and lockAsync time out with LockTimeoutError', async () => {
    const m = new Mutex();
    m.int32[0] = 1; // held by a phantom thread 5
    m.int32[2] = 5;
    expect(() => m.lock(3)).toThrow(LockTimeoutError);
    await expect(m.lockAsync(3)).rejects.toThrow(/not acquired within 3 ms/);
    expect(() => m.unlock()).toThrow(/held by thread 5/);
  });

  it('lockAsync queues tasks of one thread and withLock always releases', async () => {
    const m = new Mutex();
    const order: number[] = [];
    await m.lockAsync();
    const second = m.withLockAsync(() => order.push(2));
    order.push(1);
    setTimeout(() => m.unlock(), 5);
    await second;
    expect(order).toEqual([1, 2]);
    expect(() =>
      withLock(m, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(m.locked).toBe(false);
    expect(await withLockAsync(m, async () => 42)).toBe(42);
    expect(m.withLock(() => m.owner)).toBe(1);
  });

  it('validates options with TypeError/RangeError naming the option', () => {
    expect(() => new Mutex({ innodb_sync_spin_loops: -1 })).toThrow(/innodb_sync_spin_loops must be in/);
    expect(() => new Mutex({ innodb_spin_wait_delay: 1.5 })).toThrow(
      /innodb_spin_wait_delay must be an integer/,
    );
    expect(() => new Mutex({ counters: {} as never })).toThrow(TypeError);
  });
});

describe('RWLock', () => {
  it('refuses S→X upgrade and S under own X, and decodes its state', () => {
    const l = new RWLock();
    l.sLock();
    expect(l.state).toEqual({ lockWord: X_LOCK_DECR - 1, readers: 1, xDepth: 0, waitEx: false });
    expect(() => l.xLock()).toThrow(/S→X upgrade is refused/);
    expect(() => l.tryXLock()).toThrow(LockStateError);
    l.sUnlock();
    expect(() => l.sUnlock()).toThrow(/holds no S lock/);
    l.xLock();
    expect(() => l.sLock()).toThrow(/would deadlock/);
    expect(l.xOwned).toBe(true);
    l.xUnlock();
    expect(l.xOwned).toBe(false);
  });

  it('recurses up to RW_MAX_X_RECURSION and then throws RangeError', () => {
    const l = new RWLock();
    for (let i = 0; i < RW_MAX_X_RECURSION; i++) l.xLock();
    expect(l.state.xDepth).toBe(RW_MAX_X_RECURSION);
    expect(() => l.xLock()).toThrow(RangeError);
    for (let i = 0; i < RW_MAX_X_RECURSION; i++) l.xUnlock();
    expect(l.state.lockWord).toBe(X_LOCK_DECR);
  });

  it('a caller region can hold many rw-locks', () => {
    const region = new Int32Array(new SharedArrayBuffer(RWLOCK_SLOTS * 4 * 10));
    const locks = Array.from(
      { length: 10 },
      (_, f) => new RWLock({ region: { int32: region, index: f * RWLOCK_SLOTS } }),
    );
    locks[3]!.xLock();
    expect(locks[4]!.trySLock()).toBe(true);
    expect(region[3 * RWLOCK_SLOTS]).toBe(0);
    expect(region[4 * RWLOCK_SLOTS]).toBe(X_LOCK_DECR - 1);
    locks[3]!.xUnlock();
    locks[4]!.sUnlock();
  });

  it('withS / withX release on throw', () => {
    const l = new RWLock();
    expect(() =>
      l.withX(() => {
        throw new Error('x');
      }),
    ).toThrow('x');
    expect(l.withS(() => l.state.readers)).toBe(1);
    expect(l.state.lockWord).toBe(X_LOCK_DECR);
  });
});

describe('LegacyRWLock', () => {
  it('S, X, recursion, misuse and timeout', () => {
    const l = new LegacyRWLock();
    l.sLock();
    l.sLock();
    expect(() => l.xLock()).toThrow(/upgrade is refused/);
    l.sUnlock();
    l.sUnlock();
    expect(() => l.sUnlock()).toThrow(LockStateError);
    l.xLock();
    l.xLock();
    expect(() => l.sLock()).toThrow(/would deadlock/);
    l.xUnlock();
    l.xUnlock();
    expect(() => l.xUnlock()).toThrow(/not X-locked/);
    // a phantom writer (thread 9) holds it
    Atomics.store(l.int32, 5, 351);
    Atomics.store(l.int32, 6, 9);
    Atomics.store(l.int32, 7, 1);
    expect(() => l.xUnlock()).toThrow(/X-locked by thread 9/);
    expect(() => l.sLock(3)).toThrow(LockTimeoutError);
    expect(() => l.xLock(3)).toThrow(LockTimeoutError);
  });
});

describe('Semaphore, Condition, Barrier (single thread)', () => {
  it('Semaphore counts permits and times out', async () => {
    const s = new Semaphore(2);
    s.acquire();
    expect(s.tryAcquire()).toBe(true);
    expect(s.tryAcquire()).toBe(false);
    expect(() => s.acquire(2)).toThrow(LockTimeoutError);
    await expect(s.acquireAsync(2)).rejects.toThrow(LockTimeoutError);
    const later = s.acquireAsync(5000);
    s.release();
    await later;
    s.release(2);
    expect(s.permits).toBe(2);
    expect(() => new Semaphore(-1)).toThrow(RangeError);
    expect(() => s.release(1.5)).toThrow(TypeError);
  });

  it('Condition wait times out holding the mutex again; requires the mutex', () => {
    const m = new Mutex();
    const c = new Condition();
    expect(() => c.wait(m, 1)).toThrow(/does not hold the mutex/);
    m.lock();
    expect(c.wait(m, 2)).toBe(false);
    expect(m.owner).toBe(1);
    m.unlock();
  });

  it('Barrier of one party is always serial; bad parties rejected', () => {
    const b = new Barrier(1);
    expect(b.wait()).toBe(true);
    expect(b.wait()).toBe(true);
    expect(() => new Barrier(0)).toThrow(RangeError);
    const b2 = new Barrier(2);
    expect(() => b2.wait(2)).toThrow(LockTimeoutError);
  });
});

describe('counters and SHOW ENGINE INNODB STATUS', () => {
  it('prints the SEMAPHORES lines with rounds per wait', () => {
    const c = new LatchCounters();
    c.add(0, 4); // mutex spin waits
    c.add(2, 90); // mutex rounds
    c.add(4, 1);
    c.add(12, 2); // RW-excl spins
    c.add(14, 45);
    expect(formatInnodbStatus(c)).toBe(
      [
        '----------',
        'SEMAPHORES',
        '----------',
        'OS WAIT ARRAY INFO: reservation count 0, signal count 0',
        'Mutex spin waits 4, rounds 90, OS waits 1',
        'RW-shared spins 0, rounds 0, OS waits 0',
        'RW-excl spins 2, rounds 45, OS waits 0',
        'Spin rounds per wait: 22.50 mutex, 0.00 RW-shared, 22.50 RW-excl',
        '',
      ].join('\n'),
    );
  });

  it('maps to the XtraDB / MariaDB status variable names', () => {
    const c = new LatchCounters();
    c.add(6, 3);
    c.add(16, 2);
    expect(c.statusVariables()).toEqual({
      Innodb_mutex_spin_waits: 0,
      Innodb_mutex_spin_rounds: 0,
      Innodb_mutex_os_waits: 0,
      Innodb_s_lock_spin_waits: 3,
      Innodb_s_lock_spin_rounds: 0,
      Innodb_s_lock_os_waits: 0,
      Innodb_x_lock_spin_waits: 0,
      Innodb_x_lock_spin_rounds: 0,
      Innodb_x_lock_os_waits: 2,
    });
  });

  it('checkValid catches broken slots', () => {
    const m = new Mutex();
    m.checkValid();
    m.int32[2] = 4; // owner without the lock
    expect(() => m.checkValid()).toThrow(/free but owner is 4/);
    const l = new RWLock();
    l.checkValid();
    l.int32[0] = X_LOCK_DECR + 1;
    expect(() => l.checkValid()).toThrow(/out of range/);
    l.int32[0] = 0; // X-locked without an owner
    expect(() => l.checkValid()).toThrow(/recursive=0/);
    const g = new LegacyRWLock();
    g.checkValid();
    g.int32[5] = 352;
    expect(() => g.checkValid()).toThrow(/not 350, 351 or 353/);
  });

  it('64-bit counters carry past 2^32', () => {
    const c = new LatchCounters();
    c.add(2, 0x7fffffff);
    c.add(2, 0x7fffffff);
    c.add(2, 5);
    expect(c.snapshot().mutex.spinRounds).toBe(2 * 0x7fffffff + 5);
    c.reset();
    expect(c.snapshot().mutex.spinRounds).toBe(0);
  });

  it('descriptor shares the counters; configureLatches sets thread defaults', () => {
    const c = new LatchCounters();
    const again = LatchCounters.fromDescriptor(structuredClone(c.descriptor()));
    again.add(4, 3);
    expect(c.snapshot().mutex.osWaits).toBe(3);
    expect(() => LatchCounters.fromDescriptor({} as never)).toThrow(TypeError);
    const saved = { ...defaultLatchConfig };
    try {
      configureLatches({ innodb_sync_spin_loops: 2, innodb_spin_wait_delay: 0, counters: c });
      expect(defaultLatchConfig).toMatchObject({ spinLoops: 2, spinDelay: 0 });
      const a = new Int32Array(new SharedArrayBuffer(16));
      a[0] = 1;
      a[2] = 7;
      // a held mutex: the timed functional call uses the thread defaults and counts into `c`
      expect(mutexLockTimeout(a, 0, 2)).toBe(false);
      const snap = c.snapshot().mutex;
      expect(snap.spinWaits).toBe(1);
      expect(snap.spinRounds).toBeGreaterThanOrEqual(2);
    } finally {
      Object.assign(defaultLatchConfig, saved);
    }
  });
});
