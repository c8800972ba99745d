import { ExternalSorter, type SortedRecord } from './sorter.js';
import type { SorterOptions } from './options.js';
import type { KeyValue, RecordSource, SortStats } from './types.js';

/**
 * A bottom-up bulk loader: takes records in key order, then `finish()`. btree-sampler's bulk
 * loader has this shape; so does anything that appends sorted entries. The key and value
 * passed to `add` are views valid during the call only: the sink copies what it keeps.
 */
export interface BulkLoadSink<R = unknown> {
  add(key: Uint8Array, value: Uint8Array): void;
  finish(): R;
}

/** A structure that takes records one at a time in any order (the insert-each baseline). */
export interface InsertTarget {
  insert(key: Uint8Array, value: Uint8Array): unknown;
}

/** What `buildIndex` returns. */
export interface BuildIndexResult<R> {
  /** What `sink.finish()` returned (for btree-sampler: the tree). */
  result: R;
  /** Records handed to the sink. */
  rows: number;
  stats: SortStats;
}

/**
 * Fast index creation (InnoDB's `row_merge_build_indexes`): scan `source` once, sort the
 * entries with an `ExternalSorter`, and stream them in key order into the bulk loader `sink`,
 * then call `sink.finish()`. Temp files are gone when this returns or throws.
 *
 * @example
 * ```ts
 * const { result: tree, stats } = buildIndex(rows, tree.bulkLoader({ innodb_fill_factor: 100 }), { mergeMode: 'kway' });
 * ```
 */
export function buildIndex<R>(
  source: RecordSource,
  sink: BulkLoadSink<R>,
  options: SorterOptions = {},
): BuildIndexResult<R> {
  if (
    sink === null ||
    typeof sink !== 'object' ||
    typeof sink.add !== 'function' ||
    typeof sink.finish !== 'function'
  ) {
    throw new TypeError(`sink must have add(key, value) and finish() methods, got ${String(sink)}`);
  }
  const sorter = new ExternalSorter(options);
  sorter.addAll(source);
  const rows = sorter.drain((key, value) => sink.add(key, value));
  const result = sink.finish();
  return { result, rows, stats: sorter.stats };
}

/**
 * The baseline: `target.insert(key, value)` for every record in source order (what InnoDB did
 * before fast index creation, and what a copy-ALTER without it does). Returns the record count.
 * Keys and values from an iterable source are passed as given; from a scan function, as the
 * scan emits them.
 */
export function insertEach(source: RecordSource, target: InsertTarget): number {
  if (target === null || typeof target !== 'object' || typeof target.insert !== 'function') {
    throw new TypeError(`target must have an insert(key, value) method, got ${String(target)}`);
  }
  let n = 0;
  if (typeof source === 'function') {
    source((key, value) => {
      target.insert(key, value);
      n++;
    });
    return n;
  }
  for (const pair of source as Iterable<KeyValue>) {
    target.insert(pair[0], pair[1]);
    n++;
  }
  return n;
}

/**
 * Sort `source` and yield its records in key order (stable), as `ExternalSorter#entries()`
 * (fresh records with copied bytes).
 */
export function sortRecords(
  source: RecordSource,
  options: SorterOptions = {},
): Generator<SortedRecord, void, undefined> {
  const sorter = new ExternalSorter(options);
  sorter.addAll(source);
  return sorter.entries();
}
