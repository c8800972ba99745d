/**
 * The one place the pool takes its latches from: the functional layer of
 * @enginekit/mutex-atomics, which works on (Int32Array, index) so thousands of page latches need
 * no JS object each.
 */
export {
  COUNTER_SLOTS as LATCH_COUNTER_SLOTS,
  DEFAULT_SPIN_LOOPS_51,
  DEFAULT_SPIN_WAIT_DELAY_51,
  LEGACY_RWLOCK_SLOTS,
  legacyRwAdoptX,
  legacyRwCheckValid,
  legacyRwInit,
  legacyRwIsFree,
  legacyRwSLock,
  legacyRwSUnlock,
  legacyRwTrySLock,
  legacyRwTryXLock,
  legacyRwXLock,
  legacyRwXUnlock,
  LatchCounters,
  MUTEX_SLOTS,
  mutexInit,
  mutexLock,
  mutexTryLock,
  mutexUnlock,
  RWLOCK_SLOTS,
  resolveLatchConfig,
  rwInit,
  rwSLock,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXUnlock,
  THREAD_ID,
  X_LOCK_DECR,
} from '@enginekit/mutex-atomics';
export type { LatchConfig, LatchCountsSnapshot } from '@enginekit/mutex-atomics';
