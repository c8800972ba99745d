import type { PoolLayout } from './internal/layout.js';
import { I_LRU_HEAD, I_LRU_LEN, I_LRU_OLD, I_LRU_OLD_LEN, I_LRU_TAIL } from './internal/layout.js';

/**
 * The LRU list of one instance with InnoDB's old sublist (5.5/5.6 `buf/buf0lru.c`). `ib` is the
 * instance's base slot in `L.inst`. Links are frame numbers in `fPrev`/`fNext` (−1: none); the head
 * is the most recently used end.
 *
 * `legacy` selects the built-in InnoDB of MySQL 5.1 (`storage/innobase/buf/buf0lru.c`): the old
 * sublist starts at BUF_LRU_OLD_MIN_LEN_51 = 80 blocks and its target is a fixed 3·⌊len/8⌋
 * (no innodb_old_blocks_pct, no cap at len − 25); the rest of the list code is the same.
 *
 * Invariants (checked by `BufferPool.checkValid()`):
 * - while len ≥ BUF_LRU_OLD_MIN_LEN, LRU_old is the first block (from the head) with old = 1 and
 *   every block after it is old; LRU_old_len counts LRU_old … tail;
 * - below that length LRU_old = −1, LRU_old_len = 0 and no block is old.
 */

/** `BUF_LRU_OLD_MIN_LEN` (5.5/5.6; the built-in 5.1 used 80). */
export const BUF_LRU_OLD_MIN_LEN = 512;
/**
 * `BUF_LRU_OLD_MIN_LEN` of the built-in InnoDB of MySQL 5.1 (`storage/innobase/include/buf0lru.h`),
 * used by the `midpoint51` policy.
 */
export const BUF_LRU_OLD_MIN_LEN_51 = 80;
/** `BUF_LRU_OLD_TOLERANCE`: LRU_old may drift this far from the target before it moves. */
export const BUF_LRU_OLD_TOLERANCE = 20;
/** `BUF_LRU_NON_OLD_MIN_LEN`: the young part keeps at least this many blocks. */
export const BUF_LRU_NON_OLD_MIN_LEN = 5;
/** `BUF_LRU_OLD_RATIO_DIV`: the old ratio is in 1024ths. */
export const BUF_LRU_OLD_RATIO_DIV = 1024;
export const BUF_LRU_OLD_RATIO_MIN = 51;
export const BUF_LRU_OLD_RATIO_MAX = 1024;

/** `buf_LRU_old_ratio_update`: innodb_old_blocks_pct → ratio in 1024ths (37 → 378). */
export function oldRatioFromPct(pct: number): number {
  const ratio = Math.floor((pct * BUF_LRU_OLD_RATIO_DIV) / 100);
  return Math.min(BUF_LRU_OLD_RATIO_MAX, Math.max(BUF_LRU_OLD_RATIO_MIN, ratio));
}

/** The percentage InnoDB reports back for a ratio: `(uint)(ratio * 100 / 1024.0 + 0.5)`. */
export function pctFromOldRatio(ratio: number): number {
  return Math.floor((ratio * 100) / 1024 + 0.5);
}

function addFirst(L: PoolLayout, ib: number, f: number): void {
  const I = L.inst;
  const head = I[ib + I_LRU_HEAD]!;
  L.fPrev[f] = -1;
  L.fNext[f] = head;
  if (head >= 0) L.fPrev[head] = f;
  else I[ib + I_LRU_TAIL] = f;
  I[ib + I_LRU_HEAD] = f;
}

function insertAfter(L: PoolLayout, ib: number, after: number, f: number): void {
  const next = L.fNext[after]!;
  L.fPrev[f] = after;
  L.fNext[f] = next;
  L.fNext[after] = f;
  if (next >= 0) L.fPrev[next] = f;
  else L.inst[ib + I_LRU_TAIL] = f;
}

function unlink(L: PoolLayout, ib: number, f: number): void {
  const prev = L.fPrev[f]!;
  const next = L.fNext[f]!;
  if (prev >= 0) L.fNext[prev] = next;
  else L.inst[ib + I_LRU_HEAD] = next;
  if (next >= 0) L.fPrev[next] = prev;
  else L.inst[ib + I_LRU_TAIL] = prev;
  L.fPrev[f] = -1;
  L.fNext[f] = -1;
}

/** Old-sublist length `buf_LRU_old_adjust_len` aims at for a list of `len` blocks. */
export function oldTargetLen(len: number, ratio: number, legacy: boolean): number {
  // 5.1: `new_len = 3 * (UT_LIST_GET_LEN(buf_pool->LRU) / 8)`.
  if (legacy) return 3 * Math.floor(len / 8);
  return Math.min(
    Math.floor((len * ratio) / BUF_LRU_OLD_RATIO_DIV),
    len - (BUF_LRU_OLD_TOLERANCE + BUF_LRU_NON_OLD_MIN_LEN),
  );
}

/** Length at which the old sublist is defined (`BUF_LRU_OLD_MIN_LEN`). */
export function oldMinLen(legacy: boolean): number {
  return legacy ? BUF_LRU_OLD_MIN_LEN_51 : BUF_LRU_OLD_MIN_LEN;
}

/** `buf_LRU_old_adjust_len`: move LRU_old until old_len is within ±20 of the target. */
export function oldAdjustLen(L: PoolLayout, ib: number, ratio: number, legacy = false): void {
  const I = L.inst;
  const len = I[ib + I_LRU_LEN]!;
  const target = oldTargetLen(len, ratio, legacy);
  for (;;) {
    const oldLen = I[ib + I_LRU_OLD_LEN]!;
    const lruOld = I[ib + I_LRU_OLD]!;
    if (oldLen + BUF_LRU_OLD_TOLERANCE < target) {
      const prev = L.fPrev[lruOld]!;
      I[ib + I_LRU_OLD] = prev;
      I[ib + I_LRU_OLD_LEN] = oldLen + 1;
      L.fOld[prev] = 1;
    } else if (oldLen > target + BUF_LRU_OLD_TOLERANCE) {
      I[ib + I_LRU_OLD] = L.fNext[lruOld]!;
      I[ib + I_LRU_OLD_LEN] = oldLen - 1;
      L.fOld[lruOld] = 0;
    } else {
      return;
    }
  }
}

/** `buf_LRU_old_init`: the list just reached the minimum length; all old, then adjust. */
function oldInit(L: PoolLayout, ib: number, ratio: number, legacy: boolean): void {
  const I = L.inst;
  for (let b = I[ib + I_LRU_TAIL]!; b >= 0; b = L.fPrev[b]!) L.fOld[b] = 1;
  I[ib + I_LRU_OLD] = I[ib + I_LRU_HEAD]!;
  I[ib + I_LRU_OLD_LEN] = I[ib + I_LRU_LEN]!;
  oldAdjustLen(L, ib, ratio, legacy);
}

/**
 * `buf_LRU_add_block_low`: `old` = insert at the midpoint (right after LRU_old), else at the
 * head, where the block also takes the current `freed_page_clock`.
 */
export function lruAddBlock(
  L: PoolLayout,
  ib: number,
  f: number,
  old: boolean,
  ratio: number,
  clock: number,
  legacy = false,
): void {
  const I = L.inst;
  const len0 = I[ib + I_LRU_LEN]!;
  const minLen = legacy ? BUF_LRU_OLD_MIN_LEN_51 : BUF_LRU_OLD_MIN_LEN;
  if (!old || len0 < minLen) {
    addFirst(L, ib, f);
    L.fFreedClock[f] = clock & 0x7fffffff;
  } else {
    insertAfter(L, ib, I[ib + I_LRU_OLD]!, f);
    I[ib + I_LRU_OLD_LEN] = I[ib + I_LRU_OLD_LEN]! + 1;
  }
  const len = len0 + 1;
  I[ib + I_LRU_LEN] = len;
  if (len > minLen) {
    L.fOld[f] = old ? 1 : 0;
    oldAdjustLen(L, ib, ratio, legacy);
  } else if (len === minLen) {
    oldInit(L, ib, ratio, legacy);
  } else {
    L.fOld[f] = I[ib + I_LRU_OLD]! >= 0 ? 1 : 0;
  }
}

/**
 * `buf_LRU_remove_block`. (5.1 leaves stale old flags on a list that shrank below the minimum;
 * they are reset by `buf_LRU_old_init` before anything reads them, so clearing them here, as 5.5
 * does, changes nothing observable.)
 */
export function lruRemoveBlock(L: PoolLayout, ib: number, f: number, ratio: number, legacy = false): void {
  const I = L.inst;
  if (f === I[ib + I_LRU_OLD]) {
    // The previous block exists: LRU_old stays within the tolerance of the target length.
    const prev = L.fPrev[f]!;
    I[ib + I_LRU_OLD] = prev;
    L.fOld[prev] = 1;
    I[ib + I_LRU_OLD_LEN] = I[ib + I_LRU_OLD_LEN]! + 1;
  }
  unlink(L, ib, f);
  const len = I[ib + I_LRU_LEN]! - 1;
  I[ib + I_LRU_LEN] = len;
  if (len < (legacy ? BUF_LRU_OLD_MIN_LEN_51 : BUF_LRU_OLD_MIN_LEN)) {
    if (I[ib + I_LRU_OLD]! >= 0) {
      for (let b = I[ib + I_LRU_HEAD]!; b >= 0; b = L.fNext[b]!) L.fOld[b] = 0;
    }
    I[ib + I_LRU_OLD] = -1;
    I[ib + I_LRU_OLD_LEN] = 0;
    L.fOld[f] = 0;
    return;
  }
  if (L.fOld[f] === 1) I[ib + I_LRU_OLD_LEN] = I[ib + I_LRU_OLD_LEN]! - 1;
  L.fOld[f] = 0;
  oldAdjustLen(L, ib, ratio, legacy);
}

/** Plain list operations for the LRU and CLOCK policies (no old sublist). */
export function plainAddFirst(L: PoolLayout, ib: number, f: number): void {
  addFirst(L, ib, f);
  L.inst[ib + I_LRU_LEN] = L.inst[ib + I_LRU_LEN]! + 1;
  L.fOld[f] = 0;
}

export function plainRemove(L: PoolLayout, ib: number, f: number): void {
  unlink(L, ib, f);
  L.inst[ib + I_LRU_LEN] = L.inst[ib + I_LRU_LEN]! - 1;
}

/** Moves a block to the head without touching lengths (LRU hit, CLOCK second chance). */
export function plainMoveToHead(L: PoolLayout, ib: number, f: number): void {
  if (L.inst[ib + I_LRU_HEAD] === f) return;
  unlink(L, ib, f);
  addFirst(L, ib, f);
}
