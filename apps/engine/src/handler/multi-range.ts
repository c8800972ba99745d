import {
  createMrrCounters,
  createMultiRangeRead,
  HANDLER_READ_COUNTERS,
  type MrrCounters,
} from '@enginekit/mrr';
import { HANDLER_COUNTERS, type HandlerCounter } from '../storage/counters.js';
import type { RowBuffer } from '../storage/row.js';
import type { EntryTest, KeyRange, Table } from '../storage/table.js';
import { HandlerIndexReader, type HandlerRange, HandlerRowFetcher } from './index-reader.js';

/** Where the Handler_mrr_* counters of a scan go (the session's status). */
export interface MrrStatusSink {
  add(name: 'Handler_mrr_init' | 'Handler_mrr_key_refills' | 'Handler_mrr_rowid_refills', n: number): void;
}

const READ_SLOTS = HANDLER_READ_COUNTERS.map((name) => HANDLER_COUNTERS.indexOf(name as HandlerCounter));

/**
 * Add a scan's counters where the server shows them: Handler_read_* to the table's handler
 * counters, Handler_mrr_* to the session's status; then zero them for the next scan.
 */
export function flushMrrCounters(table: Table, counters: MrrCounters, status: MrrStatusSink): void {
  const counts = table.handlerStats.counts;
  for (let i = 0; i < HANDLER_READ_COUNTERS.length; i++) {
    const name = HANDLER_READ_COUNTERS[i]!;
    const n = counters[name];
    if (n !== 0) {
      counts[READ_SLOTS[i]!]! += n;
      counters[name] = 0;
    }
  }
  if (counters.Handler_mrr_init !== 0) status.add('Handler_mrr_init', counters.Handler_mrr_init);
  if (counters.Handler_mrr_key_refills !== 0)
    status.add('Handler_mrr_key_refills', counters.Handler_mrr_key_refills);
  if (counters.Handler_mrr_rowid_refills !== 0)
    status.add('Handler_mrr_rowid_refills', counters.Handler_mrr_rowid_refills);
  counters.Handler_mrr_init = 0;
  counters.Handler_mrr_key_refills = 0;
  counters.Handler_mrr_rowid_refills = 0;
}

/** An engine key range as an MRR interval (`HA_MRR_NO_ASSOCIATION`: a range scan's ranges). */
export function mrrInterval(r: KeyRange): HandlerRange {
  const hi = r.hi;
  if (
    hi !== null &&
    !r.loExclusive &&
    r.hiInclusive &&
    r.lo.length === hi.length &&
    r.lo.every((x, i) => x === hi[i])
  )
    return r.unique ? { key: r.lo, unique: true } : { key: r.lo };
  return {
    ...(r.lo.length > 0 ? { low: r.lo, lowInclusive: !r.loExclusive } : {}),
    ...(r.hi !== null ? { high: r.hi, highInclusive: r.hiInclusive } : {}),
  };
}

/**
 * DS-MRR's rowid-ordered range scan of a secondary index, as `QUICK_RANGE_SELECT` runs it under
 * `mrr=on`: `@enginekit/mrr` reads the ranges through a {@link HandlerIndexReader} (the pushed
 * index condition checked on each entry), gathers row ids in a buffer of `mrr_buffer_size`
 * bytes (each charged `ref_length`: the range scan keeps no association), sorts them and fetches
 * the rows in clustered order, refilling until the ranges are done. One scan object per stage;
 * {@link RowidOrderedScan.run} per execution.
 */
export class RowidOrderedScan {
  readonly #table: Table;
  readonly #reader: HandlerIndexReader;
  readonly #fetcher: HandlerRowFetcher;
  readonly #counters = createMrrCounters();

  constructor(table: Table, indexName: string) {
    this.#table = table;
    this.#reader = new HandlerIndexReader(table, table.index(indexName));
    this.#fetcher = new HandlerRowFetcher(table);
  }

  /**
   * Read `ranges` (in key order, not overlapping) with `check` pushed below the scan; `fn` gets
   * each row (false stops). Returns false when `fn` stopped it.
   */
  run(
    ranges: readonly KeyRange[],
    check: EntryTest | null,
    bufferBytes: number,
    status: MrrStatusSink,
    fn: (row: RowBuffer) => boolean,
  ): boolean {
    this.#reader.check = check;
    const scan = createMultiRangeRead(this.#reader, this.#fetcher, ranges.map(mrrInterval), {
      mrr_buffer_size: bufferBytes,
      associations: false,
      counters: this.#counters,
    });
    try {
      while (scan.next()) {
        const row = scan.row;
        if (row !== null && !fn(row)) return false;
      }
      return true;
    } finally {
      flushMrrCounters(this.#table, this.#counters, status);
    }
  }
}
