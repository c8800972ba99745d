import { MUTEX_SLOTS, mutexInit, mutexLock, mutexUnlock } from '@enginekit/mutex-atomics';
import { MAX_TRX_ID } from './undo-format.js';
import { ReadView } from './read-view.js';
import type { LockMoves } from './trx-hooks.js';

/**
 * The transaction system (`trx_sys_t`) in one SharedArrayBuffer, so sessions on every thread
 * share one id counter, one list of active transactions and the read views purge must respect.
 * Everything is read and written under one mutex (`trx_sys->mutex`).
 *
 * Each session owns a slot for its lifetime. A slot records the id of the session's read-write
 * transaction while one is active (read-only transactions never take an id, as in InnoDB 5.6),
 * its serialisation number while it commits, and the `low_limit_no` of the session's open read
 * view (purge may not pass it).
 *
 * | Int32 index | meaning |
 * |---|---|
 * | 0 … 3 | the mutex |
 * | 4 | slots (capacity) |
 * | 5 | high-water mark: every slot in use is below it (scans stop there) |
 * | 8 + i | slot i in use (1) or free (0) |
 *
 * | Float64 index (after the Int32 area) | meaning |
 * |---|---|
 * | 0 | the next transaction id / serialisation number (`max_trx_id`) |
 * | 1 | the bound the TRX_SYS page holds: every id below it may have been used |
 * | 2 + 3·slots | committed update undo logs not purged yet (the history list length) |
 * | 2 + 3i | slot i: id of its active read-write transaction, 0 when none |
 * | 3 + 3i | slot i: its serialisation number while it commits, 0 otherwise |
 * | 4 + 3i | slot i: `low_limit_no` of its open read view, −1 when none |
 */
const MUTEX = 0;
const CAPACITY = 4;
const HIGH = 5;
const IN_USE = 8;
const NEXT = 0;
const STORED = 1;

/** Default number of session slots. */
export const DEFAULT_TRX_SLOTS = 4096;

export class TrxSys {
  readonly sab: SharedArrayBuffer;
  readonly slots: number;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  /**
   * Called under the mutex when the next id reaches the stored bound: must make `bound` durable
   * in the TRX_SYS page (a mini-transaction). Set by the database.
   */
  persist: ((bound: number) => void) | null = null;
  /**
   * The lock system of this transaction system's database, which a table tells when an index
   * changes under its locks (a table reaches it through its versions' `Mvcc.trxSys`); set by the
   * transaction layer when it gives the database its lock table. Null: no locks to move.
   */
  lockMoves: LockMoves | null = null;

  constructor(sab: SharedArrayBuffer | undefined, slots: number = DEFAULT_TRX_SLOTS, nextId = 1) {
    const i32Bytes = (IN_USE + slots) * 4;
    const f64Off = Math.ceil(i32Bytes / 8) * 8;
    this.sab = sab ?? new SharedArrayBuffer(f64Off + (3 + 3 * slots) * 8);
    this.#i32 = new Int32Array(this.sab, 0, IN_USE + slots);
    if (sab === undefined) {
      mutexInit(this.#i32, MUTEX);
      this.#i32[CAPACITY] = slots;
    }
    this.slots = this.#i32[CAPACITY]!;
    this.#f64 = new Float64Array(
      this.sab,
      Math.ceil(((IN_USE + this.slots) * 4) / 8) * 8,
      3 + 3 * this.slots,
    );
    if (sab === undefined) {
      this.#f64[NEXT] = nextId;
      this.#f64[STORED] = nextId;
      for (let i = 0; i < this.slots; i++) this.#f64[4 + 3 * i] = -1;
    }
    if (MUTEX + MUTEX_SLOTS > CAPACITY) throw new Error('trx-sys layout');
  }

  #lock(): void {
    mutexLock(this.#i32, MUTEX);
  }

  #unlock(): void {
    mutexUnlock(this.#i32, MUTEX);
  }

  /** A slot for a new session. Throws RangeError when every slot is taken. */
  allocateSlot(): number {
    this.#lock();
    try {
      for (let i = 0; i < this.slots; i++) {
        if (this.#i32[IN_USE + i] === 0) {
          this.#i32[IN_USE + i] = 1;
          if (i >= this.#i32[HIGH]!) this.#i32[HIGH] = i + 1;
          this.#f64[2 + 3 * i] = 0;
          this.#f64[3 + 3 * i] = 0;
          this.#f64[4 + 3 * i] = -1;
          return i;
        }
      }
    } finally {
      this.#unlock();
    }
    throw new RangeError(`all ${this.slots} transaction slots are in use`);
  }

  freeSlot(slot: number): void {
    this.#lock();
    this.#i32[IN_USE + slot] = 0;
    this.#f64[2 + 3 * slot] = 0;
    this.#f64[3 + 3 * slot] = 0;
    this.#f64[4 + 3 * slot] = -1;
    this.#unlock();
  }

  /** The next id to be given (`max_trx_id`). */
  get nextId(): number {
    this.#lock();
    const v = this.#f64[NEXT]!;
    this.#unlock();
    return v;
  }

  /** Hands out the next number; persists a new bound first when it reaches the stored one. REQUIRES: the mutex. */
  #take(): number {
    const f = this.#f64;
    const id = f[NEXT]!;
    if (id >= MAX_TRX_ID) throw new RangeError('transaction ids are exhausted');
    if (id >= f[STORED]!) {
      const bound = id + 256;
      this.persist?.(bound);
      f[STORED] = bound;
    }
    f[NEXT] = id + 1;
    return id;
  }

  /** Makes slot `slot`'s transaction read-write: it takes an id and joins the active list. */
  assignId(slot: number): number {
    this.#lock();
    try {
      const id = this.#take();
      this.#f64[2 + 3 * slot] = id;
      return id;
    } finally {
      this.#unlock();
    }
  }

  /**
   * Gives slot `slot`'s committing transaction its serialisation number (`trx->no`); until
   * {@link remove}, read views made meanwhile keep purge below it.
   */
  assignNo(slot: number): number {
    this.#lock();
    try {
      const no = this.#take();
      this.#f64[3 + 3 * slot] = no;
      return no;
    } finally {
      this.#unlock();
    }
  }

  /** The slot's transaction has committed or rolled back: it leaves the active list. */
  remove(slot: number): void {
    this.#lock();
    this.#f64[2 + 3 * slot] = 0;
    this.#f64[3 + 3 * slot] = 0;
    this.#unlock();
  }

  /**
   * A read view for slot `slot`'s transaction (`ReadView::prepare`): the ids active now except its
   * own, `low_limit_id` = the next id, `up_limit_id` = the smallest active id. Its `low_limit_no`
   * (the smallest serialisation number of a committing transaction, else the next id) is kept
   * in the slot for purge until {@link closeView}.
   */
  openView(slot: number, creator: number): ReadView {
    return this.#prepare(slot, creator);
  }

  /**
   * A read view of the committed state now that no slot keeps for purge: the version a
   * semi-consistent read builds for one record (`row_vers_build_for_semi_consistent_read`) comes
   * from undo of transactions still active, which purge never frees.
   */
  committedSnapshot(creator: number): ReadView {
    return this.#prepare(-1, creator);
  }

  #prepare(slot: number, creator: number): ReadView {
    this.#lock();
    try {
      const f = this.#f64;
      const next = f[NEXT]!;
      let n = 0;
      let lowNo = next;
      const high = this.#i32[HIGH]!;
      for (let i = 0; i < high; i++) {
        const id = f[2 + 3 * i]!;
        if (id !== 0 && id !== creator) n++;
        const no = f[3 + 3 * i]!;
        if (no !== 0 && no < lowNo) lowNo = no;
      }
      const ids = new Float64Array(n);
      let k = 0;
      for (let i = 0; i < high && k < n; i++) {
        const id = f[2 + 3 * i]!;
        if (id !== 0 && id !== creator) ids[k++] = id;
      }
      ids.sort();
      if (slot >= 0) f[4 + 3 * slot] = lowNo;
      return new ReadView(next, ids, creator, lowNo);
    } finally {
      this.#unlock();
    }
  }

  closeView(slot: number): void {
    this.#lock();
    this.#f64[4 + 3 * slot] = -1;
    this.#unlock();
  }

  /**
   * Purge's limit (`purge_sys->view`'s `low_limit_no`): undo of transactions whose serialisation
   * number is below it is needed by no read view open now or made later.
   */
  purgeLimit(): number {
    this.#lock();
    try {
      const f = this.#f64;
      let limit = f[NEXT]!;
      const high = this.#i32[HIGH]!;
      for (let i = 0; i < high; i++) {
        const v = f[4 + 3 * i]!;
        if (v >= 0 && v < limit) limit = v;
        const no = f[3 + 3 * i]!;
        if (no !== 0 && no < limit) limit = no;
      }
      return limit;
    } finally {
      this.#unlock();
    }
  }

  /** Committed update undo logs purge has not removed yet (`History list length`). */
  get historyLength(): number {
    return this.#f64[2 + 3 * this.slots]!;
  }

  /** Adds `n` (negative: removes) to the history length. */
  historyAdd(n: number): void {
    this.#lock();
    this.#f64[2 + 3 * this.slots] = this.#f64[2 + 3 * this.slots]! + n;
    this.#unlock();
  }

  /** Active read-write transactions (ids) now. */
  activeIds(): number[] {
    this.#lock();
    try {
      const out: number[] = [];
      const high = this.#i32[HIGH]!;
      for (let i = 0; i < high; i++) {
        const id = this.#f64[2 + 3 * i]!;
        if (id !== 0) out.push(id);
      }
      return out.sort((a, b) => a - b);
    } finally {
      this.#unlock();
    }
  }
}
