/**
 * The two small interfaces MRR is generic over, the input ranges, and the options.
 *
 * The interfaces are shaped after MariaDB's handler calls (`ha_index_read_map`,
 * `ha_index_next_same`, `ha_rnd_pos`) so that one cursor object can stand for an index of
 * the engine and, in tests, for a sorted array. Nothing here allocates per entry: a reader
 * exposes the current entry's row id through `rowId()` / `copyRowId()` instead of returning
 * objects.
 */

import type { MrrCounters } from './counters.js';

/** A row id (MySQL's `ref`, InnoDB's primary key image): a number, or `rowIdLength` bytes. */
export type RowId = number | Uint8Array;

/**
 * An equality lookup (`EQ_RANGE`, what BKA sends: `HA_MRR_SINGLE_POINT`).
 * `association` is the caller's range id (MariaDB's `range_id`, BKA's join-buffer record
 * position); it defaults to the range's 0-based position in the input sequence.
 */
export interface MrrKeyRange<K> {
  readonly key: K;
  readonly association?: number;
}

/**
 * An interval lookup. A missing bound is open (−∞ / +∞); bounds are inclusive unless
 * `lowInclusive` / `highInclusive` is `false`. The index reader interprets the bounds.
 */
export interface MrrIntervalRange<K> {
  readonly low?: K;
  readonly high?: K;
  readonly lowInclusive?: boolean;
  readonly highInclusive?: boolean;
  readonly association?: number;
}

/** One input range: an equality key or an interval, each with an optional association. */
export type MrrRange<K> = MrrKeyRange<K> | MrrIntervalRange<K>;

/** Members every index reader has, whatever its row id representation. */
export interface IndexReaderBase<K> {
  /**
   * Position on the first index entry inside `range` (`ha_index_read_map`, counted as
   * `Handler_read_key` whether or not an entry is found). Returns `false` if the range is empty.
   */
  seek(range: MrrRange<K>): boolean;
  /**
   * Move to the next entry of the range given to the last `seek` (`ha_index_next_same` /
   * `read_range_next`, counted as `Handler_read_next`, including the last call that fails).
   * REQUIRES: the last `seek` or `next` returned `true`.
   */
  next(): boolean;
  /**
   * Total order on keys, needed only for the key-ordered stage (`mrr_sort_keys`).
   * Return < 0, 0, > 0 as `a` sorts before, with, after `b`.
   */
  compareKeys?(a: K, b: K): number;
  /**
   * Estimated index entries per distinct key (`rec_per_key`), used to split the buffer
   * between keys and row ids (`setup_buffer_sharing`). Default 1.
   */
  readonly recordsPerKey?: number;
  /**
   * Bytes one key occupies in the key buffer. Default 8: keys are kept by reference, as
   * MariaDB's `HA_MRR_MATERIALIZED_KEYS` keeps a pointer to the key in the join buffer.
   */
  readonly keyLength?: number;
  /**
   * `true` if an equality key matches at most one entry (a fully used unique index): after a
   * successful `seek` of a key range no `next` call is made, as MariaDB skips `index_next_same`.
   */
  readonly unique?: boolean;
  /**
   * Bytes of one full key of this index (MariaDB's `KEY::key_length`), used only with both
   * stages: the key-ordered reader keeps a copy of the index tuple it was interrupted on, and
   * MariaDB takes that space off the front of the buffer (`set_interruption_temp_buffer`).
   * Default 0.
   */
  readonly indexKeyLength?: number;
  /**
   * Bytes of the clustered primary key (`KEY::key_length` of the PK) when the table has one, as
   * InnoDB tables do; reserved beside the index tuple for the same reason. Default 0.
   */
  readonly primaryKeyLength?: number;
}

/** An index whose entries carry numeric row ids (compared numerically). */
export interface NumberRowIdIndexReader<K> extends IndexReaderBase<K> {
  readonly rowIdKind: 'number';
  /** Row id of the current entry. REQUIRES: positioned on an entry. */
  rowId(): number;
}

/** An index whose entries carry row ids of exactly `rowIdLength` bytes (compared as memcmp). */
export interface BytesRowIdIndexReader<K> extends IndexReaderBase<K> {
  readonly rowIdKind: 'bytes';
  /** Bytes of the row id image the reader copies out (memcmp order = row order). */
  readonly rowIdLength: number;
  /**
   * `ref_length`: bytes one row id is charged in the buffer, when the stored image is wider than
   * the server's row reference (an engine whose key images carry tags or padding). Default
   * `rowIdLength`. Capacities and the interruption space are reckoned with it.
   */
  readonly refLength?: number;
  /** Copy the current entry's row id to `target[offset, offset + rowIdLength)`. REQUIRES: positioned. */
  copyRowId(target: Uint8Array, offset: number): void;
}

/** A secondary-index cursor: equality or range lookups yielding entries that carry a row id. */
export type IndexReader<K> = NumberRowIdIndexReader<K> | BytesRowIdIndexReader<K>;

/**
 * Row id → row (`ha_rnd_pos`), callable in any order. For byte row ids the argument is a
 * scratch view that is overwritten after the call returns: copy it if you keep it.
 */
export interface RowFetcher<R> {
  rndPos(rowId: RowId): R;
}

/** A row fetcher that may answer with a promise; usable only through async iteration. */
export interface AsyncRowFetcher<R> {
  rndPos(rowId: RowId): R | PromiseLike<R>;
}

/** One output: a row and the association of the range that wanted it. */
export interface MrrMatch<R> {
  readonly row: R;
  readonly association: number;
}

/** Options of {@link createMultiRangeRead}. Names follow MariaDB's system variables. */
export interface MrrOptions {
  /**
   * `optimizer_switch` `mrr`: `false` selects the default strategy (one lookup per range, one
   * row fetch per index entry, in input order). Default `true`.
   */
  readonly mrr?: boolean;
  /**
   * `mrr_buffer_size` (MariaDB): bytes shared by both stages, in [8192, 2^31 − 1] as the server
   * variable. Default 262144 (256 KiB).
   */
  readonly mrr_buffer_size?: number;
  /** `read_rnd_buffer_size` (MySQL 5.6): the same budget under MySQL's name, in [1, 2^31 − 1]. */
  readonly read_rnd_buffer_size?: number;
  /**
   * The buffer the caller hands in, in bytes (the server's `HANDLER_BUFFER`), for callers that
   * carve it from memory of their own, as BKA does from the join buffer's tail: no minimum.
   * Give at most one of `mrr_buffer_size`, `read_rnd_buffer_size` and `bufferSize`.
   */
  readonly bufferSize?: number;
  /**
   * What to do when the buffer cannot hold one entry of a stage that must run:
   * `'default'` (the default) runs the default implementation, as MariaDB's `dsmrr_init` does
   * (`goto use_default_impl`), and sets {@link MultiRangeRead.fallback}; `'error'` throws
   * `BufferTooSmallError` instead.
   */
  readonly onBufferTooSmall?: 'default' | 'error';
  /**
   * `optimizer_switch` `mrr_sort_keys`: sort equality keys and probe the index once per
   * distinct key (Key-ordered scan). Applies only when every range is an equality key.
   * Default `false` (MariaDB's default).
   */
  readonly mrr_sort_keys?: boolean;
  /**
   * Sort row ids before fetching (Rowid-ordered scan). `false` models a clustered-PK or
   * index-only scan, where MariaDB has no rowid stage. Default `true`.
   */
  readonly sortRowIds?: boolean;
  /**
   * Keep an 8-byte association per entry. `false` is `HA_MRR_NO_ASSOCIATION` (range scans):
   * entries are smaller and every output reports association 0. Default `true`.
   */
  readonly associations?: boolean;
  /**
   * Declare that every range is an equality key (`HA_MRR_SINGLE_POINT`). Needed for the
   * key-ordered stage when `ranges` is not an array (arrays are inspected). An interval met
   * under this flag is a TypeError.
   */
  readonly singlePoint?: boolean;
  /** Counters to add into (e.g. shared by every scan of a join); a fresh set by default. */
  readonly counters?: MrrCounters;
}
