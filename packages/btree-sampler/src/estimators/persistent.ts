import { createGenerator, type RandomGenerator } from '@enginekit/prng';
import { FIL_NULL } from '@enginekit/buffer-pool';
import type { BTree } from '../btree.js';
import {
  type FieldLayout,
  fieldLayout,
  matchedRecFields,
  newRef,
  refAt,
  treeShape,
} from '../internal/fields.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import { accessOf, type TreeAccess } from '../internal/tree-access.js';
import { nextPage, nRecs, pageLevel, pageNo, recChild, slotRec } from '../page.js';
import type { Estimate } from './estimate.js';
import { type LevelScan, scanLevel } from './level-scan.js';

export interface PersistentOptions {
  /**
   * Generator for the pick inside each segment, `ut_rnd_interval(0, right − left)` =
   * `rng.nextBelow(right − left + 1)`. Default: one process-wide `innodb-ut-rnd` with the 5.5/5.6
   * interval (`rnd % (high − low)`, so a segment's last group is never picked).
   */
  rng?: RandomGenerator;
  /** `innodb_stats_persistent_sample_pages` (A): leaf pages per prefix, default 20, ≥ 1. */
  innodb_stats_persistent_sample_pages?: number;
}

let sharedUtRnd: RandomGenerator | null = null;

/** The inputs of `dict_stats_index_set_n_diff` for one prefix. */
export interface PersistentSample {
  /** stat_n_leaf_pages. */
  leafPages: number;
  /** The level the leaves were sampled below. */
  level: number;
  nRecsOnLevel: number;
  /** Distinct prefixes on that level. */
  nDiffOnLevel: number;
  /** Σ max(distinct on the sampled leaf − 1, 0). */
  nDiffAllAnalyzedPages: number;
  /** Leaves analyzed, min(A, D). */
  leavesAnalyzed: number;
  externalPages: number;
}

/**
 * `dict_stats_index_set_n_diff` (5.6.21), integer left to right:
 * n_ordinary = level 1 ? n_recs_on_level : L·K/(K + ext); n_diff = n_ordinary·D/n_recs·Σ/K.
 * Example: L = 100000, level 2, n_recs = 300, D = 250, Σ = 95, K = 20, ext = 5 → 80000 → 66666 → 316663.
 */
export function persistentNDiff(s: PersistentSample): number {
  const K = s.leavesAnalyzed;
  const nOrdinary = s.level === 1 ? s.nRecsOnLevel : Math.floor((s.leafPages * K) / (K + s.externalPages));
  return Math.floor(
    (Math.floor((nOrdinary * s.nDiffOnLevel) / s.nRecsOnLevel) * s.nDiffAllAnalyzedPages) / K,
  );
}

/**
 * MySQL 5.6 persistent statistics (`dict_stats_analyze_index`, 5.6.21).
 *
 * - Full scan of the leaf level when the root is a leaf or A · n_uniq > leaf pages.
 * - Otherwise, for n_prefix = n_uniq … 1, find a level: descend from the root scanning whole levels
 *   until one has ≥ 10·A distinct prefixes or is level 1, but never scan a level whose page count
 *   (the record count of the level above) exceeds A — then keep the level above.
 * - On that level (D distinct groups), split the groups into K = min(A, D) segments; in each pick a
 *   group with the generator and dive below its last record: on each non-leaf page follow the first
 *   record that differs from its right neighbour (stop with 0 if the page is all equal); on the leaf
 *   count distinct prefixes, minus one (a value spanning a page boundary is counted once).
 * - n_diff = n_ordinary · D / n_recs_on_level · Σ(leaf distinct − 1) / K, integer left to right, where
 *   n_ordinary = n_recs_on_level on level 1, else L · K / (K + external pages) (= L here).
 *
 * @example
 * ```ts
 * const e = estimatePersistent(tree, { innodb_stats_persistent_sample_pages: 20 });
 * e.nDiff; e.sampleSize; // leaves analyzed per prefix, as mysql.innodb_index_stats.sample_size
 * ```
 */
export function estimatePersistent(tree: BTree, options: PersistentOptions = {}): Estimate {
  const t = accessOf(tree);
  return t.reading(() => estimatePersistentLatched(t, options));
}

function estimatePersistentLatched(tree: TreeAccess, options: PersistentOptions): Estimate {
  const A = options.innodb_stats_persistent_sample_pages ?? 20;
  if (!Number.isInteger(A) || A < 1)
    throw new RangeError(`innodb_stats_persistent_sample_pages must be an integer ≥ 1, got ${String(A)}`);
  const rng = options.rng ?? (sharedUtRnd ??= createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }));
  const shape = treeShape(tree);
  const L = shape.leafPages;
  const rootLevel = shape.height - 1;
  const layout = fieldLayout(tree);
  const nUniq = layout.nUniq;
  const before = tree.pageFixes;
  const leaves: number[] = [];

  if (rootLevel === 0 || A * nUniq > L) {
    const scan = scanLevel(tree, layout, 0, false);
    return {
      method: 'persistent',
      nDiff: scan.nDiff,
      sampleSize: new Array<number>(nUniq).fill(scan.totalPages),
      pagesRead: tree.pageFixes - before,
      dives: 0,
      leaves,
      leafPages: L,
    };
  }

  const required = 10 * A;
  const nDiff = new Array<number>(nUniq).fill(0);
  const sampleSize = new Array<number>(nUniq).fill(0);
  let level = rootLevel;
  let analyzed = false;
  let scan: LevelScan = {
    nDiff: new Array<number>(nUniq).fill(0),
    totalRecs: 1,
    totalPages: 1,
    boundaries: null,
  };
  let dives = 0;
  for (let p = nUniq; p >= 1; p--) {
    if (!(analyzed && (scan.nDiff[p - 1]! >= required || level === 1))) {
      if (analyzed && level > 1) {
        level--;
        analyzed = false;
      }
      for (;;) {
        // The pages of this level are the records of the level above.
        if (scan.totalRecs > A) {
          level++;
          analyzed = true;
          break;
        }
        const s = scanLevel(tree, layout, level, true);
        scan = s;
        analyzed = true;
        if (s.nDiff[p - 1]! >= required || level === 1) break;
        level--;
        analyzed = false;
      }
    }
    // Sample K leaves below this level for prefix p.
    const D = scan.nDiff[p - 1]!;
    const K = Math.min(A, D);
    const bounds = scan.boundaries![p - 1]!;
    const walker = new LevelWalker(tree, level);
    let sumLeaf = 0;
    for (let i = 0; i < K; i++) {
      const left = Math.floor((D * i) / K);
      const right = Math.floor((D * (i + 1)) / K) - 1;
      const rnd = rng.nextBelow(right - left + 1);
      const idx = bounds[left + rnd]!;
      const child = walker.childOf(idx);
      if (child === FIL_NULL) break; // the level ended early (cannot happen without concurrent writes)
      dives++;
      const leafDiff = diffBelow(tree, layout, child, p, leaves);
      sumLeaf += leafDiff > 0 ? leafDiff - 1 : 0;
    }
    walker.close();
    nDiff[p - 1] =
      K === 0
        ? 0
        : persistentNDiff({
            leafPages: L,
            level,
            nRecsOnLevel: scan.totalRecs,
            nDiffOnLevel: D,
            nDiffAllAnalyzedPages: sumLeaf,
            leavesAnalyzed: K,
            externalPages: 0,
          });
    sampleSize[p - 1] = K;
  }
  return {
    method: 'persistent',
    nDiff,
    sampleSize,
    pagesRead: tree.pageFixes - before,
    dives,
    leaves,
    leafPages: L,
  };
}

/** Walks one level left to right to the record with a given level-wide index. */
class LevelWalker {
  readonly #tree: TreeAccess;
  #frame: number;
  #first = 0;
  constructor(tree: TreeAccess, level: number) {
    this.#tree = tree;
    this.#frame = tree.leftmostS(level);
  }
  /** Child page of the record with level index `idx` (non-decreasing between calls). */
  childOf(idx: number): number {
    const t = this.#tree;
    const b = t.b;
    const ps = t.ps;
    for (;;) {
      if (this.#frame < 0) return FIL_NULL;
      const base = this.#frame * ps;
      const n = nRecs(b, base);
      if (idx < this.#first + n) return recChild(b, base, slotRec(b, base, ps, idx - this.#first));
      this.#first += n;
      const next = nextPage(b, base);
      t.unfixPage(this.#frame, LATCH_S);
      this.#frame = next === FIL_NULL ? -1 : t.fixPage(next, LATCH_S);
    }
  }
  close(): void {
    if (this.#frame >= 0) this.#tree.unfixPage(this.#frame, LATCH_S);
    this.#frame = -1;
  }
}

/**
 * `dict_stats_analyze_index_below_cur`: from page `page`, descend through the first non-boring record
 * of each non-leaf page; return the leaf's distinct count on p fields, or 1 when a non-leaf page is
 * all equal on p fields (the caller subtracts one either way).
 */
function diffBelow(tree: TreeAccess, L: FieldLayout, page: number, p: number, leaves: number[]): number {
  const nUniq = L.nUniq;
  const b = tree.b;
  const ps = tree.ps;
  const x = newRef();
  const y = newRef();
  // Compare on p fields: a record is boring when it matches its right neighbour on all p.
  let frame = tree.fixPage(page, LATCH_S);
  for (;;) {
    const base = frame * ps;
    const n = nRecs(b, base);
    if (pageLevel(b, base) === 0) {
      leaves.push(pageNo(b, base));
      let d = n > 0 ? 1 : 0;
      for (let i = 0; i + 1 < n; i++) {
        if (matchedRecFields(L, refAt(tree, base, i, x), refAt(tree, base, i + 1, y), nUniq) < p) d++;
      }
      tree.unfixPage(frame, LATCH_S);
      return d;
    }
    let pick = -1;
    for (let i = 0; i + 1 < n; i++) {
      if (matchedRecFields(L, refAt(tree, base, i, x), refAt(tree, base, i + 1, y), nUniq) < p) {
        pick = i;
        break;
      }
    }
    if (pick < 0) {
      tree.unfixPage(frame, LATCH_S);
      return 1;
    }
    const child = tree.fixPage(recChild(b, base, slotRec(b, base, ps, pick)), LATCH_S);
    tree.unfixPage(frame, LATCH_S);
    frame = child;
  }
}
