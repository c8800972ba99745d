import type { SqlType } from '../exec/types.js';
import type { Bound } from './bound.js';
import type { IndexReadPlan } from './optimizer/index-reads.js';
import type { KeyInterval } from './optimizer/key-ranges.js';
import type { Source } from './scope.js';

/**
 * What a planner hands the executor: one stage per FROM source in join order, each with its
 * access method, the conditions checked there, its join buffer and (for EXPLAIN) the estimates
 * that chose it. The cost-based optimizer in ./optimizer/ implements {@link Planner}; the helpers
 * here (which conjunct binds which column) are shared with it.
 */

export type Access =
  | { readonly kind: 'scan' }
  | { readonly kind: 'ref'; readonly index: string; readonly keys: readonly KeyPart[] }
  | {
      readonly kind: 'range';
      readonly index: string;
      readonly column: number;
      readonly lo?: RangeBound;
      readonly hi?: RangeBound;
      /** A range on several key parts or values (IN lists): these intervals instead of lo/hi. */
      readonly intervals?: readonly KeyInterval[];
    }
  | {
      readonly kind: 'hash';
      readonly build: readonly Bound[];
      readonly probe: readonly Bound[];
      readonly types: readonly SqlType[];
    };

export interface RangeBound {
  readonly expr: Bound;
  readonly inclusive: boolean;
}

export interface KeyPart {
  readonly column: number;
  readonly expr: Bound;
}

/** The join buffer a stage got (MariaDB's JOIN_CACHE), or `none`. */
export interface StageJoin {
  readonly algorithm: 'none' | 'BNL' | 'BNLH' | 'BKA' | 'BKAH';
  /** BNLH: run as join-algos' grace hash or sort-merge join instead (`enginekit_hash_join_algorithm`). */
  readonly hashAlgorithm?: 'grace_hash' | 'sort_merge';
  readonly incremental: boolean;
  /** Bytes of its buffer (0 for `none`). */
  readonly bufferBytes: number;
  /** BKA/BKAH: lookup keys sorted before the index is read (MariaDB's key-ordered scan). */
  readonly keyOrdered: boolean;
  /** BKA/BKAH: full rows fetched in primary-key order (rowid-ordered scan). */
  readonly rowidOrdered: boolean;
  /** BKA/BKAH: `ref.key_length` of the lookup key, bytes (its MRR share counts it once). */
  readonly keyLength?: number;
  /** BKA/BKAH: `rec_per_key` of the looked-up prefix (each record's MRR share, MRR's buffer split). */
  readonly recordsPerKey?: number;
}

/** A stage's line of traditional EXPLAIN, with the cost the search gave it. */
export interface StageExplain {
  readonly type: 'ALL' | 'range' | 'ref' | 'eq_ref' | 'const' | 'index' | 'hash_ALL' | 'hash_index';
  readonly possibleKeys: readonly string[];
  readonly key?: string;
  readonly keyLen?: string;
  readonly ref?: string;
  /** Rows the optimizer expects one read of this stage to produce (`records_read`). */
  readonly rows: number;
  readonly filtered: number;
  readonly extra: readonly string[];
  /** Cost of this stage in the chosen order (reads plus rows evaluated, for all outer rows). */
  readonly cost: number;
  /** Rows of the partial join up to and including this stage. */
  readonly prefixRows: number;
}

export interface PlannedStage {
  readonly src: Source;
  readonly access: Access;
  /** Conditions a row must meet to match (inner join: all conjuncts placed here; LEFT JOIN: its ON). */
  readonly match: readonly Bound[];
  /** LEFT JOIN only: WHERE conjuncts placed here, checked after a row is matched or NULL-extended. */
  readonly post: readonly Bound[];
  /** The join buffer (default: BNL/BNLH for `scan`/`hash` after the first stage, none for the rest). */
  readonly join?: StageJoin;
  /** A secondary-index `range` read as DS-MRR's rowid-ordered scan with this buffer, bytes. */
  readonly mrrBufferBytes?: number;
  /** An index condition pushed to the entries, or a covering (index-only) read; `scan` + covering: a full index scan. */
  readonly indexRead?: IndexReadPlan;
  readonly explain?: StageExplain;
  /** Filled while the query runs, for ANALYZE (r_loops, r_rows, r_filtered, time). */
  readonly actual?: StageActual;
}

/** What one stage really did in one run (MariaDB's ANALYZE): counted only when present. */
export interface StageActual {
  /** Times the stage's access started (one per partial row reaching it; once for a join buffer fill). */
  loops: number;
  /** Rows the access produced. */
  rows: number;
  /** Rows that passed the stage's conditions. */
  passed: number;
  /** Milliseconds spent in this stage's own reads and checks (not in the stages after it). */
  ms: number;
}

/** What the query block around a join tells the planner (for EXPLAIN and the trace). */
export interface PlanContext {
  /** A subquery (has an enclosing block) rather than the statement's own or a derived table. */
  readonly nested: boolean;
  readonly correlated: boolean;
  /** GROUP BY or DISTINCT: a temporary table. */
  readonly temporary: boolean;
  /** ORDER BY or GROUP BY: a filesort. */
  readonly filesort: boolean;
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
