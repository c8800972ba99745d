import type { BTree } from '../btree.js';
import { fieldLayout, treeShape } from '../internal/fields.js';
import { accessOf, type TreeAccess } from '../internal/tree-access.js';
import type { Estimate } from './estimate.js';
import { scanLevel } from './level-scan.js';

/**
 * Ground truth: scan the whole leaf level. Entries are in key order, so the distinct values of a
 * prefix are 1 + the adjacent pairs that differ on it — exact, with O(1) memory.
 *
 * @example
 * ```ts
 * const { nDiff, rows } = estimateExact(tree);
 * ```
 */
export function estimateExact(tree: BTree): Estimate & { rows: number } {
  const t = accessOf(tree);
  return t.reading(() => exactLatched(t));
}

function exactLatched(tree: TreeAccess): Estimate & { rows: number } {
  const L = treeShape(tree).leafPages;
  const layout = fieldLayout(tree);
  const nUniq = layout.nUniq;
  const before = tree.pageFixes;
  const scan = scanLevel(tree, layout, 0, false);
  return {
    method: 'exact',
    nDiff: scan.nDiff,
    sampleSize: new Array<number>(nUniq).fill(scan.totalPages),
    pagesRead: tree.pageFixes - before,
    dives: 0,
    leaves: [],
    leafPages: L,
    rows: scan.totalRecs,
  };
}
