import type { RandomGenerator } from '@enginekit/prng';
import type { BTree } from './btree.js';
import { nRecs, pageLevel, pageNo, recChild, slotRec } from './page.js';
import { LATCH_S } from './page-store.js';

/** Where one random dive ended. */
export interface DiveResult {
  /** The leaf page reached. */
  leafPage: number;
  /** The record index picked on each level, root first, leaf last (−1 on an empty page). */
  picks: number[];
}

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
export function diveToLeaf(tree: BTree, rng: RandomGenerator, picks?: number[]): number {
  const b = tree.store.bytes;
  const ps = tree.pageSize;
  let frame = tree.fixPage(tree.rootPage, LATCH_S);
  for (;;) {
    const base = frame * ps;
    const n = nRecs(b, base);
    const pick = n > 0 ? rng.nextBelow(n) : -1;
    picks?.push(pick);
    if (pageLevel(b, base) === 0 || n === 0) return frame;
    const child = tree.fixPage(recChild(b, base, slotRec(b, base, ps, pick)), LATCH_S);
    tree.unfixPage(frame, LATCH_S);
    frame = child;
  }
}

/**
 * One random dive; see {@link diveToLeaf}.
 *
 * @example
 * ```ts
 * const rnd = createGenerator('innodb-page-rnd');
 * randomDive(tree, rnd).leafPage; // with a 3-record root of height 2: the 3rd child, every time
 * ```
 */
export function randomDive(tree: BTree, rng: RandomGenerator): DiveResult {
  return tree.reading(() => diveOnce(tree, rng));
}

function diveOnce(tree: BTree, rng: RandomGenerator): DiveResult {
  const picks: number[] = [];
  const frame = diveToLeaf(tree, rng, picks);
  const leafPage = pageNo(tree.store.bytes, frame * tree.pageSize);
  tree.unfixPage(frame, LATCH_S);
  return { leafPage, picks };
}
