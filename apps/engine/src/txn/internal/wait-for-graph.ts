import {
  F_WAITING,
  LOCK_SLOTS,
  L_FLAGS,
  L_H1,
  L_LEN,
  L_NEXT,
  L_TRX,
  MAX_DEPTH,
  SUPREMUM_LEN,
  TRX_SLOTS,
  T_LOCKS,
  T_WAIT,
  T_WAITING_FOR,
  T_WEIGHT,
  WAIT_WAITING,
  recHasToWait,
  sameKey,
  type LockLayout,
} from './lock-layout.js';

/**
 * The wait-for graph over a lock table's queues (the mutex held by the caller): who a waiting
 * request waits for, the depth-first cycle search of InnoDB's `lock_deadlock_recursive`, the
 * victim choice of `trx_weight_ge`, and whether a queued request may be granted.
 */

/**
 * Whether waiting record r must go on waiting for a record of another transaction ahead of it in
 * the chain (`lock_rec_has_to_wait_in_queue`).
 */
export function hasToWait(l: LockLayout, r: number, head: number): boolean {
  const a = l.a;
  const p = l.lockBase + r * LOCK_SLOTS;
  const f = a[p + L_FLAGS]!;
  const sup = a[p + L_LEN] === SUPREMUM_LEN;
  for (let q = head; q !== r; q = a[l.lockBase + q * LOCK_SLOTS + L_NEXT]!) {
    const qp = l.lockBase + q * LOCK_SLOTS;
    if (a[qp + L_TRX] === a[p + L_TRX] || !sameKey(l, p, qp)) continue;
    if (recHasToWait(f, a[qp + L_FLAGS]!, sup)) return true;
  }
  return false;
}

/** The transactions `trx`'s waiting request waits for. */
export function blockers(l: LockLayout, trx: number, out: number[]): void {
  const a = l.a;
  const w = a[l.trxBase + trx * TRX_SLOTS + T_WAITING_FOR]!;
  if (w === -1) return;
  const p = l.lockBase + w * LOCK_SLOTS;
  const f = a[p + L_FLAGS]!;
  const sup = a[p + L_LEN] === SUPREMUM_LEN;
  const head = a[l.bucketBase + (a[p + L_H1]! & l.bucketMask)]!;
  // every granted conflicting record, and every waiting one ahead of the request
  let ahead = true;
  for (let q = head; q !== -1; q = a[l.lockBase + q * LOCK_SLOTS + L_NEXT]!) {
    if (q === w) {
      ahead = false;
      continue;
    }
    const qp = l.lockBase + q * LOCK_SLOTS;
    const other = a[qp + L_TRX]!;
    if (other === trx || !sameKey(l, p, qp)) continue;
    const qf = a[qp + L_FLAGS]!;
    if (!recHasToWait(f, qf, sup)) continue;
    if ((qf & F_WAITING) !== 0 && !ahead) continue;
    if (!out.includes(other)) out.push(other);
  }
}

/**
 * A cycle in the wait-for graph through `start` (which has just begun to wait), depth first as
 * InnoDB's `lock_deadlock_recursive`; a search deeper than MAX_DEPTH counts as a cycle. Returns
 * the transactions on it, `start` first.
 */
export function findCycle(l: LockLayout, start: number): number[] | null {
  const a = l.a;
  const path: number[] = [start];
  const visited = new Set<number>([start]);
  const dfs = (t: number, depth: number): boolean => {
    if (depth > MAX_DEPTH) return true;
    const bl: number[] = [];
    blockers(l, t, bl);
    for (const b of bl) {
      if (b === start) return true;
      if (visited.has(b)) continue;
      visited.add(b);
      if (Atomics.load(a, l.trxBase + b * TRX_SLOTS + T_WAIT) !== WAIT_WAITING) continue;
      path.push(b);
      if (dfs(b, depth + 1)) return true;
      path.pop();
    }
    return false;
  };
  return dfs(start, 0) ? path : null;
}

/** InnoDB rolls back the lighter transaction (`trx_weight_ge`): the requester unless another in the cycle weighs less. */
export function chooseVictim(l: LockLayout, requester: number, cycle: number[]): number {
  const a = l.a;
  const weight = (t: number): number =>
    a[l.trxBase + t * TRX_SLOTS + T_WEIGHT]! + a[l.trxBase + t * TRX_SLOTS + T_LOCKS]!;
  let victim = requester;
  for (const t of cycle) if (weight(t) < weight(victim)) victim = t;
  return victim;
}
