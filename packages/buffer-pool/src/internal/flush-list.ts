import type { PoolLayout } from './layout.js';
import { I_FL_HEAD, I_FL_LEN, I_FL_TAIL } from './layout.js';

/**
 * The flush list of one instance (`buf_pool->flush_list`): dirty blocks ordered by
 * oldest_modification, newest at the head, so the tail is the oldest change
 * (`buf_flush_insert_into_flush_list` adds first). A block whose LSN is older than the head is
 * placed in order by walking from the head (InnoDB keeps order with `flush_rbt` in recovery).
 */
export function flushListInsert(L: PoolLayout, ib: number, f: number): void {
  const I = L.inst;
  const lsn = L.fOldest[f]!;
  let after = -1;
  let at = I[ib + I_FL_HEAD]!;
  while (at >= 0 && L.fOldest[at]! > lsn) {
    after = at;
    at = L.fFlNext[at]!;
  }
  L.fFlPrev[f] = after;
  L.fFlNext[f] = at;
  if (after >= 0) L.fFlNext[after] = f;
  else I[ib + I_FL_HEAD] = f;
  if (at >= 0) L.fFlPrev[at] = f;
  else I[ib + I_FL_TAIL] = f;
  I[ib + I_FL_LEN] = I[ib + I_FL_LEN]! + 1;
}

export function flushListRemove(L: PoolLayout, ib: number, f: number): void {
  const I = L.inst;
  const prev = L.fFlPrev[f]!;
  const next = L.fFlNext[f]!;
  if (prev >= 0) L.fFlNext[prev] = next;
  else I[ib + I_FL_HEAD] = next;
  if (next >= 0) L.fFlPrev[next] = prev;
  else I[ib + I_FL_TAIL] = prev;
  L.fFlPrev[f] = -1;
  L.fFlNext[f] = -1;
  I[ib + I_FL_LEN] = I[ib + I_FL_LEN]! - 1;
}
