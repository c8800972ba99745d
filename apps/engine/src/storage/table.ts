import {
  type BTree,
  compareKeys,
  DuplicateKeyError,
  fieldEnd,
  isDeleteMarked,
  KeyCodec,
  type KeyValue,
  KeyWriter,
  pageBaseOf,
  pageMaxTrxId,
} from '@enginekit/btree-sampler';
import { CorruptionError } from '@enginekit/buffer-pool';
import { keyText } from './key-text.js';
import { DuplicateEntryError, NoSuchObjectError } from './errors.js';
import { H_DELETE, H_UPDATE, H_WRITE, type HandlerStats } from './counters.js';
import { doubleKeyBytes, keyIsValue, keySpec, RowKeyEncoder } from './row-key.js';
import { K_DATE, K_DECIMAL, K_DOUBLE, K_TEXT, RowBuffer, RowCodec } from './row.js';
import type { MtrStore } from './redo/mtr.js';
import { OffPageFields, type PendingValue } from './off-page.js';
import type { ReadView } from './read-view.js';
import {
  entryRemoved,
  GapGuard,
  inheritGaps,
  intendInserts,
  ownerOf,
  RangeLocks,
  recheckInserts,
  sameBytes,
} from './record-locks.js';
import { REC_NOT_GAP, REC_ORDINARY, type TrxContext, type TrxHooks } from './trx-hooks.js';
import type { TrxSys } from './trx-sys.js';
import type { FieldValue, StoredColumn } from './types.js';
import {
  HIDDEN_BYTES,
  readU48,
  recordRollPtr,
  recordTrxId,
  ROLL_PTR_NONE,
  rollPtrIsInsert,
  UNDO_DEL_MARK_REC,
  UNDO_INSERT_REC,
  UNDO_UPD_DEL_REC,
  UNDO_UPD_EXIST_REC,
  type UndoRecord,
  undoRecordRowStart,
  writeHidden,
} from './undo-format.js';
import { LOG_ACTIVE, LOG_GONE, type UndoPosition, type UndoSpace } from './undo-log.js';

const EMPTY = new Uint8Array(0);
const NO_PARTS: readonly Uint8Array[] = [];
/** A cached "the view sees no version of this record". */
const NOT_SEEN = new Uint8Array(0);
/** Entries of a table's version cache before it starts over. */
const SEEN_CACHE = 4096;
const TEXT_ENCODER = new TextEncoder();
/** Spare row buffers a table keeps for its reads (one per read in progress is enough). */
const SPARE_ROWS = 8;

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

/** What a table's versions need of its database: the undo logs and the transaction system. */
export interface Mvcc {
  readonly undo: UndoSpace;
  readonly trxSys: TrxSys;
  /** The hooks of the statement running on this thread against the database. */
  readonly running: TrxContext;
}

/** A pushed index condition on an entry's bytes `b[ko, ko+kl)`. */
export type EntryTest = (b: Uint8Array, ko: number, kl: number) => boolean;

/**
 * What a walk of an index does with an entry `b[ko, ko+kl)` whose value is `b[vo, vo+vl)` (bytes
 * valid during the call only): false stops the walk.
 */
export type EntryVisit = (b: Uint8Array, ko: number, kl: number, vo: number, vl: number) => boolean;

/** The rows a row change's step made visible (steps of secondary indexes return nothing). */
function rowsMade(r: unknown): number {
  return typeof r === 'number' ? r : 0;
}

/**
 * A table: a clustered B+tree keyed by the primary key whose records hold the whole row, and one
 * B+tree per secondary index whose entries are (secondary key, primary key) with an empty value,
 * as InnoDB. Every write keeps all trees consistent; a duplicate primary or unique key throws
 * {@link DuplicateEntryError} before anything changes.
 *
 * Versions, as InnoDB's: a clustered record's value starts with DB_TRX_ID and DB_ROLL_PTR
 * (undo-format.ts). A write inside a transaction (the database's `running` hooks set) logs its undo first —
 * the previous version, in the transaction's undo log pages — and the new version points to it;
 * a delete only sets the delete mark, on the clustered record and on every secondary entry; an
 * update that changes a secondary key delete-marks the old entry and adds the new one; an insert
 * over a delete-marked record of the same key takes that record over. Purge removes delete-marked
 * records and entries once no read view needs them ({@link purgeChange}); a rollback undoes a
 * change from its undo record ({@link undoChange}).
 *
 * A consistent read (the hooks give a read view) sees, of each clustered record, the version its
 * view sees, built back from the undo chain (`row_vers_build_for_consistent_read`); a secondary
 * entry is trusted as it is when its page's PAGE_MAX_TRX_ID is older than every transaction the
 * view does not see, and otherwise checked against the visible version of its clustered record
 * (`lock_sec_rec_cons_read_sees`, `row_sel_sec_rec_is_for_clust_rec`). Other reads see the latest
 * versions and pass over delete-marked ones.
 *
 * Threads may write at once: each row operation runs under the database's change latch
 * (MtrStore.hold), row locks keep writers of one row apart, and readers run beside them (page
 * latches keep them from seeing a half-made page).
 */
export class Table {
  readonly id: number;
  readonly name: string;
  readonly columns: readonly StoredColumn[];
  readonly codec: RowCodec;
  readonly primary: TableIndex;
  readonly secondary: readonly TableIndex[];
  /** Rows (not delete-marked), kept exact by every write and stored in SYS_TABLES on flush. */
  rows: number;
  /**
   * `stat_modified_counter`: rows inserted, deleted, or updated in an indexed column since the
   * statistics were last computed (the statistics reset it; see src/storage/stats).
   */
  statModifiedCounter = 0;
  /**
   * Raised each time the table's statistics are recalculated or replaced, by whichever thread
   * does it (shared between worker threads, as the counter above): a cached copy taken at another
   * generation is reloaded.
   */
  statsGeneration = 0;
  /** Writes since the table was opened (a statistics cache keys on it). */
  changes = 0;
  readonly #stats: HandlerStats;
  /** Each row operation is one mini-transaction of this store (null: no redo, as before). */
  readonly #mtr: MtrStore | null;
  /** Undo logs and transaction ids (null: a table without versions, such as a loader's side file). */
  readonly #mvcc: Mvcc | null;
  /** The off-page TEXT and BLOB values (null: the table has no such column). */
  readonly #offPage: OffPageFields | null;
  readonly #row: RowBuffer;
  readonly #old: RowBuffer;
  /** Versions are decoded here to encode their index entries. */
  readonly #ver: RowBuffer;
  /**
   * Two buffers that decode only the columns of the indexes (no off-page value is read for the
   * others): the versions whose entries a removal, a rollback or purge works out.
   */
  readonly #keysNow: RowBuffer;
  readonly #keysPrev: RowBuffer;
  /** Rebuilds the primary key carried by a secondary entry. */
  readonly #pk = new KeyWriter(256);
  /** Row buffers reads gave back ({@link acquireRow}). */
  readonly #spareRows: RowBuffer[] = [];
  /** Scratch for the key values of a lookup's prefix or a range's bound (filled and encoded at once). */
  readonly #prefixValues: KeyValue[] = [];
  /** Where #encodeKey writes a key before copying it out. */
  readonly #keyScratch = new Uint8Array(1024);
  /** The row of the version {@link #see} found: bytes, offset, length. */
  #vsrc: Uint8Array = EMPTY;
  #voff = 0;
  #vlen = 0;
  /**
   * Versions built for one read view: the newest record's roll pointer → the version the view
   * sees (or {@link NOT_SEEN}). Safe while the view is open: the undo records it needed belong to
   * transactions it does not see, which purge keeps until the view closes; a record changed since
   * has a new roll pointer.
   */
  readonly #seen = new Map<number, Uint8Array>();
  #seenView: ReadView | null = null;

  constructor(
    id: number,
    name: string,
    columns: readonly StoredColumn[],
    indexes: readonly TableIndex[],
    rows: number,
    stats: HandlerStats,
    mtr: MtrStore | null = null,
    mvcc: Mvcc | null = null,
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
    this.#mvcc = mvcc;
    this.#offPage =
      mtr !== null && this.codec.hasExternal ? new OffPageFields(this.codec, mtr, `table ${name}`) : null;
    this.#row = new RowBuffer(columns, this.codec.kinds);
    this.#old = new RowBuffer(columns, this.codec.kinds);
    // lookup() takes key values; only a primary key without collated text or BIGINT UNSIGNED has
    // the same values in its rows (storage/row-key.ts)
    this.#plainPk = primary.columns.every((c) => keyIsValue(columns[c]!));
    this.#ver = new RowBuffer(columns, this.codec.kinds);
    const indexed = new Uint8Array(columns.length);
    // an entry holds its key and the primary key
    for (const ix of indexes) for (const c of ix.columns) indexed[c] = 1;
    this.#keysNow = new RowBuffer(columns, this.codec.kinds);
    this.#keysNow.wantOnly(indexed);
    this.#keysPrev = new RowBuffer(columns, this.codec.kinds);
    this.#keysPrev.wantOnly(indexed);
  }

  /** The handler counters this table's reads add to (the handler layer counts its calls here). */
  get handlerStats(): HandlerStats {
    return this.#stats;
  }

  /** The mini-transaction store and versions this table writes with (a copy of a table keeps them). */
  get mtrStore(): MtrStore | null {
    return this.#mtr;
  }

  get mvcc(): Mvcc | null {
    return this.#mvcc;
  }

  readonly #plainPk: boolean;

  /** A row buffer for this table's columns (reuse it across calls). */
  newRow(): RowBuffer {
    return new RowBuffer(this.columns, this.codec.kinds);
  }

  /**
   * A row buffer for one read, from this table's spares (a buffer costs an array per column to
   * make; a statement's reads come and go): give it back with {@link releaseRow} when the read
   * ends. Every column is wanted.
   */
  acquireRow(): RowBuffer {
    const row = this.#spareRows.pop() ?? this.newRow();
    row.wantOnly(null);
    return row;
  }

  /**
   * The largest value of numeric column `c` over every record of the clustered index, whatever
   * its transaction: uncommitted and delete-marked records count too, as InnoDB's
   * `row_search_max_autoinc` reads the index without a view. Where an AUTO_INCREMENT counter
   * starts (0 for an empty table). Counts no handler read and takes no lock.
   */
  maxStoredValue(c: number): number {
    const row = this.acquireRow();
    let max = 0;
    try {
      this.primary.tree.forEachRangeRaw(null, null, (b, _ko, _kl, vo, vl) => {
        this.codec.decode(b, vo + HIDDEN_BYTES, vl - HIDDEN_BYTES, row);
        if (row.nulls[c] === 0 && row.nums[c]! > max) max = row.nums[c]!;
        return undefined;
      });
    } finally {
      this.releaseRow(row);
    }
    return max;
  }

  /** Gives back a buffer {@link acquireRow} lent (no view of it may be kept). */
  releaseRow(row: RowBuffer): void {
    if (this.#spareRows.length < SPARE_ROWS) this.#spareRows.push(row);
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

  /**
   * A clustered record's value for `row`: DB_TRX_ID `trxId`, DB_ROLL_PTR `roll`, then the row
   * (a new array). Loaders write `clusteredValue(row)`: a version every transaction sees.
   */
  clusteredValue(row: RowBuffer, trxId = 0, roll: number = ROLL_PTR_NONE): Uint8Array {
    const value = this.codec.encode(row);
    const out = new Uint8Array(HIDDEN_BYTES + value.length);
    writeHidden(out, 0, trxId, roll);
    out.set(value, HIDDEN_BYTES);
    return out;
  }

  /**
   * The BLOB pages of every record's off-page values (a dropped table's, freed with its trees).
   * Versions still in undo logs keep theirs until purge, which passes over a dropped table.
   */
  offPagePages(): number[] {
    const off = this.#offPage;
    const pages: number[] = [];
    if (off === null) return pages;
    this.primary.tree.forEachRangeRaw(null, null, (b, _ko, _kl, vo, vl) => {
      pages.push(...off.pages(b, vo + HIDDEN_BYTES, vl - HIDDEN_BYTES));
      return true;
    });
    return pages;
  }

  // ---------------------------------------------------------------- writes

  /**
   * The record value of `row` (no hidden fields) whose clustered key takes `pkLen` bytes: when it
   * would not fit a page, its longest TEXT and BLOB values are planned off-page (written by
   * {@link #record} inside the write's mini-transaction). Checks every value against its type.
   */
  #encodeRow(row: RowBuffer, pkLen: number): PendingValue {
    const plan = this.#offPage?.plan(row, pkLen + HIDDEN_BYTES, this.primary.tree.maxEntryBytes) ?? null;
    if (plan === null) return { value: this.codec.encode(row).slice(), parts: NO_PARTS };
    return this.#offPage!.prepare(row, plan);
  }

  /**
   * The clustered record value: DB_TRX_ID, DB_ROLL_PTR, then `v` — its off-page values written
   * first. Runs inside the write's mini-transaction.
   */
  #record(v: PendingValue, trxId: number, roll: number): Uint8Array {
    if (v.parts.length > 0) this.#offPage!.write(v);
    const full = new Uint8Array(HIDDEN_BYTES + v.value.length);
    writeHidden(full, 0, trxId, roll);
    full.set(v.value, HIDDEN_BYTES);
    return full;
  }

  /** Runs one row operation's tree changes as one mini-transaction (none without a redo log). */
  #inMtr<T>(fn: () => T): T {
    const m = this.#mtr;
    if (m === null) return fn();
    m.begin();
    let r: T;
    try {
      r = fn();
    } catch (e) {
      m.rollback();
      throw e;
    }
    m.commit();
    return r;
  }

  /**
   * Runs one row operation — its reads of the records it changes, its lock checks, its undo record
   * and its mini-transactions — under the database's change latch (MtrStore.hold), so another
   * thread's row operation never comes between what it read and what it changes.
   */
  #held<T>(fn: () => T): T {
    const m = this.#mtr;
    return m === null ? fn() : m.hold(fn);
  }

  /**
   * Runs one row change whose steps each change one index. Inside a transaction (`split`) each
   * step is a mini-transaction of its own, as InnoDB changes the clustered index and then each
   * secondary one: the thread never holds the page latches of one index while it waits for a
   * page of another, so a reader holding a secondary leaf while it fetches the row (or an outer
   * table's leaf while it probes an inner index) never waits in a cycle with it; a crash between
   * steps leaves an uncommitted change the undo log rolls back. Outside a transaction (loaders,
   * the dictionary: nothing would undo a part) all steps are one mini-transaction.
   *
   * The step that changes the clustered record returns how many rows it made visible (1: a new or
   * undeleted record, −1: a delete-marked or removed one); the row count moves by that when its
   * mini-transaction commits, so it follows the clustered index even when a later step fails and
   * the undo log takes the record back.
   */
  #steps(split: boolean, steps: ReadonlyArray<() => unknown>): void {
    if (!split) {
      this.#countRows(
        this.#inMtr(() => {
          let rows = 0;
          for (const s of steps) rows += rowsMade(s());
          return rows;
        }),
      );
      return;
    }
    for (const s of steps) this.#countRows(rowsMade(this.#inMtr(s)));
  }

  /** Moves the row count (shared by the server's workers) by `delta` rows. */
  #countRows(delta: number): void {
    if (delta !== 0) this.rows += delta;
  }

  /** One step per secondary index `i` of a row change (see {@link #steps}). */
  #perSecondary(fn: (ix: TableIndex, i: number) => void): Array<() => void> {
    return this.secondary.map((ix, i) => () => {
      fn(ix, i);
    });
  }

  /**
   * Insert a row (a {@link RowBuffer} or convenience values in column order). With a redo log the
   * row and all its index entries are one mini-transaction (its undo record another, before it):
   * all of it or none survives a crash, and an error leaves every tree as it was.
   */
  insert(values: RowBuffer | readonly FieldValue[]): void {
    this.#held(() => this.#insertRow(values));
  }

  #insertRow(values: RowBuffer | readonly FieldValue[]): void {
    // Handler_write counts the call, a failed one too (ha_write_row counts before write_row)
    this.#stats.counts[H_WRITE]!++;
    const row = this.#toRow(values, this.#row);
    const pk = this.primary.encoder.encode(row).slice();
    const value = this.#encodeRow(row, pk.length);
    this.#checkSizes(row, pk.length + HIDDEN_BYTES + value.value.length);
    const h = this.#hooks();
    const old = this.primary.tree.getRecord(pk);
    if (old !== undefined) {
      // the possible duplicate is S-locked, record only (row_ins_duplicate_error_in_clust): its
      // writer may still roll back
      if (h !== null)
        h.duplicate(this, this.primary, pk, 0, pk.length, REC_NOT_GAP, recordTrxId(old.value, 0));
      if (!old.deleted) throw this.#dup(this.primary, row);
    }
    for (const ix of this.secondary) if (ix.unique) this.#checkUnique(ix, row, null);
    const entries = this.secondary.map((ix) => ix.encoder.encode(row).slice());
    let added: ReturnType<typeof intendInserts> = [];
    if (h !== null) {
      // insert intentions on each new entry's successor; a new record is then locked
      // implicitly by its DB_TRX_ID, a delete-marked one taken over explicitly
      const targets: Array<[TableIndex, Uint8Array]> = old === undefined ? [[this.primary, pk]] : [];
      for (const [i, ix] of this.secondary.entries()) targets.push([ix, entries[i]!]);
      added = intendInserts(h, this, targets);
      if (old !== undefined) h.write(this, pk, recordTrxId(old.value, 0));
    }
    const undo = h === null || this.#mvcc === null ? null : h.undo();
    if (undo === null && old !== undefined) this.#removeNow(pk, old.value);
    let trxId = 0;
    let roll = ROLL_PTR_NONE;
    if (undo !== null) {
      trxId = undo.id();
      roll =
        old === undefined
          ? undo.logInsert(this, pk)
          : undo.logModify(
              this,
              UNDO_UPD_DEL_REC,
              pk,
              true,
              recordTrxId(old.value, 0),
              recordRollPtr(old.value, 0),
              old.value,
              HIDDEN_BYTES,
              old.value.length - HIDDEN_BYTES,
            );
    }
    this.#steps(undo !== null, [
      () => {
        const full = this.#record(value, trxId, roll);
        if (undo !== null && old !== undefined) {
          // an insert over a delete-marked record of the same key takes it over
          // (row_ins_clust_index_entry_by_modify); its old entries stay delete-marked
          this.primary.tree.update(pk, full);
          this.primary.tree.setDeleteMark(pk, undefined, false);
        } else {
          try {
            this.primary.tree.insert(pk, full);
          } catch (e) {
            if (e instanceof DuplicateKeyError) throw this.#dup(this.primary, row);
            throw e;
          }
        }
        if (h !== null) recheckInserts(h, this, added, this.primary);
        return 1;
      },
      ...this.#perSecondary((ix, i) => {
        this.#addEntry(ix, entries[i]!, trxId);
        if (h !== null) recheckInserts(h, this, added, ix);
      }),
    ]);
    inheritGaps(this, added);
    this.statModifiedCounter++;
    this.changes++;
  }

  /**
   * Adds a secondary entry: a delete-marked one with the same bytes (an older version of the row
   * had this key) is unmarked instead (`row_ins_sec_index_entry_by_modify`).
   */
  #addEntry(ix: TableIndex, entry: Uint8Array, trxId: number): void {
    try {
      ix.tree.insert(entry, EMPTY, trxId);
    } catch (e) {
      if (!(e instanceof DuplicateKeyError)) throw e;
      const r = ix.tree.getRecord(entry);
      if (r === undefined || !r.deleted)
        throw new CorruptionError(
          this.name,
          0,
          ix.tree.rootPage,
          `index ${ix.name} already holds an entry being added`,
        );
      ix.tree.setDeleteMark(entry, EMPTY, false, trxId);
    }
  }

  /**
   * Removes a delete-marked record and its delete-marked entries at once (a write outside any
   * transaction over a version nobody can need any more: a loader, the dictionary).
   */
  #removeNow(pk: Uint8Array, value: Uint8Array): void {
    const row = this.#keysNow;
    this.codec.decode(value, HIDDEN_BYTES, value.length - HIDDEN_BYTES, row);
    this.#inMtr(() => {
      for (const ix of this.secondary) ix.tree.delete(ix.encoder.encode(row), EMPTY);
      this.primary.tree.delete(pk);
      this.#offPage?.free(value, HIDDEN_BYTES, value.length - HIDDEN_BYTES);
    });
  }

  /** Delete the row with this primary key (values of the PK columns, in PK order). */
  delete(pkValues: readonly FieldValue[]): boolean {
    return this.deleteKey(this.#pkFromValues(pkValues));
  }

  /**
   * Delete the row whose clustered key (the encoded primary key) is `pk`: inside a transaction a
   * delete mark on the record and its entries (after the undo record); outside, a removal.
   */
  deleteKey(pk: Uint8Array): boolean {
    return this.#held(() => this.#deleteRow(pk));
  }

  #deleteRow(pk: Uint8Array): boolean {
    const key = pk.slice();
    const h = this.#hooks();
    const old = this.primary.tree.getRecord(key);
    if (h !== null && old !== undefined) h.write(this, key, recordTrxId(old.value, 0));
    if (old === undefined || old.deleted) return false;
    const row = this.#keysPrev;
    this.codec.decode(old.value, HIDDEN_BYTES, old.value.length - HIDDEN_BYTES, row);
    const entries = this.secondary.map((ix) => ix.encoder.encode(row).slice());
    const undo = h === null || this.#mvcc === null ? null : h.undo();
    if (undo === null) {
      this.#steps(false, [
        () => {
          for (const [i, ix] of this.secondary.entries()) ix.tree.delete(entries[i]!, EMPTY);
          this.primary.tree.delete(key);
          this.#offPage?.free(old.value, HIDDEN_BYTES, old.value.length - HIDDEN_BYTES);
          return -1;
        },
      ]);
    } else {
      const trxId = undo.id();
      const roll = undo.logModify(
        this,
        UNDO_DEL_MARK_REC,
        key,
        false,
        recordTrxId(old.value, 0),
        recordRollPtr(old.value, 0),
        old.value,
        HIDDEN_BYTES,
        old.value.length - HIDDEN_BYTES,
      );
      const marked = old.value.slice();
      writeHidden(marked, 0, trxId, roll);
      this.#steps(true, [
        () => {
          this.primary.tree.update(key, marked);
          this.primary.tree.setDeleteMark(key, undefined, true);
          return -1;
        },
        ...this.#perSecondary((ix, i) => ix.tree.setDeleteMark(entries[i]!, EMPTY, true, trxId)),
      ]);
    }
    this.statModifiedCounter++;
    this.changes++;
    this.#stats.counts[H_DELETE]!++;
    return true;
  }

  /**
   * Replace the row whose primary key is `pkValues` with `values` (which may change the primary
   * key). Returns false if there is no such row. A duplicate key changes nothing.
   */
  update(pkValues: readonly FieldValue[], values: RowBuffer | readonly FieldValue[]): boolean {
    return this.updateKey(this.#pkFromValues(pkValues), values);
  }

  /**
   * {@link Table.update} of the row whose clustered key is `pk`. Inside a transaction the record is
   * updated in place after its undo record (`row_upd_clust_rec`), a changed secondary key is
   * delete-marked and the new one added; a changed primary key is a delete mark of the old record
   * and an insert of the new one (`row_upd_clust_rec_by_insert`).
   */
  updateKey(pk: Uint8Array, values: RowBuffer | readonly FieldValue[]): boolean {
    return this.#held(() => this.#updateRow(pk, values));
  }

  #updateRow(pk: Uint8Array, values: RowBuffer | readonly FieldValue[]): boolean {
    const oldPk = pk.slice();
    const h = this.#hooks();
    const old = this.primary.tree.getRecord(oldPk);
    if (h !== null && old !== undefined) h.write(this, oldPk, recordTrxId(old.value, 0));
    if (old === undefined || old.deleted) return false;
    const oldRow = this.#old;
    this.codec.decode(old.value, HIDDEN_BYTES, old.value.length - HIDDEN_BYTES, oldRow);
    const row = this.#toRow(values, this.#row);
    const newPk = this.primary.encoder.encode(row).slice();
    const newValue = this.#encodeRow(row, newPk.length);
    this.#checkSizes(row, newPk.length + HIDDEN_BYTES + newValue.value.length);
    const undo = h === null || this.#mvcc === null ? null : h.undo();
    if (compareKeys(oldPk, newPk) !== 0) {
      const clash = this.primary.tree.getRecord(newPk);
      if (clash !== undefined) {
        const owner = recordTrxId(clash.value, 0);
        if (h !== null) h.duplicate(this, this.primary, newPk, 0, newPk.length, REC_NOT_GAP, owner);
        if (!clash.deleted) throw this.#dup(this.primary, row);
      }
      for (const ix of this.secondary) if (ix.unique) this.#checkUnique(ix, row, oldPk);
      let added: ReturnType<typeof intendInserts> = [];
      if (h !== null) {
        // the new record and its entries are inserts (row_upd_clust_rec_by_insert)
        const targets: Array<[TableIndex, Uint8Array]> = clash === undefined ? [[this.primary, newPk]] : [];
        for (const ix of this.secondary) targets.push([ix, ix.encoder.encode(row).slice()]);
        added = intendInserts(h, this, targets);
        if (clash !== undefined) h.write(this, newPk, recordTrxId(clash.value, 0));
      }
      // the new row's values survive the delete below (it reuses the old-row buffer only)
      const keep = row === this.#row ? this.#copyRow(row) : row;
      this.#deleteForUpdate(oldPk, old.value, oldRow, undo);
      this.#insertForUpdate(newPk, keep, undo, clash, h, added);
      inheritGaps(this, added);
      this.statModifiedCounter++;
      this.#stats.counts[H_UPDATE]!++;
      this.changes++;
      return true;
    }
    const changes: Array<[TableIndex, Uint8Array, Uint8Array]> = [];
    for (const ix of this.secondary) {
      const before = ix.encoder.encode(oldRow).slice();
      const after = ix.encoder.encode(row).slice();
      if (compareKeys(before, after) === 0) continue;
      if (ix.unique) this.#checkUnique(ix, row, oldPk);
      changes.push([ix, before, after]);
    }
    // a changed secondary key is a new entry: its insert intention first (row_upd_sec_index_entry)
    const added =
      h === null
        ? []
        : intendInserts(
            h,
            this,
            changes.map(([ix, , after]) => [ix, after] as const),
          );
    let trxId = 0;
    let roll = ROLL_PTR_NONE;
    if (undo !== null) {
      trxId = undo.id();
      roll = undo.logModify(
        this,
        UNDO_UPD_EXIST_REC,
        oldPk,
        false,
        recordTrxId(old.value, 0),
        recordRollPtr(old.value, 0),
        old.value,
        HIDDEN_BYTES,
        old.value.length - HIDDEN_BYTES,
      );
    }
    this.#steps(undo !== null, [
      () => {
        this.primary.tree.update(oldPk, this.#record(newValue, trxId, roll));
        // outside a transaction the old version is gone at once; inside, purge frees its values
        if (undo === null) this.#offPage?.free(old.value, HIDDEN_BYTES, old.value.length - HIDDEN_BYTES);
      },
      ...changes.map(([ix, before, after]) => () => {
        if (undo === null) {
          ix.tree.delete(before, EMPTY);
          ix.tree.insert(after, EMPTY, 0);
        } else {
          ix.tree.setDeleteMark(before, EMPTY, true, trxId);
          this.#addEntry(ix, after, trxId);
        }
        if (h !== null) recheckInserts(h, this, added, ix);
      }),
    ]);
    inheritGaps(this, added);
    // row_update_for_mysql counts an UPDATE only when it changes an ordering field of some index
    if (changes.length > 0) this.statModifiedCounter++;
    this.#stats.counts[H_UPDATE]!++;
    this.changes++;
    return true;
  }

  #copyRow(row: RowBuffer): RowBuffer {
    const copy = this.newRow();
    copy.setAll(row.toArray());
    return copy;
  }

  /** The first half of a primary-key change: the old record goes (delete mark, or removal outside a transaction). */
  #deleteForUpdate(
    pk: Uint8Array,
    value: Uint8Array,
    oldRow: RowBuffer,
    undo: ReturnType<TrxHooks['undo']> | null,
  ): void {
    const entries = this.secondary.map((ix) => ix.encoder.encode(oldRow).slice());
    if (undo === null) {
      this.#steps(false, [
        () => {
          for (const [i, ix] of this.secondary.entries()) ix.tree.delete(entries[i]!, EMPTY);
          this.primary.tree.delete(pk);
          this.#offPage?.free(value, HIDDEN_BYTES, value.length - HIDDEN_BYTES);
          return -1;
        },
      ]);
      return;
    }
    const trxId = undo.id();
    const roll = undo.logModify(
      this,
      UNDO_DEL_MARK_REC,
      pk,
      false,
      recordTrxId(value, 0),
      recordRollPtr(value, 0),
      value,
      HIDDEN_BYTES,
      value.length - HIDDEN_BYTES,
    );
    const marked = value.slice();
    writeHidden(marked, 0, trxId, roll);
    this.#steps(true, [
      () => {
        this.primary.tree.update(pk, marked);
        this.primary.tree.setDeleteMark(pk, undefined, true);
        return -1;
      },
      ...this.#perSecondary((ix, i) => ix.tree.setDeleteMark(entries[i]!, EMPTY, true, trxId)),
    ]);
  }

  /** The second half of a primary-key change: the new record (over a delete-marked one with its key, if any). */
  #insertForUpdate(
    pk: Uint8Array,
    row: RowBuffer,
    undo: ReturnType<TrxHooks['undo']> | null,
    old: { value: Uint8Array; deleted: boolean } | undefined,
    h: TrxHooks | null,
    added: ReturnType<typeof intendInserts>,
  ): void {
    const value = this.#encodeRow(row, pk.length);
    if (undo === null && old !== undefined) this.#removeNow(pk, old.value);
    let trxId = 0;
    let roll = ROLL_PTR_NONE;
    if (undo !== null) {
      trxId = undo.id();
      roll =
        old === undefined
          ? undo.logInsert(this, pk)
          : undo.logModify(
              this,
              UNDO_UPD_DEL_REC,
              pk,
              true,
              recordTrxId(old.value, 0),
              recordRollPtr(old.value, 0),
              old.value,
              HIDDEN_BYTES,
              old.value.length - HIDDEN_BYTES,
            );
    }
    const entries = this.secondary.map((ix) => ix.encoder.encode(row).slice());
    this.#steps(undo !== null, [
      () => {
        const full = this.#record(value, trxId, roll);
        if (undo !== null && old !== undefined) {
          this.primary.tree.update(pk, full);
          this.primary.tree.setDeleteMark(pk, undefined, false);
        } else this.primary.tree.insert(pk, full);
        if (h !== null) recheckInserts(h, this, added, this.primary);
        return 1;
      },
      ...this.#perSecondary((ix, i) => {
        this.#addEntry(ix, entries[i]!, trxId);
        if (h !== null) recheckInserts(h, this, added, ix);
      }),
    ]);
  }

  // ---------------------------------------------------------------- rollback and purge

  /**
   * Undoes one change of transaction `trxId` from its undo record `rec` (at roll pointer `roll`),
   * as InnoDB's row_undo_ins / row_undo_mod: an insert is removed with its entries; an update or
   * a delete mark puts the previous version back (its DB_TRX_ID, DB_ROLL_PTR and delete mark) and
   * its entries as they were. A change that never reached the tree (its mini-transaction failed
   * or was lost in a crash) is recognized by the record's roll pointer and passed over, so this
   * can run again on the same record. Runs outside any transaction's hooks.
   */
  undoChange(rec: UndoRecord, roll: number, trxId: number): void {
    this.#held(() => this.#undoChange(rec, roll, trxId));
  }

  #undoChange(rec: UndoRecord, roll: number, trxId: number): void {
    const pk = rec.key;
    const cur = this.primary.tree.getRecord(pk);
    if (cur === undefined) return;
    if (recordTrxId(cur.value, 0) !== trxId || recordRollPtr(cur.value, 0) !== roll) return;
    const now = this.#keysNow;
    this.codec.decode(cur.value, HIDDEN_BYTES, cur.value.length - HIDDEN_BYTES, now);
    const nowEntries = this.secondary.map((ix) => ix.encoder.encode(now).slice());
    if (rec.type === UNDO_INSERT_REC) {
      // the secondary entries first, the record last: run again after a crash in between, the
      // record still names this change
      this.#steps(true, [
        ...this.#perSecondary((ix, i) => ix.tree.delete(nowEntries[i]!, EMPTY)),
        () => {
          this.primary.tree.delete(pk);
          this.#offPage?.free(cur.value, HIDDEN_BYTES, cur.value.length - HIDDEN_BYTES);
          return cur.deleted ? 0 : -1;
        },
      ]);
      // the removed entries' locks go to their successors as gap locks
      for (const [i, ix] of this.secondary.entries()) entryRemoved(this, ix, nowEntries[i]!);
      entryRemoved(this, this.primary, pk);
      this.changes++;
      return;
    }
    const prev = this.#keysPrev;
    this.codec.decode(rec.oldRow, 0, rec.oldRow.length, prev);
    const prevEntries = this.secondary.map((ix) => ix.encoder.encode(prev).slice());
    const restored = new Uint8Array(HIDDEN_BYTES + rec.oldRow.length);
    writeHidden(restored, 0, rec.oldTrxId, rec.oldRollPtr);
    restored.set(rec.oldRow, HIDDEN_BYTES);
    // which of the current entries an older version still has (they stay, delete-marked)
    const kept = this.secondary.map((ix, i) =>
      compareKeys(nowEntries[i]!, prevEntries[i]!) === 0
        ? true
        : this.#versionsHaveEntry(ix, nowEntries[i]!, restored, rec.oldDeleted),
    );
    // the entries first, the record last: run again after a crash in between, the record still
    // names this change (each entry step can run twice)
    this.#steps(true, [
      ...this.#perSecondary((ix, i) => {
        const nowE = nowEntries[i]!;
        const prevE = prevEntries[i]!;
        if (compareKeys(nowE, prevE) !== 0) {
          if (kept[i]) ix.tree.setDeleteMark(nowE, EMPTY, true);
          else ix.tree.delete(nowE, EMPTY);
        }
        ix.tree.setDeleteMark(prevE, EMPTY, rec.oldDeleted);
      }),
      () => {
        this.primary.tree.update(pk, restored);
        this.primary.tree.setDeleteMark(pk, undefined, rec.oldDeleted);
        // the rolled-back version's own off-page values go (a delete mark shares the old ones)
        this.#offPage?.free(
          cur.value,
          HIDDEN_BYTES,
          cur.value.length - HIDDEN_BYTES,
          rec.oldRow,
          0,
          rec.oldRow.length,
        );
        return (cur.deleted ? 1 : 0) - (rec.oldDeleted ? 1 : 0);
      },
    ]);
    for (const [i, ix] of this.secondary.entries())
      if (!kept[i] && compareKeys(nowEntries[i]!, prevEntries[i]!) !== 0)
        entryRemoved(this, ix, nowEntries[i]!);
    this.changes++;
  }

  /**
   * Purges one undo record of a committed transaction `trxId` every read view sees
   * (`row_purge`): a delete-marked record still as that transaction left it goes, with its
   * entries; after an update, the entries of the previous version that no version still needs
   * go. Can run again on the same record.
   */
  purgeChange(rec: UndoRecord, trxId: number, pos: UndoPosition | null = null): void {
    this.#held(() => this.#purgeChange(rec, trxId, pos));
  }

  #purgeChange(rec: UndoRecord, trxId: number, pos: UndoPosition | null): void {
    if (rec.type === UNDO_INSERT_REC) return;
    // references marked freed: an earlier run of this purge step finished (it frees last)
    if (this.#offPage?.freedSome(rec.oldRow) === true) return;
    const pk = rec.key;
    const prev = this.#keysPrev;
    this.codec.decode(rec.oldRow, 0, rec.oldRow.length, prev);
    const prevEntries = this.secondary.map((ix) => ix.encoder.encode(prev).slice());
    const cur = this.primary.tree.getRecord(pk);
    if (
      rec.type === UNDO_DEL_MARK_REC &&
      cur !== undefined &&
      cur.deleted &&
      recordTrxId(cur.value, 0) === trxId
    ) {
      // the row was deleted and nobody can see it any more: its record and entries go
      const now = this.#keysNow;
      this.codec.decode(cur.value, HIDDEN_BYTES, cur.value.length - HIDDEN_BYTES, now);
      const nowEntries = this.secondary.map((ix) => ix.encoder.encode(now).slice());
      const gone: TableIndex[] = [];
      // the entries first, the record last (purge run again after a crash finds the record)
      this.#steps(true, [
        ...this.#perSecondary((ix, i) => {
          const r = ix.tree.getRecord(nowEntries[i]!);
          if (r?.deleted) {
            ix.tree.delete(nowEntries[i]!, EMPTY);
            gone.push(ix);
          }
        }),
        () => {
          this.primary.tree.delete(pk);
          this.#offPage?.free(cur.value, HIDDEN_BYTES, cur.value.length - HIDDEN_BYTES);
        },
      ]);
      for (const ix of gone) entryRemoved(this, ix, nowEntries[this.secondary.indexOf(ix)]!);
      entryRemoved(this, this.primary, pk);
      return;
    }
    // an update (or a delete since taken over): entries of the previous version that the
    // record's versions no longer have go
    for (const [i, ix] of this.secondary.entries()) {
      const e = prevEntries[i]!;
      const r = ix.tree.getRecord(e);
      if (r === undefined || !r.deleted) continue;
      if (cur !== undefined && this.#versionsHaveEntry(ix, e, cur.value, cur.deleted)) continue;
      this.#inMtr(() => ix.tree.delete(e, EMPTY));
      entryRemoved(this, ix, e);
    }
    // the previous version's off-page values: an update wrote new ones, so nothing newer has
    // them. Freed with the undo record's references marked freed, in one mini-transaction: purge
    // run again after a crash passes them over (`row_purge_upd_exist_or_extern`).
    const off = this.#offPage;
    if (off !== null && pos !== null && rec.type !== UNDO_DEL_MARK_REC && off.holdsValues(rec.oldRow)) {
      this.#inMtr(() => {
        const freed = off.free(
          rec.oldRow,
          0,
          rec.oldRow.length,
          cur?.value ?? null,
          HIDDEN_BYTES,
          cur === undefined ? 0 : cur.value.length - HIDDEN_BYTES,
        );
        off.markFreed(pos.page, pos.offset + undoRecordRowStart(rec.key.length), freed);
      });
    }
  }

  /**
   * Purge of an undo record of this table after it was dropped (its trees are gone): only the
   * off-page values of the version the record holds go, as {@link purgeChange} frees them (DROP
   * TABLE freed those of its records; an update's old version had its own).
   */
  purgeDropped(rec: UndoRecord, pos: UndoPosition): void {
    const off = this.#offPage;
    if (off === null || rec.type === UNDO_INSERT_REC || rec.type === UNDO_DEL_MARK_REC) return;
    if (!off.holdsValues(rec.oldRow)) return;
    this.#inMtr(() => {
      const freed = off.free(rec.oldRow, 0, rec.oldRow.length);
      off.markFreed(pos.page, pos.offset + undoRecordRowStart(rec.key.length), freed);
    });
  }

  /** Whether the table has columns whose values may be stored off-page. */
  get hasOffPage(): boolean {
    return this.#offPage !== null;
  }

  /**
   * Whether a version of the clustered record whose newest version is `value` (delete-marked:
   * `deleted`) that some read view may still see has the secondary entry `entry`
   * (`row_vers_old_has_index_entry`): the versions are walked back through the undo chain while
   * their transaction is active or newer than purge's limit.
   */
  #versionsHaveEntry(ix: TableIndex, entry: Uint8Array, value: Uint8Array, deleted: boolean): boolean {
    const mvcc = this.#mvcc;
    const row = this.#ver;
    let bytes = value;
    let off = HIDDEN_BYTES;
    let del = deleted;
    let trx = recordTrxId(value, 0);
    let roll = recordRollPtr(value, 0);
    const limit = mvcc === null ? 0 : mvcc.trxSys.purgeLimit();
    for (;;) {
      if (!del) {
        this.codec.decode(bytes, off, bytes.length - off, row);
        if (compareKeys(ix.encoder.encode(row), entry) === 0) return true;
      }
      if (mvcc === null || trx === 0 || rollPtrIsInsert(roll)) return false;
      const status = mvcc.undo.logStatus(roll, trx);
      // a version by a transaction every view sees is the oldest any view needs
      if (status === LOG_GONE || (status !== LOG_ACTIVE && status < limit)) return false;
      const rec = mvcc.undo.readAt(roll, trx);
      if (rec === null) return false;
      bytes = rec.oldRow;
      off = 0;
      del = rec.oldDeleted;
      trx = rec.oldTrxId;
      roll = rec.oldRollPtr;
    }
  }

  // ---------------------------------------------------------------- versions a read sees

  /**
   * Finds the version of the clustered record `b[ko, ko+kl)` → `b[vo, vo+vl)` that `view` sees
   * (null: the latest one that is not delete-marked), leaving its row in #vsrc/#voff/#vlen.
   * Returns false when the read sees no row there. The undo chain is read only when the
   * record's transaction is one the view does not see.
   */
  #see(b: Uint8Array, ko: number, vo: number, vl: number, view: ReadView | null): boolean {
    const del = isDeleteMarked(b, ko);
    if (view === null || view.sees(readU48(b, vo))) {
      if (del) return false;
      this.#vsrc = b;
      this.#voff = vo + HIDDEN_BYTES;
      this.#vlen = vl - HIDDEN_BYTES;
      return true;
    }
    const mvcc = this.#mvcc!;
    const trx = readU48(b, vo);
    const roll = recordRollPtr(b, vo);
    // The same record version read again under the same view (a secondary index holds one entry
    // per version of its key, each sent to this record) resolves from the cache.
    if (this.#seenView !== view) {
      this.#seenView = view;
      this.#seen.clear();
    }
    const first = roll;
    const hit = this.#seen.get(first);
    if (hit !== undefined) {
      if (hit === NOT_SEEN) return false;
      this.#vsrc = hit;
      this.#voff = 0;
      this.#vlen = hit.length;
      return true;
    }
    const found = this.#seeOlder(trx, roll, view, mvcc.undo);
    if (this.#seen.size >= SEEN_CACHE) this.#seen.clear();
    this.#seen.set(first, found ? this.#vsrc.subarray(this.#voff, this.#voff + this.#vlen) : NOT_SEEN);
    return found;
  }

  /** Follows the roll pointers from (trx, roll) to the first version `view` sees. */
  #seeOlder(trx: number, roll: number, view: ReadView, undo: UndoSpace): boolean {
    let del: boolean;
    for (;;) {
      if (rollPtrIsInsert(roll)) return false;
      const rec = undo.readAt(roll, trx);
      if (rec === null)
        throw new CorruptionError(
          this.name,
          0,
          this.primary.tree.rootPage,
          `the undo record of a version by transaction ${trx} a read view needs is gone`,
        );
      trx = rec.oldTrxId;
      roll = rec.oldRollPtr;
      del = rec.oldDeleted;
      if (view.sees(trx)) {
        if (del) return false;
        this.#vsrc = rec.oldRow;
        this.#voff = 0;
        this.#vlen = rec.oldRow.length;
        return true;
      }
    }
  }

  /**
   * The hooks of the statement running on this thread against this table's database (null
   * outside a statement, and for a table without versions).
   */
  #hooks(): TrxHooks | null {
    return this.#mvcc === null ? null : this.#mvcc.running.current;
  }

  /** The transaction hooks of the statement now running against this table, if any. */
  get runningTrx(): TrxHooks | null {
    return this.#hooks();
  }

  /** The view this read of the table uses (null: the latest versions). */
  #view(): ReadView | null {
    const h = this.#hooks();
    return h === null || this.#mvcc === null ? null : h.view(this);
  }

  // ---------------------------------------------------------------- reads

  /**
   * The encoded key of `values` for the leading columns of index `indexName` (a ref's prefix, a
   * range's bound; NULL sorts first, as in the tree): the one route from values to an index key.
   */
  keyPrefix(indexName: string, values: readonly FieldValue[]): Uint8Array {
    const ix = this.index(indexName);
    const n = values.length;
    // a full primary key without NULLs: the row encoder, as a write encodes it
    if (ix.primary && n === ix.columns.length && this.#plainPk && !hasNull(values))
      return this.#pkFromValues(values).slice();
    // else the key codec, given the values in one scratch array (read at once: nesting is safe)
    const scratch = this.#prefixValues;
    try {
      scratch.length = n;
      for (let i = 0; i < n; i++) scratch[i] = this.#keyValue(ix.entryColumns[i], values[i]!);
      return this.#encodeKey(ix, scratch);
    } finally {
      scratch.length = 0;
    }
  }

  /**
   * `records_in_range`: index entries whose first column lies between `lo` and `hi` (either may
   * be undefined: open; NULLs are never in a range), without reading rows or touching the handler
   * counters. Up to `cap` entries are counted; past that the rest is interpolated on the first
   * column's value (the span the counted entries covered against the span left to the upper
   * bound, or to the index's last entry when it is open), or, for a column that is not a number
   * or date, taken as half of the index's other entries.
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
    const loKey = this.keyPrefix(indexName, [lo === undefined ? null : lo]);
    const skipEqual = lo === undefined || !loInclusive;
    const hiKey = hi === undefined ? null : this.keyPrefix(indexName, [hi]);
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

  /** Entries of `index` in one {@link KeyRange}, counted up to `cap` (records_in_range; no counters). */
  countRange(indexName: string, r: KeyRange, cap: number): number {
    const ix = this.index(indexName);
    let n = 0;
    this.walkIndex(ix, r.lo, r.loExclusive, r.hi, r.hiInclusive, null, null, () => ++n < cap && !r.unique);
    return n;
  }

  /** Index entries whose key starts with `prefix` (values of its leading columns), counted up to `cap`. */
  countPrefix(indexName: string, prefix: readonly FieldValue[], cap: number): number {
    const key = this.keyPrefix(indexName, prefix);
    return this.countRange(
      indexName,
      { lo: key, loExclusive: false, hi: key, hiInclusive: true, unique: false },
      cap,
    );
  }

  // ------------------------------------------------------------- the handler layer's primitives
  //
  // The storage half of a read: walking an index, the locks, what a read's view sees and the
  // row's bytes. The handler layer (src/handler) composes these into its calls and counts them;
  // nothing here counts a read.

  /**
   * The locks a locking read of one range of `ix` takes as it goes (null for a consistent read or
   * outside a transaction): `equality` — the range is one searched prefix; `unique` — a full-key
   * search of a unique index; `geKey` — the full primary key a clustered range starts at.
   */
  rangeLocks(
    ix: TableIndex,
    equality: boolean,
    unique: boolean,
    geKey: Uint8Array | null,
  ): RangeLocks | null {
    const h = this.#hooks();
    return h !== null && this.#view() === null ? new RangeLocks(h, this, ix, equality, unique, geKey) : null;
  }

  /**
   * One walk along index `ix`, as `row_search_mvcc` moves: from the first entry at or past `from`
   * (past every entry that starts with it when `after`: a range's exclusive bound, or the last
   * entry taken, to resume; empty: the index's first entry) up to the range's end (an entry is
   * past `hi` when its first `hi.length` bytes compare greater, or equal and `hiInclusive` is
   * false; null: the end of the index). Each entry in range takes its lock (`locks`), then `check`
   * (a pushed index condition, on the entry alone; null accepts all) looks at it; one that passes
   * goes to `visit` (`b[ko, ko+kl)` the entry, `b[vo, vo+vl)` its value; valid during the call),
   * which returns false to stop. Returns true when the range ended: the first entry past it was
   * met (its gap locked) or the index ran out (the supremum locked).
   */
  walkIndex(
    ix: TableIndex,
    from: Uint8Array,
    after: boolean,
    hi: Uint8Array | null,
    hiInclusive: boolean,
    check: EntryTest | null,
    locks: RangeLocks | null,
    visit: EntryVisit,
  ): boolean {
    // A walk holds its leaf S-latched while its entries are used (a locking read locks under the
    // page latch, as InnoDB). The row's clustered record and another index are read meanwhile
    // without a cycle (a writer changes one index per mini-transaction), but a descent of the same
    // index inside it (a walk, or a point read of the row behind an entry) could meet a split
    // waiting for the outer walk's leaf, or ask again for the leaf an exclusive request is queued
    // on: the first such nesting restarts the statement, and from then on this thread walks that
    // index detached (each leaf copied, none latched while its entries are used).
    this.beforeDescent(ix);
    const detach = this.#detachedWalks.has(ix);
    if (!detach) this.#latchedWalks.set(ix, (this.#latchedWalks.get(ix) ?? 0) + 1);
    try {
      return this.#walk(ix, from, after, hi, hiInclusive, check, locks, visit, detach);
    } finally {
      if (!detach) this.#latchedWalks.set(ix, this.#latchedWalks.get(ix)! - 1);
    }
  }

  /**
   * {@link walkIndex} backward, for a read that takes no locks (a consistent read, or a read
   * outside a transaction: see {@link readsLock}): from the last entry in range down to the first.
   * An entry is in range when its first `hi.length` bytes compare less than `hi`, or equal with
   * `hiInclusive` (null: no upper end), and its first `lo.length` bytes compare greater than `lo`,
   * or equal unless `loExclusive` (empty: no lower end). `check` and `visit` as in walkIndex.
   * The walk is detached (each leaf copied, none latched while its entries are used: moving left
   * releases a leaf before it latches the next, as InnoDB's backward cursor restarts from the left
   * page). Returns true when the range ended, false when `visit` stopped it.
   */
  walkIndexBackward(
    ix: TableIndex,
    lo: Uint8Array,
    loExclusive: boolean,
    hi: Uint8Array | null,
    hiInclusive: boolean,
    check: EntryTest | null,
    visit: EntryVisit,
  ): boolean {
    this.beforeDescent(ix);
    // the entries at or below an inclusive prefix are the ones below the prefix's successor
    const before = hi === null ? null : hiInclusive ? prefixSuccessor(hi) : hi;
    let ended = true;
    ix.tree.forEachRangeRawBackward(
      before,
      (b, ko, kl, vo, vl) => {
        if (lo.length > 0) {
          const c = comparePrefix(b, ko, kl, lo);
          if (c < 0 || (c === 0 && loExclusive)) return false;
        }
        if (check !== null && !check(b, ko, kl)) return true;
        if (visit(b, ko, kl, vo, vl)) return true;
        ended = false;
        return false;
      },
      true,
    );
    return ended;
  }

  /** Whether a read of this table now takes locks (a locking read: no view, in a transaction). */
  readsLock(): boolean {
    return this.#hooks() !== null && this.#view() === null;
  }

  /**
   * A read of `ix` is about to descend it from the root. When a latched walk of `ix` is under way
   * on this thread (the descent would nest inside it), the statement restarts and this thread
   * walks `ix` detached from then on; a read outside a statement (no transaction hooks) goes on.
   */
  beforeDescent(ix: TableIndex): void {
    if ((this.#latchedWalks.get(ix) ?? 0) === 0 || this.#detachedWalks.has(ix)) return;
    const h = this.#hooks();
    if (h === null) return;
    this.#detachedWalks.add(ix);
    h.restartStatement();
  }

  /** Latched walks under way on this thread, by index (see walkIndex). */
  readonly #latchedWalks = new Map<TableIndex, number>();
  /** Indexes this thread walks detached: a descent of one began inside a latched walk of it. */
  readonly #detachedWalks = new Set<TableIndex>();

  #walk(
    ix: TableIndex,
    from: Uint8Array,
    after: boolean,
    hi: Uint8Array | null,
    hiInclusive: boolean,
    check: EntryTest | null,
    locks: RangeLocks | null,
    visit: EntryVisit,
    detach: boolean,
  ): boolean {
    let ended = false;
    let stopped = false;
    let skipping = after;
    // A read that locks gaps stops at an entry whose gap it entered from another leaf, and looks
    // at that gap again before going on (GapGuard). A detached locking read stops at every entry
    // it locks: the gap is looked at again (when it locks gaps) and the walk goes on from a copy of
    // the leaf made after the lock, so the row it reads is the latest.
    const guard = locks !== null && (locks.gaps || detach) ? new GapGuard(ix, from, after, detach) : null;
    let start = from.length === 0 ? null : from;
    /** The entry a walk resumes at: locked already, its gap looked at. */
    let resumed: Uint8Array | null = null;
    for (;;) {
      let pending: Uint8Array | null = null;
      ix.tree.forEachRangeRaw(
        start,
        null,
        (b, ko, kl, vo, vl) => {
          if (skipping) {
            if (startsWith(b, ko, kl, from)) {
              guard?.passed(b, ko, kl);
              return true;
            }
            skipping = false;
          }
          const again = resumed !== null && sameBytes(b, ko, kl, resumed);
          resumed = null;
          if (hi !== null) {
            const c = comparePrefix(b, ko, kl, hi);
            if (c > 0 || (c === 0 && !hiInclusive)) {
              ended = true;
              if (!again && locks !== null && (locks.past(b, ko, kl, vo) || detach) && guard!.crosses(ko))
                pending = b.slice(ko, ko + kl);
              return false;
            }
          }
          // the lock comes before the pushed index condition looks at the entry (row_search_mvcc)
          if (!again && locks !== null && (locks.entry(b, ko, kl, vo) || detach) && guard!.crosses(ko)) {
            pending = b.slice(ko, ko + kl);
            return false;
          }
          guard?.passed(b, ko, kl);
          if (check !== null && !check(b, ko, kl)) return true;
          if (visit(b, ko, kl, vo, vl)) return true;
          stopped = true;
          return false;
        },
        detach,
      );
      if (pending !== null) {
        if (locks!.gaps && !guard!.holds(pending)) locks!.gapMoved();
        if (ended) break;
        start = resumed = pending;
        continue;
      }
      if (!ended && !stopped) {
        ended = true;
        if (locks?.end() === true && guard !== null && !guard.holds(null)) locks.gapMoved();
      }
      break;
    }
    return ended;
  }

  /** The view the next clustered entry a read reaches is seen under (a semi-consistent read). */
  #semi: ReadView | null = null;

  /**
   * A semi-consistent read took no lock on the clustered entry it is at: that entry is read at
   * `view` (its last committed version; none for an uncommitted insert) instead of its latest.
   */
  readCommittedVersionOnce(view: ReadView): void {
    this.#semi = view;
  }

  /** `handler::unlock_row`: the SQL layer rejected the row this table's last read returned. */
  unlockRow(): void {
    const h = this.#hooks();
    if (h !== null) h.unlockRow(this);
  }

  /** The row this table's last read returned passed the WHERE clause (a semi-consistent read's cue). */
  rowMatched(): void {
    const h = this.#hooks();
    if (h !== null) h.rowMatched(this);
  }

  /**
   * What a read does with each entry of `ix` it reaches, as one function fixed at the read's start
   * (its view is asked for here): whether the read sees a row there and, when `row` is given, that
   * row decoded into it — the version of a clustered record the view sees, or the row a secondary
   * entry points to. With `lockRow`, a locking read locks that row's record only before reading it
   * (the row behind a locked secondary entry). With `row` null (a covering read, a row id) no row
   * is built unless the entry's page holds changes the view may not see (then the row's visible
   * version decides).
   */
  rowReader(ix: TableIndex, row: RowBuffer | null, lockRow: boolean): EntryVisit {
    const codec = this.codec;
    const view = this.#view();
    if (ix.primary)
      return (b, ko, _kl, vo, vl) => {
        let v = view;
        if (this.#semi !== null) {
          v = this.#semi;
          this.#semi = null;
        }
        if (!this.#see(b, ko, vo, vl, v)) return false;
        if (row !== null) codec.decode(this.#vsrc, this.#voff, this.#vlen, row);
        return true;
      };
    const h = this.#hooks();
    if (lockRow && h !== null && view === null)
      return (b, ko, kl) => {
        if (isDeleteMarked(b, ko)) return false;
        const pk = this.#pkOfEntry(ix, b, ko, kl);
        h.readRow(this, pk, 0, pk.length, ownerOf(this, pk));
        return this.#secondarySees(ix, b, ko, kl, view, row);
      };
    return (b, ko, kl) => this.#secondarySees(ix, b, ko, kl, view, row);
  }

  /**
   * The primary key the entry `b[ko, ko+kl)` of `ix` carries: a view of `b` for the clustered
   * index, else a view of a scratch buffer valid until the next call.
   */
  entryPrimaryKey(ix: TableIndex, b: Uint8Array, ko: number, kl: number): Uint8Array {
    return ix.primary ? b.subarray(ko, ko + kl) : this.#pkOfEntry(ix, b, ko, kl);
  }

  /**
   * `rnd_pos`'s storage half: the row whose encoded primary key is `pk[0, len)`, the version the
   * read sees, decoded into `row` (true), or false when the read sees none there (deleted, or
   * changed by a transaction it does not see, since the key was taken). A locking read locks the
   * record only (the row behind a locked secondary entry).
   */
  rowAt(pk: Uint8Array, len: number, row: RowBuffer): boolean {
    const h = this.#hooks();
    const view = this.#view();
    const key = len === pk.length ? pk : pk.subarray(0, len);
    this.beforeDescent(this.primary);
    if (h !== null && view === null) h.readRow(this, key, 0, len, ownerOf(this, key));
    let found = false;
    this.primary.tree.forEachRangeRaw(key, null, (b, ko, kl, vo, vl) => {
      if (kl === len && startsWith(b, ko, kl, key) && this.#see(b, ko, vo, vl, view)) {
        this.codec.decode(this.#vsrc, this.#voff, this.#vlen, row);
        found = true;
      }
      return false;
    });
    return found;
  }

  /**
   * Whether the read sees a row through the secondary entry `b[ko, ko+kl)` of `ix`, decoding that
   * row into `row` when given. Without a view: an entry that is not delete-marked, and the latest
   * version of its row. With one: when the entry's page holds no change the view may miss
   * (PAGE_MAX_TRX_ID below its `up_limit_id`), the entry's delete mark decides; otherwise the
   * visible version of the row decides, and it must still have this entry.
   */
  #secondarySees(
    ix: TableIndex,
    b: Uint8Array,
    ko: number,
    kl: number,
    view: ReadView | null,
    row: RowBuffer | null,
  ): boolean {
    if (view === null || view.seesPage(pageMaxTrxId(b, pageBaseOf(ko, ix.tree.pageSize)))) {
      if (isDeleteMarked(b, ko)) return false;
      if (row === null) return true;
      return this.#fetch(ix, b, ko, kl, view, row);
    }
    const into = row ?? this.#ver;
    if (!this.#fetch(ix, b, ko, kl, view, into)) return false;
    // the version read must be one this entry belongs to (row_sel_sec_rec_is_for_clust_rec)
    const e = ix.encoder.encode(into);
    return e.length === kl && startsWith(b, ko, kl, e);
  }

  /**
   * Decodes into `row` the version of the row behind `ix`'s entry `b[ko, ko+kl)` the read sees;
   * false: it sees none. Rollback and purge remove entries before
   * their record, so a missing record is either an entry gone since a detached walk copied its
   * leaf (the entry is no longer in the index: nothing to see) or corruption (the entry is still
   * there, and the record is still missing when looked up again): a RangeError naming the index.
   */
  #fetch(
    ix: TableIndex,
    b: Uint8Array,
    ko: number,
    kl: number,
    view: ReadView | null,
    row: RowBuffer,
  ): boolean {
    this.beforeDescent(this.primary);
    const pk = this.#pkOfEntry(ix, b, ko, kl);
    const seen = this.#fetchOnce(pk, view, row);
    if (seen !== null) return seen;
    if (!ix.tree.has(b.subarray(ko, ko + kl))) return false;
    // the entry is there: its row may have been inserted since the first look (record first)
    const again = this.#fetchOnce(pk, view, row);
    if (again !== null) return again;
    throw new RangeError(`index ${ix.name} of ${this.name} points at a missing row`);
  }

  /** {@link Table.#fetch}'s lookup: whether the read sees the row, null when there is no record. */
  #fetchOnce(pk: Uint8Array, view: ReadView | null, row: RowBuffer): boolean | null {
    let found = false;
    let exists = false;
    this.primary.tree.forEachRangeRaw(pk, null, (cb, cko, ckl, cvo, cvl) => {
      if (ckl === pk.length && startsWith(cb, cko, ckl, pk)) {
        exists = true;
        if (this.#see(cb, cko, cvo, cvl, view)) {
          this.codec.decode(this.#vsrc, this.#voff, this.#vlen, row);
          found = true;
        }
      }
      return false;
    });
    return exists ? found : null;
  }

  /**
   * Verify the secondary indexes against the clustered index, the row count, and each tree's own
   * invariants; throws RangeError at the first difference. Every record that is not
   * delete-marked has each of its entries, unmarked; every unmarked entry is such a record's;
   * delete-marked entries and records are versions purge has not removed yet — with `purged`
   * there may be none.
   */
  checkIndexes(purged = false): void {
    this.primary.tree.checkValid();
    const expected: Uint8Array[][] = this.secondary.map(() => []);
    let n = 0;
    let marked = 0;
    this.primary.tree.forEachRangeRaw(null, null, (b, ko, _kl, vo, vl) => {
      if (isDeleteMarked(b, ko)) {
        marked++;
        return true;
      }
      this.codec.decode(b, vo + HIDDEN_BYTES, vl - HIDDEN_BYTES, this.#old);
      for (const [i, ix] of this.secondary.entries()) expected[i]!.push(ix.encoder.encode(this.#old).slice());
      n++;
      return true;
    });
    if (n !== this.rows)
      throw new RangeError(`${this.name}: ${n} rows in the clustered index, row count says ${this.rows}`);
    if (purged && marked > 0)
      throw new RangeError(`${this.name}: ${marked} delete-marked records after purge`);
    for (const [i, ix] of this.secondary.entries()) {
      ix.tree.checkValid();
      const want = expected[i]!.sort(compareKeys);
      let j = 0;
      ix.tree.forEachRangeRaw(null, null, (b, ko, kl) => {
        if (isDeleteMarked(b, ko)) {
          if (purged) throw new RangeError(`${this.name}.${ix.name}: a delete-marked entry after purge`);
          return true;
        }
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
    let clash = false;
    let stopped = false;
    let first = true;
    const h = this.#hooks();
    // row_ins_scan_sec_index_for_duplicate, which runs only when an entry has the key: every
    // entry with the key and the first one after it (or the supremum) S-locked next-key; a
    // delete-marked entry is no duplicate
    ix.tree.forEachRangeRaw(prefix, null, (b, ko, kl) => {
      if (!startsWith(b, ko, kl, prefix)) {
        if (h !== null && !first) h.duplicate(this, ix, b, ko, kl, REC_ORDINARY);
        stopped = true;
        return false;
      }
      first = false;
      if (h !== null) h.duplicate(this, ix, b, ko, kl, REC_ORDINARY);
      const pk = this.#pkOfEntry(ix, b, ko, kl);
      if (self !== null && compareKeys(pk, self) === 0) return true;
      // the entry may be another transaction's uncommitted insert or delete, whose lock is on
      // its record (InnoDB's implicit lock): wait for that writer (it may roll back) before
      // judging
      if (h !== null) h.duplicate(this, this.primary, pk, 0, pk.length, REC_NOT_GAP, ownerOf(this, pk));
      if (isDeleteMarked(b, ko)) return true;
      clash = true;
      stopped = true;
      return false;
    });
    if (!stopped && !first && h !== null) h.duplicate(this, ix, null, 0, 0, REC_ORDINARY);
    if (clash) throw this.#dup(ix, row);
  }

  #dup(ix: TableIndex, row: RowBuffer): DuplicateEntryError {
    const shown = keyText(
      ix.columns.map((c) => this.columns[c]!.type),
      ix.columns.map((c) => row.get(c)),
    );
    return new DuplicateEntryError(this.name, ix.name, shown);
  }
}

/** The first field of an index key as a number (integers, decimals, dates as days), else undefined. */
function hasNull(values: readonly FieldValue[]): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === null) return true;
  return false;
}

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

/**
 * The smallest byte string above every string that begins with `prefix` (the prefix with its
 * trailing 0xFF bytes dropped and its last byte raised), or null when there is none (all 0xFF).
 */
function prefixSuccessor(prefix: Uint8Array): Uint8Array | null {
  let n = prefix.length;
  while (n > 0 && prefix[n - 1] === 0xff) n--;
  if (n === 0) return null;
  const out = prefix.slice(0, n);
  out[n - 1]!++;
  return out;
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
