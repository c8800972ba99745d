import {
  H_READ_FIRST,
  H_READ_KEY,
  H_READ_LAST,
  H_READ_NEXT,
  H_READ_PREV,
  H_READ_RND_NEXT,
  H_ROWS_READ,
} from '../storage/counters.js';
import type { RowBuffer } from '../storage/row.js';
import type { EntryTest, KeyRange, Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';

const EMPTY = new Uint8Array(0);

/** A reader's answer for each row: false stops the read. */
export type RowSink<R> = (row: R) => boolean | undefined;

/**
 * One table's handler, as MariaDB's `handler` over `ha_innobase`: the reads a plan stage or a
 * statement makes of one table, each counted here and nowhere else, as `handler.cc`'s `ha_*`
 * wrappers count (Handler_read_* per handler call, Innodb_rows_read per row returned), over the
 * storage's half of a read (`Table.walkIndex`: the walk and its locks; `Table.rowReader`: what
 * the read's view sees and the row's bytes).
 *
 * - `rnd_init` / `rnd_next`: {@link rndScan};
 * - `index_read_map` then `index_next_same` per range, or `index_first` then `index_next`:
 *   {@link readRanges}, with a pushed index condition and covering (keyread) reads;
 * - a `ref` / `eq_ref` prefix given as values: {@link lookup}; one row by primary key: {@link get}.
 *
 * DS-MRR reads and `rnd_pos` go through {@link HandlerIndexReader} and {@link HandlerRowFetcher}
 * (`multi_range_read_*`, counted by `@enginekit/mrr`). A callback's row is a buffer the table
 * lends the read (`Table.acquireRow`) until it ends: its text fields view the page, valid during
 * the call; a read started inside another's callback gets a buffer of its own. A read given
 * `want` (a column mask, see `RowBuffer.wantOnly`) decodes only those columns of every row, from
 * the first: the caller's row decoder reads no others.
 */
export class TableHandler {
  readonly table: Table;
  readonly #counts: Float64Array;

  constructor(table: Table) {
    this.table = table;
    this.#counts = table.handlerStats.counts;
  }

  /**
   * A full table scan in primary-key order, as `rnd_init` then `rnd_next` until the end:
   * Handler_read_rnd_next per row and once more for the call that finds the end (an InnoDB scan
   * positions on its first record without a Handler_read_first). Rows the read does not see
   * (delete-marked, or newer than its view with no older version) take no call. Returns the rows
   * given to `fn`.
   */
  rndScan(fn: RowSink<RowBuffer>, want: Uint8Array | null = null): number {
    const table = this.table;
    const counts = this.#counts;
    const ix = table.primary;
    const row = table.acquireRow();
    row.wantOnly(want);
    try {
      const sees = table.rowReader(ix, row, true);
      const locks = table.rangeLocks(ix, false, false, null);
      let n = 0;
      const ended = table.walkIndex(ix, EMPTY, false, null, true, null, locks, (b, ko, kl, vo, vl) => {
        if (!sees(b, ko, kl, vo, vl)) return true;
        counts[H_READ_RND_NEXT]!++;
        counts[H_ROWS_READ]!++;
        n++;
        return fn(row) !== false;
      });
      if (ended) counts[H_READ_RND_NEXT]!++;
      return n;
    } finally {
      table.releaseRow(row);
    }
  }

  /**
   * Read index `indexName` range by range, in index order. Each entry in range is first shown to
   * `check` (InnoDB's `innobase_index_cond`: the pushed index condition, on the entry alone); an
   * entry it rejects costs no clustered lookup and is never returned. With `indexOnly` no row is
   * fetched (a covering read, MySQL's keyread): `fn` gets null and the caller reads what it needs
   * from the entry in `check`. Otherwise `fn` gets the row.
   *
   * `backward`: each range from its last entry down to its first, the ranges in the order given
   * (the caller lists them from the highest), as MariaDB's `QUICK_SELECT_DESC` and a descending
   * index scan read; for a read that takes no locks only (`Table.readsLock` false).
   *
   * Counted as MariaDB counts handler calls: per range Handler_read_key once (Handler_read_first
   * for `fullScan`, `index_first`; backward, Handler_read_last for a range with no upper end,
   * `index_last`), then Handler_read_next (backward Handler_read_prev) per further row returned
   * and once more for the call that finds the range's end; entries `check` rejects or the read
   * does not see take no call of their own (the engine passes over them inside one), and a unique
   * point range takes no further call. Innodb_rows_read counts the rows returned. Returns them.
   */
  readRanges(
    indexName: string,
    ranges: readonly KeyRange[],
    check: EntryTest | null,
    indexOnly: boolean,
    fn: RowSink<RowBuffer | null>,
    fullScan = false,
    backward = false,
    want: Uint8Array | null = null,
  ): number {
    const table = this.table;
    const counts = this.#counts;
    const ix = table.index(indexName);
    const row = table.acquireRow();
    row.wantOnly(want);
    const step = backward ? H_READ_PREV : H_READ_NEXT;
    try {
      const give = indexOnly ? null : row;
      const sees = table.rowReader(ix, give, true);
      let total = 0;
      for (const r of ranges) {
        const hi = r.hi;
        counts[backward ? (hi === null ? H_READ_LAST : H_READ_KEY) : fullScan ? H_READ_FIRST : H_READ_KEY]!++;
        const unique = r.unique;
        let returned = 0;
        let stopped = false;
        const visit = (b: Uint8Array, ko: number, kl: number, vo: number, vl: number): boolean => {
          if (!sees(b, ko, kl, vo, vl)) return true;
          if (returned > 0) counts[step]!++;
          returned++;
          counts[H_ROWS_READ]!++;
          if (fn(give) === false) {
            stopped = true;
            return false;
          }
          return !unique;
        };
        if (backward) table.walkIndexBackward(ix, r.lo, r.loExclusive, hi, r.hiInclusive, check, visit);
        else {
          // an equality range (one prefix) ends with a gap lock on the first entry that differs
          const equality = hi !== null && !r.loExclusive && r.hiInclusive && sameKey(hi, r.lo);
          const locks = table.rangeLocks(ix, equality, unique, r.loExclusive ? null : r.lo);
          table.walkIndex(ix, r.lo, r.loExclusive, hi, r.hiInclusive, check, locks, visit);
        }
        total += returned;
        if (stopped) break;
        // the call that finds the end of the range (none after a unique point's one row)
        if (returned > 0 && !unique) counts[step]!++;
      }
      return total;
    } finally {
      table.releaseRow(row);
    }
  }

  /**
   * The rows whose key in `indexName` starts with `prefix` (values of the index's leading
   * columns), in index order: a `ref` read, or `eq_ref` for a full key of a unique index (one row,
   * no next call). Counted as {@link readRanges} counts one range.
   */
  lookup(
    indexName: string,
    prefix: readonly FieldValue[],
    fn: RowSink<RowBuffer>,
    want: Uint8Array | null = null,
  ): number {
    const ix = this.table.index(indexName);
    const key = this.table.keyPrefix(indexName, prefix);
    const range: KeyRange = {
      lo: key,
      loExclusive: false,
      hi: key,
      hiInclusive: true,
      unique: ix.unique && prefix.length >= ix.columns.length,
    };
    return this.readRanges(
      indexName,
      [range],
      null,
      false,
      fn as RowSink<RowBuffer | null>,
      false,
      false,
      want,
    );
  }

  /** The row with this primary key as convenience values (an `eq_ref` on PRIMARY), or undefined. */
  get(pkValues: readonly FieldValue[]): FieldValue[] | undefined {
    const n = this.table.primary.columns.length;
    if (pkValues.length !== n)
      throw new RangeError(`primary key of ${this.table.name} has ${n} columns, got ${pkValues.length}`);
    let out: FieldValue[] | undefined;
    this.lookup(this.table.primary.name, pkValues, (row) => {
      out = row.toArray();
      return false;
    });
    return out;
  }
}

function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
