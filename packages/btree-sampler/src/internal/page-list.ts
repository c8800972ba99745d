import { FIL_NULL, LATCH_S } from '@enginekit/buffer-pool';
import { nextPage, nRecs, PAGE_FREE_LIST, pageLevel, recChild, slotRec } from '../page.js';
import { readU32 } from './bytes.js';
import type { TreeAccess } from './tree-access.js';

/**
 * Every page the tree holds: the root, then each level from the top down, left to right (the
 * leaves are read off the node pointers of level 1, not fixed), then the tree's free list — what a
 * dropped tree gives back to its file space (InnoDB frees an index's two segments,
 * `btr_free_if_exists`). Like `treeShape`, its page fixes are taken back out of `pageFixes`.
 * REQUIRES: the index latch held (S suffices), so no structure change runs meanwhile.
 */
export function treePages(t: TreeAccess): number[] {
  const before = t.pageFixes;
  const b = t.b;
  const ps = t.ps;
  const out: number[] = [t.rootPage];
  let leftmost = t.fixPage(t.rootPage, LATCH_S);
  const free = readU32(b, leftmost * ps + PAGE_FREE_LIST);
  // Walk each non-leaf level left to right, listing the pages of the level below.
  while (pageLevel(b, leftmost * ps) > 0) {
    const firstChild = recChild(b, leftmost * ps, slotRec(b, leftmost * ps, ps, 0));
    let f = leftmost;
    for (;;) {
      const base = f * ps;
      const n = nRecs(b, base);
      for (let i = 0; i < n; i++) out.push(recChild(b, base, slotRec(b, base, ps, i)));
      const next = nextPage(b, base);
      const level = pageLevel(b, base);
      t.unfixPage(f, LATCH_S);
      if (next === FIL_NULL) {
        if (level === 1) {
          t.pageFixes = before;
          return appendFreeList(t, out, free);
        }
        break;
      }
      f = t.fixPage(next, LATCH_S);
    }
    leftmost = t.fixPage(firstChild, LATCH_S);
  }
  t.unfixPage(leftmost, LATCH_S);
  t.pageFixes = before;
  return appendFreeList(t, out, free);
}

function appendFreeList(t: TreeAccess, out: number[], head: number): number[] {
  const before = t.pageFixes;
  let free = head;
  while (free !== FIL_NULL) {
    out.push(free);
    const f = t.fixPage(free, LATCH_S);
    free = nextPage(t.b, f * t.ps);
    t.unfixPage(f, LATCH_S);
  }
  t.pageFixes = before;
  return out;
}
