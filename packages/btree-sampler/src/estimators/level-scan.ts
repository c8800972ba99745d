import {
  copyRef,
  type FieldLayout,
  matchedRecFields,
  newRef,
  type RecRef,
  refAt,
} from '../internal/fields.js';
import type { TreeAccess } from '../internal/tree-access.js';
import { nRecs } from '../page.js';

/** Distinct counts of one level (`dict_stats_analyze_index_level`). */
export interface LevelScan {
  /** Distinct values of each prefix on the level. */
  nDiff: number[];
  totalRecs: number;
  totalPages: number;
  /** Per prefix: level-wide index of the last record of each group of equal prefixes. */
  boundaries: number[][] | null;
}

/**
 * Scan every record of `level` left to right. The first record starts a group for every prefix;
 * each next record with m matched fields starts a new group for prefixes m+1 … n_uniq and closes the
 * previous group there (its index goes into that prefix's boundaries). NULLs compare equal.
 */
export function scanLevel(
  tree: TreeAccess,
  L: FieldLayout,
  level: number,
  withBoundaries: boolean,
): LevelScan {
  const nUniq = L.nUniq;
  const b = tree.b;
  const ps = tree.ps;
  const nDiff = new Array<number>(nUniq).fill(0);
  const boundaries = withBoundaries ? Array.from({ length: nUniq }, () => [] as number[]) : null;
  let totalRecs = 0;
  let totalPages = 0;
  const prev: RecRef = newRef();
  const cur: RecRef = newRef();
  let frame = tree.leftmostS(level);
  for (;;) {
    const base = frame * ps;
    totalPages++;
    const n = nRecs(b, base);
    for (let i = 0; i < n; i++) {
      refAt(tree, base, i, cur);
      totalRecs++;
      if (totalRecs === 1) nDiff.fill(1);
      else {
        const m = matchedRecFields(L, prev, cur, nUniq);
        for (let j = m; j < nUniq; j++) {
          nDiff[j]!++;
          if (boundaries !== null) boundaries[j]!.push(totalRecs - 2);
        }
      }
      copyRef(cur, prev);
    }
    const next = tree.nextOnLevelS(frame);
    if (next < 0) break;
    frame = next;
  }
  if (boundaries !== null && totalRecs > 0) for (const list of boundaries) list.push(totalRecs - 1);
  return { nDiff, totalRecs, totalPages, boundaries };
}
