import { MUTEX_SLOTS } from '@enginekit/mutex-atomics';

/** Slot numbers of the lock table's Int32Array (the table in lock-table.ts describes them). */
export const H_CAPACITY = 4;
export const H_BUCKETS = 5;
export const H_TRX_SLOTS = 6;
export const H_FREE = 7;
export const H_WAITS = 8;
export const H_CURRENT_WAITS = 9;
export const H_DEADLOCKS = 10;
export const H_TIME = 11;
export const H_TIME_MAX = 12;
export const H_IN_USE = 13;
export const H_NEXT_TRX = 14;
export const H_REPORT_LEN = 15;
export const H_MAX_CAPACITY = 16;
export const H_GROWTHS = 17;
/** Every transaction slot in use is below this (scans for an implicit lock's owner stop there). */
export const H_TRX_HIGH = 18;
export const HEADER = 20;

export const TRX_SLOTS = 11;
export const T_STATE = 0;
export const T_WAIT = 1;
export const T_WAITING_FOR = 2;
export const T_FIRST = 3;
export const T_WEIGHT = 4;
export const T_ID = 5;
export const T_LOCKS = 6;
export const T_CONN = 7;
/** 1 when the transaction runs at READ COMMITTED or READ UNCOMMITTED (no gap locks). */
export const T_READ_COMMITTED = 8;
/** The transaction's DB_TRX_ID (its undo id, 0 until it writes): high and low 24 bits. */
export const T_UNDO_HI = 9;
export const T_UNDO_LO = 10;

export const LOCK_SLOTS = 10;
export const L_NEXT = 0;
export const L_TRX_NEXT = 1;
export const L_TRX = 2;
export const L_FLAGS = 3;
export const L_TABLE = 4;
export const L_H1 = 5;
export const L_H2 = 6;
/** Key length; -1 names the index's supremum (the gap after its last entry). */
export const L_LEN = 7;
export const L_INDEX = 8;
export const L_TRX_PREV = 9;

/** Lock flags: the mode (X, else S), waiting, and InnoDB's type bits (none of them: LOCK_ORDINARY). */
export const F_X = 1;
export const F_WAITING = 2;
/** LOCK_GAP: the gap before the record only. */
export const F_GAP = 4;
/** LOCK_REC_NOT_GAP: the record only. */
export const F_REC_NOT_GAP = 8;
/** LOCK_INSERT_INTENTION (always with F_GAP). */
export const F_INSERT_INTENTION = 16;
export const F_TYPE: number = F_GAP | F_REC_NOT_GAP | F_INSERT_INTENTION;
/**
 * Metadata lock modes beyond S (MariaDB's MDL_SHARED_READ: a transaction reads the table) and X
 * (MDL_EXCLUSIVE: DDL). F_MDL_WRITE is MDL_SHARED_WRITE (a transaction changes rows or reads them
 * FOR UPDATE); F_MDL_READ_ONLY is MDL_SHARED_READ_ONLY (LOCK TABLES … READ); the two conflict with
 * each other and with nothing else of the S modes. F_MDL_NO_READ marks the X of LOCK TABLES …
 * WRITE (MDL_SHARED_NO_READ_WRITE), which a consistent read outside a transaction waits for too.
 * Record locks never carry these bits.
 */
export const F_MDL_WRITE = 32;
export const F_MDL_READ_ONLY = 64;
export const F_MDL_NO_READ = 128;

/** The key length that names an index's supremum. */
export const SUPREMUM_LEN = -1;

export const X_COUNTS = 1024;
export const REPORT_BYTES = 8192;
/** Table ids of metadata locks carry this bit. */
export const MDL_BIT: number = 1 << 30;
/** InnoDB gives up on a wait-for graph deeper than this and treats it as a deadlock (LOCK_MAX_DEPTH_IN_DEADLOCK_CHECK). */
export const MAX_DEPTH = 200;
if (MUTEX_SLOTS > H_CAPACITY) throw new Error('the lock table header leaves 4 slots for the mutex');

/** Wait word values. */
export const WAIT_NONE = 0;
export const WAIT_WAITING = 1;
export const WAIT_GRANTED = 2;
export const WAIT_VICTIM = 3;
export const WAIT_CANCELLED = 4;

/**
 * Where the parts of one lock table start in its Int32Array. The lock records come last and
 * their number grows (H_CAPACITY in the header says how many exist now).
 */
export interface LockLayout {
  readonly a: Int32Array;
  readonly trxSlots: number;
  readonly trxBase: number;
  readonly lockBase: number;
  readonly bucketBase: number;
  readonly xBase: number;
  readonly bucketMask: number;
}

/** Whether lock records at slots p and q name the same record (table, index, both hashes, length). */
export function sameKey(l: LockLayout, p: number, q: number): boolean {
  const a = l.a;
  return (
    a[p + L_H1] === a[q + L_H1] &&
    a[p + L_H2] === a[q + L_H2] &&
    a[p + L_TABLE] === a[q + L_TABLE] &&
    a[p + L_INDEX] === a[q + L_INDEX] &&
    a[p + L_LEN] === a[q + L_LEN]
  );
}

/**
 * InnoDB's `lock_rec_has_to_wait`: whether a request with flags `req` of one transaction must
 * wait for a lock with flags `held` of another on the same record (`supremum`: the record is an
 * index's supremum).
 * - S is compatible with S; any other pair of modes conflicts, and then:
 * - a gap request (or any request on the supremum) without insert intention never waits;
 * - a record request (ordinary or not-gap) never waits for a gap lock;
 * - a gap request never waits for a not-gap lock;
 * - nothing waits for an insert intention.
 * A table's metadata locks are ordinary locks on one name per table, so the same rules give
 * S/X; its two extra shared modes (F_MDL_WRITE, F_MDL_READ_ONLY) conflict with each other.
 */
export function recHasToWait(req: number, held: number, supremum: boolean): boolean {
  // metadata: a table's writers and a LOCK TABLES … READ exclude each other
  if ((req & F_MDL_WRITE) !== 0 && (held & F_MDL_READ_ONLY) !== 0) return true;
  if ((req & F_MDL_READ_ONLY) !== 0 && (held & F_MDL_WRITE) !== 0) return true;
  if ((req & F_X) === 0 && (held & F_X) === 0) return false;
  const ii = (req & F_INSERT_INTENTION) !== 0;
  if ((supremum || (req & F_GAP) !== 0) && !ii) return false;
  if (!ii && (held & F_GAP) !== 0) return false;
  if ((req & F_GAP) !== 0 && (held & F_REC_NOT_GAP) !== 0) return false;
  if ((held & F_INSERT_INTENTION) !== 0) return false;
  return true;
}

/**
 * InnoDB's `lock_rec_has_expl`: whether a granted lock `held` of a transaction already gives it
 * what a request `req` of the same transaction asks for (mode at least as strong; an ordinary
 * lock covers both parts; on the supremum the type does not matter).
 */
export function recCovers(held: number, req: number, supremum: boolean): boolean {
  if ((held & (F_INSERT_INTENTION | F_WAITING)) !== 0 || (req & F_INSERT_INTENTION) !== 0) return false;
  if ((req & F_X) !== 0 && (held & F_X) === 0) return false;
  // a metadata lock's S modes cover only themselves (X covers them all)
  if ((held & F_X) === 0 && (req & ~held & (F_MDL_WRITE | F_MDL_READ_ONLY)) !== 0) return false;
  if (supremum) return true;
  if ((held & F_REC_NOT_GAP) !== 0 && (req & F_REC_NOT_GAP) === 0) return false;
  if ((held & F_GAP) !== 0 && (req & F_GAP) === 0) return false;
  return true;
}
