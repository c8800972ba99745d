/**
 * Backpressure between a session worker that produces a result and the main thread that writes
 * it to the client's socket, as two words of shared memory per connection:
 *
 * | word | meaning |
 * |------|---------|
 * | 0 | chunks posted by the worker and not yet taken by the socket (its write buffer drained) |
 * | 1 | 1 once the connection is gone: the worker stops waiting and drops the result |
 *
 * The worker posts a chunk only while fewer than {@link MAX_IN_FLIGHT} are outstanding, else it
 * blocks (`Atomics.wait`) until the main thread releases one, waking every
 * {@link WAKE_MS} ms to see whether the statement was killed or `net_write_timeout` passed. So a
 * connection holds at most MAX_IN_FLIGHT chunks on the server, whatever the result's size and
 * however slowly its client reads.
 */
export const MAX_IN_FLIGHT = 4;

/** How often a waiting worker looks at its interrupt word and the clock. */
const WAKE_MS = 50;

const IN_FLIGHT = 0;
const GONE = 1;

/** The client stopped reading for longer than net_write_timeout, or the connection is gone. */
export class NetWriteAborted extends Error {
  override readonly name = 'NetWriteAborted';
}

export class StreamCredit {
  readonly sab: SharedArrayBuffer;
  readonly #i32: Int32Array;

  constructor(sab: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.sab = sab;
    this.#i32 = new Int32Array(sab);
  }

  /** Chunks posted and not yet taken by the socket. */
  get inFlight(): number {
    return Atomics.load(this.#i32, IN_FLIGHT);
  }

  /**
   * Worker: waits until one more chunk may be posted, and counts it. `check` throws when the
   * statement must stop (KILL, max_statement_time); past `timeoutMs` without the client taking a
   * chunk, or once the connection is gone, {@link NetWriteAborted}. `onWait` is told when it
   * starts and ends waiting (the process list's state).
   */
  acquire(timeoutMs: number, check: () => void, onWait?: (waiting: boolean) => void): void {
    const i32 = this.#i32;
    let since = 0;
    for (;;) {
      if (Atomics.load(i32, GONE) !== 0) throw new NetWriteAborted('the client connection is gone');
      const n = Atomics.load(i32, IN_FLIGHT);
      if (n < MAX_IN_FLIGHT) {
        if (Atomics.compareExchange(i32, IN_FLIGHT, n, n + 1) !== n) continue;
        if (since !== 0) onWait?.(false);
        return;
      }
      if (since === 0) {
        since = performance.now();
        onWait?.(true);
      }
      try {
        check();
      } catch (e) {
        onWait?.(false);
        throw e;
      }
      if (performance.now() - since >= timeoutMs) {
        onWait?.(false);
        throw new NetWriteAborted('Got timeout writing communication packets');
      }
      Atomics.wait(i32, IN_FLIGHT, n, WAKE_MS);
    }
  }

  /** Main thread: the socket took a chunk (its buffer drained). */
  release(): void {
    Atomics.sub(this.#i32, IN_FLIGHT, 1);
    Atomics.notify(this.#i32, IN_FLIGHT);
  }

  /** Main thread: wakes a waiting worker so it looks at its interrupt word now (KILL). */
  wake(): void {
    Atomics.notify(this.#i32, IN_FLIGHT);
  }

  /** Main thread: the connection is gone; a worker waiting on it stops. */
  close(): void {
    Atomics.store(this.#i32, GONE, 1);
    Atomics.notify(this.#i32, IN_FLIGHT);
  }
}
