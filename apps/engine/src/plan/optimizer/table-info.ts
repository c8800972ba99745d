import { coerce } from '../../exec/convert.js';
import { keyValue } from '../../exec/pipeline.js';
import { dateTimeType, T_DATE } from '../../exec/types.js';
import { recPerKey, type TableStatistics } from '../../storage/statistics.js';
import type { KeyRange, TableIndex } from '../../storage/table.js';
import type { Bound } from '../../exec/bound.js';
import { equalityOn, keyable, rangeBounds } from '../planner.js';
import type { RangeBound } from '../../exec/planned-stage.js';
import type { Source } from '../../exec/scope.js';
import { RANGE_TIE_BREAK, ROW_EVALUATE_COST, readTime } from './cost.js';
import { keyRangeOf, orderedRanges } from '../../exec/key-range.js';
import { indexOnlyReadTime, isCovering, shortestCoveringKey } from './index-reads.js';
import { hasInList, type KeyRanges, multiPartRanges, orRanges } from './key-ranges.js';
import type { KeyInterval } from '../../exec/planned-stage.js';
import type { OptimizerSettings } from './settings.js';

/**
 * What the optimizer knows about one FROM source before the join order is searched (MySQL's
 * `make_join_statistics` and the range optimizer's pass over constant conditions): its
 * statistics, the indexes hints allow, the conditions that read it, and its cheapest constant
 * range (`quick`, kept only when it beats a table scan), which also bounds the rows a scan leaves
 * (`found_records`).
 */
export interface TableInfo {
  readonly src: Source;
  readonly rows: number;
  readonly clusteredPages: number;
  readonly stats: TableStatistics | undefined;
  readonly indexes: readonly TableIndex[];
  /** FORCE INDEX: a scan only when no index can be used, and any range beats a scan. */
  readonly forced: boolean;
  /** Conjuncts that may drive this source's key (ON for a LEFT JOIN, else WHERE). */
  readonly conds: readonly Bound[];
  /** Conjuncts that read this source and only constants (range analysis, found_records). */
  readonly hasConstCond: boolean;
  readonly quick: RangePlan | undefined;
  /** Every range considered (for the trace). */
  readonly ranges: readonly RangePlan[];
  /** Rows left after constant conditions: the quick's rows, else all. */
  readonly foundRecords: number;
  /** Sources this one must follow (a LEFT JOIN's inner table follows all before it). */
  readonly dependsOn: readonly number[];
  /** Sources whose columns an equality binds to the first column of one of this table's indexes. */
  readonly keyDependsOn: readonly number[];
  /** Average bytes of this source's used columns in a join buffer record. */
  readonly recordLength: number;
  readonly possibleKeys: readonly string[];
}

export interface RangePlan {
  readonly index: string;
  readonly primary: boolean;
  readonly column: number;
  readonly lo?: RangeBound;
  readonly hi?: RangeBound;
  /** A multi-part or multi-value range: its intervals (lo/hi unused). */
  readonly intervals?: readonly KeyInterval[];
  /** Key parts the range uses (EXPLAIN key_len; a ref on as many parts makes it redundant). */
  readonly keyParts: number;
  readonly rows: number;
  /** read_time + rows × ROW_EVALUATE_COST + the tie breaker. */
  readonly cost: number;
  /** Rows were counted in the index (a dive) rather than guessed. */
  readonly dived: boolean;
}

/** Rows assumed for a derived table or a table without statistics (MySQL materializes; we estimate). */
const DERIVED_ROWS = 1000;
/** Counting entries of a range stops here (the rest is interpolated, see Table.recordsInRange). */
export const DIVE_CAP = 5_000;

const none = (): boolean => false;
const DATETIME = dateTimeType(6);

/**
 * `expr` as a key value for column c of src: itself when the types match, a string constant that
 * is a date (no time, or midnight) converted to DATE for a DATE column, else undefined. (A DATE
 * compares with a string as a DATETIME: a string with a time is no DATE key value, and the
 * condition is checked on the rows instead.)
 */
export function keyBound(src: Source, c: number, expr: Bound): Bound | undefined {
  if (keyable(src, c, expr.t)) return expr;
  if (src.columns[c]?.t.kind !== 'date' || expr.t.kind !== 'str') return undefined;
  const v = constValue(expr);
  if (v === undefined || v === null) return undefined;
  const day = coerce(v, expr.t, T_DATE);
  if (day === null || coerce(day, T_DATE, DATETIME) !== coerce(v, expr.t, DATETIME)) return undefined;
  const ev = expr.ev;
  const from = expr.t;
  return { ...expr, t: T_DATE, ev: () => coerce(ev(), from, T_DATE) };
}

/** The value of a constant expression at plan time, or undefined (parameters, subqueries, errors). */
function constValue(b: Bound): unknown {
  if (b.refs.length > 0 || b.outer || b.sub === true) return undefined;
  try {
    return b.ev();
  } catch {
    return undefined;
  }
}

export function tableInfo(
  sources: readonly Source[],
  src: Source,
  where: readonly Bound[],
  settings: OptimizerSettings,
): TableInfo {
  const left = src.joinType === 'left';
  const conds = left ? src.on : where.filter((w) => w.refs.includes(src.idx));
  const dependsOn = left ? sources.filter((s) => s.idx < src.idx).map((s) => s.idx) : [];
  const recordLength = [...src.used].reduce((n, c) => n + columnBytes(src, c), 4);
  const table = src.table;
  if (table === undefined || src.derived !== undefined) {
    return {
      src,
      rows: DERIVED_ROWS,
      clusteredPages: Math.ceil(DERIVED_ROWS / 100),
      stats: undefined,
      indexes: [],
      forced: false,
      conds,
      hasConstCond: conds.some((c) => c.refs.length === 1),
      quick: undefined,
      ranges: [],
      foundRecords: DERIVED_ROWS,
      dependsOn,
      keyDependsOn: [],
      recordLength,
      possibleKeys: [],
    };
  }
  const stats = settings.statistics.statistics(table);
  const rows = Math.max(1, stats.rows);
  const clusteredPages = Math.max(1, stats.clusteredPages);
  const hints = src.hints;
  const only = [...hints.force, ...hints.use].map((h) => h.toLowerCase());
  const ignored = hints.ignore.map((h) => h.toLowerCase());
  const indexes = [table.primary, ...table.secondary].filter((ix) => {
    const n = ix.name.toLowerCase();
    return !ignored.includes(n) && (only.length === 0 || only.includes(n));
  });
  const isConst = (b: Bound): boolean => b.refs.length === 1 && b.refs[0] === src.idx;
  const ranges: RangePlan[] = [];
  const possibleKeys: string[] = [];
  const anyRef = (i: number): boolean => i !== src.idx;
  const keyDependsOn = new Set<number>();
  for (const ix of indexes) {
    const c = ix.columns[0]!;
    for (const m of conds) {
      const e = equalityOn(m, src.idx, anyRef);
      if (e !== undefined && e[0] === c) for (const r of e[1].refs) keyDependsOn.add(r);
    }
    // possible_keys: an equality or a range on the index's first column
    const usable = conds.some(
      (m) =>
        equalityOn(m, src.idx, anyRef)?.[0] === c ||
        rangeBounds(m, src.idx, c, anyRef).length > 0 ||
        (m.refs.length === 1 && equalityOn(m, src.idx, none)?.[0] === c),
    );
    if (usable || hasInList(src, c, conds)) possibleKeys.push(ix.name);
    const constConds = conds.filter(isConst);
    const convert = (col: number, b: Bound): Bound | undefined => keyBound(src, col, b);
    // an OR of ranges on the first column is a candidate of its own (the cheapest range wins)
    for (const m of constConds) {
      const or = orRanges(src, ix, m, convert);
      if (or === undefined) continue;
      if (!possibleKeys.includes(ix.name)) possibleKeys.push(ix.name);
      ranges.push(multiRangePlan(src, ix, or, rows, clusteredPages, stats, settings));
      break;
    }
    const multi = multiPartRanges(src, ix, constConds, convert);
    if (multi !== undefined) {
      ranges.push(multiRangePlan(src, ix, multi, rows, clusteredPages, stats, settings));
      continue;
    }
    let lo: RangeBound | undefined;
    let hi: RangeBound | undefined;
    for (const m of conds) {
      if (!isConst(m)) continue;
      for (const [side, b] of rangeBounds(m, src.idx, c, none)) {
        const expr = keyBound(src, c, b.expr);
        if (expr === undefined) continue;
        const kb = { expr, inclusive: b.inclusive };
        if (side === 'lo') lo ??= kb;
        else hi ??= kb;
      }
    }
    // an equality to a constant on the first column is the range [v, v] (the range optimizer's view)
    if (lo === undefined && hi === undefined) {
      for (const m of conds) {
        if (!isConst(m)) continue;
        const e = equalityOn(m, src.idx, none);
        if (e === undefined || e[0] !== c) continue;
        const expr = keyBound(src, c, e[1]);
        if (expr === undefined) continue;
        lo = { expr, inclusive: true };
        hi = lo;
        break;
      }
    }
    if (lo === undefined && hi === undefined) continue;
    const { n, dived } = rangeRows(src, ix, c, lo, hi, rows);
    // a covering secondary range reads only index blocks (5.6's HA_MRR_INDEX_ONLY cost)
    const io =
      !ix.primary && isCovering(src, ix)
        ? indexOnlyReadTime(table, ix, n)
        : readTime(ix.primary, 1, n, rows, clusteredPages);
    const cost = io + n * ROW_EVALUATE_COST + RANGE_TIE_BREAK;
    ranges.push({
      index: ix.name,
      primary: ix.primary,
      column: c,
      ...(lo ? { lo } : {}),
      ...(hi ? { hi } : {}),
      keyParts: 1,
      rows: n,
      cost,
      dived,
    });
  }
  // test_quick_select: a range is kept only if it beats a table scan costed as
  // scan_time + rows × ROW_EVALUATE_COST + 1 + 1.1 (any range does under FORCE INDEX), or a
  // full read of the shortest covering index, index_only_read_time(rows) + rows × 0.2, if cheaper
  const forced = hints.force.length > 0;
  const covering = shortestCoveringKey(src, indexes);
  const coveringScan =
    covering === undefined || covering.primary
      ? Number.POSITIVE_INFINITY
      : indexOnlyReadTime(table, covering, rows) + rows * ROW_EVALUATE_COST;
  const scanCostForRange = forced
    ? Number.POSITIVE_INFINITY
    : Math.min(clusteredPages + rows * ROW_EVALUATE_COST + 1 + 1.1, coveringScan);
  let quick: RangePlan | undefined;
  for (const r of ranges)
    if (r.cost < scanCostForRange && (quick === undefined || r.cost < quick.cost)) quick = r;
  return {
    src,
    rows,
    clusteredPages,
    stats,
    indexes,
    forced,
    conds,
    hasConstCond: conds.some(isConst),
    quick,
    ranges,
    foundRecords: quick === undefined ? rows : Math.max(1, quick.rows),
    dependsOn,
    keyDependsOn: [...keyDependsOn],
    recordLength,
    possibleKeys,
  };
}

/**
 * `records_in_range` for a constant range on an index's first column: the entries between the
 * bounds counted in the tree (up to {@link DIVE_CAP}, then interpolated); a third of the table
 * when a bound is not known at plan time (a parameter).
 */
function rangeRows(
  src: Source,
  ix: TableIndex,
  c: number,
  lo: RangeBound | undefined,
  hi: RangeBound | undefined,
  rows: number,
): { n: number; dived: boolean } {
  const table = src.table!;
  const bound = (b: RangeBound | undefined): { v: unknown; ok: boolean } => {
    if (b === undefined) return { v: undefined, ok: true };
    const v = constValue(b.expr);
    if (v === undefined) return { v, ok: false };
    if (v === null) return { v: null, ok: true };
    return { v: keyValue(src, c, b.expr, v), ok: true };
  };
  const l = bound(lo);
  const h = bound(hi);
  if (!l.ok || !h.ok) return { n: Math.max(1, Math.floor(rows / 3)), dived: false };
  // a NULL bound matches nothing; an unrepresentable one (a fraction on an integer) is not narrowed
  if (l.v === null || h.v === null) return { n: 1, dived: true };
  // one value of a one-column unique index: at most one row, no dive (MariaDB's UNIQUE_RANGE)
  if (lo === hi && ix.unique && ix.columns.length === 1) return { n: 1, dived: true };
  const n = table.recordsInRange(
    ix.name,
    l.v as never,
    lo?.inclusive ?? true,
    h.v as never,
    hi?.inclusive ?? true,
    DIVE_CAP,
  );
  return { n: Math.max(1, n), dived: true };
}

/** The range plan of a multi-part, IN-list or OR range: its rows by dives, its cost as 5.6's. */
function multiRangePlan(
  src: Source,
  ix: TableIndex,
  multi: KeyRanges,
  rows: number,
  clusteredPages: number,
  stats: TableStatistics,
  settings: OptimizerSettings,
): RangePlan {
  const table = src.table!;
  const { n, dived } = multiRangeRows(src, ix, multi, { rows, stats }, settings);
  const io =
    !ix.primary && isCovering(src, ix)
      ? indexOnlyReadTime(table, ix, n)
      : readTime(ix.primary, multi.intervals.length, n, rows, clusteredPages);
  return {
    index: ix.name,
    primary: ix.primary,
    column: ix.entryColumns[0]!,
    intervals: multi.intervals,
    keyParts: multi.keyParts,
    rows: n,
    cost: io + n * ROW_EVALUATE_COST + RANGE_TIE_BREAK,
    dived,
  };
}

/**
 * `records_in_range` summed over a multi-part range's intervals: each counted in the tree (up to
 * {@link DIVE_CAP}, then at least the statistics' rows per value of its fixed parts), except that
 * `eq_range_index_dive_limit` or more equality intervals take rec_per_key each instead of dives
 * (5.6's `eq_ranges_exceeds_limit`), and a value not known at plan time makes it a third of the table.
 */
function multiRangeRows(
  src: Source,
  ix: TableIndex,
  multi: KeyRanges,
  t: { rows: number; stats: TableStatistics },
  settings: OptimizerSettings,
): { n: number; dived: boolean } {
  const st = t.stats.indexes.get(ix.name);
  const limit = settings.eq_range_index_dive_limit;
  if (
    multi.points &&
    limit > 0 &&
    multi.intervals.length >= limit &&
    st !== undefined &&
    st.nDiff.length >= multi.eqParts
  )
    return { n: Math.max(1, multi.intervals.length * recPerKey(t.stats, st, multi.eqParts)), dived: false };
  const keyRanges: KeyRange[] = [];
  for (const iv of multi.intervals) {
    const bounds = [...iv.eq, ...(iv.lo ? [iv.lo.expr] : []), ...(iv.hi ? [iv.hi.expr] : [])];
    if (bounds.some((b) => constValue(b) === undefined))
      return { n: Math.max(1, Math.floor(t.rows / 3)), dived: false };
    const r = keyRangeOf(src, ix, iv, constValue);
    if (r !== null) keyRanges.push(r);
  }
  // overlapping intervals (an OR's) are counted once, as they will be read
  let n = 0;
  const parts = Math.max(1, multi.eqParts);
  const perValue =
    st !== undefined && st.nDiff.length >= parts ? t.rows / Math.max(1, st.nDiff[parts - 1]!) : DIVE_CAP;
  for (const r of orderedRanges(keyRanges)) {
    const k = src.table!.countRange(ix.name, r, DIVE_CAP);
    n += k >= DIVE_CAP ? Math.max(k, Math.floor(perValue)) : k;
  }
  return { n: Math.max(1, n), dived: true };
}

/**
 * Rows a `ref` on the first `parts` columns of `ix` returns per lookup: 1 on a unique full key;
 * with constants only and within eq_range_index_dive_limit, the entries counted in the index;
 * else rec_per_key from the statistics.
 */
export function refRows(
  info: TableInfo,
  ix: TableIndex,
  parts: number,
  constValues: readonly unknown[] | undefined,
  settings: OptimizerSettings,
): number {
  if (ix.unique && parts >= ix.columns.length) return 1;
  const st = info.stats?.indexes.get(ix.name);
  const known = info.stats !== undefined && st !== undefined && st.nDiff.length >= parts;
  if (constValues !== undefined && settings.eq_range_index_dive_limit !== 1 && info.src.table !== undefined) {
    const n = info.src.table.countPrefix(ix.name, constValues as never, DIVE_CAP);
    // past the cap: at least the statistics' average rows per value
    if (n >= DIVE_CAP && known) return Math.max(n, Math.floor(info.rows / Math.max(1, st.nDiff[parts - 1]!)));
    return Math.max(1, n);
  }
  if (!known) return Math.max(1, info.rows / 10);
  return recPerKey(info.stats!, st!, parts);
}

/** The constant key values of a ref, converted for the index, or undefined if any is not constant. */
export function constKey(
  src: Source,
  keys: readonly { column: number; expr: Bound }[],
): unknown[] | undefined {
  const out: unknown[] = [];
  for (const k of keys) {
    const v = constValue(k.expr);
    if (v === undefined || v === null) return undefined;
    const kv = keyValue(src, k.column, k.expr, v);
    if (kv === undefined) return undefined;
    out.push(kv);
  }
  return out;
}

/** Bytes a column takes in a join buffer record (numbers 8, text its declared length / 2). */
function columnBytes(src: Source, c: number): number {
  const t = src.columns[c]?.t;
  if (t === undefined) return 8;
  if (t.kind === 'str') return 2 + Math.ceil((t.len ?? 32) / 2);
  return 8;
}
