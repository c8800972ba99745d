import type { NumNode } from './scaled.js';
import type { SqlType } from './types.js';
import { Frame } from './scope.js';
import type { Ev, RunState, Source } from './scope.js';

/** A bound expression: its type, its compiled closure, and what the planner needs to know. */
export interface Bound {
  readonly t: SqlType;
  readonly ev: Ev;
  /**
   * INT, DECIMAL and DATE only, optional: how to compute the same value on the scaled-integer
   * fast path (exec/scaled.ts), which steps aside to `ev` for NULL or beyond a safe integer.
   */
  readonly num?: NumNode;
  /** Optional: the value's truth (MySQL's, NULL unknown) computed directly, for WHERE and ON. */
  readonly truth?: () => boolean | null;
  /** Sources of the current block it reads (by Source.idx). */
  readonly refs: readonly number[];
  /** Reads a column of an enclosing block (correlated). */
  readonly outer: boolean;
  /** Contains an aggregate of the current block. */
  readonly agg: boolean;
  /** The text it was written as (for column names and messages). */
  readonly text: string;
  /** A plain column: its source and column position. */
  readonly col?: { readonly src: Source; readonly c: number };
  /** A comparison `l op r` (op one of = < <= > >= <=>). */
  readonly cmp?: { readonly op: string; readonly l: Bound; readonly r: Bound };
  /** `e BETWEEN lo AND hi` (not negated). */
  readonly between?: { readonly e: Bound; readonly lo: Bound; readonly hi: Bound };
  /** `l OR r` / `l AND r` below the top level (the range optimizer reads them). */
  readonly or?: readonly [Bound, Bound];
  readonly and?: readonly [Bound, Bound];
  /** `e IN (list)` (not negated). */
  readonly inList?: { readonly e: Bound; readonly list: readonly Bound[] };
  /** A literal's value; `written` when the query wrote it as one (not a folded constant expression). */
  readonly lit?: { readonly v: unknown; readonly written?: boolean };
  /** Contains a subquery (not pushed into index lookups). */
  readonly sub?: boolean;
}

export interface AggSpec {
  readonly fn: string;
  readonly arg: Bound | null;
  readonly distinct: boolean;
  readonly slot: number;
  readonly t: SqlType;
  /** Extra argument of GROUP_CONCAT: separator. */
  readonly sep?: string;
  /** GROUP_CONCAT's ORDER BY. */
  readonly order?: readonly { readonly b: Bound; readonly desc: boolean }[];
  /**
   * GROUP_CONCAT's `group_concat_max_len` (bytes) and the warning a cut result raises, with the
   * number of the row read when the group's text first passed it.
   */
  readonly cut?: { readonly maxLen: number; readonly warn: (row: number) => void };
}

/** One SELECT's binding state. */
export class Block {
  readonly frame: Frame = new Frame();
  readonly sources: Source[] = [];
  nslots = 0;
  readonly aggs: AggSpec[] = [];
  readonly parent: Block | undefined;
  readonly run: RunState;
  /** Sources of each enclosing block that this block (or a block inside it) reads. */
  readonly outerRefs: Map<Block, Set<number>> = new Map();
  /**
   * The columns of enclosing blocks this block (or a block inside it) reads, once each, with their
   * evaluators: the parameters of a subquery cache.
   */
  readonly outerColumns: Array<{ readonly src: Source; readonly c: number; readonly ev: Ev }> = [];
  /** It also reads something of theirs that is not a column: its result cannot be keyed by them. */
  outerOpaque = false;
  /**
   * It (or a block inside it) reads or sets a user variable or calls LAST_INSERT_ID(): MariaDB
   * never caches such a subquery's result, and neither does the engine.
   */
  uncacheable = false;
  /** Window function calls of this block (exec/window.ts computes them into their slots). */
  readonly windows: import('./window.js').WindowCall[] = [];
  /** The WINDOW clause: name → window specification node. */
  readonly namedWindows: Map<string, unknown> = new Map();
  /** CTEs visible here. */
  readonly ctes: Map<string, import('./scope.js').DerivedSource>;

  constructor(
    parent: Block | undefined,
    run: RunState,
    ctes?: Map<string, import('./scope.js').DerivedSource>,
  ) {
    this.parent = parent;
    this.run = run;
    this.ctes = ctes ?? new Map(parent?.ctes ?? []);
  }

  /** The order `SELECT *` lists the sources in, when it is not their order in FROM (a RIGHT JOIN's). */
  starOrder: number[] | undefined;

  swapForStar(a: number, b: number): void {
    const order = this.starOrder ?? this.sources.map((s) => s.idx);
    while (order.length < this.sources.length) order.push(order.length);
    const i = order.indexOf(a);
    const j = order.indexOf(b);
    order[i] = b;
    order[j] = a;
    this.starOrder = order;
  }

  slot(): number {
    return this.nslots++;
  }

  get correlated(): boolean {
    return this.outerRefs.size > 0;
  }
}

export type { Frame };
