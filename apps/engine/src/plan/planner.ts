import type { SqlType } from '../exec/types.js';
import type { Bound } from '../exec/bound.js';
import type { PlannedStage, RangeBound } from '../exec/planned-stage.js';
import type { Frame, Source } from '../exec/scope.js';

/**
 * The planner's interface: a planner turns the FROM sources and the WHERE conjuncts into the
 * stages the executor runs (exec/planned-stage.ts). The cost-based optimizer in ./optimizer/
 * implements {@link Planner}; the helpers here (which conjunct binds which column) are shared
 * with it.
 */

/** What the query block around a join tells the planner (for EXPLAIN and the trace). */
export interface PlanContext {
  /** A subquery (has an enclosing block) rather than the statement's own or a derived table. */
  readonly nested: boolean;
  readonly correlated: boolean;
  /** GROUP BY or DISTINCT: a temporary table. */
  readonly temporary: boolean;
  /** ORDER BY or GROUP BY: a filesort. */
  readonly filesort: boolean;
  /** A block without tables whose WHERE is a literal false (EXPLAIN's `Impossible WHERE`). */
  readonly impossibleWhere?: boolean;
  /**
   * ORDER BY, or GROUP BY, as ascending columns of one table, `orderSource` (select.ts decides
   * when): when the join reads that table first, in that order, and no later table goes through
   * a join buffer (which would send rows out by buffer, not by the first table's order), the first
   * stage is marked `ordered` and the filesort (for GROUP BY the temporary table too) is left out.
   */
  readonly order?: readonly number[];
  /** The FROM source (Source.idx) `order`'s columns are of. */
  readonly orderSource?: number;
  /** `order` is descending (every key DESC): a stage reads it backward. */
  readonly orderDesc?: boolean;
  /**
   * ORDER BY with a literal LIMIT (offset + count), no grouping: the rows a full index scan in
   * that order reads, which EXPLAIN shows as MariaDB does.
   */
  readonly limitRows?: number;
  /**
   * Every aggregate is MIN or MAX of a column of the one table, with no GROUP BY (select.ts
   * decides when): the planner may answer each from an index's end.
   */
  readonly minMax?: {
    readonly items: readonly { readonly fn: 'min' | 'max'; readonly column: number }[];
    /** The block's frame, which WHERE's bounds read (EXPLAIN reads the ends into it). */
    readonly frame: Frame;
  };
}

export interface Planner {
  /** `straight`: STRAIGHT_JOIN, keep the FROM order. */
  plan(
    sources: readonly Source[],
    where: readonly Bound[],
    straight?: boolean,
    context?: PlanContext,
  ): PlannedStage[];
}

/** Whether a probe of type `t` can be looked up exactly in a column of the stored kind. */
export function keyable(src: Source, c: number, t: SqlType): boolean {
  const col = src.columns[c]!.t.kind;
  switch (col) {
    case 'int':
    case 'dec':
      return t.kind === 'int' || t.kind === 'dec';
    case 'dbl':
      return t.kind === 'int' || t.kind === 'dec' || t.kind === 'dbl';
    case 'date':
    case 'time':
      return t.kind === col;
    case 'datetime':
      // a TIMESTAMP is stored in UTC: not looked up by session-time values
      return t.kind === col && src.columns[c]!.t.timestamp !== true;
    case 'str':
      return t.kind === 'str';
    default:
      return false;
  }
}

/**
 * An equality `col(source k) = expr` whose other side reads only tables joined before
 * (`before(i)`): [column, expr], else undefined.
 */
export function equalityOn(b: Bound, k: number, before: (i: number) => boolean): [number, Bound] | undefined {
  const cmp = b.cmp;
  if (cmp === undefined || cmp.op !== '=' || b.sub === true) return undefined;
  for (const [x, y] of [
    [cmp.l, cmp.r],
    [cmp.r, cmp.l],
  ] as const) {
    if (x.col !== undefined && x.col.src.idx === k && !x.outer && y.refs.every(before) && y.sub !== true)
      return [x.col.c, y];
  }
  return undefined;
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The bounds a conjunct puts on column c of source k, from values known before it. */
export function rangeBounds(
  b: Bound,
  k: number,
  c: number,
  before: (i: number) => boolean,
): Array<['lo' | 'hi', RangeBound]> {
  if (b.sub === true) return [];
  const isCol = (x: Bound): boolean =>
    x.col !== undefined && x.col.src.idx === k && x.col.c === c && !x.outer;
  const known = (x: Bound): boolean => x.refs.every(before) && x.sub !== true;
  if (b.between !== undefined) {
    const { e, lo, hi } = b.between;
    if (isCol(e) && known(lo) && known(hi))
      return [
        ['lo', { expr: lo, inclusive: true }],
        ['hi', { expr: hi, inclusive: true }],
      ];
    return [];
  }
  const cmp = b.cmp;
  if (cmp === undefined || FLIP[cmp.op] === undefined) return [];
  let op = cmp.op;
  let other: Bound;
  if (isCol(cmp.l) && known(cmp.r)) other = cmp.r;
  else if (isCol(cmp.r) && known(cmp.l)) {
    other = cmp.l;
    op = FLIP[op]!;
  } else return [];
  if (op === '>' || op === '>=') return [['lo', { expr: other, inclusive: op === '>=' }]];
  return [['hi', { expr: other, inclusive: op === '<=' }]];
}
