import type { TableIndex } from '../../storage/table.js';
import type { Bound } from '../../exec/bound.js';
import { equalityOn, rangeBounds } from '../planner.js';
import type { KeyInterval, RangeBound } from '../../exec/planned-stage.js';
import type { Source } from '../../exec/scope.js';

/** The intervals of a range on several key parts or several values (IN lists). */
export interface KeyRanges {
  readonly intervals: readonly KeyInterval[];
  /** Leading index columns fixed by an equality or an IN list. */
  readonly eqParts: number;
  /** Key parts the range uses (key_len): the fixed ones, plus one when the next column is bounded. */
  readonly keyParts: number;
  /** Every interval is a single point of its key parts (an "equality range"). */
  readonly points: boolean;
}

/** At most this many intervals (IN lists multiply); past it the later key parts are left out. */
const MAX_INTERVALS = 1024;

const none = (): boolean => false;

/**
 * The values an `IN (…)` conjunct of constants allows for column `c` of `src`, or undefined.
 * Each is converted as a key value would be (`convert`: undefined when the type cannot be used).
 */
function inListOn(
  m: Bound,
  src: Source,
  c: number,
  convert: (c: number, b: Bound) => Bound | undefined,
): Bound[] | undefined {
  const l = m.inList;
  if (l === undefined || m.sub === true) return undefined;
  const e = l.e;
  if (e.col === undefined || e.col.src.idx !== src.idx || e.col.c !== c || e.outer) return undefined;
  const out: Bound[] = [];
  for (const x of l.list) {
    if (x.refs.length > 0 || x.sub === true || x.outer) return undefined;
    const k = convert(c, x);
    if (k === undefined) return undefined;
    out.push(k);
  }
  return out;
}

/** Whether some conjunct is an IN list of constants on column `c` (possible_keys). */
export function hasInList(src: Source, c: number, conds: readonly Bound[]): boolean {
  return conds.some((m) => inListOn(m, src, c, (_c, b) => b) !== undefined);
}

/**
 * The range the constant conjuncts `conds` (each reading only `src`) give on `ix` beyond a
 * single-column range: equalities and IN lists on its leading columns (each IN value a separate
 * interval, as the range optimizer's key_or of points), then `<`/`>`/BETWEEN on the next column.
 * Undefined when that is no more than one interval on the first column alone (the plain range).
 */
export function multiPartRanges(
  src: Source,
  ix: TableIndex,
  conds: readonly Bound[],
  convert: (c: number, b: Bound) => Bound | undefined,
): KeyRanges | undefined {
  let prefixes: Bound[][] = [[]];
  let eqParts = 0;
  for (const c of ix.entryColumns) {
    let values: Bound[] | undefined;
    for (const m of conds) {
      const e = equalityOn(m, src.idx, none);
      if (e !== undefined && e[0] === c) {
        const k = convert(c, e[1]);
        if (k !== undefined) {
          values = [k];
          break;
        }
      }
    }
    if (values === undefined)
      for (const m of conds) {
        values = inListOn(m, src, c, convert);
        if (values !== undefined) break;
      }
    if (values === undefined || prefixes.length * values.length > MAX_INTERVALS) break;
    const next: Bound[][] = [];
    for (const p of prefixes) for (const v of values) next.push([...p, v]);
    prefixes = next;
    eqParts++;
  }
  if (eqParts === 0) return undefined;
  // bounds on the column after the fixed ones
  const c = ix.entryColumns[eqParts];
  let lo: RangeBound | undefined;
  let hi: RangeBound | undefined;
  if (c !== undefined)
    for (const m of conds)
      for (const [side, b] of rangeBounds(m, src.idx, c, none)) {
        const expr = convert(c, b.expr);
        if (expr === undefined) continue;
        const kb = { expr, inclusive: b.inclusive };
        if (side === 'lo') lo ??= kb;
        else hi ??= kb;
      }
  const bounded = lo !== undefined || hi !== undefined;
  const keyParts = eqParts + (bounded ? 1 : 0);
  if (keyParts === 1 && prefixes.length === 1) return undefined;
  return {
    intervals: prefixes.map((eq) => ({ eq, ...(lo ? { lo } : {}), ...(hi ? { hi } : {}) })),
    eqParts,
    keyParts,
    points: !bounded,
  };
}

/** Intervals on column `c` that cover every row `b` accepts, or undefined when `b` does not bound `c`. */
function intervalsOn(
  b: Bound,
  src: Source,
  c: number,
  convert: (c: number, b: Bound) => Bound | undefined,
): KeyInterval[] | undefined {
  if (b.sub === true) return undefined;
  if (b.or !== undefined) {
    const l = intervalsOn(b.or[0], src, c, convert);
    const r = l === undefined ? undefined : intervalsOn(b.or[1], src, c, convert);
    return l === undefined || r === undefined ? undefined : [...l, ...r];
  }
  if (b.and !== undefined) {
    // both sides hold: the side that bounds c covers the rows (either, if both do)
    const l = intervalsOn(b.and[0], src, c, convert);
    const r = intervalsOn(b.and[1], src, c, convert);
    if (l !== undefined && r !== undefined && l.length === 1 && r.length === 1) {
      const lo = l[0]!.lo ?? r[0]!.lo;
      const hi = l[0]!.hi ?? r[0]!.hi;
      return [{ eq: [], ...(lo ? { lo } : {}), ...(hi ? { hi } : {}) }];
    }
    return l ?? r;
  }
  const e = equalityOn(b, src.idx, none);
  if (e !== undefined && e[0] === c) {
    const k = convert(c, e[1]);
    if (k === undefined) return undefined;
    const p = { expr: k, inclusive: true };
    return [{ eq: [], lo: p, hi: p }];
  }
  const list = inListOn(b, src, c, convert);
  if (list !== undefined)
    return list.map((k) => {
      const p = { expr: k, inclusive: true };
      return { eq: [], lo: p, hi: p };
    });
  let lo: RangeBound | undefined;
  let hi: RangeBound | undefined;
  for (const [side, rb] of rangeBounds(b, src.idx, c, none)) {
    const expr = convert(c, rb.expr);
    if (expr === undefined) continue;
    if (side === 'lo') lo = { expr, inclusive: rb.inclusive };
    else hi = { expr, inclusive: rb.inclusive };
  }
  if (lo === undefined && hi === undefined) return undefined;
  return [{ eq: [], ...(lo ? { lo } : {}), ...(hi ? { hi } : {}) }];
}

/**
 * The range an OR of conditions on an index's first column gives (the range optimizer's key_or):
 * one interval per disjunct, which the reader merges where they overlap; each disjunct may be an
 * equality, an IN list, a bound or BETWEEN, or an AND with one of those. Undefined unless every
 * disjunct of `m` bounds the column. All points: an equality range per value, as an IN list.
 */
export function orRanges(
  src: Source,
  ix: TableIndex,
  m: Bound,
  convert: (c: number, b: Bound) => Bound | undefined,
): KeyRanges | undefined {
  if (m.or === undefined) return undefined;
  const c = ix.entryColumns[0]!;
  const intervals = intervalsOn(m, src, c, convert);
  if (intervals === undefined || intervals.length > MAX_INTERVALS) return undefined;
  const points = intervals.every((iv) => iv.lo !== undefined && iv.lo === iv.hi);
  if (points)
    return {
      intervals: intervals.map((iv) => ({ eq: [iv.lo!.expr] })),
      eqParts: 1,
      keyParts: 1,
      points: true,
    };
  return { intervals, eqParts: 0, keyParts: 1, points: false };
}
