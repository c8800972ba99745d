export { LockStateError, LockTimeoutError } from './errors.js';
export { THREAD_ID } from './thread-id.js';
export type { LatchConfig, LatchOptions } from './config.js';
export {
  configureLatches,
  DEFAULT_SPIN_LOOPS,
  DEFAULT_SPIN_WAIT_DELAY,
  defaultLatchConfig,
  resolveLatchConfig,
  utDelay,
} from './config.js';
export type {
  LatchClass,
  LatchClassCounts,
  LatchCountersDescriptor,
  LatchCountsSnapshot,
} from './counters.js';
export { COUNTER_SLOTS, formatInnodbStatus, LatchCounters } from './counters.js';
export {
  MUTEX_SLOTS,
  mutexInit,
  mutexIsLocked,
  mutexLock,
  mutexLockTimeout,
  mutexOwner,
  mutexTryLock,
  mutexUnlock,
} from './mutex-fn.js';
export {
  RW_MAX_X_RECURSION,
  RWLOCK_SLOTS,
  rwInit,
  rwIsXOwner,
  rwLockWord,
  rwSLock,
  rwSLockTimeout,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXLockTimeout,
  rwXUnlock,
  X_LOCK_DECR,
} from './rwlock-fn.js';
