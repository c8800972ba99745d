import type { Bound } from '../../exec/bound.js';
import type { MinMaxRead, RangeBound } from '../../exec/planned-stage.js';
import { equalityOn, keyable, rangeBounds } from '../planner.js';
import { entryHolds } from './index-reads.js';
import type { TableInfo } from './table-info.js';

/** A MIN or MAX of column `column` of the one table. */
export interface MinMaxItem {
  readonly fn: 'min' | 'max';
  readonly column: number;
}

const never = (): boolean => false;

/**
 * MariaDB's `opt_sum_query` for MIN and MAX (`find_key_for_maxmin`): each aggregate gets an index
 * whose entry has the aggregated column right after fields that WHERE fixes to constants, with
 * every conjunct of WHERE either such an equality or a bound on the aggregated column (so the
 * index's range holds exactly the rows WHERE keeps). Undefined when one aggregate has no such
 * index: the query is then read as planned. The extended key counts (a secondary entry carries the
 * primary key's columns after its own), as in MariaDB; an index whose entry cannot give the
 * column's value back (collated text is stored as its weight) does not serve.
 */
export function planMinMax(
  info: TableInfo,
  where: readonly Bound[],
  items: readonly MinMaxItem[],
): MinMaxRead[] | undefined {
  const src = info.src;
  if (src.table === undefined || src.derived !== undefined || src.joinType === 'left') return undefined;
  const k = src.idx;
  const reads: MinMaxRead[] = [];
  for (const item of items) {
    const read = readFor(info, where, k, item);
    if (read === undefined) return undefined;
    reads.push(read);
  }
  return reads;
}

function readFor(
  info: TableInfo,
  where: readonly Bound[],
  k: number,
  item: MinMaxItem,
): MinMaxRead | undefined {
  const src = info.src;
  for (const ix of info.indexes) {
    const p = ix.entryColumns.indexOf(item.column);
    if (p < 0 || !entryHolds(ix, [item.column], src)) continue;
    const fixed = ix.entryColumns.slice(0, p);
    const prefix: Bound[] = [];
    const bounds: Bound[] = [];
    let lo: RangeBound | undefined;
    let hi: RangeBound | undefined;
    let ok = true;
    for (const w of where) {
      if (w.sub === true || w.outer) {
        ok = false;
        break;
      }
      const eq = equalityOn(w, k, never);
      const at = eq === undefined ? -1 : fixed.indexOf(eq[0]);
      if (eq !== undefined && at >= 0 && keyable(src, eq[0], eq[1].t) && prefix[at] === undefined) {
        prefix[at] = eq[1];
        continue;
      }
      // the aggregated column equal to a constant: a range of one value
      const b: Array<['lo' | 'hi', RangeBound]> =
        eq !== undefined && eq[0] === item.column
          ? keyable(src, item.column, eq[1].t)
            ? [
                ['lo', { expr: eq[1], inclusive: true }],
                ['hi', { expr: eq[1], inclusive: true }],
              ]
            : []
          : boundTypes(w).every((t) => keyable(src, item.column, t))
            ? rangeBounds(w, k, item.column, never)
            : [];
      if (b.length === 0) {
        ok = false;
        break;
      }
      for (const [side, bound] of b) {
        if (side === 'lo') lo ??= bound;
        else hi ??= bound;
      }
      bounds.push(w);
    }
    // every field before the column fixed (a loop: `some` would pass over the holes)
    let all = prefix.length === fixed.length;
    for (let i = 0; all && i < fixed.length; i++) all = prefix[i] !== undefined;
    if (!ok || !all) continue;
    return {
      fn: item.fn,
      column: item.column,
      index: ix.name,
      prefix,
      ...(lo === undefined ? {} : { lo }),
      ...(hi === undefined ? {} : { hi }),
      conds: bounds,
    };
  }
  return undefined;
}

/** The types of the values a comparison or BETWEEN compares its column with. */
function boundTypes(w: Bound): Bound['t'][] {
  if (w.between !== undefined) return [w.between.lo.t, w.between.hi.t];
  const c = w.cmp;
  if (c === undefined) return [w.t];
  return [c.l.col !== undefined ? c.r.t : c.l.t];
}
