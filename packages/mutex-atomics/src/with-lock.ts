/** Anything with a blocking `lock()` / `unlock()` pair (a {@link Mutex}, or your own). */
export interface Lockable {
  lock(): void;
  unlock(): void;
}

/** Anything with `lockAsync()` / `unlock()`. */
export interface AsyncLockable {
  lockAsync(): Promise<void>;
  unlock(): void;
}

/**
 * Run `fn` while holding `lock`, releasing it however `fn` exits (return or throw).
 *
 * @example
 * ```ts
 * const total = withLock(mutex, () => ++shared[0]);
 * ```
 */
export function withLock<T>(lock: Lockable, fn: () => T): T {
  lock.lock();
  try {
    return fn();
  } finally {
    lock.unlock();
  }
}

/** {@link withLock} for the event loop: `lockAsync`, await `fn`, always `unlock`. */
export async function withLockAsync<T>(lock: AsyncLockable, fn: () => T | Promise<T>): Promise<T> {
  await lock.lockAsync();
  try {
    return await fn();
  } finally {
    lock.unlock();
  }
}
