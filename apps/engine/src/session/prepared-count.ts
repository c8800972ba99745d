/**
 * Prepared_stmt_count: the statements prepared and not yet closed on every connection of the
 * server — the protocol's COM_STMT_PREPARE and SQL's PREPARE alike — which max_prepared_stmt_count
 * caps (error 1461). One Int32 changed by atomic operations only, so the worker threads of a
 * server can share it through a SharedArrayBuffer: a PREPARE on any thread counts toward the one
 * cap, as MariaDB's global `prepared_stmt_count` under LOCK_prepared_stmt_count.
 */
export class PreparedStatementCount {
  readonly #i32: Int32Array;
  readonly #slot: number;

  /** A count of this thread's own, or the Int32 at `slot` of `i32` (shared). */
  constructor(i32: Int32Array = new Int32Array(1), slot = 0) {
    this.#i32 = i32;
    this.#slot = slot;
  }

  /** Statements open now. */
  get value(): number {
    return Atomics.load(this.#i32, this.#slot);
  }

  /** Counts one more statement unless `max` are open already (then false, nothing counted). */
  reserve(max: number): boolean {
    for (;;) {
      const n = Atomics.load(this.#i32, this.#slot);
      if (n >= max) return false;
      if (Atomics.compareExchange(this.#i32, this.#slot, n, n + 1) === n) return true;
    }
  }

  /** `n` statements closed. */
  release(n = 1): void {
    if (n > 0) Atomics.sub(this.#i32, this.#slot, n);
  }
}
