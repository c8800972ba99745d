import {
  type BulkLoader,
  compareKeys,
  DuplicateKeyError,
  fieldEnd,
  isNullTag,
} from '@enginekit/btree-sampler';
import { keyText } from './key-text.js';
import { ExternalSorter } from '@enginekit/merge-sort-index';
import { DuplicateEntryError } from './errors.js';
import type { RowBuffer } from './row.js';
import type { Table, TableIndex } from './table.js';
import type { ColumnType } from './types.js';

const EMPTY = new Uint8Array(0);

/** Options of the sort-based index build. */
export interface IndexBuildOptions {
  /** `innodb_sort_buffer_size` per index being built, bytes. Default 4194304 (4 MiB). */
  readonly innodb_sort_buffer_size?: number;
  /** Directory for the sorter's run files (MySQL's `tmpdir`). Default: the OS temp directory. */
  readonly tmpdir?: string;
}

/**
 * Fast index creation for several secondary indexes at once, as InnoDB's
 * `row_merge_build_indexes`: every row is offered once ({@link SecondaryBuilder.add}); each
 * index's (secondary key, primary key) entry goes into its own `ExternalSorter` (sort buffer of
 * `innodb_sort_buffer_size`, runs spilled to temp files, k-way merge); {@link finish} streams
 * each sorted sequence into the index's empty tree through btree-sampler's bottom-up
 * `BulkLoader`. A unique index is checked for duplicate keys as the sorted entries pass by.
 */
export class SecondaryBuilder {
  readonly #table: Table;
  readonly #indexes: readonly TableIndex[];
  readonly #sorters: ExternalSorter[];
  #done = false;

  constructor(table: Table, indexes: readonly TableIndex[], options: IndexBuildOptions = {}) {
    this.#table = table;
    this.#indexes = indexes;
    const sortBufferSize = options.innodb_sort_buffer_size ?? 4 << 20;
    this.#sorters = indexes.map(
      () =>
        new ExternalSorter({
          innodb_sort_buffer_size: sortBufferSize,
          mergeMode: 'kway',
          ...(options.tmpdir === undefined ? {} : { tmpdir: options.tmpdir }),
        }),
    );
  }

  /** Offer one row (already stored in the clustered index). */
  add(row: RowBuffer): void {
    for (let i = 0; i < this.#indexes.length; i++)
      this.#sorters[i]!.add(this.#indexes[i]!.encoder.encode(row), EMPTY);
  }

  /** Sort and bulk-load every index; returns the entries loaded per index. */
  finish(onIndex?: (index: TableIndex, entries: number) => void): number[] {
    if (this.#done) throw new RangeError('SecondaryBuilder already finished');
    this.#done = true;
    const counts: number[] = [];
    try {
      for (let i = 0; i < this.#indexes.length; i++) {
        const ix = this.#indexes[i]!;
        const loader = ix.tree.bulkLoader();
        let n = 0;
        try {
          const check = ix.unique ? uniqueChecker(this.#table, ix) : null;
          this.#sorters[i]!.drain((k, v) => {
            check?.(k);
            loader.add(k, v);
            n++;
          });
          loader.finish();
        } catch (e) {
          try {
            loader.abort();
          } catch {
            // the build's own error says more; the loader released its pages either way
          }
          if (e instanceof DuplicateKeyError) throw new DuplicateEntryError(this.#table.name, ix.name, '?');
          throw e;
        }
        counts.push(n);
        onIndex?.(ix, n);
      }
    } finally {
      this.close();
    }
    return counts;
  }

  /** Remove every temp file (after a failure). */
  close(): void {
    for (const s of this.#sorters) s.close();
  }
}

/** Called with sorted entries; throws when two consecutive ones agree on the index's own columns. */
function uniqueChecker(table: Table, ix: TableIndex): (k: Uint8Array) => void {
  let prev = new Uint8Array(0);
  let have = false;
  const n = ix.columns.length;
  return (k) => {
    let end = 0;
    let nulls = false;
    for (let f = 0; f < n; f++) {
      if (isNullTag(k[end]!)) nulls = true;
      end = fieldEnd(k, end, k.length);
    }
    const prefix = k.subarray(0, end);
    if (have && !nulls && compareKeys(prefix, prev) === 0)
      throw new DuplicateEntryError(
        table.name,
        ix.name,
        keyText(typesOf(table, ix.columns), ix.codec.decode(prefix), true),
      );
    prev = prefix.slice();
    have = true;
  };
}

/** Fill an index of an existing table from its rows (CREATE INDEX / ALTER TABLE ADD INDEX). */
export function buildIndexFromTable(
  table: Table,
  indexes: readonly TableIndex[],
  options: IndexBuildOptions = {},
): number[] {
  const b = new SecondaryBuilder(table, indexes, options);
  try {
    // the clustered index read as row_merge_read_clustered_index reads it: the storage's own
    // walk, not a handler read (no Handler_* counted)
    const ix = table.primary;
    const row = table.newRow();
    const sees = table.rowReader(ix, row, true);
    const locks = table.rangeLocks(ix, false, false, null);
    table.walkIndex(ix, new Uint8Array(0), false, null, true, null, locks, (bytes, ko, kl, vo, vl) => {
      if (sees(bytes, ko, kl, vo, vl)) b.add(row);
      return true;
    });
  } catch (e) {
    b.close();
    throw e;
  }
  return b.finish();
}

/**
 * Loads rows into an empty table: rows that come in primary-key order go straight to the
 * clustered tree's bottom-up `BulkLoader` (InnoDB's sorted-input path); from the first row out of
 * order, the rest are sorted with an `ExternalSorter` and inserted in key order after the bulk
 * load. Secondary entries are collected by a {@link SecondaryBuilder} and built at the end.
 */
/** Rows held back to absorb local disorder before the clustered bulk loader (see {@link TableLoader}). */
export const REORDER_WINDOW = 64; // a power of two (the window is a ring)

/**
 * Loads rows into an empty table. Rows pass a small reorder window ({@link REORDER_WINDOW} rows,
 * kept sorted, copied into one preallocated slab) so input that is only locally out of order —
 * dbgen's partsupp lists each part's four suppliers unsorted — still reaches the clustered tree's
 * bottom-up `BulkLoader` in key order (InnoDB's sorted-input path). A row smaller than the last
 * one loaded goes to an `ExternalSorter` and is inserted in key order after the bulk load.
 * Secondary entries are collected by a {@link SecondaryBuilder} and built at the end.
 */
export class TableLoader {
  readonly table: Table;
  readonly #bulk: BulkLoader;
  readonly #secondary: SecondaryBuilder;
  /**
   * Secondary indexes whose entry is exactly the primary key (i_l_orderkey on lineitem
   * (l_orderkey, l_linenumber)): their entries are the clustered keys, in the same order, so they
   * are bulk-loaded alongside the clustered tree with no sort.
   */
  readonly #mirrors: { index: TableIndex; loader: BulkLoader }[];
  readonly #late: ExternalSorter;
  #last = new Uint8Array(64);
  #lastLen = -1;
  #bulkOpen = true;
  // The reorder window: slot s holds its key at slab[2s·max, +keyLen[s]) and its value at
  // slab[(2s+1)·max, +valLen[s]); views of each slot are cached by length (no allocation per row).
  readonly #max: number;
  readonly #slab: Uint8Array;
  readonly #keyLen = new Int32Array(REORDER_WINDOW);
  readonly #valLen = new Int32Array(REORDER_WINDOW);
  /** Held slots in key order, as a ring: logical i is order[(head + i) % REORDER_WINDOW]. */
  readonly #order = new Int32Array(REORDER_WINDOW);
  #head = 0;
  #held = 0;
  /** Free slots (a stack). */
  readonly #free = new Int32Array(REORDER_WINDOW);
  #nFree = REORDER_WINDOW;
  readonly #keyViews: Uint8Array[][] = [];
  readonly #valViews: Uint8Array[][] = [];
  rows = 0;
  /** Rows that arrived out of primary-key order and were inserted one by one. */
  lateRows = 0;

  constructor(table: Table, options: IndexBuildOptions = {}) {
    if (table.rows !== 0) throw new RangeError(`table ${table.name} is not empty`);
    this.table = table;
    this.#max = table.primary.tree.maxEntryBytes;
    this.#slab = new Uint8Array(2 * this.#max * REORDER_WINDOW);
    for (let i = 0; i < REORDER_WINDOW; i++) {
      this.#free[i] = REORDER_WINDOW - 1 - i;
      this.#keyViews.push([]);
      this.#valViews.push([]);
    }
    this.#bulk = table.primary.tree.bulkLoader();
    const pk = table.primary.columns;
    const mirrors = table.secondary.filter(
      (ix) => ix.entryColumns.length === pk.length && ix.entryColumns.every((c, i) => c === pk[i]),
    );
    this.#mirrors = mirrors.map((index) => ({ index, loader: index.tree.bulkLoader() }));
    this.#secondary = new SecondaryBuilder(
      table,
      table.secondary.filter((ix) => !mirrors.includes(ix)),
      options,
    );
    this.#late = new ExternalSorter({
      innodb_sort_buffer_size: options.innodb_sort_buffer_size ?? 4 << 20,
      mergeMode: 'kway',
      ...(options.tmpdir === undefined ? {} : { tmpdir: options.tmpdir }),
    });
  }

  /** Add one row. */
  add(row: RowBuffer): void {
    const t = this.table;
    // a loaded row is a version every transaction sees (DB_TRX_ID 0, no undo)
    const value = t.clusteredValue(row);
    const pk = t.primary.encoder.encode(row);
    if (pk.length + value.length > this.#max)
      throw new RangeError(`row of ${t.name} takes ${pk.length + value.length} bytes, at most ${this.#max}`);
    if (this.#held === REORDER_WINDOW) this.#emit();
    // insert into the window, scanning from the largest (input is mostly ascending)
    const slab = this.#slab;
    const order = this.#order;
    const W = REORDER_WINDOW - 1;
    const h = this.#head;
    const free = this.#free[--this.#nFree]!;
    let i = this.#held;
    while (i > 0) {
      const s = order[(h + i - 1) & W]!;
      const c = compareSlab(pk, slab, 2 * s * this.#max, this.#keyLen[s]!);
      if (c === 0) throw dupOf(t, row);
      if (c > 0) break;
      order[(h + i) & W] = s;
      i--;
    }
    order[(h + i) & W] = free;
    const base = 2 * free * this.#max;
    slab.set(pk, base);
    slab.set(value, base + this.#max);
    this.#keyLen[free] = pk.length;
    this.#valLen[free] = value.length;
    this.#held++;
    this.#secondary.add(row);
    this.rows++;
  }

  /** Hand the smallest held row to the bulk loader, or to the late sorter if it is too small. */
  #emit(): void {
    const s = this.#order[this.#head]!;
    this.#head = (this.#head + 1) & (REORDER_WINDOW - 1);
    this.#held--;
    this.#free[this.#nFree++] = s;
    const kl = this.#keyLen[s]!;
    const vl = this.#valLen[s]!;
    const base = 2 * s * this.#max;
    const kv = this.#keyViews[s]!;
    const vv = this.#valViews[s]!;
    const key = kv[kl] ?? (kv[kl] = this.#slab.subarray(base, base + kl));
    const val = vv[vl] ?? (vv[vl] = this.#slab.subarray(base + this.#max, base + this.#max + vl));
    const c = this.#lastLen < 0 ? 1 : compareSlab(key, this.#last, 0, this.#lastLen);
    if (c === 0) {
      const t = this.table;
      throw new DuplicateEntryError(
        t.name,
        'PRIMARY',
        keyText(typesOf(t, t.primary.columns), t.primary.codec.decode(key), true),
      );
    }
    if (c > 0) {
      this.#bulk.add(key, val);
      for (const m of this.#mirrors) m.loader.add(key, EMPTY);
      if (this.#last.length < kl) this.#last = new Uint8Array(kl * 2);
      this.#last.set(key);
      this.#lastLen = kl;
    } else this.#late.add(key, val);
  }

  /** Finish the clustered tree, insert the late rows, build the secondary indexes. */
  finish(onIndex?: (index: TableIndex, entries: number) => void): void {
    const t = this.table;
    try {
      while (this.#held > 0) this.#emit();
      this.#bulk.finish();
      this.#bulkOpen = false;
      for (const m of this.#mirrors) m.loader.finish();
      const tree = t.primary.tree;
      this.#late.drain((k, v) => {
        try {
          tree.insert(k, v);
          for (const m of this.#mirrors) m.index.tree.insert(k, EMPTY);
        } catch (e) {
          if (e instanceof DuplicateKeyError)
            throw new DuplicateEntryError(
              t.name,
              'PRIMARY',
              keyText(typesOf(t, t.primary.columns), t.primary.codec.decode(k), true),
            );
          throw e;
        }
        this.lateRows++;
      });
      t.rows = this.rows;
      for (const m of this.#mirrors) onIndex?.(m.index, this.rows);
      this.#secondary.finish(onIndex);
    } finally {
      this.close();
    }
  }

  /** Give up: release pages and temp files (the database file is then discarded by the caller). */
  close(): void {
    // every loader lets go of its pages and every temp file goes, whatever fails first
    let failure: unknown;
    if (this.#bulkOpen) {
      this.#bulkOpen = false;
      for (const l of [this.#bulk, ...this.#mirrors.map((m) => m.loader)]) {
        try {
          l.abort();
        } catch (e) {
          failure ??= e;
        }
      }
    }
    this.#late.close();
    this.#secondary.close();
    if (failure !== undefined) throw failure;
  }
}

/** memcmp of `a` with `b[off, off+len)`. */
function compareSlab(a: Uint8Array, b: Uint8Array, off: number, len: number): number {
  const n = Math.min(a.length, len);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[off + i]!;
    if (d !== 0) return d;
  }
  return a.length - len;
}

function dupOf(t: Table, row: RowBuffer): DuplicateEntryError {
  const cols = t.primary.columns;
  return new DuplicateEntryError(
    t.name,
    'PRIMARY',
    keyText(
      typesOf(t, cols),
      cols.map((c) => row.get(c)),
    ),
  );
}

/** The column types of `columns` (row positions) of `t`. */
function typesOf(t: Table, columns: readonly number[]): ColumnType[] {
  return columns.map((c) => t.columns[c]!.type);
}
