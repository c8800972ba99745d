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
export const HEADER = 16;

export const TRX_SLOTS = 8;
export const T_STATE = 0;
export const T_WAIT = 1;
export const T_WAITING_FOR = 2;
export const T_FIRST = 3;
export const T_WEIGHT = 4;
export const T_ID = 5;
export const T_LOCKS = 6;
export const T_CONN = 7;

export const LOCK_SLOTS = 8;
export const L_NEXT = 0;
export const L_TRX_NEXT = 1;
export const L_TRX = 2;
export const L_FLAGS = 3;
export const L_TABLE = 4;
export const L_H1 = 5;
export const L_H2 = 6;
export const L_LEN = 7;

export const F_X = 1;
export const F_WAITING = 2;

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

/** Where the parts of one lock table start in its Int32Array. */
export interface LockLayout {
  readonly a: Int32Array;
  readonly capacity: number;
  readonly trxSlots: number;
  readonly trxBase: number;
  readonly lockBase: number;
  readonly bucketBase: number;
  readonly xBase: number;
  readonly bucketMask: number;
}

/** Whether lock records at slots p and q name the same record (table, both hashes, length). */
export function sameKey(l: LockLayout, p: number, q: number): boolean {
  const a = l.a;
  return (
    a[p + L_H1] === a[q + L_H1] &&
    a[p + L_H2] === a[q + L_H2] &&
    a[p + L_TABLE] === a[q + L_TABLE] &&
    a[p + L_LEN] === a[q + L_LEN]
  );
}
