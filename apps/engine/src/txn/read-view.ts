import type { VersionChain } from './version-store.js';

/**
 * A read view: which committed changes a consistent read sees. InnoDB's `read_view_t` keeps the
 * transaction ids active at its creation (`low_limit_id`, `up_limit_id`, `trx_ids`) and
 * `read_view_sees_trx_id` (include/read0read.ic, 5.6) tests a row's `DB_TRX_ID` against them.
 * Here every committed version carries its writer's commit number instead, so a view is one
 * number: it sees exactly the writers that committed before it was made (commit number <=
 * `commitNo`), which are the transactions neither active then nor started later. Its own
 * transaction's writes are always seen.
 */
export interface ReadView {
  /** The last commit number given when the view was made. */
  readonly commitNo: number;
  /** The view's own transaction number (its writes are visible to it). */
  readonly owner: number;
}

/** The version a view reads of a row with versions: the tree's row. */
export const SEES_TREE = 0;
/** ...or no row at all. */
export const SEES_NOTHING = 1;

/**
 * What `view` sees of the row whose chain is `c`: {@link SEES_TREE} (the row as the B+tree has
 * it, or its absence), {@link SEES_NOTHING}, or the bytes of an older version.
 *
 * The newest version by the view's owner means the tree holds the owner's write. Otherwise the
 * oldest version the view does not see was written over the version the view should read, so
 * that version's before-image is the answer (row_vers_build_for_consistent_read walks the undo
 * chain back to the first version whose trx id the view sees: the same row).
 */
export function visibleVersion(
  view: ReadView,
  c: VersionChain,
): Uint8Array | typeof SEES_TREE | typeof SEES_NOTHING {
  const vs = c.versions;
  if (vs[vs.length - 1]!.trx === view.owner) return SEES_TREE;
  const limit = view.commitNo;
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i]!;
    if (v.commitNo === 0 || v.commitNo > limit) return v.before ?? SEES_NOTHING;
  }
  return SEES_TREE;
}
