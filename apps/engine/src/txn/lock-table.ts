import { mutexInit, mutexLock, mutexUnlock } from '@enginekit/mutex-atomics';
import { keyHash1, keyHash2 } from './internal/key-hash.js';
import { growableBuffer, isGrowable } from './internal/growable-buffer.js';
import { checkLockTable } from './internal/lock-check.js';
import { LockTableFullError } from './internal/lock-errors.js';
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
  H_MAX_CAPACITY,
  H_GROWTHS,
  H_TRX_HIGH,
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
  T_READ_COMMITTED,
  T_UNDO_HI,
  T_UNDO_LO,
  LOCK_SLOTS,
  L_NEXT,
  L_TRX,
  L_FLAGS,
  L_TABLE,
  L_H1,
  L_H2,
  L_LEN,
  L_INDEX,
  F_X,
  F_WAITING,
  F_GAP,
  F_REC_NOT_GAP,
  F_INSERT_INTENTION,
  F_MDL_NO_READ,
  F_MDL_READ_ONLY,
  F_MDL_WRITE,
  F_TYPE,
  SUPREMUM_LEN,
  X_COUNTS,
  REPORT_BYTES,
  MDL_BIT,
  WAIT_NONE,
  WAIT_WAITING,
  WAIT_GRANTED,
  WAIT_VICTIM,
  WAIT_CANCELLED,
  recCovers,
  recHasToWait,
} from './internal/lock-layout.js';
import {
  addLock,
  cancelWait,
  freeLock,
  grantWaiting,
  inheritFromNext,
  inheritToGap,
  type QueueLayout,
  type RecordName,
  releaseAll,
  tableBytes,
} from './internal/lock-queue.js';
import { type LockInfo, listLocks } from './internal/lock-list.js';
import { chooseVictim, findCycle } from './internal/wait-for-graph.js';

/**
 * Record locks on index entries of every index (and table metadata locks), shared by every
 * session of every thread that attaches to the same SharedArrayBuffer. One Int32Array holds it
 * all, guarded by one mutex from @enginekit/mutex-atomics (InnoDB's `lock_sys->mutex`).
 *
 * A lock names an index entry by (table id, index id, the entry's key bytes): the clustered
 * record by its primary key, a secondary entry by its whole key (secondary columns and primary
 * key). Each index also has a supremum, the gap after its last entry (key length -1). InnoDB
 * names a record by page and heap number and moves its locks when a page splits or merges; a
 * name made of key bytes does not change when the record moves, so page splits and merges move
 * nothing here. The bytes are not stored: the entry is identified by two independent 32-bit
 * hashes of them (seeded with table and index) and their length. Two different keys that agree
 * on all of it (about 2^-64 per pair) share one lock queue, which makes a transaction wait when
 * it need not, never the reverse.
 *
 * Lock types are InnoDB's: LOCK_ORDINARY (next-key: the record and the gap before it),
 * LOCK_GAP, LOCK_REC_NOT_GAP and LOCK_INSERT_INTENTION, in modes S and X; who waits for whom is
 * `lock_rec_has_to_wait` (lock-layout.ts, {@link recHasToWait}).
 *
 * The lock records grow with demand: the buffer is a growable SharedArrayBuffer
 * (`maxByteLength`), and a request that finds no free record doubles the record area
 * (`buffer.grow`; every thread's view tracks the length) up to `maxCapacity` records. InnoDB
 * refuses a lock once lock memory would pass about 70 % of the buffer pool (a buffer pool with
 * less than a quarter of its pages left for data: `buf_LRU_buf_pool_running_out`); here the bound
 * is {@link lockCapacityFor}: 70 % of `innodb_buffer_pool_size` in 40-byte records. Past it a
 * request throws LockTableFullError (ER_LOCK_TABLE_FULL, 1206).
 *
 * Layout (Int32 slots):
 *
 * | slots | name | meaning |
 * |---|---|---|
 * | 0–3 | mutex | `MUTEX_SLOTS` of mutex-atomics' mutex, guarding everything below |
 * | 4 | capacity | lock records that exist now |
 * | 5 | buckets | hash buckets (a power of two, fixed at creation) |
 * | 6 | trxSlots | transaction slots |
 * | 7 | freeHead | first free lock record, -1 when none (the next request grows the area) |
 * | 8 | Innodb_row_lock_waits | waits begun |
 * | 9 | Innodb_row_lock_current_waits | waits in progress |
 * | 10 | Innodb_deadlocks | deadlocks found |
 * | 11 | Innodb_row_lock_time | total ms spent waiting |
 * | 12 | Innodb_row_lock_time_max | longest wait, ms |
 * | 13 | inUse | lock records in use |
 * | 14 | nextTrxId | the last transaction id handed out |
 * | 15 | reportLength | bytes of the latest deadlock report |
 * | 16 | maxCapacity | the bound on lock records |
 * | 17 | growths | times the record area grew |
 * | 18 | trxHigh | every transaction slot in use is below it |
 * | 20 … 20+T·11 | trx[T] | per transaction slot, 11 slots each (below) |
 * | … +B | bucket[B] | first lock record of each hash bucket, -1 when empty |
 * | … +X | xCount[X] | X locks (granted or waiting) per `tableId & (X-1)`: readers of a table with none skip the lookup |
 * | … +2048 | report | the deadlock report's UTF-8 bytes (REPORT_BYTES) |
 * | … +N·10 | lock[N] | per lock record, 10 slots each (below); N grows |
 *
 * A transaction slot: +0 state (0 free, 1 active), +1 wait word (0 running, 1 waiting,
 * 2 granted, 3 chosen as deadlock victim, 4 wait cancelled: KILL QUERY), +2 the lock record it
 * waits for (-1), +3 its first lock record (-1), +4 weight (undo records, for the victim choice
 * as InnoDB's `trx_weight_ge` with the locks held), +5 transaction id, +6 lock records held,
 * +7 connection id, +8 1 at READ COMMITTED and below (its X locks leave no gap behind),
 * +9/+10 its DB_TRX_ID (high and low 24 bits; 0 until it writes), which names the rows it
 * inserted: their locks are implicit, made explicit by {@link LockTable.convertImplicit}.
 *
 * A lock record: +0 next in its bucket (-1; bucket order is arrival order: the queue),
 * +1 next and +9 previous of the same transaction (-1), +2 transaction slot, +3 flags (bit 0: X,
 * else S; bit 1: waiting; bit 2 LOCK_GAP; bit 3 LOCK_REC_NOT_GAP; bit 4 LOCK_INSERT_INTENTION;
 * none of bits 2–4: LOCK_ORDINARY; a metadata lock's modes: bit 5 SW, bit 6 SRO, bit 7 with X
 * SNRW), +4 table id (bit 30 set: the table's metadata lock), +5 hash 1, +6 hash 2, +7 key
 * length (-1: the supremum), +8 index id.
 */

export type { LockInfo };
export { LockTableFullError, WAIT_CANCELLED, WAIT_GRANTED, WAIT_NONE, WAIT_VICTIM, WAIT_WAITING };

export type LockMode = 'S' | 'X';

/**
 * A table's metadata lock modes, as MariaDB's MDL: `SR` a transaction reads the table, `SW` it
 * writes rows (or reads them FOR UPDATE), `SRO` LOCK TABLES … READ, `SNRW` LOCK TABLES … WRITE,
 * `X` DDL. SR goes with everything but SNRW and X; SW and SRO exclude each other; SNRW and X
 * exclude everything.
 */
export type MdlMode = 'SR' | 'SW' | 'SRO' | 'SNRW' | 'X';
const MDL_FLAGS: Readonly<Record<MdlMode, number>> = {
  SR: 0,
  SW: F_MDL_WRITE,
  SRO: F_MDL_READ_ONLY,
  SNRW: F_X | F_MDL_NO_READ,
  X: F_X,
};

/** InnoDB's record lock types. */
export const LOCK_ORDINARY = 0;
export const LOCK_GAP: number = F_GAP;
export const LOCK_REC_NOT_GAP: number = F_REC_NOT_GAP;
export const LOCK_INSERT_INTENTION: number = F_INSERT_INTENTION | F_GAP;
export type RecLockType = number;

/** What `lock` did: granted (or already held), must wait, or the requester is a deadlock victim. */
export const GRANTED = 0;
export const MUST_WAIT = 1;
export const DEADLOCK = 2;
export type LockOutcome = typeof GRANTED | typeof MUST_WAIT | typeof DEADLOCK;

/** Bytes one lock record takes. */
export const LOCK_RECORD_BYTES: number = LOCK_SLOTS * 4;

/** The most lock records one lock table holds (2^26: 2.5 GiB of records). */
export const MAX_LOCK_RECORDS: number = 1 << 26;

/**
 * The most lock records a buffer pool of `poolBytes` allows: 70 % of it in lock records (InnoDB
 * gives lock memory up to about that share of the buffer pool before ER_LOCK_TABLE_FULL), and
 * never more than {@link MAX_LOCK_RECORDS} (reached from a pool of about 3.6 GiB).
 */
export function lockCapacityFor(poolBytes: number): number {
  return Math.min(MAX_LOCK_RECORDS, Math.max(1, Math.floor((poolBytes * 0.7) / LOCK_RECORD_BYTES)));
}

export interface LockTableOptions {
  /** Lock records at creation (default 65,536; 40 bytes each). */
  readonly capacity?: number;
  /** The bound the records may grow to (default: {@link lockCapacityFor} of 128 MiB, and at least `capacity`). */
  readonly maxCapacity?: number;
  /** Transaction slots: transactions open at once (default 1024). */
  readonly transactions?: number;
}

const EMPTY = new Uint8Array(0);

export class LockTable {
  readonly buffer: SharedArrayBuffer;
  readonly #a: Int32Array;
  readonly #bytes: Uint8Array;
  readonly #trxBase: number;
  readonly #lockBase: number;
  readonly #bucketBase: number;
  readonly #xBase: number;
  readonly #bucketMask: number;
  readonly #trxSlots: number;
  readonly #l: QueueLayout;

  /** Attaches to a lock table made by {@link LockTable.create} (on this or another thread). */
  constructor(buffer: SharedArrayBuffer) {
    if (!(buffer instanceof SharedArrayBuffer)) throw new TypeError('buffer must be a SharedArrayBuffer');
    if (!isGrowable(buffer) || buffer.byteLength < HEADER * 4)
      throw new RangeError('buffer is not a lock table (made by LockTable.create)');
    const head = new Int32Array(buffer, 0, HEADER);
    const capacity = head[H_CAPACITY]!;
    const buckets = head[H_BUCKETS]!;
    const trx = head[H_TRX_SLOTS]!;
    const fixed = LockTable.#fixedSlots(buckets, trx);
    const lockBase = fixed + REPORT_BYTES / 4;
    // (another thread may have grown the buffer since the header was read: never smaller)
    if (capacity <= 0 || buffer.byteLength < tableBytes(lockBase, capacity))
      throw new RangeError('buffer is not a lock table (made by LockTable.create)');
    this.buffer = buffer;
    // length-tracking: the view follows the buffer as any thread grows it
    this.#a = new Int32Array(buffer);
    this.#bytes = new Uint8Array(buffer, fixed * 4, REPORT_BYTES);
    this.#trxSlots = trx;
    this.#trxBase = HEADER;
    this.#bucketBase = HEADER + trx * TRX_SLOTS;
    this.#xBase = this.#bucketBase + buckets;
    this.#lockBase = lockBase;
    this.#bucketMask = buckets - 1;
    this.#l = {
      a: this.#a,
      buffer,
      trxSlots: trx,
      trxBase: this.#trxBase,
      lockBase: this.#lockBase,
      bucketBase: this.#bucketBase,
      xBase: this.#xBase,
      bucketMask: this.#bucketMask,
    };
  }

  static #fixedSlots(buckets: number, trx: number): number {
    return HEADER + trx * TRX_SLOTS + buckets + X_COUNTS;
  }

  /** A new, empty lock table in a fresh growable SharedArrayBuffer. */
  static create(options: LockTableOptions = {}): LockTable {
    const capacity = options.capacity ?? Math.min(65536, options.maxCapacity ?? 65536);
    const trx = options.transactions ?? 1024;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_LOCK_RECORDS)
      throw new RangeError(`capacity must be an integer in 1..${MAX_LOCK_RECORDS}, got ${capacity}`);
    const maxCapacity = options.maxCapacity ?? Math.max(capacity, lockCapacityFor(134217728));
    if (!Number.isInteger(maxCapacity) || maxCapacity < capacity || maxCapacity > MAX_LOCK_RECORDS)
      throw new RangeError(
        `maxCapacity must be an integer in ${capacity}..${MAX_LOCK_RECORDS}, got ${maxCapacity}`,
      );
    if (!Number.isInteger(trx) || trx < 1 || trx > 65536)
      throw new RangeError(`transactions must be an integer in 1..65536, got ${trx}`);
    // four buckets per record at creation: chains stay short while the area grows a few times
    let buckets = 1;
    const want = Math.min(capacity * 4, 1 << 20);
    while (buckets < want) buckets <<= 1;
    const fixed = LockTable.#fixedSlots(buckets, trx);
    const lockBase = fixed + REPORT_BYTES / 4;
    const sab = growableBuffer(tableBytes(lockBase, capacity), tableBytes(lockBase, maxCapacity));
    const a = new Int32Array(sab);
    mutexInit(a, 0);
    a[H_CAPACITY] = capacity;
    a[H_MAX_CAPACITY] = maxCapacity;
    a[H_BUCKETS] = buckets;
    a[H_TRX_SLOTS] = trx;
    for (let i = 0; i < capacity; i++) a[lockBase + i * LOCK_SLOTS + L_NEXT] = i + 1 < capacity ? i + 1 : -1;
    a[H_FREE] = 0;
    const bucketBase = HEADER + trx * TRX_SLOTS;
    a.fill(-1, bucketBase, bucketBase + buckets);
    return new LockTable(sab);
  }

  /** Lock records that exist now, the bound, and how often the area grew. */
  get capacity(): { records: number; max: number; growths: number } {
    const a = this.#a;
    return {
      records: Atomics.load(a, H_CAPACITY),
      max: Atomics.load(a, H_MAX_CAPACITY),
      growths: Atomics.load(a, H_GROWTHS),
    };
  }

  // ------------------------------------------------------------------ transactions

  /**
   * Takes a free transaction slot for connection `connectionId`; returns it (throws when none is
   * free). `readCommitted`: the transaction runs at READ COMMITTED or READ UNCOMMITTED.
   */
  begin(connectionId: number, readCommitted = false): number {
    const a = this.#a;
    this.#enter();
    try {
      // the lowest free slot: the slots in use stay below a small high-water mark
      for (let t = 0; t < this.#trxSlots; t++) {
        const b = this.#trxBase + t * TRX_SLOTS;
        if (a[b + T_STATE] !== 0) continue;
        if (t >= a[H_TRX_HIGH]!) a[H_TRX_HIGH] = t + 1;
        a[b + T_STATE] = 1;
        a[b + T_UNDO_HI] = 0;
        a[b + T_UNDO_LO] = 0;
        Atomics.store(a, b + T_WAIT, WAIT_NONE);
        a[b + T_WAITING_FOR] = -1;
        a[b + T_FIRST] = -1;
        a[b + T_WEIGHT] = 0;
        a[b + T_ID] = ++a[H_NEXT_TRX]!;
        a[b + T_LOCKS] = 0;
        a[b + T_CONN] = connectionId;
        a[b + T_READ_COMMITTED] = readCommitted ? 1 : 0;
        return t;
      }
    } finally {
      this.#exit();
    }
    throw new LockTableFullError(`all ${this.#trxSlots} transaction slots are in use`);
  }

  /** Records the DB_TRX_ID slot `trx`'s transaction writes its rows with (its inserts' implicit locks). */
  setUndoId(trx: number, id: number): void {
    const b = this.#trxBase + trx * TRX_SLOTS;
    this.#enter();
    try {
      this.#a[b + T_UNDO_HI] = Math.floor(id / 0x1000000);
      this.#a[b + T_UNDO_LO] = id % 0x1000000;
    } finally {
      this.#exit();
    }
  }

  /**
   * InnoDB's `lock_rec_convert_impl_to_expl`: the record `key[off, off+len)` of index `indexId`
   * carries DB_TRX_ID `owner`; while that transaction is active it holds the record X
   * (record only) without a lock record. Before another transaction requests a lock there, the
   * implicit lock becomes an explicit one of the owner's, so the request queues behind it.
   */
  convertImplicit(
    owner: number,
    tableId: number,
    indexId: number,
    key: Uint8Array,
    off: number,
    len: number,
  ): void {
    const a = this.#a;
    const hi = Math.floor(owner / 0x1000000);
    const lo = owner % 0x1000000;
    const high = Atomics.load(a, H_TRX_HIGH);
    let slot = -1;
    for (let t = 0; t < high; t++) {
      const b = this.#trxBase + t * TRX_SLOTS;
      if (a[b + T_UNDO_LO] === lo && a[b + T_UNDO_HI] === hi && a[b + T_STATE] === 1) {
        slot = t;
        break;
      }
    }
    if (slot < 0) return;
    const k = this.#name(tableId, indexId, key, off, len);
    const want = F_X | F_REC_NOT_GAP;
    this.#enter();
    try {
      const b = this.#trxBase + slot * TRX_SLOTS;
      // committed (or another transaction took the slot) since the scan: nothing to convert
      if (a[b + T_STATE] !== 1 || a[b + T_UNDO_LO] !== lo || a[b + T_UNDO_HI] !== hi) return;
      for (let r = a[this.#bucketBase + (k.h1 & this.#bucketMask)]!; r !== -1; ) {
        const p = this.#lockBase + r * LOCK_SLOTS;
        if (
          a[p + L_TRX] === slot &&
          a[p + L_H1] === k.h1 &&
          a[p + L_H2] === k.h2 &&
          a[p + L_TABLE] === k.table &&
          a[p + L_INDEX] === k.index &&
          a[p + L_LEN] === k.len &&
          recCovers(a[p + L_FLAGS]!, want, false)
        )
          return;
        r = a[p + L_NEXT]!;
      }
      addLock(this.#l, slot, k, want);
    } finally {
      this.#exit();
    }
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
      releaseAll(this.#l, trx);
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
      releaseAll(this.#l, trx);
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
   * Requests a lock on record `key[off, off+len)` of `tableId`'s clustered index (index id 0; an
   * ordinary S or X lock) for `trx`. GRANTED: held now (or already). MUST_WAIT: a waiting request
   * is queued and the slot's wait word is WAIT_WAITING; sleep on {@link waitWord} until it
   * changes. DEADLOCK: waiting would close a cycle and `trx` is the victim; nothing is queued.
   * With `noWait`, a request that would wait is not queued and MUST_WAIT is returned.
   */
  lock(
    trx: number,
    tableId: number,
    key: Uint8Array,
    off: number,
    len: number,
    mode: LockMode,
    noWait = false,
  ): LockOutcome {
    const k = this.#name(tableId, 0, key, off, len);
    return this.#request(trx, k, mode === 'X' ? F_X : 0, noWait);
  }

  /**
   * Requests the metadata lock of `tableId` in `mode` for `trx` (MariaDB's MDL modes, see
   * {@link MdlMode}); outcomes as {@link lock}.
   */
  lockMetadata(trx: number, tableId: number, mode: MdlMode, noWait = false): LockOutcome {
    const k = this.#name(tableId | MDL_BIT, 0, EMPTY, 0, 0);
    return this.#request(trx, k, MDL_FLAGS[mode], noWait);
  }

  /**
   * Whether a LOCK TABLES … WRITE of a transaction other than `trx` holds or waits for `tableId`'s
   * metadata lock (a consistent read outside a transaction then waits for it too).
   */
  lockedForWrite(tableId: number, trx: number): boolean {
    if (!this.hasXLocks(tableId)) return false;
    const k = this.#name(tableId | MDL_BIT, 0, EMPTY, 0, 0);
    const a = this.#a;
    this.#enter();
    try {
      for (let r = a[this.#bucketBase + (k.h1 & this.#bucketMask)]!; r !== -1; ) {
        const p = this.#lockBase + r * LOCK_SLOTS;
        if (
          a[p + L_TABLE] === k.table &&
          a[p + L_H1] === k.h1 &&
          a[p + L_H2] === k.h2 &&
          a[p + L_TRX] !== trx &&
          (a[p + L_FLAGS]! & F_MDL_NO_READ) !== 0
        )
          return true;
        r = a[p + L_NEXT]!;
      }
      return false;
    } finally {
      this.#exit();
    }
  }

  /**
   * Requests a record lock of `type` (LOCK_ORDINARY, LOCK_GAP, LOCK_REC_NOT_GAP,
   * LOCK_INSERT_INTENTION) in `mode` on the entry `key[off, off+len)` of index `indexId` of
   * `tableId`, or on the index's supremum when `key` is null (InnoDB's `lock_rec_lock`, and
   * `lock_rec_insert_check_and_lock` for an insert intention: granted without a lock record when
   * nobody makes it wait). Outcomes as {@link lock}.
   */
  lockRecord(
    trx: number,
    tableId: number,
    indexId: number,
    key: Uint8Array | null,
    off: number,
    len: number,
    mode: LockMode,
    type: RecLockType,
    noWait = false,
  ): LockOutcome {
    const k = this.#name(tableId, indexId, key, off, len);
    return this.#request(trx, k, (mode === 'X' ? F_X : 0) | (type & F_TYPE), noWait);
  }

  /**
   * Whether the last request this thread made that was granted added a lock record (InnoDB's
   * DB_SUCCESS_LOCKED_REC) rather than finding one the transaction held already.
   */
  lastGrantNew = false;

  /**
   * Releases one granted lock of `trx` in `mode` on the record `key[off, off+len)` of index
   * `indexId` (InnoDB's `lock_rec_unlock`, which `row_unlock_for_mysql` calls for a row a READ
   * COMMITTED read locked and the WHERE clause then rejected) and grants what waited for it.
   * Returns whether a lock was found.
   */
  unlockRecord(
    trx: number,
    tableId: number,
    indexId: number,
    key: Uint8Array,
    off: number,
    len: number,
    mode: LockMode,
  ): boolean {
    const k = this.#name(tableId, indexId, key, off, len);
    const a = this.#a;
    const x = mode === 'X' ? F_X : 0;
    this.#enter();
    try {
      const bucket = k.h1 & this.#bucketMask;
      for (let r = a[this.#bucketBase + bucket]!; r !== -1; ) {
        const p = this.#lockBase + r * LOCK_SLOTS;
        const f = a[p + L_FLAGS]!;
        if (
          a[p + L_TRX] === trx &&
          (f & F_WAITING) === 0 &&
          (f & F_X) === x &&
          a[p + L_H1] === k.h1 &&
          a[p + L_H2] === k.h2 &&
          a[p + L_TABLE] === k.table &&
          a[p + L_INDEX] === k.index &&
          a[p + L_LEN] === k.len
        ) {
          freeLock(this.#l, r);
          grantWaiting(this.#l, bucket);
          return true;
        }
        r = a[p + L_NEXT]!;
      }
      return false;
    } finally {
      this.#exit();
    }
  }

  /**
   * A new entry `entry` of index `indexId` now sits before `next` (null: the supremum): the gap
   * locks on `next` are inherited by the new entry (InnoDB's `lock_update_insert`).
   */
  inheritFromNext(tableId: number, indexId: number, entry: Uint8Array, next: Uint8Array | null): void {
    const e = this.#name(tableId, indexId, entry, 0, entry.length);
    const n = this.#name(tableId, indexId, next, 0, next === null ? 0 : next.length);
    if (!this.#anyOn(n)) return;
    this.#enter();
    try {
      inheritFromNext(this.#l, e, n);
    } finally {
      this.#exit();
    }
  }

  /**
   * The entry `gone` of index `indexId` was removed for good: its locks become gap locks on
   * `heir` (the next entry, null: the supremum; asked only when a lock may be there) and leave
   * `gone` (`lock_update_delete`).
   */
  inheritToGap(tableId: number, indexId: number, gone: Uint8Array, heir: () => Uint8Array | null): void {
    const g = this.#name(tableId, indexId, gone, 0, gone.length);
    if (!this.#anyOn(g)) return;
    const next = heir();
    const h = this.#name(tableId, indexId, next, 0, next === null ? 0 : next.length);
    this.#enter();
    try {
      inheritToGap(this.#l, g, h);
    } finally {
      this.#exit();
    }
  }

  /** Whether the record's bucket holds any lock (a racy hint that lets most index changes skip the mutex). */
  #anyOn(k: RecordName): boolean {
    return Atomics.load(this.#a, this.#bucketBase + (k.h1 & this.#bucketMask)) !== -1;
  }

  #name(table: number, index: number, key: Uint8Array | null, off: number, len: number): RecordName {
    const seed = (Math.imul(table, 0x01000193) ^ Math.imul(index + 1, 0x5bd1e995)) | 0;
    const k = key ?? EMPTY;
    const n = key === null ? 0 : len;
    return {
      table,
      index,
      h1: keyHash1(seed, k, off, n),
      h2: keyHash2(seed, k, off, n),
      len: key === null ? SUPREMUM_LEN : len,
    };
  }

  #request(trx: number, k: RecordName, flags: number, noWait: boolean): LockOutcome {
    const a = this.#a;
    const sup = k.len === SUPREMUM_LEN;
    this.lastGrantNew = false;
    this.#enter();
    try {
      let r = a[this.#bucketBase + (k.h1 & this.#bucketMask)]!;
      let upgrade = -1;
      let conflict = false;
      while (r !== -1) {
        const p = this.#lockBase + r * LOCK_SLOTS;
        if (
          a[p + L_H1] === k.h1 &&
          a[p + L_H2] === k.h2 &&
          a[p + L_TABLE] === k.table &&
          a[p + L_INDEX] === k.index &&
          a[p + L_LEN] === k.len
        ) {
          const f = a[p + L_FLAGS]!;
          if (a[p + L_TRX] === trx) {
            if (recCovers(f, flags, sup)) return GRANTED;
            // an S lock of the same type becomes X in place when nobody else is in the way
            if ((f & (F_WAITING | F_X)) === 0 && (f & F_TYPE) === (flags & F_TYPE) && (flags & F_X) !== 0)
              upgrade = r;
          } else if (recHasToWait(flags, f, sup)) conflict = true;
        }
        r = a[p + L_NEXT]!;
      }
      if (!conflict) {
        // an insert intention that waits for nobody leaves no lock behind
        if ((flags & F_INSERT_INTENTION) !== 0) return GRANTED;
        if (upgrade >= 0) {
          const p = this.#lockBase + upgrade * LOCK_SLOTS;
          a[p + L_FLAGS] = a[p + L_FLAGS]! | F_X;
          this.#xCount(k.table, 1);
        } else {
          addLock(this.#l, trx, k, flags);
          this.lastGrantNew = true;
        }
        return GRANTED;
      }
      if (noWait) return MUST_WAIT;
      const w = addLock(this.#l, trx, k, flags | F_WAITING);
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
          cancelWait(this.#l, trx);
          Atomics.store(a, tb + T_WAIT, WAIT_NONE);
          return DEADLOCK;
        }
        cancelWait(this.#l, victim);
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
      if (s === WAIT_WAITING) cancelWait(this.#l, trx);
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
      cancelWait(this.#l, trx);
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

  /**
   * The locks of transaction slot `trx`, newest first, or with -1 of every transaction (for
   * SHOW ENGINE INNODB STATUS and INFORMATION_SCHEMA.INNODB_LOCKS); `waitedFor`: only waiting
   * requests and the granted locks of others that make them wait.
   */
  lockInfos(trx: number, waitedFor = false): LockInfo[] {
    this.#enter();
    try {
      return listLocks(this.#l, trx, waitedFor);
    } finally {
      this.#exit();
    }
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
}
