import type { RandomGenerator } from '@enginekit/prng';
import { nRecs, pageLevel, recChild, slotRec } from '../page.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import type { TreeAccess } from './tree-access.js';

/**
 * Descend from the root to a "random" leaf as `btr_cur_open_at_rnd_pos` does: on every level,
 * leaf included, `page_cur_open_on_rnd_user_rec` picks record `rng.nextBelow(nRecs)` (no generator
 * call on an empty page) and the dive follows the chosen node pointer.
 *
 * Passing the SAME `innodb-page-rnd` generator to every dive models the C file-static `page_rnd`:
 * its values stay 2 mod 3, so on a 3-record root every dive takes the third record (bug #43660).
 *
 * Returns the leaf frame S-fixed; the caller unfixes it. `picks`, when given, receives the indices.
 * REQUIRES: the caller holds the tree's index latch in S, if the tree has one.
 */
export function diveToLeaf(t: TreeAccess, rng: RandomGenerator, picks?: number[]): number {
  const b = t.b;
  const ps = t.ps;
  let frame = t.fixPage(t.rootPage, LATCH_S);
  for (;;) {
    const base = frame * ps;
    const n = nRecs(b, base);
    const pick = n > 0 ? rng.nextBelow(n) : -1;
    picks?.push(pick);
    if (pageLevel(b, base) === 0 || n === 0) return frame;
    const child = t.fixPage(recChild(b, base, slotRec(b, base, ps, pick)), LATCH_S);
    t.unfixPage(frame, LATCH_S);
    frame = child;
  }
}
