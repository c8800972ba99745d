import { describe, expect, it } from 'vitest';
import { randomDelayUnits, randomDelayUnits51 } from '../src/config.js';
import {
  calibrateUtDelay,
  DEFAULT_SPIN_LOOPS,
  DEFAULT_SPIN_LOOPS_51,
  DEFAULT_SPIN_WAIT_DELAY_51,
  LEGACY_RWLOCK_SLOTS,
  LegacyRWLock,
} from '../src/index.js';
import { fastMutexLock, fastMutexTryLock, fastMutexUnlock } from '../src/internal/mutex51.js';
import { waitAsync } from '../src/internal/wait-async.js';
import { lib } from './built.js';
import { spawn } from './harness.js';

describe('LegacyRWLock: the built-in InnoDB of MySQL 5.1', () => {
  it('spins with 5.1 defaults 20/5 (storage/innobase/srv/srv0srv.c srv_n_spin_wait_rounds, srv_spin_wait_delay)', () => {
    expect(DEFAULT_SPIN_LOOPS_51).toBe(20);
    expect(DEFAULT_SPIN_WAIT_DELAY_51).toBe(5);
    const l = new LegacyRWLock();
    expect(l.latchConfig.spinLoops).toBe(20);
    expect(l.latchConfig.spinDelay).toBe(5);
    const o = new LegacyRWLock({ innodb_sync_spin_loops: DEFAULT_SPIN_LOOPS, innodb_spin_wait_delay: 6 });
    expect(o.latchConfig.spinLoops).toBe(30);
    expect(o.latchConfig.spinDelay).toBe(6);
    // A worker attaching to it gets the creator's configuration.
    expect(LegacyRWLock.fromDescriptor(l.descriptor()).latchConfig.spinLoops).toBe(20);
  });

  it('draws the random delay from 0..delay inclusive, as 5.1 ut_rnd_interval (include/ut0rnd.ic)', () => {
    // 5.1: low + rnd % (high - low + 1); 5.5/5.6/MariaDB 10.0: low + rnd % (high - low).
    const seen51 = new Set<number>();
    const seen55 = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      seen51.add(randomDelayUnits51(5));
      seen55.add(randomDelayUnits(5));
    }
    expect([...seen51].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...seen55].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('guards its fields with a pthread-style mutex: free between calls, futex word 0', () => {
    const l = new LegacyRWLock();
    expect(LEGACY_RWLOCK_SLOTS).toBe(11);
    l.sLock();
    l.sLock();
    expect(l.int32[l.index + 10]).toBe(0);
    expect(l.int32[l.index]).toBe(0);
    l.sUnlock();
    l.sUnlock();
    l.withX(() => {
      expect(l.int32[l.index + 5]).toBe(351);
      expect(l.int32[l.index + 10]).toBe(0);
    });
    l.checkValid();
  });
});

describe('os_fast_mutex as glibc models it (nptl lowlevellock: 0 free, 1 locked, 2 contended)', () => {
  const word = () => new Int32Array(new SharedArrayBuffer(4));

  it('trylock is CAS 0→1 and fails (EBUSY) while held, whatever the state', () => {
    const a = word();
    expect(fastMutexTryLock(a, 0)).toBe(true);
    expect(a[0]).toBe(1);
    expect(fastMutexTryLock(a, 0)).toBe(false);
    a[0] = 2;
    expect(fastMutexTryLock(a, 0)).toBe(false);
    fastMutexUnlock(a, 0);
    expect(a[0]).toBe(0);
    fastMutexLock(a, 0);
    expect(a[0]).toBe(1);
  });

  it('unlock wakes a sleeper only when the word was 2 (lll_unlock)', async () => {
    const a = word();
    a[0] = 2; // held, and a pthread_mutex_lock caller marked it contended before sleeping
    const sleeper = waitAsync(a, 0, 2, 5000);
    expect(sleeper).not.toBeNull();
    fastMutexUnlock(a, 0);
    expect(await sleeper).toBe('ok');
    expect(a[0]).toBe(0);
    // Held without the contended mark (InnoDB only try-locks it): unlock stores 0 and wakes no one.
    a[0] = 1;
    const other = waitAsync(a, 0, 1, 30);
    fastMutexUnlock(a, 0);
    expect(await other).toBe('timed-out');
  });
});

describe('ut_delay calibration', () => {
  it('scales the loop to the requested unit and returns to InnoDB 50 steps with null', () => {
    const c = calibrateUtDelay(2000);
    expect(c.nsPerLoop).toBeGreaterThan(0);
    expect(c.loopsPerUnit).toBe(Math.max(1, Math.round(2000 / c.nsPerLoop)));
    expect(calibrateUtDelay(null).loopsPerUnit).toBe(50);
    expect(() => calibrateUtDelay(0)).toThrow(RangeError);
    expect(() => calibrateUtDelay(-5)).toThrow(/nsPerUnit must be a number in \(0, 1e9\], got -5/);
  });
});

describe('LegacyRWLock across threads: the inner 5.1 mutex', () => {
  it('an S request waits while another thread is inside the inner mutex, spinning on lock_word then sleeping, and gets in once it leaves', async () => {
    const { LatchCounters: BuiltCounters, LegacyRWLock: BuiltLegacy } = lib;
    const counters = new BuiltCounters();
    const l = new BuiltLegacy({ counters });
    const a = l.int32;
    const i = l.index;
    // Another thread is between mutex_enter and mutex_exit: its pthread_mutex_trylock took the
    // futex word (+10) and it stored lock_word = 1 (+0), owner +2 (storage/innobase/include/sync0sync.ic).
    Atomics.store(a, i + 10, 1);
    Atomics.store(a, i, 1);
    Atomics.store(a, i + 2, 999);
    let done = false;
    const reply = spawn({ scenario: 'legacy-s-once', lock: l.descriptor() }).then((m) => {
      done = true;
      return m;
    });
    // Wait until the worker has spun and announced itself as a waiter (mutex_spin_wait's
    // reservation); it cannot get in while the futex word is taken.
    for (let t = 0; Atomics.load(a, i + 1) !== 1; t += 5) {
      if (t > 15_000) throw new Error('the worker never set the waiters flag');
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    // mutex_exit as 5.1 does it: owner 0, lock_word 0, pthread_mutex_unlock (exchange 0), then,
    // the waiters flag being set, clear it and signal the event.
    Atomics.store(a, i + 2, 0);
    Atomics.store(a, i, 0);
    expect(Atomics.exchange(a, i + 10, 0)).toBe(1); // never 2: InnoDB only try-locks it
    Atomics.store(a, i + 1, 0);
    Atomics.add(a, i + 3, 1);
    Atomics.notify(a, i + 3);
    const m = await reply;
    expect(m.ok).toBe(true);
    const snap = counters.snapshot();
    // mutex_spin_wait: one spin wait, 20 rounds (5.1's innodb_sync_spin_loops) of spinning on the
    // plain lock_word, then a reservation and an OS wait.
    expect(snap.mutex.spinWaits).toBe(1);
    expect(snap.mutex.spinRounds).toBeGreaterThanOrEqual(20);
    expect(snap.mutex.osWaits).toBeGreaterThanOrEqual(1);
    l.checkValid();
  });
});
