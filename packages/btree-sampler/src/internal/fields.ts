/**
 * How the estimators see an entry as InnoDB's index fields.
 *
 * An entry's fields are its key's codec fields (the whole key as one field when the tree does not
 * hold codec tuples), then — in a secondary (non-clustered) tree — its value's fields: the
 * primary-key columns the entry carries, each a field when values are codec tuples, one field
 * otherwise, none when the value is empty (a tree whose key already ends with the primary key).
 * A clustered tree's value is the row, never a field.
 *
 * InnoDB (`dict_index_build_internal_non_clust`, dict0dict.c 5.1.45 / dict0dict.cc 5.6.21) sets a
 * secondary index's n_uniq to its own columns when it is UNIQUE and to all its fields — own
 * columns plus every primary-key column it carries — when it is not; a clustered index's n_uniq is
 * its primary-key columns. `dict_index_get_n_unique_in_tree` (dict0dict.ic) is n_uniq for a
 * clustered index and all fields for a secondary one. The estimators count distinct prefixes of
 * 1 … n_uniq fields, and the transient estimator's page-boundary +1 applies only when
 * n_uniq = n_unique_in_tree (btr0cur.c, `btr_estimate_number_of_different_key_vals`).
 */
import { compareBytes } from '@enginekit/common';
import { FIL_NULL } from '@enginekit/buffer-pool';
import { countFields, fieldEnd, matchedFields } from '../key-codec.js';
import { readU32 } from './bytes.js';
import {
  nextPage,
  nRecs,
  PAGE_FREE_LIST,
  pageLevel,
  REC_HEADER,
  recChild,
  recKeyLen,
  recValLen,
  slotRec,
} from '../page.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import type { TreeAccess } from './tree-access.js';

/** A record located in a byte array: key at [k, k+kl), value at [k+kl, k+kl+vl). */
export interface RecRef {
  buf: Uint8Array;
  k: number;
  kl: number;
  vl: number;
}

/** The fields of a tree's entries as the estimators count them. */
export interface FieldLayout {
  /** n_uniq (`dict_index_get_n_unique`): the estimators count prefixes of 1 … nUniq fields. */
  readonly nUniq: number;
  /** Fields of the key. */
  readonly keyFields: number;
  /** `dict_index_get_n_unique_in_tree`: fields that make an entry unique in the tree. */
  readonly inTree: number;
  readonly tupleKeys: boolean;
  /** Value fields count: codec tuples split into fields, else one field (or none when empty). */
  readonly tupleValues: boolean;
  /** Whether value fields exist at all (a secondary tree). */
  readonly valueFields: boolean;
}

/** The layout of a tree's entries, from the flags and the first entry of the leftmost leaf. */
export function fieldLayout(t: TreeAccess): FieldLayout {
  let kf = 1;
  let vf = 0;
  const secondary = !t.clustered;
  if (t.tupleKeys || secondary) {
    const b = t.b;
    const ps = t.ps;
    const frame = t.leftmostS(0);
    const base = frame * ps;
    if (nRecs(b, base) > 0) {
      const rec = slotRec(b, base, ps, 0);
      const k = base + rec + REC_HEADER;
      const kl = recKeyLen(b, base, rec);
      const vl = recValLen(b, base, rec);
      if (t.tupleKeys) kf = countFields(b, k, kl);
      if (secondary) vf = t.tupleValues ? countFields(b, k + kl, vl) : vl > 0 ? 1 : 0;
    } else if (secondary && !t.unique) vf = 1;
    t.unfixPage(frame, LATCH_S);
  }
  const inTree = t.clustered ? kf : kf + vf;
  let nUniq: number;
  if (t.clustered) nUniq = kf;
  else if (t.uniqueFields > 0) nUniq = Math.min(t.uniqueFields, inTree);
  else nUniq = t.unique ? kf : inTree;
  return {
    nUniq,
    keyFields: kf,
    inTree,
    tupleKeys: t.tupleKeys,
    tupleValues: t.tupleValues,
    valueFields: secondary,
  };
}

/** Point `out` at the record in slot `slot` of the page at `base`. */
export function refAt(t: TreeAccess, base: number, slot: number, out: RecRef): RecRef {
  const b = t.b;
  const rec = slotRec(b, base, t.ps, slot);
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
 * matched_fields): key fields first, then value fields. NULLs compare equal unless `nullsEqual`
 * is false.
 */
export function matchedRecFields(
  L: FieldLayout,
  a: RecRef,
  b: RecRef,
  nUniq: number,
  nullsEqual = true,
): number {
  let m: number;
  if (L.tupleKeys) m = matchedFields(a.buf, a.k, a.kl, b.buf, b.k, b.kl, nullsEqual);
  else m = compareBytes(a.buf, a.k, a.k + a.kl, b.buf, b.k, b.k + b.kl) === 0 ? 1 : 0;
  if (m >= nUniq) return nUniq;
  if (m < L.keyFields || !L.valueFields) return m;
  const va = a.k + a.kl;
  const vb = b.k + b.kl;
  if (L.tupleValues) m += matchedFields(a.buf, va, a.vl, b.buf, vb, b.vl, nullsEqual);
  else if (a.vl > 0 || b.vl > 0) m += compareBytes(a.buf, va, va + a.vl, b.buf, vb, vb + b.vl) === 0 ? 1 : 0;
  return Math.min(m, nUniq);
}

/**
 * Bytes of the first `p` fields of an entry, counted from the key's start (key and value are
 * contiguous in a record): the key's first p fields when p ≤ key fields, else the whole key and
 * the value's first p − keyFields fields.
 */
export function prefixLength(L: FieldLayout, r: RecRef, p: number): number {
  if (p <= L.keyFields) {
    if (!L.tupleKeys || p === L.keyFields) return r.kl;
    let off = r.k;
    const end = r.k + r.kl;
    for (let i = 0; i < p && off < end; i++) off = fieldEnd(r.buf, off, end);
    return off - r.k;
  }
  if (!L.tupleValues) return r.kl + r.vl;
  let off = r.k + r.kl;
  const end = off + r.vl;
  for (let i = L.keyFields; i < p && off < end; i++) off = fieldEnd(r.buf, off, end);
  return off - r.k;
}

/** Page numbers of the leaf level, left to right, read from level 1 (or the root leaf). */
export function leafPageNumbers(t: TreeAccess): number[] {
  const b = t.b;
  const ps = t.ps;
  let frame = t.fixPage(t.rootPage, LATCH_S);
  if (pageLevel(b, frame * ps) === 0) {
    t.unfixPage(frame, LATCH_S);
    return [t.rootPage];
  }
  while (pageLevel(b, frame * ps) > 1) {
    const base = frame * ps;
    const next = t.fixPage(recChild(b, base, slotRec(b, base, ps, 0)), LATCH_S);
    t.unfixPage(frame, LATCH_S);
    frame = next;
  }
  const out: number[] = [];
  for (;;) {
    const base = frame * ps;
    const n = nRecs(b, base);
    for (let i = 0; i < n; i++) out.push(recChild(b, base, slotRec(b, base, ps, i)));
    const next = t.nextOnLevelS(frame);
    if (next < 0) return out;
    frame = next;
  }
}

/** What the file-space header would tell InnoDB: leaf pages (stat_n_leaf_pages, ≥ 1), all tree pages, height. */
/** What the non-leaf levels say: height, leaf pages, and pages in the tree. */
export interface LevelShape {
  leafPages: number;
  indexPages: number;
  height: number;
}

/**
 * The tree's shape from its non-leaf levels (InnoDB reads these counts from segment headers, so the
 * page fixes made here are taken back out of the tree's page-fix count).
 */
export function treeShape(t: TreeAccess): LevelShape {
  const before = t.pageFixes;
  const b = t.b;
  const ps = t.ps;
  let leftmost = t.fixPage(t.rootPage, LATCH_S);
  const height = pageLevel(b, leftmost * ps) + 1;
  let nonLeaf = 0;
  let leafPages = 1;
  // Walk each non-leaf level left to right; the records of level 1 are the leaf pages.
  for (;;) {
    const level = pageLevel(b, leftmost * ps);
    if (level === 0) {
      t.unfixPage(leftmost, LATCH_S);
      break;
    }
    const firstChild = recChild(b, leftmost * ps, slotRec(b, leftmost * ps, ps, 0));
    let recs = 0;
    let f = leftmost;
    for (;;) {
      nonLeaf++;
      recs += nRecs(b, f * ps);
      const next = t.nextOnLevelS(f);
      if (next < 0) break;
      f = next;
    }
    if (level === 1) leafPages = recs;
    leftmost = t.fixPage(firstChild, LATCH_S);
  }
  t.pageFixes = before;
  return { leafPages: Math.max(1, leafPages), indexPages: nonLeaf + Math.max(1, leafPages), height };
}

/**
 * Pages on the tree's free list (hanging off the root, linked through FIL_PAGE_NEXT): freed by
 * merges, still the tree's. Like {@link treeShape}, its page fixes are taken back out of the count.
 */
export function freeListLength(t: TreeAccess): number {
  const before = t.pageFixes;
  const b = t.b;
  const ps = t.ps;
  const root = t.fixPage(t.rootPage, LATCH_S);
  let free = readU32(b, root * ps + PAGE_FREE_LIST);
  t.unfixPage(root, LATCH_S);
  let n = 0;
  while (free !== FIL_NULL) {
    n++;
    const f = t.fixPage(free, LATCH_S);
    const next = nextPage(b, f * ps);
    t.unfixPage(f, LATCH_S);
    free = next;
  }
  t.pageFixes = before;
  return n;
}
