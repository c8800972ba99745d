import { compareBytes } from '@enginekit/common';
import { FIL_NULL, FIL_PAGE_DATA_END, FIL_PAGE_TYPE } from '@enginekit/buffer-pool';
import {
  nextPage,
  nRecs,
  PAGE_DATA,
  PAGE_FREE_LIST,
  PAGE_GARBAGE,
  PAGE_HEAP_TOP,
  PAGE_TYPE_INDEX,
  pageCapacity,
  pageIndexId,
  PAGE_MAX_TRX_ID,
  pageLevel,
  pageNo,
  prevPage,
  REC_HEADER,
  recChild,
  recDeleted,
  recKeyLen,
  recSize,
  recValLen,
  slotRec,
  usedBytes,
} from '../page.js';
import type { TreeStats } from '../tree-stats.js';
import { readU16, readU32 } from './bytes.js';
import { corruption } from './corruption.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import type { TreeAccess } from './tree-access.js';

/** A (key, value) bound; value is ignored for unique trees. */
interface Bound {
  key: Uint8Array;
  val: Uint8Array;
}

/** Walk every page; with `verify`, throw a `CorruptionError` at the first broken invariant. */
function walk(tree: TreeAccess, verify: boolean): TreeStats {
  const b = tree.b;
  const ps = tree.ps;
  const pages: number[][] = [];
  const links: [number, number][][] = [];
  const recs: number[] = [];
  let leafUsed = 0;
  let deleted = 0;
  const fail = (msg: string, page: number): never => {
    throw corruption(msg, page, tree.space);
  };
  const cmp = (base: number, rec: number, bound: Bound): number =>
    tree.compareRec(base, rec, bound.key, bound.val);
  const cmpRecs = (base: number, r1: number, r2: number): number => {
    const k1 = recKeyLen(b, base, r1);
    const k2 = recKeyLen(b, base, r2);
    const c = compareBytes(
      b,
      base + r1 + REC_HEADER,
      base + r1 + REC_HEADER + k1,
      b,
      base + r2 + REC_HEADER,
      base + r2 + REC_HEADER + k2,
    );
    if (c !== 0 || tree.unique) return c;
    return compareBytes(
      b,
      base + r1 + REC_HEADER + k1,
      base + r1 + REC_HEADER + k1 + recValLen(b, base, r1),
      b,
      base + r2 + REC_HEADER + k2,
      base + r2 + REC_HEADER + k2 + recValLen(b, base, r2),
    );
  };
  const copy = (base: number, rec: number): Bound => {
    const kl = recKeyLen(b, base, rec);
    const p = base + rec + REC_HEADER;
    return { key: b.slice(p, p + kl), val: b.slice(p + kl, p + kl + recValLen(b, base, rec)) };
  };

  const visit = (page: number, level: number, lo: Bound | null, hi: Bound | null, isRoot: boolean): void => {
    const frame = tree.fixPage(page, LATCH_S);
    try {
      const base = frame * ps;
      const lvl = pageLevel(b, base);
      const n = nRecs(b, base);
      if (verify) {
        if (readU16(b, base + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX) fail('not a B+tree page', page);
        if (pageNo(b, base) !== page) fail(`envelope says page ${pageNo(b, base)}`, page);
        if (pageIndexId(b, base) !== tree.indexId) fail('index id differs from the root', page);
        if (level >= 0 && lvl !== level) fail(`level ${lvl}, expected ${level}`, page);
        if (!isRoot && n === 0) fail('empty non-root page', page);
        const top = readU16(b, base + PAGE_HEAP_TOP);
        if (top < PAGE_DATA || top + 2 * n > ps - FIL_PAGE_DATA_END)
          fail(`heap top ${top} overlaps the directory`, page);
        let live = 0;
        for (let i = 0; i < n; i++) {
          const rec = slotRec(b, base, ps, i);
          if (rec < PAGE_DATA || rec + recSize(b, base, rec, lvl) > top)
            fail(`slot ${i} points outside the heap`, page);
          live += recSize(b, base, rec, lvl);
          if (i > 0 && cmpRecs(base, slotRec(b, base, ps, i - 1), rec) >= 0)
            fail(`records ${i - 1} and ${i} out of order`, page);
          if (lo !== null && cmp(base, rec, lo) < 0) fail(`record ${i} below the parent's bound`, page);
          if (hi !== null && cmp(base, rec, hi) >= 0)
            fail(`record ${i} not below the next node pointer`, page);
          if (lvl > 0 && recDeleted(b, base, rec)) fail(`node pointer ${i} carries the delete mark`, page);
        }
        // PAGE_MAX_TRX_ID: below 2^48 on a leaf (its high 16 bits are zero), 0 on a non-leaf page.
        const trxHi = readU32(b, base + PAGE_MAX_TRX_ID);
        if (trxHi >= 0x10000) fail(`PAGE_MAX_TRX_ID ${trxHi.toString(16)}… is not below 2^48`, page);
        if (lvl > 0 && (trxHi !== 0 || readU32(b, base + PAGE_MAX_TRX_ID + 4) !== 0))
          fail('non-leaf page has a PAGE_MAX_TRX_ID', page);
        if (live + readU16(b, base + PAGE_GARBAGE) !== top - PAGE_DATA) {
          fail(
            `records ${live} + garbage ${readU16(b, base + PAGE_GARBAGE)} != heap ${top - PAGE_DATA}`,
            page,
          );
        }
        if (isRoot && (prevPage(b, base) !== FIL_NULL || nextPage(b, base) !== FIL_NULL))
          fail('root has siblings', page);
      }
      while (pages.length <= lvl) {
        pages.push([]);
        links.push([]);
        recs.push(0);
      }
      pages[lvl]!.push(page);
      links[lvl]!.push([prevPage(b, base), nextPage(b, base)]);
      recs[lvl]! += n;
      if (lvl === 0) {
        leafUsed += usedBytes(b, base, ps);
        for (let i = 0; i < n; i++) if (recDeleted(b, base, slotRec(b, base, ps, i))) deleted++;
        return;
      }
      for (let i = 0; i < n; i++) {
        const rec = slotRec(b, base, ps, i);
        const clo = i === 0 ? lo : copy(base, rec);
        const chi = i + 1 < n ? copy(base, slotRec(b, base, ps, i + 1)) : hi;
        visit(recChild(b, base, rec), lvl - 1, clo, chi, false);
      }
    } finally {
      tree.unfixPage(frame, LATCH_S);
    }
  };
  visit(tree.rootPage, -1, null, null, true);

  if (verify) {
    for (let lvl = 0; lvl < pages.length; lvl++) {
      const list = pages[lvl]!;
      for (let i = 0; i < list.length; i++) {
        const [prev, next] = links[lvl]![i]!;
        const want = [i > 0 ? list[i - 1]! : FIL_NULL, i + 1 < list.length ? list[i + 1]! : FIL_NULL];
        if (prev !== want[0] || next !== want[1])
          fail(`level ${lvl} links (${prev}, ${next}), expected (${want[0]}, ${want[1]})`, list[i]!);
      }
    }
  }
  // The free list hangs off the root, linked through FIL_PAGE_NEXT.
  let freePages = 0;
  const rootFrame = tree.fixPage(tree.rootPage, LATCH_S);
  let free = readU32(b, rootFrame * ps + PAGE_FREE_LIST);
  tree.unfixPage(rootFrame, LATCH_S);
  const seen = new Set<number>();
  while (free !== FIL_NULL) {
    if (seen.has(free)) fail('free list has a cycle', free);
    seen.add(free);
    freePages++;
    const f = tree.fixPage(free, LATCH_S);
    if (verify && readU16(b, f * ps + FIL_PAGE_TYPE) === PAGE_TYPE_INDEX) {
      tree.unfixPage(f, LATCH_S);
      fail('page on the free list is still a B+tree page', free);
    }
    const next = nextPage(b, f * ps);
    tree.unfixPage(f, LATCH_S);
    free = next;
  }
  const pagesPerLevel = pages.map((l) => l.length);
  const treePages = pagesPerLevel.reduce((a, x) => a + x, 0);
  const leafPages = pagesPerLevel[0] ?? 1;
  return {
    height: pages.length,
    pagesPerLevel,
    recordsPerLevel: recs,
    records: recs[0] ?? 0,
    deletedRecords: deleted,
    leafPages,
    totalPages: treePages + freePages,
    freePages,
    leafFill: leafUsed / (leafPages * pageCapacity(ps)),
    sizeBytes: (treePages + freePages) * ps,
  };
}

/**
 * Verify the whole tree (order, bounds, levels, links, counts, heap accounting, unmarked node
 * pointers, PAGE_MAX_TRX_ID only on leaves, free list).
 */
export function checkTree(tree: TreeAccess): TreeStats {
  return walk(tree, true);
}

/** The statistics alone. */
export function treeStats(tree: TreeAccess): TreeStats {
  return walk(tree, false);
}
