/**
 * How the estimators see an entry as InnoDB's n_uniq fields: the key's codec fields (or the whole
 * key as one field when the tree does not hold codec tuples), plus — in a non-unique tree — the
 * value as a last field (a secondary index's primary key, which makes its records unique).
 */
import type { BTree } from '../btree.js';
import { countFields, fieldEnd, matchedFields } from '../key-codec.js';
import { FIL_NULL, nRecs, pageLevel, REC_HEADER, recChild, recKeyLen, recValLen, slotRec } from '../page.js';
import { LATCH_S } from '../page-store.js';
import { compareRange } from './bytes.js';

/** A record located in a byte array: key at [k, k+kl), value at [k+kl, k+kl+vl). */
export interface RecRef {
  buf: Uint8Array;
  k: number;
  kl: number;
  vl: number;
}

/** n_uniq of the tree: key fields (+1 for the value of a non-unique tree). Reads the leftmost leaf. */
export function uniqueFields(tree: BTree): number {
  const extra = tree.unique ? 0 : 1;
  if (!tree.tupleKeys) return 1 + extra;
  const b = tree.store.bytes;
  const ps = tree.pageSize;
  let frame = tree.fixPage(tree.rootPage, LATCH_S);
  while (pageLevel(b, frame * ps) > 0) {
    const base = frame * ps;
    const next = tree.fixPage(recChild(b, base, slotRec(b, base, ps, nRecs(b, base) > 1 ? 1 : 0)), LATCH_S);
    tree.unfixPage(frame, LATCH_S);
    frame = next;
  }
  const base = frame * ps;
  let n = 1;
  if (nRecs(b, base) > 0) {
    const rec = slotRec(b, base, ps, 0);
    n = countFields(b, base + rec + REC_HEADER, recKeyLen(b, base, rec));
  }
  tree.unfixPage(frame, LATCH_S);
  return n + extra;
}

/** Point `out` at the record in slot `slot` of the page at `base`. */
export function refAt(tree: BTree, base: number, slot: number, out: RecRef): RecRef {
  const b = tree.store.bytes;
  const rec = slotRec(b, base, tree.pageSize, slot);
  out.buf = b;
  out.k = base + rec + REC_HEADER;
  out.kl = recKeyLen(b, base, rec);
  out.vl = recValLen(b, base, rec);
  return out;
}

/** Copy a record into `dst` (growing its buffer as needed). */
export function copyRef(src: RecRef, dst: RecRef): void {
  const n = src.kl + src.vl;
  if (dst.buf.length < n) dst.buf = new Uint8Array(Math.max(n, dst.buf.length * 2));
  dst.buf.set(src.buf.subarray(src.k, src.k + n), 0);
  dst.k = 0;
  dst.kl = src.kl;
  dst.vl = src.vl;
}

export function newRef(): RecRef {
  return { buf: new Uint8Array(64), k: 0, kl: 0, vl: 0 };
}

/**
 * Leading fields on which two records agree, at most `nUniq` (`cmp_rec_rec_with_match`'s
 * matched_fields). NULLs compare equal unless `nullsEqual` is false.
 */
export function matchedRecFields(
  tree: BTree,
  a: RecRef,
  b: RecRef,
  nUniq: number,
  nullsEqual = true,
): number {
  const keyFields = tree.unique ? nUniq : nUniq - 1;
  let m: number;
  if (tree.tupleKeys) m = matchedFields(a.buf, a.k, a.kl, b.buf, b.k, b.kl, nullsEqual);
  else m = compareRange(a.buf, a.k, a.kl, b.buf, b.k, b.kl) === 0 ? 1 : 0;
  if (m < keyFields) return m;
  if (tree.unique) return keyFields;
  return compareRange(a.buf, a.k + a.kl, a.vl, b.buf, b.k + b.kl, b.vl) === 0 ? nUniq : keyFields;
}

/** Byte length of the first `p` fields of a record's key (p ≤ key fields). */
export function prefixLength(tree: BTree, r: RecRef, p: number): number {
  if (!tree.tupleKeys) return r.kl;
  let off = r.k;
  const end = r.k + r.kl;
  for (let i = 0; i < p && off < end; i++) off = fieldEnd(r.buf, off, end);
  return off - r.k;
}

/** Page numbers of the leaf level, left to right, read from level 1 (or the root leaf). */
export function leafPageNumbers(tree: BTree): number[] {
  const b = tree.store.bytes;
  const ps = tree.pageSize;
  let frame = tree.fixPage(tree.rootPage, LATCH_S);
  if (pageLevel(b, frame * ps) === 0) {
    tree.unfixPage(frame, LATCH_S);
    return [tree.rootPage];
  }
  while (pageLevel(b, frame * ps) > 1) {
    const base = frame * ps;
    const next = tree.fixPage(recChild(b, base, slotRec(b, base, ps, 0)), LATCH_S);
    tree.unfixPage(frame, LATCH_S);
    frame = next;
  }
  const out: number[] = [];
  for (;;) {
    const base = frame * ps;
    const n = nRecs(b, base);
    for (let i = 0; i < n; i++) out.push(recChild(b, base, slotRec(b, base, ps, i)));
    const next = readNext(b, base);
    tree.unfixPage(frame, LATCH_S);
    if (next === FIL_NULL) return out;
    frame = tree.fixPage(next, LATCH_S);
  }
}

function readNext(b: Uint8Array, base: number): number {
  return ((b[base + 12]! << 24) | (b[base + 13]! << 16) | (b[base + 14]! << 8) | b[base + 15]!) >>> 0;
}

/** What the file-space header would tell InnoDB: leaf pages (stat_n_leaf_pages, ≥ 1), all tree pages, height. */
export interface TreeShape {
  leafPages: number;
  indexPages: number;
  height: number;
}

/**
 * The tree's shape from its non-leaf levels (InnoDB reads these counts from segment headers, so the
 * page fixes made here are taken back out of `tree.pageFixes`).
 */
export function treeShape(tree: BTree): TreeShape {
  const before = tree.pageFixes;
  const b = tree.store.bytes;
  const ps = tree.pageSize;
  let leftmost = tree.fixPage(tree.rootPage, LATCH_S);
  const height = pageLevel(b, leftmost * ps) + 1;
  let nonLeaf = 0;
  let leafPages = 1;
  // Walk each non-leaf level left to right; the records of level 1 are the leaf pages.
  for (;;) {
    const level = pageLevel(b, leftmost * ps);
    if (level === 0) {
      tree.unfixPage(leftmost, LATCH_S);
      break;
    }
    const firstChild = recChild(b, leftmost * ps, slotRec(b, leftmost * ps, ps, 0));
    let recs = 0;
    let f = leftmost;
    for (;;) {
      nonLeaf++;
      recs += nRecs(b, f * ps);
      const next = readNext(b, f * ps);
      tree.unfixPage(f, LATCH_S);
      if (next === FIL_NULL) break;
      f = tree.fixPage(next, LATCH_S);
    }
    if (level === 1) leafPages = recs;
    leftmost = tree.fixPage(firstChild, LATCH_S);
  }
  tree.pageFixes = before;
  return { leafPages: Math.max(1, leafPages), indexPages: nonLeaf + Math.max(1, leafPages), height };
}
