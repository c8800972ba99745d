import {
  F_WAITING,
  F_X,
  H_FREE,
  H_IN_USE,
  H_CAPACITY,
  LOCK_SLOTS,
  L_FLAGS,
  L_H1,
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
  T_STATE,
  X_COUNTS,
  recHasToWait,
  sameKey,
  type LockLayout,
} from './lock-layout.js';

/**
 * Verifies the structure: every record reachable from one bucket and one transaction, the free
 * list and counts consistent, no granted lock that would have to wait for a granted lock of another
 * transaction ahead of it on the same record. Throws RangeError at the first difference.
 */
export function checkLockTable(l: LockLayout): void {
  const a = l.a;
  const capacity = a[H_CAPACITY]!;
  {
    const seen = new Uint8Array(capacity);
    let used = 0;
    const xc = new Int32Array(X_COUNTS);
    for (let bkt = 0; bkt <= l.bucketMask; bkt++) {
      const granted: number[] = [];
      for (let r = a[l.bucketBase + bkt]!; r !== -1; r = a[l.lockBase + r * LOCK_SLOTS + L_NEXT]!) {
        if (seen[r] !== 0) throw new RangeError(`lock record ${r} is in two chains`);
        seen[r] = 1;
        used++;
        const p = l.lockBase + r * LOCK_SLOTS;
        if ((a[p + L_H1]! & l.bucketMask) !== bkt)
          throw new RangeError(`lock record ${r} in the wrong bucket`);
        if ((a[p + L_FLAGS]! & F_X) !== 0) xc[a[p + L_TABLE]! & (X_COUNTS - 1)]!++;
        if ((a[p + L_FLAGS]! & F_WAITING) === 0) {
          for (const g of granted) {
            const q = l.lockBase + g * LOCK_SLOTS;
            if (!sameKey(l, p, q) || a[p + L_TRX] === a[q + L_TRX]) continue;
            if (recHasToWait(a[p + L_FLAGS]!, a[q + L_FLAGS]!, a[p + L_LEN] === SUPREMUM_LEN))
              throw new RangeError(`lock records ${g} and ${r} are granted and incompatible`);
          }
          granted.push(r);
        }
      }
    }
    if (used !== a[H_IN_USE]) throw new RangeError(`${used} records in chains, inUse says ${a[H_IN_USE]}`);
    for (let i = 0; i < X_COUNTS; i++)
      if (xc[i] !== a[l.xBase + i])
        throw new RangeError(`X count ${i}: ${a[l.xBase + i]}, chains hold ${xc[i]}`);
    let free = 0;
    for (let r = a[H_FREE]!; r !== -1; r = a[l.lockBase + r * LOCK_SLOTS + L_NEXT]!) {
      if (seen[r] !== 0) throw new RangeError(`free lock record ${r} is also in use`);
      seen[r] = 1;
      free++;
    }
    if (free + used !== capacity) throw new RangeError(`${free} free + ${used} used != ${capacity}`);
    for (let t = 0; t < l.trxSlots; t++) {
      const tb = l.trxBase + t * TRX_SLOTS;
      if (a[tb + T_STATE] === 0) continue;
      let n = 0;
      let prev = -1;
      for (let r = a[tb + T_FIRST]!; r !== -1; r = a[l.lockBase + r * LOCK_SLOTS + L_TRX_NEXT]!) {
        if (a[l.lockBase + r * LOCK_SLOTS + L_TRX] !== t)
          throw new RangeError(`lock ${r} on the wrong trx list`);
        if (a[l.lockBase + r * LOCK_SLOTS + L_TRX_PREV] !== prev)
          throw new RangeError(`lock ${r}: its back link is not the record before it`);
        prev = r;
        n++;
      }
      if (n !== a[tb + T_LOCKS])
        throw new RangeError(`trx slot ${t}: ${n} locks listed, count ${a[tb + T_LOCKS]}`);
    }
  }
}
