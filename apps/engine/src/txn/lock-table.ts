import { mutexInit, mutexLock, mutexUnlock } from '@enginekit/mutex-atomics';
import { keyHash1, keyHash2 } from './internal/key-hash.js';
import { checkLockTable } from './internal/lock-check.js';
import {
  H_CAPACITY,
  H_BUCKETS,
  H_TRX_SLOTS,
  H_FREE,
  H_WAITS,
  H_CURRENT_WAITS,
  H_DEADLOCKS,
  H_TIME,
  H_TIME_MAX,
  H_IN_USE,
  H_NEXT_TRX,
  H_REPORT_LEN,
  HEADER,
  TRX_SLOTS,
  T_STATE,
  T_WAIT,
  T_WAITING_FOR,
  T_FIRST,
  T_WEIGHT,
  T_ID,
  T_LOCKS,
  T_CONN,
  LOCK_SLOTS,
  L_NEXT,
  L_TRX_NEXT,
  L_TRX,
  L_FLAGS,
  L_TABLE,
  L_H1,
  L_H2,
  L_LEN,
  F_X,
  F_WAITING,
  X_COUNTS,
  REPORT_BYTES,
  MDL_BIT,
  WAIT_NONE,
  WAIT_WAITING,
  WAIT_GRANTED,
  WAIT_VICTIM,
  WAIT_CANCELLED,
  type LockLayout,
} from './internal/lock-layout.js';
import { chooseVictim, findCycle, hasToWait } from './internal/wait-for-graph.js';

/**
 * Record locks on clustered-index records (and table metadata locks), shared by every session
 * of every thread that attaches to the same SharedArrayBuffer. One Int32Array holds it all,
 * guarded by one mutex from @enginekit/mutex-atomics (InnoDB's `lock_sys->mutex`).
 *
 * A lock names a record by (table id, primary-key bytes). The bytes are not stored: the record
 * is identified by two independent 32-bit hashes of them and their length. Two different keys
 * that agree on all three (about 2^-64 per pair) share one lock, which makes a transaction wait
 * when it need not, never the reverse.
 *
 * Layout (Int32 slots):
 *
 * | slots | name | meaning |
 * |---|---|---|
 * | 0–3 | mutex | `MUTEX_SLOTS` of mutex-atomics' mutex, guarding everything below |
 * | 4 | capacity | lock records (fixed at creation) |
 * | 5 | buckets | hash buckets (a power of two) |
 * | 6 | trxSlots | transaction slots |
 * | 7 | freeHead | first free lock record, -1 when full |
 * | 8 | Innodb_row_lock_waits | waits begun |
 * | 9 | Innodb_row_lock_current_waits | waits in progress |
 * | 10 | Innodb_deadlocks | deadlocks found |
 * | 11 | Innodb_row_lock_time | total ms spent waiting |
 * | 12 | Innodb_row_lock_time_max | longest wait, ms |
 * | 13 | inUse | lock records in use |
 * | 14 | nextTrxId | the last transaction id handed out |
 * | 15 | reportLength | bytes of the latest deadlock report (in the byte area after the slots) |
 * | 16 … 16+T·8 | trx[T] | per transaction slot, 8 slots each (below) |
 * | … +N·8 | lock[N] | per lock record, 8 slots each (below) |
 * | … +B | bucket[B] | first lock record of each hash bucket, -1 when empty |
 * | … +X | xCount[X] | X locks (granted or waiting) per `tableId & (X-1)`: readers of a table with none skip the lookup |
 *
 * A transaction slot: +0 state (0 free, 1 active), +1 wait word (0 running, 1 waiting,
 * 2 granted, 3 chosen as deadlock victim, 4 wait cancelled: KILL QUERY), +2 the lock record it
 * waits for (-1), +3 its first lock record (-1), +4 weight (undo records + locks, for the
 * victim choice as InnoDB's `trx_weight_ge`), +5 transaction id, +6 lock records held,
 * +7 connection id.
 *
 * A lock record: +0 next in its bucket (-1; bucket order is arrival order: the queue),
 * +1 next of the same transaction (-1), +2 transaction slot, +3 flags (bit 0: X, else S;
 * bit 1: waiting), +4 table id (bit 30 set: the table's metadata lock), +5 hash 1, +6 hash 2,
 * +7 key length.
 *
 * The deadlock report's UTF-8 bytes follow the Int32 slots (REPORT_BYTES).
 */

export { WAIT_CANCELLED, WAIT_GRANTED, WAIT_NONE, WAIT_VICTIM, WAIT_WAITING };

export type LockMode = 'S' | 'X';

/** What `lock` did: granted (or already held), must wait, or the requester is a deadlock victim. */
export const GRANTED = 0;
export const MUST_WAIT = 1;
export const DEADLOCK = 2;
export type LockOutcome = typeof GRANTED | typeof MUST_WAIT | typeof DEADLOCK;

export interface LockTableOptions {
  /** Lock records (default 262,144; 32 bytes each). */
  readonly capacity?: number;
  /** Transaction slots: transactions open at once (default 1024). */
  readonly transactions?: number;
}

/** Thrown when every lock record is in use (MySQL's ER_LOCK_TABLE_FULL). */
export class LockTableFullError extends Error {
  override readonly name = 'LockTableFullError';
}

export class LockTable {
  readonly buffer: SharedArrayBuffer;
  readonly #a: Int32Array;
  readonly #bytes: Uint8Array;
  readonly #capacity: number;
  readonly #trxBase: number;
  readonly #lockBase: number;
  readonly #bucketBase: number;
  readonly #xBase: number;
  readonly #bucketMask: number;
  readonly #trxSlots: number;
  readonly #l: LockLayout;
  #hint = 0;

  /** Attaches to a lock table made by {@link LockTable.create} (on this or another thread). */
  constructor(buffer: SharedArrayBuffer) {
    if (!(buffer instanceof SharedArrayBuffer)) throw new TypeError('buffer must be a SharedArrayBuffer');
    const head = new Int32Array(buffer, 0, HEADER);
    const capacity = head[H_CAPACITY]!;
    const buckets = head[H_BUCKETS]!;
    const trx = head[H_TRX_SLOTS]!;
    const slots = LockTable.#slots(capacity, buckets, trx);
    if (capacity <= 0 || buffer.byteLength !== slots * 4 + REPORT_BYTES)
      throw new RangeError('buffer is not a lock table (made by LockTable.create)');
    this.buffer = buffer;
    this.#a = new Int32Array(buffer, 0, slots);
    this.#bytes = new Uint8Array(buffer, slots * 4, REPORT_BYTES);
    this.#capacity = capacity;
    this.#trxSlots = trx;
    this.#trxBase = HEADER;
    this.#lockBase = HEADER + trx * TRX_SLOTS;
    this.#bucketBase = this.#lockBase + capacity * LOCK_SLOTS;
    this.#xBase = this.#bucketBase + buckets;
    this.#bucketMask = buckets - 1;
    this.#l = {
      a: this.#a,
      capacity,
      trxSlots: trx,
      trxBase: this.#trxBase,
      lockBase: this.#lockBase,
      bucketBase: this.#bucketBase,
      xBase: this.#xBase,
      bucketMask: this.#bucketMask,
    };
  }

  static #slots(capacity: number, buckets: number, trx: number): number {
    return HEADER + trx * TRX_SLOTS + capacity * LOCK_SLOTS + buckets + X_COUNTS;
  }

  /** A new, empty lock table in a fresh SharedArrayBuffer. */
  static create(options: LockTableOptions = {}): LockTable {
    const capacity = options.capacity ?? 262144;
    const trx = options.transactions ?? 1024;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 1 << 24)
      throw new RangeError(`capacity must be an integer in 1..16777216, got ${capacity}`);
    if (!Number.isInteger(trx) || trx < 1 || trx > 65536)
      throw new RangeError(`transactions must be an integer in 1..65536, got ${trx}`);
    let buckets = 1;
    while (buckets < capacity) buckets <<= 1;
    const slots = LockTable.#slots(capacity, buckets, trx);
    const sab = new SharedArrayBuffer(slots * 4 + REPORT_BYTES);
    const a = new Int32Array(sab, 0, slots);
    mutexInit(a, 0);
    a[H_CAPACITY] = capacity;
    a[H_BUCKETS] = buckets;
    a[H_TRX_SLOTS] = trx;
    const lockBase = HEADER + trx * TRX_SLOTS;
    for (let i = 0; i < capacity; i++) a[lockBase + i * LOCK_SLOTS + L_NEXT] = i + 1 < capacity ? i + 1 : -1;
    a[H_FREE] = 0;
    a.fill(-1, lockBase + capacity * LOCK_SLOTS, lockBase + capacity * LOCK_SLOTS + buckets);
    return new LockTable(sab);
  }

  // ------------------------------------------------------------------ transactions

  /** Takes a free transaction slot for connection `connectionId`; returns it (throws when none is free). */
  begin(connectionId: number): number {
    const a = this.#a;
    this.#enter();
    try {
      // start after the slot handed out last: the next one is usually free
      for (let i = 0; i < this.#trxSlots; i++) {
        const t = (this.#hint + i) % this.#trxSlots;
        const b = this.#trxBase + t * TRX_SLOTS;
        if (a[b + T_STATE] !== 0) continue;
        this.#hint = t + 1;
        a[b + T_STATE] = 1;
        Atomics.store(a, b + T_WAIT, WAIT_NONE);
        a[b + T_WAITING_FOR] = -1;
        a[b + T_FIRST] = -1;
        a[b + T_WEIGHT] = 0;
        a[b + T_ID] = ++a[H_NEXT_TRX]!;
        a[b + T_LOCKS] = 0;
        a[b + T_CONN] = connectionId;
        return t;
      }
    } finally {
      this.#exit();
    }
    throw new LockTableFullError(`all ${this.#trxSlots} transaction slots are in use`);
  }

  /** Transaction id of a slot (for SHOW ENGINE INNODB STATUS). */
  trxId(trx: number): number {
    return this.#a[this.#trxBase + trx * TRX_SLOTS + T_ID]!;
  }

  /** The weight a deadlock victim choice compares (undo records + locks held). */
  setWeight(trx: number, undoRecords: number): void {
    const b = this.#trxBase + trx * TRX_SLOTS;
    this.#a[b + T_WEIGHT] = undoRecords;
  }

  /** Releases every lock of `trx`, grants the waits that can go now, frees the slot. */
  end(trx: number): void {
    this.#enter();
    try {
      this.#releaseAll(trx);
      const b = this.#trxBase + trx * TRX_SLOTS;
      this.#a[b + T_STATE] = 0;
    } finally {
      this.#exit();
    }
  }

  /** Releases every lock of `trx` but keeps the slot (the transaction goes on). */
  releaseAll(trx: number): void {
    this.#enter();
    try {
      this.#releaseAll(trx);
    } finally {
      this.#exit();
    }
  }

  // ------------------------------------------------------------------ locks

  /** X locks on the table's rows exist (a racy hint: readers of a table without any skip the lookup). */
  hasXLocks(tableId: number): boolean {
    return Atomics.load(this.#a, this.#xBase + (tableId & (X_COUNTS - 1))) !== 0;
  }

  /**
   * Requests a lock on record `key[off, off+len)` of `tableId` (or the table's metadata lock with
   * `mdl`) for `trx`. GRANTED: held now (or already). MUST_WAIT: a waiting request is queued and
   * the slot's wait word is WAIT_WAITING; sleep on {@link waitWord} until it changes.
   * DEADLOCK: waiting would close a cycle and `trx` is the victim; nothing is queued.
   * With `noWait`, a request that would wait is not queued and MUST_WAIT is returned.
   */
  lock(
    trx: number,
    tableId: number,
    key: Uint8Array,
    off: number,
    len: number,
    mode: LockMode,
    mdl = false,
    noWait = false,
  ): LockOutcome {
    const h1 = keyHash1(tableId, key, off, len);
    const h2 = keyHash2(tableId, key, off, len);
    const table = mdl ? tableId | MDL_BIT : tableId;
    const x = mode === 'X';
    const a = this.#a;
    this.#enter();
    try {
      let r = a[this.#bucketBase + (h1 & this.#bucketMask)]!;
      let ownS = -1;
      let conflict = false;
      while (r !== -1) {
        const p = this.#lockBase + r * LOCK_SLOTS;
        if (a[p + L_H1] === h1 && a[p + L_H2] === h2 && a[p + L_TABLE] === table && a[p + L_LEN] === len) {
          const f = a[p + L_FLAGS]!;
          if (a[p + L_TRX] === trx) {
            if ((f & F_WAITING) === 0) {
              if ((f & F_X) !== 0 || !x) return GRANTED;
              ownS = r;
            }
          } else if (x || (f & F_X) !== 0) conflict = true;
        }
        r = a[p + L_NEXT]!;
      }
      if (!conflict) {
        if (ownS >= 0) {
          const p = this.#lockBase + ownS * LOCK_SLOTS;
          a[p + L_FLAGS] = F_X;
          this.#xCount(a[p + L_TABLE]!, 1);
        } else this.#add(trx, table, h1, h2, len, x ? F_X : 0);
        return GRANTED;
      }
      if (noWait) return MUST_WAIT;
      const w = this.#add(trx, table, h1, h2, len, (x ? F_X : 0) | F_WAITING);
      const tb = this.#trxBase + trx * TRX_SLOTS;
      a[tb + T_WAITING_FOR] = w;
      Atomics.store(a, tb + T_WAIT, WAIT_WAITING);
      // as InnoDB's lock_deadlock_check_and_resolve: after rolling back another victim, search
      // again (the requester may sit on more than one cycle) until none is left
      for (;;) {
        if (Atomics.load(a, tb + T_WAIT) !== WAIT_WAITING) break;
        const cycle = findCycle(this.#l, trx);
        if (cycle === null) break;
        a[H_DEADLOCKS]!++;
        const victim = chooseVictim(this.#l, trx, cycle);
        this.#lastCycle = cycle;
        this.#lastVictim = victim;
        if (victim === trx) {
          this.#cancelWait(trx);
          Atomics.store(a, tb + T_WAIT, WAIT_NONE);
          return DEADLOCK;
        }
        this.#cancelWait(victim);
        const vb = this.#trxBase + victim * TRX_SLOTS;
        Atomics.store(a, vb + T_WAIT, WAIT_VICTIM);
        Atomics.notify(a, vb + T_WAIT);
      }
      a[H_WAITS]!++;
      a[H_CURRENT_WAITS]!++;
      return MUST_WAIT;
    } finally {
      this.#exit();
    }
  }

  /** The cycle and victim of the last deadlock this thread found (for its report). */
  #lastCycle: number[] | null = null;
  #lastVictim = -1;

  /** Takes the last deadlock found by this thread: the transaction slots in the cycle and the victim. */
  takeDeadlock(): { cycle: number[]; victim: number; ids: number[]; connections: number[] } | null {
    const c = this.#lastCycle;
    if (c === null) return null;
    this.#lastCycle = null;
    const a = this.#a;
    return {
      cycle: c,
      victim: this.#lastVictim,
      ids: c.map((t) => a[this.#trxBase + t * TRX_SLOTS + T_ID]!),
      connections: c.map((t) => a[this.#trxBase + t * TRX_SLOTS + T_CONN]!),
    };
  }

  /** The Int32Array and index a waiting transaction sleeps on (Atomics.wait / waitAsync). */
  waitWord(trx: number): { int32: Int32Array; index: number } {
    return { int32: this.#a, index: this.#trxBase + trx * TRX_SLOTS + T_WAIT };
  }

  /** The wait word now. */
  waitState(trx: number): number {
    return Atomics.load(this.#a, this.#trxBase + trx * TRX_SLOTS + T_WAIT);
  }

  /**
   * Ends a wait after waking: returns the final state (GRANTED, VICTIM, CANCELLED, or WAITING when
   * it timed out, in which case the request is withdrawn), counts the wait's time, and leaves the
   * wait word at WAIT_NONE.
   */
  finishWait(trx: number, waitedMs: number): number {
    const a = this.#a;
    const tb = this.#trxBase + trx * TRX_SLOTS;
    this.#enter();
    try {
      const s = Atomics.load(a, tb + T_WAIT);
      if (s === WAIT_WAITING) this.#cancelWait(trx);
      Atomics.store(a, tb + T_WAIT, WAIT_NONE);
      a[H_CURRENT_WAITS] = Math.max(0, a[H_CURRENT_WAITS]! - 1);
      const ms = Math.round(waitedMs);
      a[H_TIME] = (a[H_TIME]! + ms) | 0;
      if (ms > a[H_TIME_MAX]!) a[H_TIME_MAX] = ms;
      return s;
    } finally {
      this.#exit();
    }
  }

  /** Wakes a waiting transaction with WAIT_CANCELLED (KILL QUERY); false if it was not waiting. */
  cancel(trx: number): boolean {
    const a = this.#a;
    const tb = this.#trxBase + trx * TRX_SLOTS;
    this.#enter();
    try {
      if (Atomics.load(a, tb + T_WAIT) !== WAIT_WAITING) return false;
      this.#cancelWait(trx);
      Atomics.store(a, tb + T_WAIT, WAIT_CANCELLED);
      Atomics.notify(a, tb + T_WAIT);
      return true;
    } finally {
      this.#exit();
    }
  }

  /** Innodb_row_lock_* and Innodb_deadlocks as SHOW STATUS names them. */
  counters(): Record<string, number> {
    const a = this.#a;
    const waits = Atomics.load(a, H_WAITS);
    const time = Atomics.load(a, H_TIME);
    return {
      Innodb_row_lock_current_waits: Atomics.load(a, H_CURRENT_WAITS),
      Innodb_row_lock_time: time,
      Innodb_row_lock_time_avg: waits === 0 ? 0 : Math.floor(time / waits),
      Innodb_row_lock_time_max: Atomics.load(a, H_TIME_MAX),
      Innodb_row_lock_waits: waits,
      Innodb_deadlocks: Atomics.load(a, H_DEADLOCKS),
    };
  }

  /** Lock records held or waited for by a transaction, and whether it waits now. */
  describeTrx(trx: number): { id: number; locks: number; waiting: boolean; connection: number } {
    const a = this.#a;
    const tb = this.#trxBase + trx * TRX_SLOTS;
    return {
      id: a[tb + T_ID]!,
      locks: a[tb + T_LOCKS]!,
      waiting: Atomics.load(a, tb + T_WAIT) === WAIT_WAITING,
      connection: a[tb + T_CONN]!,
    };
  }

  /** Active transactions (slot numbers), a snapshot. */
  activeTransactions(): number[] {
    const out: number[] = [];
    const a = this.#a;
    this.#enter();
    try {
      for (let t = 0; t < this.#trxSlots; t++)
        if (a[this.#trxBase + t * TRX_SLOTS + T_STATE] === 1) out.push(t);
    } finally {
      this.#exit();
    }
    return out;
  }

  /** Lock records in use. */
  get inUse(): number {
    return Atomics.load(this.#a, H_IN_USE);
  }

  /** Stores the latest deadlock report (UTF-8, cut at REPORT_BYTES) for SHOW ENGINE INNODB STATUS. */
  setReport(text: string): void {
    const enc = new TextEncoder().encode(text).subarray(0, REPORT_BYTES);
    this.#enter();
    try {
      this.#bytes.set(enc);
      this.#a[H_REPORT_LEN] = enc.length;
    } finally {
      this.#exit();
    }
  }

  report(): string {
    this.#enter();
    try {
      const n = this.#a[H_REPORT_LEN]!;
      // copy out of the shared buffer: TextDecoder refuses shared views
      return new TextDecoder().decode(this.#bytes.slice(0, n));
    } finally {
      this.#exit();
    }
  }

  /**
   * Verifies the structure: every record reachable from one bucket and one transaction, the free
   * list and counts consistent, no granted lock incompatible with another granted one on the same
   * record. Throws RangeError at the first difference.
   */
  checkValid(): void {
    this.#enter();
    try {
      checkLockTable(this.#l);
    } finally {
      this.#exit();
    }
  }

  // ------------------------------------------------------------------ internals (mutex held)

  #enter(): void {
    mutexLock(this.#a, 0);
  }

  #exit(): void {
    mutexUnlock(this.#a, 0);
  }

  #xCount(table: number, d: number): void {
    const i = this.#xBase + (table & (X_COUNTS - 1));
    Atomics.add(this.#a, i, d);
  }

  /** Appends a lock record at the tail of its bucket (the queue's end). */
  #add(trx: number, table: number, h1: number, h2: number, len: number, flags: number): number {
    const a = this.#a;
    const r = a[H_FREE]!;
    if (r === -1) throw new LockTableFullError('The total number of locks exceeds the lock table size');
    const p = this.#lockBase + r * LOCK_SLOTS;
    a[H_FREE] = a[p + L_NEXT]!;
    a[p + L_NEXT] = -1;
    a[p + L_TRX] = trx;
    a[p + L_FLAGS] = flags;
    a[p + L_TABLE] = table;
    a[p + L_H1] = h1;
    a[p + L_H2] = h2;
    a[p + L_LEN] = len;
    const head = this.#bucketBase + (h1 & this.#bucketMask);
    if (a[head] === -1) a[head] = r;
    else {
      let q = a[head]!;
      while (a[this.#lockBase + q * LOCK_SLOTS + L_NEXT] !== -1)
        q = a[this.#lockBase + q * LOCK_SLOTS + L_NEXT]!;
      a[this.#lockBase + q * LOCK_SLOTS + L_NEXT] = r;
    }
    const tb = this.#trxBase + trx * TRX_SLOTS;
    a[p + L_TRX_NEXT] = a[tb + T_FIRST]!;
    a[tb + T_FIRST] = r;
    a[tb + T_LOCKS]!++;
    a[H_IN_USE]!++;
    if ((flags & F_X) !== 0) this.#xCount(table, 1);
    return r;
  }

  /** Unlinks record r from its bucket chain and puts it on the free list (not from its trx list). */
  #unlinkBucket(r: number): void {
    const a = this.#a;
    const p = this.#lockBase + r * LOCK_SLOTS;
    const head = this.#bucketBase + (a[p + L_H1]! & this.#bucketMask);
    if (a[head] === r) a[head] = a[p + L_NEXT]!;
    else {
      let q = a[head]!;
      while (a[this.#lockBase + q * LOCK_SLOTS + L_NEXT] !== r)
        q = a[this.#lockBase + q * LOCK_SLOTS + L_NEXT]!;
      a[this.#lockBase + q * LOCK_SLOTS + L_NEXT] = a[p + L_NEXT]!;
    }
    if ((a[p + L_FLAGS]! & F_X) !== 0) this.#xCount(a[p + L_TABLE]!, -1);
    a[p + L_NEXT] = a[H_FREE]!;
    a[H_FREE] = r;
    a[H_IN_USE]!--;
  }

  #releaseAll(trx: number): void {
    const a = this.#a;
    const tb = this.#trxBase + trx * TRX_SLOTS;
    if (Atomics.load(a, tb + T_WAIT) === WAIT_WAITING) this.#cancelWait(trx);
    const touched: number[] = [];
    for (let r = a[tb + T_FIRST]!; r !== -1; ) {
      const p = this.#lockBase + r * LOCK_SLOTS;
      const next = a[p + L_TRX_NEXT]!;
      touched.push(a[p + L_H1]! & this.#bucketMask);
      this.#unlinkBucket(r);
      r = next;
    }
    a[tb + T_FIRST] = -1;
    a[tb + T_LOCKS] = 0;
    for (const b of touched) this.#grantWaiting(b);
  }

  /** Withdraws the waiting request of `trx` (its wait word is left to the caller). */
  #cancelWait(trx: number): void {
    const a = this.#a;
    const tb = this.#trxBase + trx * TRX_SLOTS;
    const w = a[tb + T_WAITING_FOR]!;
    if (w === -1) return;
    a[tb + T_WAITING_FOR] = -1;
    // off the transaction's list
    if (a[tb + T_FIRST] === w) a[tb + T_FIRST] = a[this.#lockBase + w * LOCK_SLOTS + L_TRX_NEXT]!;
    else {
      let q = a[tb + T_FIRST]!;
      while (q !== -1 && a[this.#lockBase + q * LOCK_SLOTS + L_TRX_NEXT] !== w)
        q = a[this.#lockBase + q * LOCK_SLOTS + L_TRX_NEXT]!;
      if (q !== -1)
        a[this.#lockBase + q * LOCK_SLOTS + L_TRX_NEXT] = a[this.#lockBase + w * LOCK_SLOTS + L_TRX_NEXT]!;
    }
    a[tb + T_LOCKS]!--;
    const bucket = a[this.#lockBase + w * LOCK_SLOTS + L_H1]! & this.#bucketMask;
    this.#unlinkBucket(w);
    this.#grantWaiting(bucket);
  }

  /**
   * Grants, in queue order, every waiting request of a bucket that no earlier record of another
   * transaction on the same key conflicts with (InnoDB's `lock_rec_grant` after
   * `lock_rec_has_to_wait_in_queue`), and wakes its transaction.
   */
  #grantWaiting(bucket: number): void {
    const a = this.#a;
    const head = a[this.#bucketBase + bucket]!;
    for (let r = head; r !== -1; r = a[this.#lockBase + r * LOCK_SLOTS + L_NEXT]!) {
      const p = this.#lockBase + r * LOCK_SLOTS;
      const f = a[p + L_FLAGS]!;
      if ((f & F_WAITING) === 0) continue;
      if (hasToWait(this.#l, r, head)) continue;
      a[p + L_FLAGS] = f & ~F_WAITING;
      const tb = this.#trxBase + a[p + L_TRX]! * TRX_SLOTS;
      a[tb + T_WAITING_FOR] = -1;
      Atomics.store(a, tb + T_WAIT, WAIT_GRANTED);
      Atomics.notify(a, tb + T_WAIT);
    }
  }
}
