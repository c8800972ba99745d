import {
  F_TYPE,
  F_WAITING,
  F_X,
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
  MDL_BIT,
  SUPREMUM_LEN,
  TRX_SLOTS,
  T_FIRST,
  T_ID,
  T_STATE,
  T_WAITING_FOR,
  recHasToWait,
  type LockLayout,
} from './lock-layout.js';

/** One lock as SHOW ENGINE INNODB STATUS and INNODB_LOCKS show it. */
export interface LockInfo {
  readonly trx: number;
  readonly trxId: number;
  readonly tableId: number;
  readonly indexId: number;
  readonly mode: 'S' | 'X';
  /** LOCK_ORDINARY, LOCK_GAP, LOCK_REC_NOT_GAP or LOCK_INSERT_INTENTION. */
  readonly type: number;
  readonly waiting: boolean;
  readonly supremum: boolean;
  readonly metadata: boolean;
  /** h1:h2 of the key, hexadecimal: which locks are on one record. */
  readonly record: string;
}

/**
 * The locks of transaction slot `trx` (-1: of every transaction), or with `waitedFor` only the
 * waiting requests and the granted locks of others that make them wait. REQUIRES: the mutex.
 */
export function listLocks(l: LockLayout, trx: number, waitedFor: boolean): LockInfo[] {
  const a = l.a;
  const out: LockInfo[] = [];
  const info = (r: number): LockInfo => {
    const p = l.lockBase + r * LOCK_SLOTS;
    const f = a[p + L_FLAGS]!;
    const t = a[p + L_TRX]!;
    const table = a[p + L_TABLE]!;
    return {
      trx: t,
      trxId: a[l.trxBase + t * TRX_SLOTS + T_ID]!,
      tableId: table & ~MDL_BIT,
      indexId: a[p + L_INDEX]!,
      mode: (f & F_X) !== 0 ? 'X' : 'S',
      type: f & F_TYPE,
      waiting: (f & F_WAITING) !== 0,
      supremum: a[p + L_LEN] === SUPREMUM_LEN,
      metadata: (table & MDL_BIT) !== 0,
      record: `${(a[p + L_H1]! >>> 0).toString(16)}:${(a[p + L_H2]! >>> 0).toString(16)}`,
    };
  };
  if (waitedFor) {
    const seen = new Set<number>();
    for (let t = 0; t < l.trxSlots; t++) {
      const tb = l.trxBase + t * TRX_SLOTS;
      const w = a[tb + T_WAITING_FOR]!;
      if (a[tb + T_STATE] !== 1 || w === -1) continue;
      if (!seen.has(w)) out.push(info(w));
      seen.add(w);
      const wp = l.lockBase + w * LOCK_SLOTS;
      const sup = a[wp + L_LEN] === SUPREMUM_LEN;
      for (let r = a[l.bucketBase + (a[wp + L_H1]! & l.bucketMask)]!; r !== -1; ) {
        const p = l.lockBase + r * LOCK_SLOTS;
        if (
          r !== w &&
          !seen.has(r) &&
          a[p + L_TRX] !== t &&
          a[p + L_H1] === a[wp + L_H1] &&
          a[p + L_H2] === a[wp + L_H2] &&
          a[p + L_TABLE] === a[wp + L_TABLE] &&
          a[p + L_INDEX] === a[wp + L_INDEX] &&
          a[p + L_LEN] === a[wp + L_LEN] &&
          (a[p + L_FLAGS]! & F_WAITING) === 0 &&
          recHasToWait(a[wp + L_FLAGS]!, a[p + L_FLAGS]!, sup)
        ) {
          seen.add(r);
          out.push(info(r));
        }
        r = a[p + L_NEXT]!;
      }
    }
    return out;
  }
  const first = Math.max(0, trx);
  const last = trx < 0 ? l.trxSlots - 1 : trx;
  for (let t = first; t <= last; t++) {
    const tb = l.trxBase + t * TRX_SLOTS;
    if (a[tb + T_STATE] !== 1) continue;
    for (let r = a[tb + T_FIRST]!; r !== -1; r = a[l.lockBase + r * LOCK_SLOTS + L_TRX_NEXT]!)
      out.push(info(r));
  }
  return out;
}
