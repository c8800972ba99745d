export { LockStateError, LockTimeoutError } from './errors.js';
export { THREAD_ID } from './thread-id.js';
export type { LatchConfig, LatchOptions, UtDelayCalibration } from './config.js';
export {
  calibrateUtDelay,
  configureLatches,
  DEFAULT_SPIN_LOOPS,
  DEFAULT_SPIN_LOOPS_51,
  DEFAULT_SPIN_WAIT_DELAY,
  DEFAULT_SPIN_WAIT_DELAY_51,
  defaultLatchConfig,
  resolveLatchConfig,
  delaySink,
  utDelay,
} from './config.js';
export type {
  LatchClass,
  LatchClassCounts,
  LatchCountersDescriptor,
  LatchCountsSnapshot,
} from './counters.js';
export { COUNTER_SLOTS, formatInnodbStatus, LatchCounters, semaphoreLines } from './counters.js';
export {
  MUTEX_SLOTS,
  mutexCheckValid,
  mutexInit,
  mutexIsLocked,
  mutexLock,
  mutexLockAsync,
  mutexLockTimeout,
  mutexOwner,
  mutexTryLock,
  mutexUnlock,
} from './mutex-fn.js';
export {
  RW_MAX_X_RECURSION,
  RWLOCK_SLOTS,
  rwCheckValid,
  rwInit,
  rwIsXOwner,
  rwLockWord,
  rwSLock,
  rwSLockAsync,
  rwSLockTimeout,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXLockAsync,
  rwXLockTimeout,
  rwXUnlock,
  X_LOCK_DECR,
} from './rwlock-fn.js';
export type { LockDescriptor, LockKind } from './internal/descriptor.js';
export type { LockRegion } from './internal/region.js';
export type { MutexOptions } from './mutex.js';
export { Mutex } from './mutex.js';
export type { RWLockOptions, RWLockState } from './rwlock.js';
export { RWLock } from './rwlock.js';
export { LegacyRWLock } from './legacy-rwlock.js';
export {
  LEGACY_RWLOCK_SLOTS,
  legacyRwAdoptX,
  legacyRwCheckValid,
  legacyRwInit,
  legacyRwIsFree,
  legacyRwIsXOwner,
  legacyRwSLock,
  legacyRwSUnlock,
  legacyRwTrySLock,
  legacyRwTryXLock,
  legacyRwXLock,
  legacyRwXUnlock,
  RW_LOCK_EX,
  RW_LOCK_NOT_LOCKED,
  RW_LOCK_WAIT_EX,
} from './legacy-rwlock-fn.js';
export { SEMAPHORE_SLOTS, Semaphore } from './semaphore.js';
export { CONDITION_SLOTS, Condition } from './condition.js';
export { BARRIER_SLOTS, Barrier } from './barrier.js';
export type { AsyncLockable, Lockable } from './with-lock.js';
export { withLock, withLockAsync } from './with-lock.js';
