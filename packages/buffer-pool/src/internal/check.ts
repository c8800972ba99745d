import { BUF_LRU_OLD_TOLERANCE, oldMinLen, oldTargetLen } from '../midpoint-lru.js';
import { latchHeldX } from './frame-latch.js';
import * as K from './layout.js';
import type { PoolLayout } from './layout.js';
import { hashGet } from './page-hash.js';

/**
 * Checks every invariant of one instance and throws an Error naming the first violation:
 * LRU links, length and tail; the old sublist (LRU_old first old block, all after it old, length
 * within the tolerance of its target); every LRU frame hashed and pinnable (fix ≥ 0); free frames
 * empty, claimed (fix −1) and X-latched by the pool; no frame lost; flush list ordered by oldest modification and exactly
 * the dirty frames. REQUIRES: the caller holds the instance mutex.
 */
export function checkInstance(L: PoolLayout, inst: number): void {
  const ib = inst * K.I_STRIDE;
  const fail = (msg: string): never => {
    throw new Error(`instance ${inst}: ${msg}`);
  };
  const first = inst * L.perInstance;
  const seen = new Uint8Array(L.perInstance);
  let len = 0;
  let prev = -1;
  let oldSeen = false;
  let oldLen = 0;
  const lruOld = L.inst[ib + K.I_LRU_OLD]!;
  for (let f = L.inst[ib + K.I_LRU_HEAD]!; f >= 0; f = L.fNext[f]!) {
    if (f < first || f >= first + L.perInstance) fail(`frame ${f} of another instance on the LRU`);
    if (seen[f - first]) fail(`LRU cycle at ${f}`);
    seen[f - first] = 1;
    if (L.fPrev[f] !== prev) fail(`LRU prev link of ${f}`);
    if (L.fSpace[f] === -1) fail(`free frame ${f} on the LRU`);
    if (Atomics.load(L.fFix, f) < 0) fail(`frame ${f} on the LRU has fix count −1`);
    if (hashGet(L, inst * L.hashSize, L.fSpace[f]!, L.fPage[f]!) !== f)
      fail(`frame ${f} not in the page hash`);
    if (f === lruOld) oldSeen = true;
    if (L.fOld[f] === 1) {
      if (!oldSeen) fail(`old block ${f} before LRU_old`);
      oldLen++;
    } else if (oldSeen) fail(`young block ${f} after LRU_old`);
    prev = f;
    len++;
  }
  if (L.inst[ib + K.I_LRU_TAIL] !== prev) fail('LRU tail');
  if (L.inst[ib + K.I_LRU_LEN] !== len) fail(`LRU length ${L.inst[ib + K.I_LRU_LEN]} ≠ ${len}`);
  if (L.inst[ib + K.I_LRU_OLD_LEN] !== oldLen)
    fail(`LRU_old_len ${L.inst[ib + K.I_LRU_OLD_LEN]} ≠ ${oldLen}`);
  const policy = L.header[K.H_POLICY]!;
  if (policy === K.POLICY_MIDPOINT || policy === K.POLICY_MIDPOINT51) {
    const legacy = policy === K.POLICY_MIDPOINT51;
    if (len >= oldMinLen(legacy)) {
      if (lruOld < 0) fail('no LRU_old with a long list');
      const target = oldTargetLen(len, L.header[K.H_OLD_RATIO]!, legacy);
      if (Math.abs(oldLen - target) > BUF_LRU_OLD_TOLERANCE) fail(`old_len ${oldLen} too far from ${target}`);
    } else if (lruOld >= 0) fail('LRU_old set in a short list');
  }
  let free = 0;
  for (let f = L.inst[ib + K.I_FREE_HEAD]!; f >= 0; f = L.fNext[f]!) {
    if (seen[f - first]) fail(`frame ${f} on the free list and the LRU`);
    seen[f - first] = 1;
    if (L.fSpace[f] !== -1) fail(`free frame ${f} holds a page`);
    if (Atomics.load(L.fFix, f) !== -1) fail(`free frame ${f} has fix count ${L.fFix[f]}`);
    if (!latchHeldX(L, f)) fail(`free frame ${f} is not X-latched by the pool`);
    free++;
  }
  if (L.inst[ib + K.I_FREE_LEN] !== free) fail('free length');
  if (free + len !== L.perInstance) fail(`frames lost: ${free} free + ${len} LRU ≠ ${L.perInstance}`);
  let dirty = 0;
  let newer = -1n;
  for (let f = L.inst[ib + K.I_FL_HEAD]!; f >= 0; f = L.fFlNext[f]!) {
    const lsn = L.fOldest[f]!;
    if (lsn === 0n) fail(`clean frame ${f} on the flush list`);
    if (newer >= 0n && lsn > newer) fail(`flush list out of order at ${f}`);
    newer = lsn;
    dirty++;
  }
  if (L.inst[ib + K.I_FL_LEN] !== dirty) fail('flush list length');
  for (let f = first; f < first + L.perInstance; f++) {
    if (
      (L.fOldest[f] !== 0n) !==
      (L.fFlPrev[f] !== -1 || L.fFlNext[f] !== -1 || L.inst[ib + K.I_FL_HEAD] === f)
    ) {
      fail(`frame ${f} dirty flag and flush list disagree`);
    }
  }
}
