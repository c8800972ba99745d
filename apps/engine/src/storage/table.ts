import {
  type BTree,
  compareKeys,
  DuplicateKeyError,
  fieldEnd,
  KeyCodec,
  type KeyValue,
  KeyWriter,
} from '@enginekit/btree-sampler';
import { DuplicateEntryError, NoSuchObjectError } from './errors.js';
import {
  H_DELETE,
  H_READ_FIRST,
  H_READ_KEY,
  H_READ_NEXT,
  H_READ_RND,
  H_READ_RND_NEXT,
  H_ROWS_READ,
  H_UPDATE,
  H_WRITE,
  type HandlerStats,
} from './counters.js';
import { doubleKeyBytes, keyIsValue, keySpec, RowKeyEncoder } from './row-key.js';
import { K_DATE, K_DECIMAL, K_DOUBLE, K_TEXT, RowBuffer, RowCodec } from './row.js';
import type { MtrStore } from './redo/mtr.js';
import type { FieldValue, StoredColumn } from './types.js';
import { type ConsistentRead, txnHooks } from '../txn/hooks.js';
import { UNDO_DELETE, UNDO_INSERT, UNDO_UPDATE } from '../txn/undo-log.js';

const EMPTY = new Uint8Array(0);
const TEXT_ENCODER = new TextEncoder();

/** One B+tree of a table, as the catalog describes it. */
export interface TableIndex {
  readonly id: number;
  readonly name: string;
  /** Row column positions of the index's own key columns. */
  readonly columns: readonly number[];
  readonly primary: boolean;
  readonly unique: boolean;
  readonly tree: BTree;
  /**
   * The tree's key: the index columns, then (secondary indexes) the primary-key columns the index
   * does not already contain, as InnoDB's secondary records carry the primary key.
   */
  readonly entryColumns: readonly number[];
  /** Encodes an entry (or, for the primary key, the key) from a row. */
  readonly encoder: RowKeyEncoder;
  /** For secondary indexes: position in the entry of each primary-key field, in PK order. */
  readonly pkFields: Int32Array;
  /** KeyCodec of the entry's fields (for prefixes given as values; not on hot paths). */
  readonly codec: KeyCodec;
}

/**
 * One range of an index read, as encoded key prefixes ({@link Table.keyPrefix}): entries from `lo`
 * (past every entry that starts with it when `loExclusive`; empty: from the first entry) up to
 * `hi` (an entry that starts with it is in range when `hiInclusive`; null: to the end). `unique`:
 * a full-key point on a unique index (at most one entry, no next call).
 */
export interface KeyRange {
  readonly lo: Uint8Array;
  readonly loExclusive: boolean;
  readonly hi: Uint8Array | null;
  readonly hiInclusive: boolean;
  readonly unique: boolean;
}

/**
 * A table: a clustered B+tree keyed by the primary key whose records hold the whole row, and one
 * B+tree per secondary index whose entries are (secondary key, primary key) with an empty value,
 * as InnoDB. Every write keeps all trees consistent; a duplicate primary or unique key throws
 * {@link DuplicateEntryError} before anything changes.
 *
 * Not thread-safe: one writer at a time (the engine is single-threaded here).
 *
 * While a statement of a transaction runs, `txnHooks.current` is set: every row read or written
 * through these methods is locked first and every write logs its undo (see src/txn). A
 * consistent read of a table other writers have row versions of is answered by the hooks'
 * reader instead (`consistent`, asked once per read call; null is the fast path).
 */
export class Table {
  readonly id: number;
  readonly name: string;
  readonly columns: readonly StoredColumn[];
  readonly codec: RowCodec;
  readonly primary: TableIndex;
  readonly secondary: readonly TableIndex[];
  /** Rows, kept exact by every write and stored in SYS_TABLES on flush. */
  rows: number;
  /**
   * `stat_modified_counter`: rows inserted, deleted, or updated in an indexed column since the
   * statistics were last computed (the statistics reset it; see src/stats).
   */
  statModifiedCounter = 0;
  /** Writes since the table was opened (a statistics cache keys on it). */
  changes = 0;
  readonly #stats: HandlerStats;
  /** Each row operation is one mini-transaction of this store (null: no redo, as before). */
  readonly #mtr: MtrStore | null;
  readonly #row: RowBuffer;
  readonly #old: RowBuffer;
  /** Rebuilds the primary key carried by a secondary entry. */
  readonly #pk = new KeyWriter(256);
  /** Row buffers of index reads, by nesting depth. */
  readonly #rows: RowBuffer[] = [];
  /** Scratch for the key values of a lookup's prefix or a range's bound (filled and encoded at once). */
  readonly #prefixValues: KeyValue[] = [];
  /** Where #encodeKey writes a key before copying it out. */
  readonly #keyScratch = new Uint8Array(1024);
  #depth = 0;

  constructor(
    id: number,
    name: string,
    columns: readonly StoredColumn[],
    indexes: readonly TableIndex[],
    rows: number,
    stats: HandlerStats,
    mtr: MtrStore | null = null,
  ) {
    this.id = id;
    this.name = name;
    this.columns = columns;
    this.codec = new RowCodec(columns);
    const primary = indexes.find((i) => i.primary);
    if (primary === undefined) throw new RangeError(`table ${name} has no PRIMARY index`);
    this.primary = primary;
    this.secondary = indexes.filter((i) => !i.primary);
    this.rows = rows;
    this.#stats = stats;
    this.#mtr = mtr !== null && mtr.redo !== null ? mtr : null;
    this.#row = new RowBuffer(columns, this.codec.kinds);
    this.#old = new RowBuffer(columns, this.codec.kinds);
    // lookup() takes key values; only a primary key without collated text or BIGINT UNSIGNED has
    // the same values in its rows (storage/row-key.ts)
    this.#plainPk = primary.columns.every((c) => keyIsValue(columns[c]!));
  }

  readonly #plainPk: boolean;

  /** A row buffer for this table's columns (reuse it across calls). */
  newRow(): RowBuffer {
    return new RowBuffer(this.columns, this.codec.kinds);
  }

  /** Column position by name. */
  columnIndex(name: string): number {
    const i = this.columns.findIndex((c) => c.name === name);
    if (i < 0) throw new NoSuchObjectError(`Unknown column '${name}' in table ${this.name}`);
    return i;
  }

  /** An index by name (`PRIMARY` for the clustered one). */
  index(name: string): TableIndex {
    if (name === 'PRIMARY') return this.primary;
    const i = this.secondary.find((x) => x.name === name);
    if (i === undefined) throw new NoSuchObjectError(`Key '${name}' doesn't exist in table '${this.name}'`);
    return i;
  }

  // ---------------------------------------------------------------- writes

  /**
   * Insert a row (a {@link RowBuffer} or convenience values in column order). With a redo log the
   * row and all its index entries are one mini-transaction: all of it or none survives a crash,
   * and an error leaves every tree as it was.
   */
  insert(values: RowBuffer | readonly FieldValue[]): void {
    const m = this.#mtr;
    if (m === null) {
      this.#insert(values);
      return;
    }
    m.begin();
    try {
      this.#insert(values);
    } catch (e) {
      m.rollback();
      throw e;
    }
    m.commit();
  }

  #insert(values: RowBuffer | readonly FieldValue[]): void {
    const row = this.#toRow(values, this.#row);
    const value = this.codec.encode(row);
    const pk = this.primary.encoder.encode(row);
    this.#checkSizes(row, pk.length + value.length);
    const h = txnHooks.current;
    // the duplicate check runs under the new row's X lock
    if (h !== null) h.write(this, pk);
    for (const ix of this.secondary) if (ix.unique) this.#checkUnique(ix, row, null);
    try {
      this.primary.tree.insert(pk, value);
    } catch (e) {
      if (e instanceof DuplicateKeyError) throw this.#dup(this.primary, row);
      throw e;
    }
    for (const ix of this.secondary) ix.tree.insert(ix.encoder.encode(row), EMPTY);
    this.rows++;
    this.statModifiedCounter++;
    this.changes++;
    this.#stats.counts[H_WRITE]!++;
    if (h !== null) h.logUndo(this, UNDO_INSERT, pk, EMPTY);
  }

  /** Delete the row with this primary key (values of the PK columns, in PK order); one mtr. */
  delete(pkValues: readonly FieldValue[]): boolean {
    return this.deleteKey(this.#pkFromValues(pkValues));
  }

  /** Delete the row whose clustered key (the encoded primary key) is `pk`; one mtr. */
  deleteKey(pk: Uint8Array): boolean {
    const m = this.#mtr;
    if (m === null) return this.#deleteKey(pk);
    m.begin();
    let r: boolean;
    try {
      r = this.#deleteKey(pk);
    } catch (e) {
      m.rollback();
      throw e;
    }
    m.commit();
    return r;
  }

  #deleteKey(pk: Uint8Array): boolean {
    const h = txnHooks.current;
    if (h !== null) h.write(this, pk);
    this.#stats.counts[H_READ_KEY]!++;
    const old = this.primary.tree.get(pk);
    if (old === undefined) return false;
    this.codec.decode(old, 0, old.length, this.#old);
    for (const ix of this.secondary) ix.tree.delete(ix.encoder.encode(this.#old), EMPTY);
    this.primary.tree.delete(pk);
    this.rows--;
    this.statModifiedCounter++;
    this.changes++;
    this.#stats.counts[H_DELETE]!++;
    if (h !== null) h.logUndo(this, UNDO_DELETE, pk, old);
    return true;
  }

  /**
   * Replace the row whose primary key is `pkValues` with `values` (which may change the primary
   * key). Returns false if there is no such row. A duplicate key changes nothing.
   */
  update(pkValues: readonly FieldValue[], values: RowBuffer | readonly FieldValue[]): boolean {
    return this.updateKey(this.#pkFromValues(pkValues), values);
  }

  /** {@link Table.update} of the row whose clustered key is `pk`; one mtr. */
  updateKey(pk: Uint8Array, values: RowBuffer | readonly FieldValue[]): boolean {
    const m = this.#mtr;
    if (m === null) return this.#updateKey(pk, values);
    m.begin();
    let r: boolean;
    try {
      r = this.#updateKey(pk, values);
    } catch (e) {
      m.rollback();
      throw e;
    }
    m.commit();
    return r;
  }

  #updateKey(pk: Uint8Array, values: RowBuffer | readonly FieldValue[]): boolean {
    const oldPk = pk.slice();
    const h = txnHooks.current;
    if (h !== null) h.write(this, oldPk);
    this.#stats.counts[H_READ_KEY]!++;
    const oldValue = this.primary.tree.get(oldPk);
    if (oldValue === undefined) return false;
    const old = this.#old;
    this.codec.decode(oldValue, 0, oldValue.length, old);
    const row = this.#toRow(values, this.#row);
    const newPk = this.primary.encoder.encode(row).slice();
    const newValue = this.codec.encode(row).slice();
    this.#checkSizes(row, newPk.length + newValue.length);
    const pkChanged = compareKeys(oldPk, newPk) !== 0;
    if (pkChanged && h !== null) h.write(this, newPk);
    if (pkChanged && this.primary.tree.get(newPk) !== undefined) throw this.#dup(this.primary, row);
    const changes: Array<[TableIndex, Uint8Array, Uint8Array]> = [];
    for (const ix of this.secondary) {
      const before = ix.encoder.encode(old).slice();
      const after = ix.encoder.encode(row).slice();
      if (compareKeys(before, after) === 0) continue;
      if (ix.unique) this.#checkUnique(ix, row, oldPk);
      changes.push([ix, before, after]);
    }
    if (pkChanged) {
      this.primary.tree.delete(oldPk);
      this.primary.tree.insert(newPk, newValue);
    } else this.primary.tree.update(oldPk, newValue);
    for (const [ix, before, after] of changes) {
      ix.tree.delete(before, EMPTY);
      ix.tree.insert(after, EMPTY);
    }
    // row_update_for_mysql counts an UPDATE only when it changes an ordering field of some index
    if (pkChanged || changes.length > 0) this.statModifiedCounter++;
    this.#stats.counts[H_UPDATE]!++;
    this.changes++;
    if (h !== null) h.logUndo(this, UNDO_UPDATE, newPk, oldValue);
    return true;
  }

  // ---------------------------------------------------------------- reads

  /** The row with this primary key as convenience values, or undefined. */
  get(pkValues: readonly FieldValue[]): FieldValue[] | undefined {
    const pk = this.#pkFromValues(pkValues);
    const h = txnHooks.current;
    const cr = h === null ? null : h.consistent(this);
    if (cr !== null) return cr.get(this, pk);
    if (h !== null) h.read(this, pk, 0, pk.length);
    this.#stats.counts[H_READ_KEY]!++;
    const v = this.primary.tree.get(pk);
    if (v === undefined) return undefined;
    const row = this.newRow();
    this.codec.decode(v, 0, v.length, row);
    return row.toArray();
  }

  /**
   * Full table scan in primary-key order (Handler_read_first once, Handler_read_rnd_next per row and once more for the end,
   * as MySQL counts an InnoDB table scan). `fn` gets one reused {@link RowBuffer} whose text
   * fields view the page: read it during the call only, do not write the table. Return false to
   * stop. Returns the rows visited.
   */
  scan(fn: (row: RowBuffer) => boolean | undefined): number {
    const cr = txnHooks.current?.consistent(this) ?? null;
    if (cr !== null) return cr.scan(this, fn);
    const row = this.newRow();
    const counts = this.#stats.counts;
    counts[H_READ_FIRST]!++;
    const codec = this.codec;
    const h = txnHooks.current;
    // raw: the row is decoded straight from the pool's bytes, nothing is created per row
    let stopped = false;
    const n = this.primary.tree.forEachRangeRaw(null, null, (b, ko, kl, vo, vl) => {
      counts[H_READ_RND_NEXT]!++;
      counts[H_ROWS_READ]!++;
      if (h !== null) h.read(this, b, ko, kl);
      codec.decode(b, vo, vl, row);
      if (fn(row) === false) {
        stopped = true;
        return false;
      }
      return true;
    });
    // the call that finds the end of the table counts too, as ha_rnd_next returning EOF
    if (!stopped) counts[H_READ_RND_NEXT]!++;
    return n;
  }

  /**
   * Rows whose index key starts with `prefix` (values of the index's leading columns), in index
   * order. Counted as MySQL counts a `ref` read: Handler_read_key once, then Handler_read_next per
   * further step along the index, the step that finds the end included (`index_next_same`
   * returning end of range); a full-key lookup on a unique index (`eq_ref`) takes no next step.
   * A secondary index looks every row up in the clustered index by the primary key its entry
   * carries.
   */
  lookup(
    indexName: string,
    prefix: readonly FieldValue[],
    fn: (row: RowBuffer) => boolean | undefined,
  ): number {
    const ix = this.index(indexName);
    // a full primary key: the row encoder (no value array); else the generic key codec, given
    // the key values in one scratch array (the codec reads it at once, so nesting is safe)
    let lo: Uint8Array;
    if (ix.primary && prefix.length === ix.columns.length && this.#plainPk)
      lo = this.#pkFromValues(prefix).slice();
    else {
      const values = this.#prefixValues;
      const n = prefix.length;
      values.length = n;
      for (let i = 0; i < n; i++) values[i] = this.#keyValue(ix.entryColumns[i], prefix[i]!);
      lo = this.#encodeKey(ix, values);
      values.length = 0;
    }
    const eqRef = ix.unique && prefix.length >= ix.columns.length;
    // a full primary key is locked whether or not the row exists: a reader waits for a writer
    // that deleted it
    const h = txnHooks.current;
    const cr = h === null ? null : h.consistent(this);
    if (cr !== null) return cr.lookup(this, ix, lo, ix.primary && prefix.length === ix.columns.length, fn);
    if (h !== null && ix.primary && prefix.length === ix.columns.length) h.read(this, lo, 0, lo.length);
    return this.#walk(ix, lo, true, (b, ko, kl) => startsWith(b, ko, kl, lo), eqRef, fn);
  }

  /**
   * Rows whose first index column lies between `lo` and `hi` (a `range` read; either bound may be
   * undefined: open), in index order; NULLs are never in a range. Handler_read_key once, then
   * Handler_read_next per step, the one that finds the end included.
   */
  range(
    indexName: string,
    lo: FieldValue | undefined,
    loInclusive: boolean,
    hi: FieldValue | undefined,
    hiInclusive: boolean,
    fn: (row: RowBuffer) => boolean | undefined,
  ): number {
    const ix = this.index(indexName);
    const c0 = ix.entryColumns[0];
    const one = this.#prefixValues;
    // no lower bound: start after the NULLs (they sort first)
    one[0] = lo === undefined ? null : this.#keyValue(c0, lo);
    const loKey = this.#encodeKey(ix, one);
    const skipEqual = lo === undefined || !loInclusive;
    let hiKey: Uint8Array | null = null;
    if (hi !== undefined) {
      one[0] = this.#keyValue(c0, hi);
      hiKey = this.#encodeKey(ix, one);
    }
    one.length = 0;
    const cr = txnHooks.current?.consistent(this) ?? null;
    if (cr !== null) return cr.range(this, ix, loKey, skipEqual, hiKey, hiInclusive, fn);
    let started = false;
    return this.#walk(
      ix,
      loKey,
      true,
      (b, ko, kl) => {
        if (!started) {
          if (skipEqual && startsWith(b, ko, kl, loKey)) return 'skip';
          started = true;
        }
        if (hiKey === null) return true;
        const c = comparePrefix(b, ko, kl, hiKey);
        return c < 0 || (c === 0 && hiInclusive);
      },
      false,
      fn,
    );
  }

  /**
   * `records_in_range`: index entries whose first column lies between `lo` and `hi` (bounds as
   * {@link range}), without reading rows or touching the handler counters. Up to `cap` entries
   * are counted; past that the rest is interpolated on the first column's value (the span the
   * counted entries covered against the span left to the upper bound, or to the index's last
   * entry when it is open), or, for a column that is not a number or date, taken as half of the
   * index's other entries.
   */
  recordsInRange(
    indexName: string,
    lo: FieldValue | undefined,
    loInclusive: boolean,
    hi: FieldValue | undefined,
    hiInclusive: boolean,
    cap: number,
  ): number {
    const ix = this.index(indexName);
    const c0 = ix.entryColumns[0];
    const loKey = this.#encodeKey(ix, [lo === undefined ? null : this.#keyValue(c0, lo)]);
    const skipEqual = lo === undefined || !loInclusive;
    const hiKey = hi === undefined ? null : this.#encodeKey(ix, [this.#keyValue(c0, hi)]);
    let n = 0;
    let first: Uint8Array | undefined;
    let last: Uint8Array | undefined;
    ix.tree.forEachRangeRaw(loKey, null, (b, ko, kl) => {
      if (n === 0 && skipEqual && startsWith(b, ko, kl, loKey)) return true;
      if (hiKey !== null) {
        const c = comparePrefix(b, ko, kl, hiKey);
        if (c > 0 || (c === 0 && !hiInclusive)) return false;
      }
      if (n === 0) first = b.slice(ko, ko + kl);
      n++;
      if (n < cap) return true;
      last = b.slice(ko, ko + kl);
      return false;
    });
    if (n < cap || first === undefined || last === undefined) return n;
    const rest = Math.max(0, this.rows - n);
    let end: Uint8Array | undefined = hiKey ?? undefined;
    if (end === undefined) {
      const cur = ix.tree.cursor();
      if (cur.last()) end = cur.key().slice();
    }
    const a = firstNumber(ix, first);
    const m = firstNumber(ix, last);
    const z = end === undefined ? undefined : firstNumber(ix, end);
    if (a === undefined || m === undefined || z === undefined || m <= a) return n + Math.floor(rest / 2);
    return Math.min(n + rest, Math.max(n, Math.round(n + (n * (z - m)) / (m - a))));
  }

  /** Index entries whose key starts with `prefix` (as {@link lookup}), counted up to `cap`, no counters. */
  countPrefix(indexName: string, prefix: readonly FieldValue[], cap: number): number {
    const ix = this.index(indexName);
    const lo = this.#encodeKey(
      ix,
      prefix.map((v, i) => this.#keyValue(ix.entryColumns[i], v)),
    );
    let n = 0;
    ix.tree.forEachRangeRaw(lo, null, (b, ko, kl) => startsWith(b, ko, kl, lo) && ++n < cap);
    return n;
  }

  /**
   * A secondary-index range read as DS-MRR's rowid-ordered scan: the primary keys of the entries
   * in range are gathered into a buffer of `bufferBytes` (each key plus MRR's 8-byte reference,
   * as @enginekit/mrr sizes it), sorted, and the rows fetched from the clustered index in
   * primary-key order; a full buffer is emptied and refilled (`onRefill`). Counts as MariaDB:
   * Handler_read_key once and Handler_read_next per index step (the end included), then
   * Handler_read_rnd per row fetched. Rows come in primary-key order within each buffer.
   */
  rangeRowidOrdered(
    indexName: string,
    lo: FieldValue | undefined,
    loInclusive: boolean,
    hi: FieldValue | undefined,
    hiInclusive: boolean,
    bufferBytes: number,
    fn: (row: RowBuffer) => boolean | undefined,
    onRefill: () => void,
  ): number {
    const ix = this.index(indexName);
    // a consistent read of versioned rows reads in index order (range merges the versions)
    if (ix.primary || (txnHooks.current?.consistent(this) ?? null) !== null)
      return this.range(indexName, lo, loInclusive, hi, hiInclusive, fn);
    const counts = this.#stats.counts;
    const c0 = ix.entryColumns[0];
    const loKey = ix.codec.encode([lo === undefined ? null : this.#keyValue(c0, lo)]);
    const skipEqual = lo === undefined || !loInclusive;
    const hiKey = hi === undefined ? null : ix.codec.encode([this.#keyValue(c0, hi)]);
    const depth = this.#depth++;
    const row = this.#rows[depth] ?? (this.#rows[depth] = this.newRow());
    // a reused buffer: another reader of this table (a subquery) may have narrowed it
    row.wantOnly(null);
    const codec = this.codec;
    const clustered = this.primary.tree;
    let keys: Uint8Array[] = [];
    let bytes = 0;
    let n = 0;
    let stopped = false;
    let pk: Uint8Array = EMPTY;
    let found = false;
    let go: boolean | undefined;
    const fetch = (b: Uint8Array, ko: number, kl: number, vo: number, vl: number): boolean => {
      if (kl === pk.length && startsWith(b, ko, kl, pk)) {
        found = true;
        codec.decode(b, vo, vl, row);
        go = fn(row);
      }
      return false;
    };
    const drain = (): boolean => {
      keys.sort(compareKeys);
      for (const k of keys) {
        pk = k;
        found = false;
        counts[H_READ_RND]!++;
        counts[H_ROWS_READ]!++;
        clustered.forEachRangeRaw(pk, null, fetch);
        if (!found) throw new RangeError(`index ${ix.name} of ${this.name} points at a missing row`);
        n++;
        if (go === false) return false;
      }
      keys = [];
      bytes = 0;
      return true;
    };
    try {
      counts[H_READ_KEY]!++;
      let started = false;
      let steps = 0;
      let ended = false;
      ix.tree.forEachRangeRaw(loKey, null, (b, ko, kl) => {
        if (!started) {
          if (skipEqual && startsWith(b, ko, kl, loKey)) return true;
          started = true;
        }
        if (steps > 0) counts[H_READ_NEXT]!++;
        steps++;
        if (hiKey !== null) {
          const c = comparePrefix(b, ko, kl, hiKey);
          if (c > 0 || (c === 0 && !hiInclusive)) {
            ended = true;
            return false;
          }
        }
        const k = this.#pkOfEntry(ix, b, ko, kl).slice();
        if (bytes + k.length + 8 > bufferBytes && keys.length > 0) {
          if (!drain()) {
            stopped = true;
            return false;
          }
          onRefill();
        }
        keys.push(k);
        bytes += k.length + 8;
        return true;
      });
      if (!ended && steps > 0 && !stopped) counts[H_READ_NEXT]!++;
      if (!stopped) drain();
      return n;
    } finally {
      this.#depth--;
    }
  }

  /**
   * The primary keys of the secondary entries whose key starts with `prefix` (the first stage of a
   * rowid-ordered lookup): `fn` gets a view of each (copy it to keep it). Handler_read_key once,
   * Handler_read_next per further step, the one that ends the range included.
   */
  prefixRowids(indexName: string, prefix: readonly FieldValue[], fn: (pk: Uint8Array) => void): number {
    const ix = this.index(indexName);
    const lo = ix.codec.encode(prefix.map((v, i) => this.#keyValue(ix.entryColumns[i], v)));
    const cr = txnHooks.current?.consistent(this) ?? null;
    if (cr !== null) return cr.prefixRowids(this, ix, lo, fn);
    const counts = this.#stats.counts;
    counts[H_READ_KEY]!++;
    let n = 0;
    let steps = 0;
    let ended = false;
    ix.tree.forEachRangeRaw(lo, null, (b, ko, kl) => {
      if (steps > 0) counts[H_READ_NEXT]!++;
      steps++;
      if (!startsWith(b, ko, kl, lo)) {
        ended = true;
        return false;
      }
      n++;
      fn(ix.primary ? b.slice(ko, ko + kl) : this.#pkOfEntry(ix, b, ko, kl));
      return true;
    });
    if (!ended && n > 0) counts[H_READ_NEXT]!++;
    return n;
  }

  /** The row with this encoded primary key (as {@link prefixRowids} gives it): Handler_read_rnd. */
  fetchRowid(pk: Uint8Array, fn: (row: RowBuffer) => boolean | undefined): boolean | undefined {
    const cr = txnHooks.current?.consistent(this) ?? null;
    if (cr !== null) return cr.fetchRowid(this, pk, fn);
    const counts = this.#stats.counts;
    counts[H_READ_RND]!++;
    counts[H_ROWS_READ]!++;
    const depth = this.#depth++;
    const row = this.#rows[depth] ?? (this.#rows[depth] = this.newRow());
    // a reused buffer: another reader of this table (a subquery) may have narrowed it
    row.wantOnly(null);
    const codec = this.codec;
    let found = false;
    let go: boolean | undefined;
    try {
      this.primary.tree.forEachRangeRaw(pk, null, (b, ko, kl, vo, vl) => {
        if (kl === pk.length && startsWith(b, ko, kl, pk)) {
          found = true;
          codec.decode(b, vo, vl, row);
          go = fn(row);
        }
        return false;
      });
    } finally {
      this.#depth--;
    }
    if (!found) throw new RangeError(`a row id of ${this.name} points at a missing row`);
    return go;
  }

  /**
   * Walk an index from `from`: `inRange` says whether an entry belongs (`'skip'`: not yet, go on).
   * Calls `fn` per row (read in place from the page, secondary entries through the clustered
   * index). Returns the rows visited.
   */
  #walk(
    ix: TableIndex,
    from: Uint8Array,
    _inclusive: boolean,
    inRange: (b: Uint8Array, ko: number, kl: number) => boolean | 'skip',
    eqRef: boolean,
    fn: (row: RowBuffer) => boolean | undefined,
  ): number {
    // one row buffer per nesting depth (a self-join reads this table inside its own callback)
    const depth = this.#depth++;
    const row = this.#rows[depth] ?? (this.#rows[depth] = this.newRow());
    // a reused buffer: every column until this walk's reader narrows it (RowBuffer.wantOnly)
    row.wantOnly(null);
    try {
      return this.#walkWith(ix, from, inRange, eqRef, fn, row);
    } finally {
      this.#depth--;
    }
  }

  #walkWith(
    ix: TableIndex,
    from: Uint8Array,
    inRange: (b: Uint8Array, ko: number, kl: number) => boolean | 'skip',
    eqRef: boolean,
    fn: (row: RowBuffer) => boolean | undefined,
    row: RowBuffer,
  ): number {
    const counts = this.#stats.counts;
    counts[H_READ_KEY]!++;
    const read = this.#entryReader(ix, row, fn, false);
    let n = 0;
    let steps = 0;
    let ended = false;
    ix.tree.forEachRangeRaw(from, null, (b, ko, kl, vo, vl) => {
      const r = inRange(b, ko, kl);
      if (r === 'skip') return true;
      if (n > 0 || steps > 0) counts[H_READ_NEXT]!++;
      steps++;
      if (!r) {
        ended = true;
        return false;
      }
      n++;
      if (read(b, ko, kl, vo, vl) === false) {
        ended = true;
        return false;
      }
      return !eqRef;
    });
    // the read that hits the end of the index counts too
    if (!ended && n > 0 && !eqRef) counts[H_READ_NEXT]!++;
    return n;
  }

  // ------------------------------------------------- index reads with entry checks (ICP, covering)

  /**
   * The encoded key of the first `values.length` fields of an index entry (a prefix to bound a
   * {@link KeyRange} with). NULL values sort first, as in the tree.
   */
  keyPrefix(indexName: string, values: readonly FieldValue[]): Uint8Array {
    const ix = this.index(indexName);
    return ix.codec.encode(values.map((v, i) => this.#keyValue(ix.entryColumns[i], v)));
  }

  /** Entries of `index` in one {@link KeyRange}, counted up to `cap`, without counters (records_in_range). */
  countRange(indexName: string, r: KeyRange, cap: number): number {
    const ix = this.index(indexName);
    let n = 0;
    let started = false;
    const lo = r.lo;
    const hi = r.hi;
    ix.tree.forEachRangeRaw(lo.length === 0 ? null : lo, null, (b, ko, kl) => {
      if (!started) {
        if (r.loExclusive && startsWith(b, ko, kl, lo)) return true;
        started = true;
      }
      if (hi !== null) {
        const c = comparePrefix(b, ko, kl, hi);
        if (c > 0 || (c === 0 && !r.hiInclusive)) return false;
      }
      n++;
      return n < cap && !r.unique;
    });
    return n;
  }

  /**
   * Read index entries range by range, in index order. Each entry in range is first shown to
   * `check` (InnoDB's `innobase_index_cond`: the pushed index condition, on the entry alone); an
   * entry it rejects costs no clustered lookup and is never returned. With `indexOnly` no row is
   * fetched at all: `fn` gets `null` and the caller reads what it needs from the entry in `check`
   * (a covering read, MySQL's keyread). Otherwise `fn` gets the row, as {@link lookup} gives it.
   *
   * Counted as MariaDB counts handler calls: per range Handler_read_key once (Handler_read_first
   * for `fullScan`), then Handler_read_next per further entry returned and once more for the call
   * that finds the range's end; entries `check` rejects take no call of their own (the engine
   * skips them inside one), and a full-key point range on a unique index takes no next call.
   * Innodb_rows_read counts the entries returned. Returns the rows returned.
   */
  readRanges(
    indexName: string,
    ranges: readonly KeyRange[],
    check: ((b: Uint8Array, ko: number, kl: number) => boolean) | null,
    indexOnly: boolean,
    fn: (row: RowBuffer | null) => boolean | undefined,
    fullScan = false,
  ): number {
    const ix = this.index(indexName);
    const cr = txnHooks.current?.consistent(this) ?? null;
    if (cr !== null)
      return this.#consistentRanges(cr, ix, ranges, check, (row) => fn(indexOnly ? null : row));
    const depth = this.#depth++;
    const row = this.#rows[depth] ?? (this.#rows[depth] = this.newRow());
    // a reused buffer: another reader of this table (a subquery) may have narrowed it
    row.wantOnly(null);
    try {
      const read = this.#entryReader(ix, row, fn, indexOnly);
      return this.#eachInRanges(
        ix,
        ranges,
        check,
        fullScan,
        (b, ko, kl, vo, vl) => read(b, ko, kl, vo, vl) !== false,
      );
    } finally {
      this.#depth--;
    }
  }

  /**
   * The primary keys of the index entries in `ranges` that `check` accepts (DS-MRR's first stage
   * with the index condition pushed under it, and BKA's): `fn` gets a view of each (copy it to
   * keep it; return false to stop). Counted as {@link readRanges}, without Innodb_rows_read (the
   * rows are read later by {@link fetchRowid}).
   */
  rowidsInRanges(
    indexName: string,
    ranges: readonly KeyRange[],
    check: ((b: Uint8Array, ko: number, kl: number) => boolean) | null,
    fn: (pk: Uint8Array) => boolean | undefined,
  ): number {
    const ix = this.index(indexName);
    const cr = txnHooks.current?.consistent(this) ?? null;
    if (cr !== null) {
      const enc = this.primary.encoder;
      return this.#consistentRanges(cr, ix, ranges, check, (row) => fn(enc.encode(row)));
    }
    return this.#eachInRanges(
      ix,
      ranges,
      check,
      false,
      (b, ko, kl) => fn(ix.primary ? b.subarray(ko, ko + kl) : this.#pkOfEntry(ix, b, ko, kl)) !== false,
    );
  }

  /**
   * What a read does with each index entry it returns: count Innodb_rows_read, take the row's
   * lock (a transaction's read hook), and give `fn` the row, decoded in place from a clustered
   * entry or from the clustered record a secondary entry points to (read while its page is
   * fixed: no copy). With `indexOnly`, `fn` gets null and no row is fetched (the primary key of a
   * secondary entry is rebuilt only for the lock). Returns `fn`'s answer.
   */
  #entryReader<R extends RowBuffer | null>(
    ix: TableIndex,
    row: RowBuffer,
    fn: (row: R) => boolean | undefined,
    indexOnly: boolean,
  ): (b: Uint8Array, ko: number, kl: number, vo: number, vl: number) => boolean | undefined {
    const counts = this.#stats.counts;
    const codec = this.codec;
    const clustered = this.primary.tree;
    const h = txnHooks.current;
    const give = fn as (row: RowBuffer | null) => boolean | undefined;
    let pk: Uint8Array = EMPTY;
    let found = false;
    let go: boolean | undefined;
    // the first clustered entry >= pk is the row when its key equals pk
    const fetch = (b: Uint8Array, ko: number, kl: number, vo: number, vl: number): boolean => {
      if (kl === pk.length && startsWith(b, ko, kl, pk)) {
        found = true;
        codec.decode(b, vo, vl, row);
        go = give(row);
      }
      return false;
    };
    return (b, ko, kl, vo, vl) => {
      counts[H_ROWS_READ]!++;
      if (ix.primary) {
        if (h !== null) h.read(this, b, ko, kl);
        if (indexOnly) return give(null);
        codec.decode(b, vo, vl, row);
        return give(row);
      }
      if (indexOnly) {
        if (h !== null) {
          pk = this.#pkOfEntry(ix, b, ko, kl);
          h.read(this, pk, 0, pk.length);
        }
        return give(null);
      }
      pk = this.#pkOfEntry(ix, b, ko, kl);
      if (h !== null) h.read(this, pk, 0, pk.length);
      found = false;
      go = undefined;
      clustered.forEachRangeRaw(pk, null, fetch);
      if (!found) throw new RangeError(`index ${ix.name} of ${this.name} points at a missing row`);
      return go;
    };
  }

  /**
   * The entries of `ranges` that `check` accepts, in index order, each given to `visit` (false:
   * stop). Counts as {@link readRanges} says: Handler_read_key (Handler_read_first for
   * `fullScan`) per range, Handler_read_next per further entry returned and once for the call
   * that finds a range's end, none after a unique point's one row. Returns the entries visited.
   */
  #eachInRanges(
    ix: TableIndex,
    ranges: readonly KeyRange[],
    check: ((b: Uint8Array, ko: number, kl: number) => boolean) | null,
    fullScan: boolean,
    visit: (b: Uint8Array, ko: number, kl: number, vo: number, vl: number) => boolean,
  ): number {
    const counts = this.#stats.counts;
    let total = 0;
    for (const r of ranges) {
      counts[fullScan ? H_READ_FIRST : H_READ_KEY]!++;
      let started = false;
      let returned = 0;
      let stopped = false;
      const lo = r.lo;
      const hi = r.hi;
      ix.tree.forEachRangeRaw(lo.length === 0 ? null : lo, null, (b, ko, kl, vo, vl) => {
        if (!started) {
          if (r.loExclusive && startsWith(b, ko, kl, lo)) return true;
          started = true;
        }
        if (hi !== null) {
          const c = comparePrefix(b, ko, kl, hi);
          if (c > 0 || (c === 0 && !r.hiInclusive)) return false;
        }
        if (check !== null && !check(b, ko, kl)) return true;
        if (returned > 0) counts[H_READ_NEXT]!++;
        returned++;
        if (!visit(b, ko, kl, vo, vl)) {
          stopped = true;
          return false;
        }
        return !r.unique;
      });
      total += returned;
      if (stopped) break;
      // the call that finds the end of the range (none after a unique point's one row)
      if (returned > 0 && !r.unique) counts[H_READ_NEXT]!++;
    }
    return total;
  }

  /**
   * {@link readRanges} and {@link rowidsInRanges} as consistent reads: each range is read at the
   * read view's versions, and the entry check runs on the index entry of the version read (the
   * tree's entry may belong to a newer version), as InnoDB checks a pushed condition again on the
   * clustered record it built for the view. Index-only reads fetch the row as well: the entry
   * alone cannot tell which version it belongs to (InnoDB falls back the same way when a page's
   * max trx id is newer than the view).
   */
  #consistentRanges(
    cr: ConsistentRead,
    ix: TableIndex,
    ranges: readonly KeyRange[],
    check: ((b: Uint8Array, ko: number, kl: number) => boolean) | null,
    fn: (row: RowBuffer) => boolean | undefined,
  ): number {
    let total = 0;
    let stopped = false;
    for (const r of ranges) {
      cr.range(this, ix, r.lo, r.loExclusive, r.hi, r.hiInclusive, (row) => {
        if (check !== null) {
          const entry = ix.encoder.encode(row);
          if (!check(entry, 0, entry.length)) return true;
        }
        total++;
        if (fn(row) === false) {
          stopped = true;
          return false;
        }
        return true;
      });
      if (stopped) break;
    }
    return total;
  }

  /**
   * Verify every secondary index holds exactly the entries its table's rows imply, and the row
   * count; also each tree's own invariants. Throws RangeError at the first difference.
   */
  checkIndexes(): void {
    this.primary.tree.checkValid();
    const expected: Uint8Array[][] = this.secondary.map(() => []);
    let n = 0;
    this.primary.tree.forEachRangeRaw(null, null, (b, _ko, _kl, vo, vl) => {
      this.codec.decode(b, vo, vl, this.#old);
      for (const [i, ix] of this.secondary.entries()) expected[i]!.push(ix.encoder.encode(this.#old).slice());
      n++;
      return true;
    });
    if (n !== this.rows)
      throw new RangeError(`${this.name}: ${n} rows in the clustered index, row count says ${this.rows}`);
    for (const [i, ix] of this.secondary.entries()) {
      ix.tree.checkValid();
      const want = expected[i]!.sort(compareKeys);
      let j = 0;
      ix.tree.forEachRangeRaw(null, null, (b, ko, kl) => {
        const w = want[j];
        if (w === undefined || w.length !== kl || !startsWith(b, ko, kl, w))
          throw new RangeError(`${this.name}.${ix.name}: entry ${j} differs from the table`);
        j++;
        return true;
      });
      if (j !== want.length)
        throw new RangeError(`${this.name}.${ix.name}: ${j} entries, ${want.length} rows`);
    }
  }

  // ---------------------------------------------------------------- helpers

  #toRow(values: RowBuffer | readonly FieldValue[], into: RowBuffer): RowBuffer {
    if (values instanceof RowBuffer) {
      if (values.columns.length !== this.columns.length)
        throw new RangeError(
          `row has ${values.columns.length} columns, table ${this.name} has ${this.columns.length}`,
        );
      return values;
    }
    return into.setAll(values);
  }

  #pkFromValues(values: readonly FieldValue[]): Uint8Array {
    const cols = this.primary.columns;
    if (!Array.isArray(values) || values.length !== cols.length)
      throw new RangeError(
        `primary key of ${this.name} has ${cols.length} columns, got ${String(values?.length)}`,
      );
    const row = this.#row;
    for (let i = 0; i < cols.length; i++) row.set(cols[i]!, values[i]!);
    return this.primary.encoder.encode(row);
  }

  /**
   * `ix.codec.encode(values)` through a scratch buffer (the codec's own encode builds a number
   * array first); a key that does not fit the scratch, or a value the codec refuses, takes
   * `encode` itself, which then gives its own answer or error.
   */
  #encodeKey(ix: TableIndex, values: readonly KeyValue[]): Uint8Array {
    const scratch = this.#keyScratch;
    let end: number;
    try {
      end = ix.codec.encodeInto(values, scratch, 0);
    } catch {
      return ix.codec.encode(values);
    }
    return scratch.slice(0, end);
  }

  /** A convenience value as a KeyCodec value for column `c`. */
  #keyValue(c: number | undefined, v: FieldValue): KeyValue {
    if (c === undefined) throw new RangeError('prefix has more values than the index has columns');
    if (v === null) return null;
    const kind = this.codec.kinds[c]!;
    if (kind === K_TEXT) return typeof v === 'string' ? TEXT_ENCODER.encode(v) : v;
    if (kind === K_DECIMAL && typeof v === 'number') return BigInt(v);
    if (kind === K_DOUBLE && typeof v === 'number') return doubleKeyBytes(v).slice();
    if (kind === K_DATE && typeof v === 'string') {
      this.#row.set(c, v);
      return this.#row.nums[c]!;
    }
    return v as KeyValue;
  }

  /**
   * The primary key carried by the secondary entry `bytes[off, off + len)`: a view of a scratch
   * buffer (one view per distinct key length, cached; nothing is created per call).
   */
  #pkOfEntry(ix: TableIndex, bytes: Uint8Array, off: number, len: number): Uint8Array {
    return this.#pk.reset().project(bytes, off, len, ix.pkFields).key();
  }

  #checkSizes(row: RowBuffer, clusteredBytes: number): void {
    if (clusteredBytes > this.primary.tree.maxEntryBytes)
      throw new RangeError(
        `row of ${this.name} takes ${clusteredBytes} bytes, at most ${this.primary.tree.maxEntryBytes} fit a page`,
      );
    for (const ix of this.secondary) {
      const n = ix.encoder.encode(row).length;
      if (n > ix.tree.maxEntryBytes)
        throw new RangeError(
          `key of ${this.name}.${ix.name} takes ${n} bytes, at most ${ix.tree.maxEntryBytes}`,
        );
    }
  }

  /** Throws if another row (not the one with primary key `self`) has the unique key of `row`. */
  #checkUnique(ix: TableIndex, row: RowBuffer, self: Uint8Array | null): void {
    const n = ix.columns.length;
    for (let i = 0; i < n; i++) if (row.nulls[ix.columns[i]!] === 1) return; // NULLs never clash
    const entry = ix.encoder.encode(row);
    // the prefix of the entry that holds the index's own columns
    let end = 0;
    let f = 0;
    while (f < n) {
      end = nextField(entry, end);
      f++;
    }
    const prefix = entry.slice(0, end);
    this.#stats.counts[H_READ_KEY]!++;
    let clash = false;
    const h = txnHooks.current;
    ix.tree.forEachRangeRaw(prefix, null, (b, ko, kl) => {
      if (!startsWith(b, ko, kl, prefix)) return false;
      const pk = this.#pkOfEntry(ix, b, ko, kl);
      if (self !== null && compareKeys(pk, self) === 0) return true;
      // the clashing row may be another transaction's uncommitted write: wait for it (it may
      // roll back) before calling it a duplicate, as InnoDB's S lock on the duplicate record
      if (h !== null) h.read(this, pk, 0, pk.length);
      clash = true;
      return false;
    });
    if (clash) throw this.#dup(ix, row);
  }

  #dup(ix: TableIndex, row: RowBuffer): DuplicateEntryError {
    const shown = ix.columns.map((c) => {
      const v = row.get(c);
      return v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v);
    });
    return new DuplicateEntryError(this.name, ix.name, shown.join('-'));
  }
}

/** The first field of an index key as a number (integers, decimals, dates as days), else undefined. */
function firstNumber(ix: TableIndex, key: Uint8Array): number | undefined {
  const v = ix.codec.decode(key)[0];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime() / 86_400_000;
  if (typeof v === 'string') {
    if (/^-?\d{4}-\d{2}-\d{2}$/.test(v)) return Date.parse(`${v}T00:00:00Z`) / 86_400_000;
    const x = Number(v);
    return Number.isFinite(x) ? x : undefined;
  }
  return undefined;
}

/** memcmp of `bytes[off, off + min(len, key.length))` with `key`: <0, 0 (key is a prefix), >0. */
function comparePrefix(bytes: Uint8Array, off: number, len: number, key: Uint8Array): number {
  const n = Math.min(len, key.length);
  for (let i = 0; i < n; i++) {
    const d = bytes[off + i]! - key[i]!;
    if (d !== 0) return d;
  }
  return len >= key.length ? 0 : -1;
}

/** Whether `bytes[off, off + len)` begins with all of `prefix` (byte equality). */
function startsWith(bytes: Uint8Array, off: number, len: number, prefix: Uint8Array): boolean {
  const n = prefix.length;
  if (len < n) return false;
  for (let i = 0; i < n; i++) if (bytes[off + i] !== prefix[i]) return false;
  return true;
}

function nextField(key: Uint8Array, off: number): number {
  return fieldEnd(key, off, key.length);
}

/** Build a {@link TableIndex} for `columns` of a table whose primary key is `pkColumns`. */
export function describeIndex(
  tree: BTree,
  id: number,
  name: string,
  columns: readonly number[],
  pkColumns: readonly number[],
  primary: boolean,
  unique: boolean,
  tableColumns: readonly StoredColumn[],
  kinds: Uint8Array,
): TableIndex {
  const entryColumns = primary
    ? [...columns]
    : [...columns, ...pkColumns.filter((c) => !columns.includes(c))];
  const pkFields = Int32Array.from(pkColumns, (c) => entryColumns.indexOf(c));
  return {
    id,
    name,
    columns,
    primary,
    unique: primary || unique,
    tree,
    entryColumns,
    encoder: new RowKeyEncoder(entryColumns, kinds, tableColumns),
    pkFields,
    codec: new KeyCodec(entryColumns.map((c) => keySpec(tableColumns[c]!))),
  };
}
