import { growBuffer } from './growable-buffer.js';
import { LockTableFullError } from './lock-errors.js';
import {
  F_INSERT_INTENTION,
  F_GAP,
  F_REC_NOT_GAP,
  F_WAITING,
  F_X,
  H_CAPACITY,
  H_FREE,
  H_GROWTHS,
  H_IN_USE,
  H_MAX_CAPACITY,
  LOCK_SLOTS,
  L_FLAGS,
  L_H1,
  L_H2,
  L_INDEX,
  L_LEN,
  L_NEXT,
  L_TABLE,
  L_TRX,
  L_TRX_NEXT,
  L_TRX_PREV,
  SUPREMUM_LEN,
  TRX_SLOTS,
  T_FIRST,
  T_LOCKS,
  T_READ_COMMITTED,
  T_WAIT,
  T_WAITING_FOR,
  WAIT_GRANTED,
  WAIT_WAITING,
  X_COUNTS,
  recCovers,
  type LockLayout,
} from './lock-layout.js';
import { hasToWait } from './wait-for-graph.js';

/**
 * The queues of a lock table (the caller holds its mutex): adding and removing lock records,
 * growing the record area when the free list is empty, granting waits in queue order, and the
 * moves of locks between records that InnoDB makes when an index changes under them
 * (`lock_update_insert`, `lock_update_delete` with `lock_rec_inherit_to_gap`).
 */
export interface QueueLayout extends LockLayout {
  readonly buffer: SharedArrayBuffer;
}

/** A record as the queues name it: table (with MDL_BIT for a metadata lock), index, two hashes, length (-1: supremum). */
export interface RecordName {
  table: number;
  index: number;
  h1: number;
  h2: number;
  len: number;
}

/** Bytes a lock table with `lockBase` slots before its records and `capacity` records takes. */
export function tableBytes(lockBase: number, capacity: number): number {
  return (lockBase + capacity * LOCK_SLOTS) * 4;
}

function xCount(l: LockLayout, table: number, d: number): void {
  Atomics.add(l.a, l.xBase + (table & (X_COUNTS - 1)), d);
}

/**
 * Doubles the lock-record area (up to H_MAX_CAPACITY) and puts the new records on the free list.
 * The buffer is a growable SharedArrayBuffer: every thread's length-tracking view sees the new
 * records at once. Throws LockTableFullError at the bound.
 */
function grow(l: QueueLayout): void {
  const a = l.a;
  const cap = a[H_CAPACITY]!;
  const max = a[H_MAX_CAPACITY]!;
  if (cap >= max) throw new LockTableFullError('The total number of locks exceeds the lock table size');
  const next = Math.min(max, cap * 2);
  growBuffer(l.buffer, tableBytes(l.lockBase, next));
  for (let i = cap; i < next; i++) a[l.lockBase + i * LOCK_SLOTS + L_NEXT] = i + 1 < next ? i + 1 : -1;
  a[H_FREE] = cap;
  a[H_CAPACITY] = next;
  a[H_GROWTHS]!++;
}

/** Appends a lock record at the tail of its bucket (the queue's end) and to its transaction's list. */
export function addLock(l: QueueLayout, trx: number, k: RecordName, flags: number): number {
  const a = l.a;
  if (a[H_FREE] === -1) grow(l);
  const r = a[H_FREE]!;
  const p = l.lockBase + r * LOCK_SLOTS;
  a[H_FREE] = a[p + L_NEXT]!;
  a[p + L_NEXT] = -1;
  a[p + L_TRX] = trx;
  a[p + L_FLAGS] = flags;
  a[p + L_TABLE] = k.table;
  a[p + L_INDEX] = k.index;
  a[p + L_H1] = k.h1;
  a[p + L_H2] = k.h2;
  a[p + L_LEN] = k.len;
  const head = l.bucketBase + (k.h1 & l.bucketMask);
  if (a[head] === -1) a[head] = r;
  else {
    let q = a[head]!;
    while (a[l.lockBase + q * LOCK_SLOTS + L_NEXT] !== -1) q = a[l.lockBase + q * LOCK_SLOTS + L_NEXT]!;
    a[l.lockBase + q * LOCK_SLOTS + L_NEXT] = r;
  }
  const tb = l.trxBase + trx * TRX_SLOTS;
  const first = a[tb + T_FIRST]!;
  a[p + L_TRX_NEXT] = first;
  a[p + L_TRX_PREV] = -1;
  if (first !== -1) a[l.lockBase + first * LOCK_SLOTS + L_TRX_PREV] = r;
  a[tb + T_FIRST] = r;
  a[tb + T_LOCKS]!++;
  a[H_IN_USE]!++;
  if ((flags & F_X) !== 0) xCount(l, k.table, 1);
  return r;
}

/** Unlinks record r from its transaction's list (constant time: the list is doubly linked). */
function unlinkTrx(l: LockLayout, r: number): void {
  const a = l.a;
  const p = l.lockBase + r * LOCK_SLOTS;
  const tb = l.trxBase + a[p + L_TRX]! * TRX_SLOTS;
  const prev = a[p + L_TRX_PREV]!;
  const next = a[p + L_TRX_NEXT]!;
  if (prev === -1) a[tb + T_FIRST] = next;
  else a[l.lockBase + prev * LOCK_SLOTS + L_TRX_NEXT] = next;
  if (next !== -1) a[l.lockBase + next * LOCK_SLOTS + L_TRX_PREV] = prev;
  a[tb + T_LOCKS]!--;
}

/** Unlinks record r from its bucket chain and puts it on the free list (not from its trx list). */
function unlinkBucket(l: LockLayout, r: number): void {
  const a = l.a;
  const p = l.lockBase + r * LOCK_SLOTS;
  const head = l.bucketBase + (a[p + L_H1]! & l.bucketMask);
  if (a[head] === r) a[head] = a[p + L_NEXT]!;
  else {
    let q = a[head]!;
    while (a[l.lockBase + q * LOCK_SLOTS + L_NEXT] !== r) q = a[l.lockBase + q * LOCK_SLOTS + L_NEXT]!;
    a[l.lockBase + q * LOCK_SLOTS + L_NEXT] = a[p + L_NEXT]!;
  }
  if ((a[p + L_FLAGS]! & F_X) !== 0) xCount(l, a[p + L_TABLE]!, -1);
  a[p + L_NEXT] = a[H_FREE]!;
  a[H_FREE] = r;
  a[H_IN_USE]!--;
}

/** Removes lock record r from both lists. */
export function freeLock(l: LockLayout, r: number): void {
  unlinkTrx(l, r);
  unlinkBucket(l, r);
}

/** Releases every lock of `trx` and grants what can go now. */
export function releaseAll(l: LockLayout, trx: number): void {
  const a = l.a;
  const tb = l.trxBase + trx * TRX_SLOTS;
  if (Atomics.load(a, tb + T_WAIT) === WAIT_WAITING) cancelWait(l, trx);
  const touched = new Set<number>();
  for (let r = a[tb + T_FIRST]!; r !== -1; ) {
    const p = l.lockBase + r * LOCK_SLOTS;
    const next = a[p + L_TRX_NEXT]!;
    touched.add(a[p + L_H1]! & l.bucketMask);
    unlinkBucket(l, r);
    r = next;
  }
  a[tb + T_FIRST] = -1;
  a[tb + T_LOCKS] = 0;
  for (const b of touched) grantWaiting(l, b);
}

/** Withdraws the waiting request of `trx` (its wait word is left to the caller). */
export function cancelWait(l: LockLayout, trx: number): void {
  const a = l.a;
  const tb = l.trxBase + trx * TRX_SLOTS;
  const w = a[tb + T_WAITING_FOR]!;
  if (w === -1) return;
  a[tb + T_WAITING_FOR] = -1;
  const bucket = a[l.lockBase + w * LOCK_SLOTS + L_H1]! & l.bucketMask;
  freeLock(l, w);
  grantWaiting(l, bucket);
}

/**
 * Grants, in queue order, every waiting request of a bucket that no earlier record of another
 * transaction on the same record makes wait (InnoDB's `lock_rec_grant` after
 * `lock_rec_has_to_wait_in_queue`), and wakes its transaction.
 */
export function grantWaiting(l: LockLayout, bucket: number): void {
  const a = l.a;
  const head = a[l.bucketBase + bucket]!;
  for (let r = head; r !== -1; r = a[l.lockBase + r * LOCK_SLOTS + L_NEXT]!) {
    const p = l.lockBase + r * LOCK_SLOTS;
    const f = a[p + L_FLAGS]!;
    if ((f & F_WAITING) === 0) continue;
    if (hasToWait(l, r, head)) continue;
    a[p + L_FLAGS] = f & ~F_WAITING;
    wake(l, a[p + L_TRX]!);
  }
}

function wake(l: LockLayout, trx: number): void {
  const a = l.a;
  const tb = l.trxBase + trx * TRX_SLOTS;
  a[tb + T_WAITING_FOR] = -1;
  Atomics.store(a, tb + T_WAIT, WAIT_GRANTED);
  Atomics.notify(a, tb + T_WAIT);
}

function named(l: LockLayout, p: number, k: RecordName): boolean {
  const a = l.a;
  return (
    a[p + L_H1] === k.h1 &&
    a[p + L_H2] === k.h2 &&
    a[p + L_TABLE] === k.table &&
    a[p + L_INDEX] === k.index &&
    a[p + L_LEN] === k.len
  );
}

/** Adds a granted gap lock of mode `x` for `trx` on `heir` unless it holds one that covers it. */
function addGap(l: QueueLayout, trx: number, heir: RecordName, x: boolean): void {
  const a = l.a;
  const want = F_GAP | (x ? F_X : 0);
  const sup = heir.len === SUPREMUM_LEN;
  for (
    let r = a[l.bucketBase + (heir.h1 & l.bucketMask)]!;
    r !== -1;
    r = a[l.lockBase + r * LOCK_SLOTS + L_NEXT]!
  ) {
    const p = l.lockBase + r * LOCK_SLOTS;
    if (a[p + L_TRX] === trx && named(l, p, heir) && recCovers(a[p + L_FLAGS]!, want, sup)) return;
  }
  addLock(l, trx, heir, want);
}

/**
 * `lock_update_insert` (`lock_rec_inherit_to_gap_if_gap_lock`): a new entry went in before
 * `next`; every lock on `next` that covers the gap before it (ordinary or gap, or any lock on
 * the supremum; never an insert intention) gives its transaction a gap lock of the same mode on
 * the new entry, which now bounds the part of that gap before it.
 */
export function inheritFromNext(l: QueueLayout, entry: RecordName, next: RecordName): void {
  const a = l.a;
  const sup = next.len === SUPREMUM_LEN;
  const heirs: { trx: number; x: boolean }[] = [];
  for (
    let r = a[l.bucketBase + (next.h1 & l.bucketMask)]!;
    r !== -1;
    r = a[l.lockBase + r * LOCK_SLOTS + L_NEXT]!
  ) {
    const p = l.lockBase + r * LOCK_SLOTS;
    if (!named(l, p, next)) continue;
    const f = a[p + L_FLAGS]!;
    if ((f & F_INSERT_INTENTION) !== 0) continue;
    if (!sup && (f & F_REC_NOT_GAP) !== 0) continue;
    heirs.push({ trx: a[p + L_TRX]!, x: (f & F_X) !== 0 });
  }
  for (const h of heirs) addGap(l, h.trx, entry, h.x);
}

/**
 * `lock_update_delete`: the entry `gone` left its index for good (purge, the rollback of an
 * insert). Its locks move to `heir` (the next entry, or the supremum) as gap locks of the same
 * mode (`lock_rec_inherit_to_gap`: never an insert intention, and not the X locks of a READ
 * COMMITTED transaction, which holds no gaps), waiting requests included, and go from `gone`;
 * a request waiting on `gone` is woken as granted, so its statement runs again and meets the
 * index as it is now (holding the gap lock it inherited).
 */
export function inheritToGap(l: QueueLayout, gone: RecordName, heir: RecordName): void {
  const a = l.a;
  const bucket = gone.h1 & l.bucketMask;
  const moved: { trx: number; x: boolean }[] = [];
  const drop: number[] = [];
  for (let r = a[l.bucketBase + bucket]!; r !== -1; r = a[l.lockBase + r * LOCK_SLOTS + L_NEXT]!) {
    const p = l.lockBase + r * LOCK_SLOTS;
    if (!named(l, p, gone)) continue;
    drop.push(r);
    const f = a[p + L_FLAGS]!;
    const trx = a[p + L_TRX]!;
    // a waiting request is inherited too, granted (InnoDB walks every lock on the record)
    if ((f & F_INSERT_INTENTION) !== 0) continue;
    const rc = a[l.trxBase + trx * TRX_SLOTS + T_READ_COMMITTED] === 1;
    if (rc && (f & F_X) !== 0) continue;
    moved.push({ trx, x: (f & F_X) !== 0 });
  }
  if (drop.length === 0) return;
  for (const r of drop) {
    const p = l.lockBase + r * LOCK_SLOTS;
    if ((a[p + L_FLAGS]! & F_WAITING) !== 0) {
      const trx = a[p + L_TRX]!;
      freeLock(l, r);
      wake(l, trx);
    } else freeLock(l, r);
  }
  for (const m of moved) addGap(l, m.trx, heir, m.x);
  grantWaiting(l, bucket);
}
