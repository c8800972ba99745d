/**
 * A timed acquire gave up: the lock was still held when the timeout expired. The lock is left
 * exactly as it was before the call (a writer that had reserved an rw-lock releases the reservation).
 */
export class LockTimeoutError extends Error {
  override readonly name: 'LockTimeoutError' = 'LockTimeoutError';
  /** The timeout that expired, in milliseconds. */
  readonly timeoutMs: number;
  constructor(what: string, timeoutMs: number) {
    super(`${what}: not acquired within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A lock was used against its contract: unlocked while not locked, unlocked by a thread that is
 * not the owner, re-entered where that would deadlock the calling thread (a non-recursive mutex,
 * an S→X upgrade, an S request by the X owner).
 */
export class LockStateError extends Error {
  override readonly name: 'LockStateError' = 'LockStateError';
}
