import type { RandomGenerator } from '@enginekit/prng';
import type { BTree } from './btree.js';
import { diveToLeaf } from './internal/dive.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import { accessOf } from './internal/tree-access.js';
import { pageNo } from './page.js';

/** Where one random dive ended. */
export interface DiveResult {
  /** The leaf page reached. */
  leafPage: number;
  /** The record index picked on each level, root first, leaf last (−1 on an empty page). */
  picks: number[];
}

/**
 * One random dive from the root to a leaf, as `btr_cur_open_at_rnd_pos` (btr0cur.c): on every
 * level, leaf included, `page_cur_open_on_rnd_user_rec` picks record `rng.nextBelow(nRecs)` and
 * the dive follows the chosen node pointer. Pass the same `innodb-page-rnd` generator to every
 * dive to model the C file-static `page_rnd`: its values stay 2 mod 3, so on a 3-record root
 * every dive takes the third record (MySQL bug #43660).
 *
 * @example
 * ```ts
 * const rnd = createGenerator('innodb-page-rnd');
 * randomDive(tree, rnd).leafPage; // with a 3-record root of height 2: the 3rd child, every time
 * ```
 */
export function randomDive(tree: BTree, rng: RandomGenerator): DiveResult {
  const t = accessOf(tree);
  return t.reading(() => {
    const picks: number[] = [];
    const frame = diveToLeaf(t, rng, picks);
    const leafPage = pageNo(t.b, frame * t.ps);
    t.unfixPage(frame, LATCH_S);
    return { leafPage, picks };
  });
}
