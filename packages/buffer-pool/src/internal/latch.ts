/**
 * The one place the pool takes its latches from: the functional layer of
 * @enginekit/mutex-atomics, which works on (Int32Array, index) so thousands of page latches need
 * no JS object each.
 */
export {
  COUNTER_SLOTS as LATCH_COUNTER_SLOTS,
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
  X_LOCK_DECR,
} from '@enginekit/mutex-atomics';
export type { LatchConfig, LatchCountsSnapshot } from '@enginekit/mutex-atomics';
