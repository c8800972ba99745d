import type { Bound } from './bound.js';
import type { Source } from './scope.js';
import type { SqlType } from './types.js';

/**
 * What a planner hands the executor for one FROM source, in join order: its access method, the
 * conditions checked there, its join buffer, how it reads its index and (for EXPLAIN and ANALYZE)
 * the estimates that chose it and what it really did. The planners in plan/ build these; the
 * executor runs them.
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
  /**
   * The stage reads its rows in the query's ORDER BY order (the clustered index, or an index read
   * in key order whose leading columns are the ORDER BY columns): no filesort follows.
   */
  readonly ordered?: boolean;
  /** An `ordered` stage whose order is descending: its index read walks each range backward. */
  readonly backward?: boolean;
  /**
   * The query's aggregates are MIN and MAX only, each answered by one read at an end of an index
   * (MariaDB's `opt_sum_query`: "Select tables optimized away"), one read per aggregate.
   */
  readonly minMax?: readonly MinMaxRead[];
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

/**
 * One interval of a multi-part range (a path through 5.6's SEL_ARG tree): constant equalities on
 * the index's leading columns, then optionally bounds on the next column.
 */
export interface KeyInterval {
  readonly eq: readonly Bound[];
  readonly lo?: RangeBound;
  readonly hi?: RangeBound;
}

/**
 * How a stage reads its index beyond the access method: an index condition pushed to the entries
 * (MySQL's ICP, "Using index condition"), or no row at all (a covering read, "Using index").
 */
export interface IndexReadPlan {
  readonly index: string;
  /** Every column the query reads from the table is in the index entry: the row is never fetched. */
  readonly covering: boolean;
  /** Conjuncts checked on each entry before its row is fetched (none when covering). */
  readonly pushed: readonly Bound[];
  /** The pushed conjuncts read tables joined before (BKA checks them per buffered record: "(BKA)"). */
  readonly otherTables: boolean;
  /** The source's columns decoded from each entry: what `pushed` reads, or all used ones when covering. */
  readonly entryColumns: ReadonlySet<number>;
}

/**
 * One MIN or MAX answered from an index's end: `column` is the index entry's field right after
 * the `prefix` fields, which WHERE fixes by equalities to constants (`prefix[i]` the value of the
 * entry's i-th field); `lo` / `hi` are WHERE's bounds on `column`; `conds` are the conjuncts that
 * bound `column`, checked on each entry the read meets. MIN reads forward from the range's start
 * past the NULLs, MAX backward from its end; the first entry the read sees and `conds` accept is
 * the answer.
 */
export interface MinMaxRead {
  readonly fn: 'min' | 'max';
  readonly column: number;
  readonly index: string;
  readonly prefix: readonly Bound[];
  readonly lo?: RangeBound;
  readonly hi?: RangeBound;
  readonly conds: readonly Bound[];
}
