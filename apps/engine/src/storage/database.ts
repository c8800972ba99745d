import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BufferPool,
  type BufferPoolStats,
  type DiskProfile,
  FileDevice,
  type PageDevice,
  getPageLsn,
  type PageStore,
  readUint32BE,
  setPageType,
  SimulatedDevice,
  writeUint32BE,
} from '@enginekit/buffer-pool';
import { BTree } from '@enginekit/btree-sampler';
import { Catalog, type IndexEntry } from './catalog.js';
import { type HandlerCounter, HandlerStats } from './counters.js';
import { NoSuchObjectError, NotADatabaseError } from './errors.js';
import {
  checkInnodbPageSize,
  FORMAT_VERSION,
  HDR_MAGIC,
  HDR_DATABASE_ID,
  HDR_FREE_FIRST,
  HDR_IN_USE,
  HDR_FREE_N,
  HDR_NEXT_INDEX_ID,
  HDR_NEXT_TABLE_ID,
  HDR_PAGE_COUNT,
  HDR_PAGE_SIZE,
  HDR_SYS_COLUMNS,
  HDR_SYS_INDEXES,
  HDR_SYS_STATS,
  HDR_SYS_TABLES,
  HDR_TRX_SYS,
  HDR_VERSION,
  MAGIC,
  PAGE_TYPE_DB_HEADER,
  probeHeader,
} from './header.js';
import { fsyncParent } from './dir-sync.js';
import { ExtendingDevice } from './file-extend.js';
import { DatabaseLock } from './file-lock.js';
import { freePage, freePageCount } from './fsp.js';
import { type PurgeBatch, purge } from './purge.js';
import { TrxSys } from './trx-sys.js';
import { TrxUndo } from './trx-undo.js';
import { UndoSpace } from './undo-log.js';
import { columnKinds } from './row.js';
import {
  createDurable,
  type DurabilityOptions,
  dropCleanRedo,
  type DurableOpen,
  MtrStore,
  newDatabaseId,
  openDurable,
  PageCleaner,
  type RecoveryReport,
  type RedoLog,
} from './redo/index.js';
import { readU64, writeU64 } from './redo/format.js';
import { NeedsRecoveryError, ReadOnlyFileDevice, readRedoReadOnly } from './read-only.js';
import { resolveDatabasePath } from './real-path.js';
import { describeIndex, Table, type TableIndex } from './table.js';
import type { TrxContext } from './trx-hooks.js';
import type { IndexDef, TableSchema } from './types.js';
import { StatisticsDictionary } from './stats/statistics-dictionary.js';
import type { TableStatsOptions } from './stats/settings.js';
import type { StatisticsSource, TableStatistics } from './statistics.js';

/**
 * Options of {@link Database.create} and {@link Database.open}; the durability ones (redo log,
 * `innodb_flush_log_at_trx_commit`, log sizes, doublewrite, page cleaner) are described in
 * docs/durability.md.
 */
export interface DatabaseOptions extends DurabilityOptions {
  /**
   * Rollback segments of a new database (InnoDB's `innodb_rollback_segments` / `innodb_undo_logs`,
   * 128 in MySQL 5.6; here at most 16). Only when creating. Default 4.
   */
  readonly innodb_rollback_segments?: number;
  /** `innodb_buffer_pool_size`, bytes. Default 134217728 (128 MiB, MySQL's default). */
  readonly innodb_buffer_pool_size?: number;
  /** `innodb_page_size`, bytes, a power of two 4096–65536; only when creating (a file keeps its own). Default 16384. */
  readonly innodb_page_size?: number;
  /** `innodb_buffer_pool_instances`. Default 1. */
  readonly innodb_buffer_pool_instances?: number;
  /**
   * `innodb_sort_buffer_size`, bytes: the sort buffer of each index build (ALTER TABLE, CREATE
   * INDEX), a startup option as in MySQL (the variable is read-only). 65536–67108864. Default
   * 1048576.
   */
  readonly innodb_sort_buffer_size?: number;
  /**
   * Charge modeled disk time for every page read and write (buffer-pool's SimulatedDevice around
   * the file): `'hdd'`, `'ssd'`, `'nvme'` or a custom profile. Default: none (plain file).
   */
  readonly disk?: 'hdd' | 'ssd' | 'nvme' | DiskProfile;
  /**
   * Page latches of the buffer pool, and so of every tree (they latch pages through it):
   * `'atomic'`, the atomics rw-lock of InnoDB Plugin 1.0.3+, or `'legacy'`, MySQL 5.1's rw-lock
   * behind its inner mutex with 5.1's spin defaults. Default `'atomic'`.
   */
  readonly latches?: 'atomic' | 'legacy';
  /**
   * `Database.open` only: read the file and write nothing (InnoDB's `innodb_read_only`). The file
   * and any redo log are opened read-only; no log or doublewrite file is created, no checkpoint
   * written, nothing flushed, and `close()` writes nothing. A database that needs crash recovery
   * (redo to apply, transactions to roll back) is refused (NeedsRecoveryError naming the file):
   * recovery writes. Changes made
   * through it stay in the buffer pool; a page that has to be written is an error naming the file.
   */
  readonly readOnly?: boolean;
}

/** What {@link Database} restores when a DDL step fails: its table objects and next ids. */
interface SavedState {
  readonly tables: Map<string, Table>;
  readonly nextTable: number;
  readonly nextIndex: number;
}

/** `innodb_sort_buffer_size`: MySQL's default and bounds. */
export const SORT_BUFFER_SIZE = { def: 1048576, min: 65536, max: 67108864 } as const;

function checkSortBufferSize(v: number | undefined): number {
  if (v === undefined) return SORT_BUFFER_SIZE.def;
  if (!Number.isInteger(v) || v < SORT_BUFFER_SIZE.min || v > SORT_BUFFER_SIZE.max)
    throw new RangeError(
      `innodb_sort_buffer_size must be an integer from ${SORT_BUFFER_SIZE.min} to ${SORT_BUFFER_SIZE.max}, got ${String(v)}`,
    );
  return v;
}

/** Name prefix of the copy a copying ALTER TABLE builds before swapping it in. */
export const ALTER_COPY_PREFIX = '#alter-';

/** Name prefix of a session's TEMPORARY table (session/temporary-tables.ts): none outlives an open. */
export const TEMPORARY_TABLE_PREFIX = '#tmp-';

/** First index id given to user indexes (1–4 are the dictionary trees). */
const FIRST_USER_INDEX_ID = 16;

/**
 * The directories of temporary databases not closed yet. A program that ends without closing
 * one (a failed test, a REPL left with Ctrl-D) still leaves nothing behind: the set is emptied
 * when the process (or worker thread) exits.
 */
const leftTemporaryDirs = new Set<string>();
let removeAtExit = false;

function rememberTemporary(dir: string): void {
  if (!removeAtExit) {
    removeAtExit = true;
    process.once('exit', () => {
      for (const d of leftTemporaryDirs) rmSync(d, { recursive: true, force: true });
      leftTemporaryDirs.clear();
    });
  }
  leftTemporaryDirs.add(dir);
}

/**
 * A database: one file, page 0 its header (see header.ts), the data dictionary in B+trees
 * (catalog.ts), and tables of B+trees, all through one buffer pool.
 *
 * @example
 * ```ts
 * const db = Database.create('/tmp/shop.ekdb');
 * const t = db.createTable({ name: 't', columns: [{ name: 'id', type: { kind: 'int' } }], primaryKey: ['id'] });
 * t.insert([1]);
 * db.close();
 * Database.open('/tmp/shop.ekdb').table('t').rows; // 1
 * ```
 */
export class Database implements StatisticsSource {
  /** The database file, symbolic links resolved: every file named after it lies beside it. */
  readonly path: string;
  readonly pool: BufferPool;
  readonly device: PageDevice;
  readonly catalog: Catalog;
  readonly handler: HandlerStats = new HandlerStats();
  /** Optimizer statistics: cache, SYS_STATS persistence, generators, the variables they follow. */
  readonly statisticsDictionary: StatisticsDictionary;
  /** The page store every tree writes through: mini-transactions over the pool (see redo/mtr.ts). */
  readonly store: MtrStore;
  /**
   * What the trees write through: {@link store} with a redo log, the pool itself without one (so
   * a database without redo pays nothing for it).
   */
  readonly treeStore: PageStore;
  /** The redo log, or null when the database runs without one (`redo: false`). */
  readonly redo: RedoLog | null;
  /** What crash recovery did when this database was opened, or null (a clean open). */
  readonly recovery: RecoveryReport | null;
  /** The undo logs: rollback segments, undo pages, history (undo-log.ts). */
  readonly undo: UndoSpace;
  /** Transaction ids, the active list and read views, in shared memory (trx-sys.ts). */
  readonly trxSys: TrxSys;
  /** The hooks of the statement running on this thread against this database (trx-hooks.ts). */
  readonly running: TrxContext = { current: null };
  /** Transactions found active at recovery and rolled back from their undo logs. */
  recoveredRollbacks = 0;
  readonly #cleaner: PageCleaner | null;
  readonly #tables = new Map<string, Table>();
  /** Dropped tables with off-page columns, by id: purge frees what their old versions hold. */
  readonly #dropped = new Map<number, Table>();
  #nextTableId: number;
  #nextIndexId: number;
  #schemaVersion = 0;
  #closed = false;
  /** A directory to remove on close ({@link Database.temporary}). */
  #tempDir: string | undefined;
  /** The database file's lock (null: read-only, or attached to another thread's open). */
  #lock: DatabaseLock | null = null;
  /** Opened with `readOnly`: close() writes nothing. */
  #readOnly = false;
  #sortBufferSize: number = SORT_BUFFER_SIZE.def;

  /** `innodb_sort_buffer_size` this database was opened with: each index build's sort buffer. */
  get sortBufferSize(): number {
    return this.#sortBufferSize;
  }

  private constructor(
    path: string,
    pool: BufferPool,
    device: PageDevice,
    catalog: Catalog,
    nextTable: number,
    nextIndex: number,
    store: MtrStore,
    cleaner: PageCleaner | null,
    recovery: RecoveryReport | null,
    undo: UndoSpace,
    trxSys: TrxSys,
  ) {
    this.path = path;
    this.undo = undo;
    this.trxSys = trxSys;
    this.pool = pool;
    this.device = device;
    this.catalog = catalog;
    this.statisticsDictionary = new StatisticsDictionary(catalog);
    this.store = store;
    this.redo = store.redo;
    this.treeStore = store.redo === null ? pool : store;
    this.#cleaner = cleaner;
    this.recovery = recovery;
    this.#nextTableId = nextTable;
    this.#nextIndexId = nextIndex;
  }

  /**
   * Create a new database file. REQUIRES: `path` does not exist or is empty. A path through
   * symbolic links is resolved first ({@link resolveDatabasePath}): the file, its log files, its
   * doublewrite file and its lock file go where the links lead, and {@link path} is that place.
   */
  static create(path: string, options: DatabaseOptions = {}): Database {
    checkPath(path);
    const file = resolveDatabasePath(path);
    return Database.#locked(file, options, () => Database.#create(file, options));
  }

  /**
   * Runs an open of `path` holding its lock file ({@link DatabaseLock}; none for a read-only
   * open): another live process with the file open is refused before anything is read or written.
   */
  static #locked(path: string, options: DatabaseOptions, open: () => Database): Database {
    const sortBufferSize = checkSortBufferSize(options.innodb_sort_buffer_size);
    const lock = options.readOnly === true ? null : DatabaseLock.acquire(path);
    try {
      const db = open();
      db.#lock = lock;
      db.#sortBufferSize = sortBufferSize;
      return db;
    } catch (e) {
      lock?.release();
      throw e;
    }
  }

  static #create(path: string, options: DatabaseOptions): Database {
    if (options.readOnly === true)
      throw new RangeError(`options.readOnly: ${path} cannot be created read-only`);
    if (existsSync(path) && statSync(path).size > 0)
      throw new RangeError(`path: ${path} already exists; open it, or remove it first`);
    const pageSize = checkInnodbPageSize(options.innodb_page_size ?? 16384);
    const { pool, device, data, durable } = openPool(path, pageSize, options, true);
    const store = storeOf(pool, durable, data);
    store.begin();
    let catalog: Catalog;
    try {
      const f = store.allocatePage(0);
      const base = f * pageSize;
      const b = pool.bytes;
      if (pool.framePageNo(f) !== 0) throw new RangeError(`path: ${path} did not start empty`);
      b.set(MAGIC, base + HDR_MAGIC);
      writeUint32BE(b, base + HDR_VERSION, FORMAT_VERSION);
      writeUint32BE(b, base + HDR_PAGE_SIZE, pageSize);
      writeU64(b, base + HDR_DATABASE_ID, durable?.databaseId ?? newDatabaseId());
      setPageType(b, base, PAGE_TYPE_DB_HEADER);
      writeUint32BE(b, base + HDR_FREE_FIRST, 0xffffffff);
      writeUint32BE(b, base + HDR_FREE_N, 0);
      writeUint32BE(b, base + HDR_IN_USE, durable === null ? 0 : 1);
      store.markDirty(f);
      catalog = Catalog.create(durable === null ? pool : store);
      const trxSysPage = UndoSpace.create(store, options.innodb_rollback_segments ?? 4);
      writeUint32BE(b, base + HDR_TRX_SYS, trxSysPage);
      store.markDirty(f);
      store.unfix(f, 2);
    } catch (e) {
      store.rollback();
      throw e;
    }
    store.commit();
    const { undo, trxSys } = openUndo(store, readTrxSysPage(pool));
    const db = new Database(
      path,
      pool,
      device,
      catalog,
      1,
      FIRST_USER_INDEX_ID,
      store,
      cleanerOf(pool, device, durable, options),
      null,
      undo,
      trxSys,
    );
    db.#ddl(() => db.#writeHeader());
    if (durable !== null) {
      // The header page and the dictionary roots are on disk before anything else: recovery
      // starts from page 0 (its page size, its identity).
      db.pool.flushAll();
      db.#cleaner?.checkpoint();
      db.#cleaner?.start();
    }
    return db;
  }

  /**
   * A database in a new temporary file, removed (with its directory) on {@link Database.close}
   * or {@link Database.abandon}: for tests and the REPL.
   */
  static temporary(options: DatabaseOptions = {}): Database {
    const dir = mkdtempSync(join(tmpdir(), 'enginekit-'));
    try {
      // Nothing survives a temporary database: no redo log unless asked for.
      const db = Database.create(join(dir, 'temp.ekdb'), { redo: false, ...options });
      db.#tempDir = dir;
      rememberTemporary(dir);
      return db;
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /**
   * Open an existing database file. Throws NotADatabaseError (no magic), FormatVersionError (a
   * newer format), or CorruptionError naming the page when a page fails its checksum.
   */
  static open(path: string, options: DatabaseOptions = {}): Database {
    checkPath(path);
    if (!existsSync(path)) throw new RangeError(`path: ${path} does not exist`);
    const file = resolveDatabasePath(path);
    return Database.#locked(file, options, () => Database.#open(file, options));
  }

  static #open(path: string, options: DatabaseOptions): Database {
    const pageSize = probeHeader(path);
    const { pool, device, data, durable, afterLsn, clean } = openPool(path, pageSize, options, false);
    const store = storeOf(pool, durable, data);
    try {
      const f = pool.fix(0, 0, 1);
      const base = f * pageSize;
      const b = pool.bytes;
      const roots = {
        tables: readUint32BE(b, base + HDR_SYS_TABLES),
        columns: readUint32BE(b, base + HDR_SYS_COLUMNS),
        indexes: readUint32BE(b, base + HDR_SYS_INDEXES),
        stats: readUint32BE(b, base + HDR_SYS_STATS),
      };
      const nextTable = readUint32BE(b, base + HDR_NEXT_TABLE_ID);
      const nextIndex = readUint32BE(b, base + HDR_NEXT_INDEX_ID);
      const magicOk = MAGIC.every((m, i) => b[base + HDR_MAGIC + i] === m);
      const dbId = readU64(b, base + HDR_DATABASE_ID);
      // Without a log, page LSNs still only grow across opens: page 0 is written last at close.
      if (durable === null) {
        pool.advanceLsn(afterLsn);
        pool.advanceLsn(getPageLsn(b, base));
      }
      pool.unfix(f, 1);
      if (!magicOk) throw new NotADatabaseError(path, 'page 0 changed while opening');
      if (durable !== null && dbId !== durable.databaseId) {
        // A file made before it had an identity: it takes the new log's.
        store.begin();
        const g = store.fix(0, 0, 2);
        writeU64(pool.bytes, g * pageSize + HDR_DATABASE_ID, durable.databaseId);
        store.markDirty(g);
        store.unfix(g, 2);
        store.commit();
      }
      const catalog = Catalog.open(durable === null ? pool : store, roots);
      const { undo, trxSys } = openUndo(store, readTrxSysPage(pool));
      const cleaner = cleanerOf(pool, device, durable, options);
      const db = new Database(
        path,
        pool,
        device,
        catalog,
        nextTable,
        nextIndex,
        store,
        cleaner,
        durable?.report ?? null,
        undo,
        trxSys,
      );
      db.#loadTables();
      if (options.readOnly === true) db.#openedReadOnly(clean);
      else {
        if (durable !== null) db.#markInUse(1);
        db.#rollbackRecovered();
        if (durable !== null) db.#afterRecovery(durable);
        db.#dropOrphans();
      }
      return db;
    } catch (e) {
      try {
        durable?.redo.close();
        pool.close();
      } catch {
        // the original error matters more
      }
      throw e;
    }
  }

  /**
   * A Database in a thread attached to a pool, a redo log and doublewrite batches another thread
   * opened (storage/attach.ts): `device` is this thread's durable device, `store` its
   * mini-transactions over the shared log, `cleaner` its (unstarted) page cleaner for the
   * synchronous flush. Reads the header and the dictionary through the pool.
   */
  static overPool(
    path: string,
    pool: BufferPool,
    device: PageDevice,
    store: MtrStore,
    cleaner: PageCleaner,
    trxSysBuffer: SharedArrayBuffer,
    sortBufferSize: number = SORT_BUFFER_SIZE.def,
  ): Database {
    if (store.redo === null) throw new TypeError('Database.overPool needs a store over the redo log');
    const undo = new UndoSpace(store, readTrxSysPage(pool));
    const trxSys = new TrxSys(trxSysBuffer);
    trxSys.persist = (bound) => undo.writeTrxIdStore(bound);
    const db = new Database(
      path,
      pool,
      device,
      Catalog.open(store, readRoots(path, pool).roots),
      0,
      0,
      store,
      cleaner,
      null,
      undo,
      trxSys,
    );
    db.#sortBufferSize = checkSortBufferSize(sortBufferSize);
    db.reloadDictionary();
    return db;
  }

  /**
   * Reads the header (catalog roots, next table and index ids) and every table definition again
   * from the pages, replacing this object's tables (Table objects taken before must not be used
   * afterwards). For a thread that shares the pool with others that changed the dictionary;
   * REQUIRES: no statement of this Database is running and no other thread changes the dictionary
   * meanwhile (the server holds its metadata lock).
   */
  reloadDictionary(): void {
    const { roots, nextTable, nextIndex } = readRoots(this.path, this.pool);
    // The catalog object keeps its trees; its roots never move once created.
    const r = this.catalog.roots;
    if (
      r.tables !== roots.tables ||
      r.columns !== roots.columns ||
      r.indexes !== roots.indexes ||
      r.stats !== roots.stats
    )
      throw new NotADatabaseError(this.path, 'the dictionary roots moved');
    this.#nextTableId = nextTable;
    this.#nextIndexId = nextIndex;
    this.#schemaVersion++;
    const before = [...this.#tables.values()];
    this.#tables.clear();
    this.#loadTables();
    // a table another thread dropped: purge on this thread still frees its old versions' values
    for (const t of before)
      if (t.hasOffPage && this.tableById(t.id) === undefined) this.#dropped.set(t.id, t);
  }

  /** Builds the Table objects from the catalog's rows, their trees on {@link treeStore}. */
  #loadTables(): void {
    for (const t of this.catalog.readAll()) {
      const kinds = columnKinds(t.columns);
      const pk = t.indexes.find((i) => i.primary);
      if (pk === undefined) throw new NotADatabaseError(this.path, `table ${t.name} has no PRIMARY index`);
      const indexes = t.indexes.map((ix) =>
        describeIndex(
          BTree.open(this.treeStore, {
            rootPage: ix.rootPage,
            // a row operation is one mini-transaction that keeps every X-latched page until it
            // commits: a leaf tried first could not be let go before the path above it is latched
            optimisticWrites: false,
            ...secondaryStats(ix.primary, ix.unique, ix.columns),
          }),
          ix.id,
          ix.name,
          ix.columns,
          pk.columns,
          ix.primary,
          ix.unique,
          t.columns,
          kinds,
        ),
      );
      this.#tables.set(
        t.name,
        new Table(t.id, t.name, t.columns, indexes, t.rows, this.handler, this.store, this),
      );
    }
  }

  /**
   * Leaves a pool shared with other threads without flushing anything: closes this thread's
   * device and log file handles and gives the pool's and the log's thread slots back (the thread
   * that created the pool flushes every page and doublewrite batch, checkpoints and closes the
   * files). For worker threads; the object must not be used afterwards.
   */
  detachFromPool(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.pool.detach();
    this.device.close();
    this.redo?.close();
  }

  /** Tables in creation order. */
  tables(): Table[] {
    return [...this.#tables.values()].sort((a, b) => a.id - b.id);
  }

  /** A table by name. */
  table(name: string): Table {
    const t = this.#tables.get(name);
    if (t === undefined) throw new NoSuchObjectError(`Table '${name}' doesn't exist`);
    return t;
  }

  hasTable(name: string): boolean {
    return this.#tables.has(name);
  }

  /** CREATE TABLE with its primary key and (empty) secondary indexes. */
  createTable(schema: TableSchema): Table {
    this.#checkOpen();
    this.#schemaVersion++;
    return this.#ddl(() => this.#createTable(schema));
  }

  #createTable(schema: TableSchema): Table {
    if (typeof schema?.name !== 'string' || schema.name.length === 0)
      throw new TypeError(`schema.name must be a non-empty string, got ${String(schema?.name)}`);
    if (this.#tables.has(schema.name))
      throw new RangeError(`schema.name: table '${schema.name}' already exists`);
    if (!Array.isArray(schema.columns) || schema.columns.length === 0)
      throw new RangeError(`schema.columns: table ${schema.name} needs at least one column`);
    const names = new Set<string>();
    for (const c of schema.columns) {
      if (names.has(c.name)) throw new RangeError(`schema.columns: duplicate column name '${c.name}'`);
      names.add(c.name);
    }
    const kinds = columnKinds(schema.columns);
    const pos = (n: string): number => {
      const i = schema.columns.findIndex((c) => c.name === n);
      if (i < 0) throw new RangeError(`Key column '${n}' doesn't exist in table ${schema.name}`);
      return i;
    };
    const pkCols = schema.primaryKey.map(pos);
    if (pkCols.length === 0)
      throw new RangeError(`schema.primaryKey: table ${schema.name} needs a primary key`);
    for (const c of pkCols) {
      if (schema.columns[c]!.nullable === true)
        throw new RangeError(`schema.primaryKey: column ${schema.columns[c]!.name} is nullable`);
    }
    const defs: IndexDef[] = [
      { name: 'PRIMARY', columns: schema.primaryKey, unique: true },
      ...(schema.indexes ?? []),
    ];
    const seen = new Set<string>();
    for (const d of defs) {
      if (seen.has(d.name)) throw new RangeError(`schema.indexes: duplicate key name '${d.name}'`);
      seen.add(d.name);
    }
    const id = this.#nextTableId++;
    const indexes: TableIndex[] = [];
    for (const [i, d] of defs.entries()) {
      const cols = d.columns.map(pos);
      if (cols.length === 0) throw new RangeError(`schema.indexes: index ${d.name} has no columns`);
      const ixId = this.#nextIndexId++;
      const primary = i === 0;
      const tree = BTree.create(this.treeStore, {
        indexId: ixId,
        tupleKeys: true,
        optimisticWrites: false,
        ...(primary ? { unique: true, clustered: true } : secondaryTree(d.unique === true, cols)),
      });
      indexes.push(
        describeIndex(tree, ixId, d.name, cols, pkCols, primary, d.unique === true, schema.columns, kinds),
      );
    }
    this.catalog.putTable(id, schema.name, 0, schema.columns.length);
    for (const [i, c] of schema.columns.entries()) this.catalog.putColumn(id, i, c);
    for (const ix of indexes) this.catalog.putIndex(id, entryOf(ix));
    const table = new Table(id, schema.name, schema.columns, indexes, 0, this.handler, this.store, this);
    this.#tables.set(schema.name, table);
    this.#writeHeader();
    return table;
  }

  /** DROP TABLE: the table leaves the dictionary (its pages are not reused yet). */
  dropTable(name: string): void {
    this.#checkOpen();
    this.#schemaVersion++;
    const t = this.table(name);
    this.#ddl(() => {
      this.catalog.dropTable(t.id);
      this.#tables.delete(name);
      this.#writeHeader();
    });
    this.statisticsDictionary.forget(t.id);
    if (t.hasOffPage) this.#dropped.set(t.id, t);
    // once no dictionary entry names the trees, their pages go to the free list
    this.#freeTrees([t.primary.tree, ...t.secondary.map((x) => x.tree), { pages: () => t.offPagePages() }]);
  }

  /** RENAME TABLE: the same trees under a new name. */
  renameTable(from: string, to: string): Table {
    this.#checkOpen();
    this.#schemaVersion++;
    const old = this.table(from);
    if (this.#tables.has(to)) throw new RangeError(`to: table '${to}' already exists`);
    const table = new Table(
      old.id,
      to,
      old.columns,
      [old.primary, ...old.secondary],
      old.rows,
      this.handler,
      this.store,
      this,
    );
    table.statModifiedCounter = old.statModifiedCounter;
    table.statsGeneration = old.statsGeneration;
    this.#ddl(() => {
      this.catalog.putTable(old.id, to, old.rows, old.columns.length);
      this.#tables.delete(from);
      this.#tables.set(to, table);
      this.#writeHeader();
    });
    return table;
  }

  /** DROP INDEX of a secondary index; returns the new table object. */
  dropIndex(tableName: string, indexName: string): Table {
    this.#checkOpen();
    this.#schemaVersion++;
    const old = this.table(tableName);
    const ix = old.index(indexName);
    if (ix.primary) throw new RangeError('indexName: the primary key cannot be dropped');
    const table = new Table(
      old.id,
      old.name,
      old.columns,
      [old.primary, ...old.secondary.filter((s) => s !== ix)],
      old.rows,
      this.handler,
      this.store,
      this,
    );
    table.statModifiedCounter = old.statModifiedCounter;
    table.statsGeneration = old.statsGeneration;
    this.#ddl(() => {
      this.catalog.dropIndex(old.id, ix.id);
      this.#tables.set(old.name, table);
      this.#writeHeader();
    });
    this.#freeTrees([ix.tree]);
    return table;
  }

  /**
   * Add a secondary index to a table: an empty tree recorded in the catalog. Fill it with
   * `buildSecondaryIndexes` (index-build.ts) when the table has rows. Returns the new table object
   * (the old one must not be used afterwards).
   */
  addIndexDefinition(tableName: string, def: IndexDef): { table: Table; index: TableIndex } {
    this.#checkOpen();
    this.#schemaVersion++;
    return this.#ddl(() => this.#addIndexDefinition(tableName, def, true));
  }

  /**
   * Runs a bulk build of index trees without redo, as InnoDB's bulk index build
   * (MTR_LOG_NO_REDO), then writes every page to the data file, so the log never refers to a
   * page only the build wrote. REQUIRES: `fn` changes only pages it allocates (or the empty roots
   * of trees it fills) and no mini-transaction is open. Logging each page image instead would fill
   * the redo log: the pages a bulk loader holds latched cannot be flushed for a checkpoint.
   */
  bulkBuild<T>(fn: () => T): T {
    this.#checkOpen();
    if (this.redo === null) return fn();
    const r = this.store.unlogged(fn);
    this.pool.flushAll();
    return r;
  }

  /**
   * CREATE INDEX as one crash-safe step: see {@link alterIndexes}, with one index to add and none
   * to drop. Returns the new table object.
   */
  addIndex(tableName: string, def: IndexDef, build: (table: Table, index: TableIndex) => void): Table {
    return this.alterIndexes(tableName, [def], [], (table, added) => build(table, added[0]!));
  }

  /**
   * ALTER TABLE's in-place index changes as one step: the trees of `add` are created and filled by
   * `build` (given the new table object and the new indexes) outside the dictionary — without redo
   * when there is a log, as InnoDB's bulk index build — then written to the data file, and only
   * then one logged mini-transaction enters them in the dictionary and removes `drop` (index
   * names). Until that mtr no reader sees the new trees, and a crash leaves the table with all of
   * its old indexes or all of the new ones. Any failure (a duplicate key in a UNIQUE build, a full
   * disk or temp directory, a bad name) leaves the dictionary, this object and the table as they
   * were. Returns the new table object (the old one must not be used afterwards).
   */
  alterIndexes(
    tableName: string,
    add: readonly IndexDef[],
    drop: readonly string[],
    build: (table: Table, added: readonly TableIndex[]) => void,
  ): Table {
    this.#checkOpen();
    this.#schemaVersion++;
    const old = this.table(tableName);
    const dropped = drop.map((n) => old.index(n));
    for (const ix of dropped) if (ix.primary) throw new RangeError('drop: the primary key cannot be dropped');
    const saved = this.#saveState();
    let table: Table;
    const added: TableIndex[] = [];
    try {
      const define = (): void => {
        for (const def of add) {
          const r = this.#addIndexDefinition(tableName, def, false);
          added.push(r.index);
        }
        table = this.table(tableName);
        if (added.length > 0) build(table, added);
      };
      if (add.length > 0) this.bulkBuild(define);
      else define();
      const kept = [table!.primary, ...table!.secondary.filter((x) => !dropped.includes(x))];
      const next = new Table(old.id, old.name, old.columns, kept, old.rows, this.handler, this.store, this);
      next.statModifiedCounter = old.statModifiedCounter;
      this.#ddl(() => {
        for (const ix of added) this.catalog.putIndex(old.id, entryOf(ix));
        for (const ix of dropped) this.catalog.dropIndex(old.id, ix.id);
        this.#tables.set(old.name, next);
        this.#writeHeader();
      });
      this.#freeTrees(dropped.map((x) => x.tree));
      return next;
    } catch (e) {
      this.#restoreState(saved);
      // the trees built for nothing are referenced by nobody: their pages are free again (written
      // first: they were made without redo, so the log cannot rebuild them)
      try {
        if (added.length > 0) {
          this.pool.flushAll();
          this.#freeTrees(added.map((x) => x.tree));
        }
      } catch {
        // the original error says more; the pages stay unused
      }
      throw e;
    }
  }

  #addIndexDefinition(
    tableName: string,
    def: IndexDef,
    record: boolean,
  ): { table: Table; index: TableIndex } {
    const old = this.table(tableName);
    if (old.secondary.some((i) => i.name === def.name) || def.name === 'PRIMARY')
      throw new RangeError(`def.name: Duplicate key name '${def.name}'`);
    const cols = def.columns.map((n) => old.columnIndex(n));
    const ixId = this.#nextIndexId++;
    const tree = BTree.create(this.treeStore, {
      indexId: ixId,
      tupleKeys: true,
      optimisticWrites: false,
      ...secondaryTree(def.unique === true, cols),
    });
    const index = describeIndex(
      tree,
      ixId,
      def.name,
      cols,
      old.primary.columns,
      false,
      def.unique === true,
      old.columns,
      old.codec.kinds,
    );
    if (record) this.catalog.putIndex(old.id, entryOf(index));
    const table = new Table(
      old.id,
      old.name,
      old.columns,
      [old.primary, ...old.secondary, index],
      old.rows,
      this.handler,
      this.store,
      this,
    );
    table.statModifiedCounter = old.statModifiedCounter;
    table.statsGeneration = old.statsGeneration;
    this.#tables.set(old.name, table);
    if (record) this.#writeHeader();
    return { table, index };
  }

  /**
   * ANALYZE TABLE of one table, or of every table: each index sampled with the estimator the
   * `innodb_stats_*` variables and the table's STATS_* options choose (see src/storage/stats), persistent
   * statistics saved in SYS_STATS. Reads the sampled pages only.
   */
  analyze(tableName?: string): TableStatistics[] {
    this.#checkOpen();
    const tables = tableName === undefined ? this.tables() : [this.table(tableName)];
    return this.#ddl(() => tables.map((t) => this.statisticsDictionary.analyze(t)));
  }

  /**
   * The statistics the optimizer reads (`dict_table_t`'s): cached; for a table not analyzed yet,
   * computed on first use as InnoDB does when it opens a table, and recalculated once enough rows
   * changed.
   */
  statistics(table: Table): TableStatistics {
    this.#checkOpen();
    const fresh = this.statisticsDictionary.fresh(table);
    if (fresh !== undefined) return fresh;
    // a first use or an auto-recalc may save statistics into the catalog: one mtr, under the
    // writers' guard (a read statement on a worker thread writes the shared catalog here)
    const save = (): TableStatistics => this.#ddl(() => this.statisticsDictionary.statistics(table));
    return this.writeGuard === null ? save() : this.writeGuard(save);
  }

  /**
   * Runs a write that a read statement makes (statistics saved on first use) under the mutex the
   * writers of other threads hold; null when this thread is the only writer. Set by the session
   * workers of `enginekit serve --threads N`; it runs `fn` at once when this thread holds the
   * mutex already.
   */
  writeGuard: (<T>(fn: () => T) => T) | null = null;

  /**
   * Give a table chosen statistics, saved as persistent ones (MySQL: edit mysql.innodb_index_stats,
   * then FLUSH TABLE). Throws RangeError naming an index that is missing or has the wrong number
   * of n_diff values.
   */
  putStatistics(tableName: string, stats: TableStatistics): TableStatistics {
    this.#checkOpen();
    return this.#ddl(() => this.statisticsDictionary.put(this.table(tableName), stats));
  }

  /** A table's STATS_PERSISTENT / STATS_SAMPLE_PAGES / STATS_AUTO_RECALC (undefined: DEFAULT). */
  setTableStatsOptions(tableName: string, options: TableStatsOptions): void {
    this.#checkOpen();
    this.#ddl(() => this.statisticsDictionary.setOptions(this.table(tableName).id, options));
  }

  /** SHOW STATUS: the Handler_* counters of this database and the pool's Innodb_* counters. */
  status(): Record<HandlerCounter, number> & BufferPoolStats & Record<string, number> {
    return { ...this.handler.snapshot(), ...this.pool.stats(), ...this.redoStatus() };
  }

  /**
   * The redo log's counters (Innodb_log_writes, Innodb_log_write_requests, Innodb_os_log_fsyncs,
   * Innodb_log_waits, …) and LSNs (Innodb_lsn_current, Innodb_lsn_flushed,
   * Innodb_lsn_last_checkpoint); empty without a redo log.
   */
  redoStatus(): Record<string, number> {
    const r = this.redo;
    if (r === null) return {};
    return {
      ...r.stats,
      Innodb_lsn_current: Number(r.lsn),
      Innodb_lsn_flushed: Number(r.flushedLsn),
      Innodb_lsn_last_checkpoint: Number(r.checkpoint.lsn),
      Innodb_checkpoint_age: Number(r.age),
      Innodb_dblwr_pages_written: this.#durableDevice()?.doublewritePages ?? 0,
      Innodb_dblwr_writes: this.#durableDevice()?.doublewriteWrites ?? 0,
    };
  }

  #durableDevice(): { doublewritePages: number; doublewriteWrites: number } | null {
    const d = this.device as PageDevice & { inner?: PageDevice; doublewritePages?: number };
    const x = d.doublewritePages !== undefined ? d : d.inner;
    return x !== undefined && 'doublewritePages' in x
      ? (x as unknown as { doublewritePages: number; doublewriteWrites: number })
      : null;
  }

  /**
   * A number that changes whenever the tables, their columns or indexes may have changed (a DDL
   * step, successful or not; {@link atomically}; a reread dictionary) or {@link schemaChanged} was
   * called, never by statistics: what a prepared statement compares before it runs again.
   */
  get schemaVersion(): number {
    return this.#schemaVersion;
  }

  /** Marks a change of the SQL layer's dictionary (a view, table metadata) in {@link schemaVersion}. */
  schemaChanged(): void {
    this.#schemaVersion++;
  }

  /**
   * Runs `fn` (several DDL calls, say) as one mini-transaction: a crash leaves all of its changes
   * or none. On an error every page it changed is put back and the error rethrown.
   */
  atomically<T>(fn: () => T): T {
    this.#checkOpen();
    this.#schemaVersion++;
    return this.#ddl(fn);
  }

  /**
   * Runs `fn` as one mini-transaction. On any error — in `fn`, or the log refusing the mtr at
   * commit — the pages go back (the mtr's rollback) and so does this object's own state (the
   * table objects, the next table and index ids): a failed DDL statement leaves the dictionary,
   * the in-memory objects and the file as they were.
   */
  #ddl<T>(fn: () => T): T {
    const m = this.store;
    const saved = this.#saveState();
    m.begin();
    let r: T;
    try {
      r = fn();
    } catch (e) {
      m.rollback();
      this.#restoreState(saved);
      throw e;
    }
    try {
      m.commit();
    } catch (e) {
      this.#restoreState(saved);
      throw e;
    }
    return r;
  }

  #saveState(): SavedState {
    return { tables: new Map(this.#tables), nextTable: this.#nextTableId, nextIndex: this.#nextIndexId };
  }

  #restoreState(s: SavedState): void {
    // cached statistics of table objects made by the failed step go with them
    for (const t of this.#tables.values())
      if (s.tables.get(t.name) !== t) this.statisticsDictionary.forget(t.id);
    this.#tables.clear();
    for (const [k, v] of s.tables) this.#tables.set(k, v);
    // ids handed out by the failed step are not handed out again while this object lives (what
    // is kept by table id in memory, an AUTO_INCREMENT counter, never meets a second table)
    this.#nextTableId = Math.max(this.#nextTableId, s.nextTable);
    this.#nextIndexId = Math.max(this.#nextIndexId, s.nextIndex);
  }

  /**
   * Makes every change so far durable as `innodb_flush_log_at_trx_commit` promises (1: the log is
   * fsynced to its current end before this returns). Returns that LSN (0n without a redo log).
   * Direct `Table` calls outside a transaction are made durable by this, by {@link flush} and by
   * {@link close}; SQL transactions commit themselves.
   */
  commit(): bigint {
    this.#checkOpen();
    const r = this.redo;
    if (r === null) return 0n;
    const lsn = r.lsn;
    // 2: written to the OS now, fsynced once a second; 1: written and fsynced now
    if (r.flushLogAtTrxCommit === 2) r.write();
    else r.commitSync(lsn);
    return lsn;
  }

  /** Store row counts and the header, then write every dirty page and fsync; then a checkpoint. */
  flush(): void {
    this.#checkOpen();
    this.#ddl(() => {
      for (const t of this.#tables.values()) this.catalog.putTable(t.id, t.name, t.rows, t.columns.length);
      this.#writeHeader();
    });
    this.pool.flushAll();
    this.#cleaner?.checkpoint();
  }

  /** {@link Database.flush}, then close the pool and the file. */
  close(): void {
    if (this.#closed) return;
    if (this.#readOnly) {
      this.abandon();
      return;
    }
    try {
      if (this.redo !== null) this.#markInUse(0);
      this.flush();
      // Everything is written and the row counts are stored: a clean checkpoint at the end.
      if (this.redo !== null) {
        this.device.sync();
        this.redo.writeCheckpoint(this.redo.lsn, true);
      }
      this.#closed = true;
      this.#cleaner?.stop();
      this.pool.close();
      this.redo?.close();
    } finally {
      this.#closed = true;
      this.#removeTemp();
    }
  }

  /** The page cleaner (flushing and checkpoints), null without a redo log. */
  get pageCleaner(): PageCleaner | null {
    return this.#cleaner;
  }

  /** After recovery applied the redo: row counts from the trees, a checkpoint, and the page cleaner. */
  #afterRecovery(d: DurableOpen): void {
    // Row counts are stored at flush and close; after a crash the trees are the truth.
    if (!d.clean) {
      for (const t of this.#tables.values()) {
        const s = t.primary.tree.stats();
        t.rows = s.records - s.deletedRecords;
      }
    }
    this.#cleaner?.checkpoint();
    this.#cleaner?.start();
  }

  /**
   * Rolls back every transaction whose undo log is still in a rollback segment slot — active when
   * the database was last closed or crashed (`trx_rollback_or_clean_recovered`): its records are
   * applied to the tables newest first, then its logs are freed. Committed transactions' logs are
   * in the history lists and stay there for purge. Logs whose freeing a crash interrupted (a
   * committed insert log, a rolled-back transaction's, one purge was done with) are freed first.
   */
  #rollbackRecovered(): void {
    for (const f of this.undo.unfinishedFrees()) {
      this.undo.finishFree(f);
      if (f.slot < 0) this.trxSys.historyAdd(-1);
    }
    const logs = this.undo.activeLogs();
    if (logs.length === 0) return;
    const byTrx = new Map<number, typeof logs>();
    for (const l of logs) byTrx.set(l.trxId, [...(byTrx.get(l.trxId) ?? []), l]);
    const slot = this.trxSys.allocateSlot();
    try {
      for (const [trxId, own] of byTrx) {
        const t = new TrxUndo(this, slot);
        t.adopt(trxId, own);
        t.rollback();
        this.recoveredRollbacks++;
      }
    } finally {
      this.trxSys.freeSlot(slot);
    }
  }

  /** A dropped table with off-page columns, kept while this object is open for purge (see {@link Table.purgeDropped}). */
  droppedTable(id: number): Table | undefined {
    return this.#dropped.get(id);
  }

  /** The table with id `id`, or undefined (a table dropped since). */
  tableById(id: number): Table | undefined {
    for (const t of this.#tables.values()) if (t.id === id) return t;
    return undefined;
  }

  /**
   * One purge batch (see purge.ts): removes delete-marked records and old secondary entries, and
   * frees undo logs, of transactions every read view sees, up to `maxPages` undo pages
   * (`innodb_purge_batch_size`, 300 in MySQL 5.6). REQUIRES: no other writer runs meanwhile.
   */
  purge(maxPages = 300): PurgeBatch {
    this.#checkOpen();
    return purge(this, this.trxSys.purgeLimit(), maxPages);
  }

  /** Undo logs waiting for purge (`History list length`, `Innodb_history_list_length`). */
  get historyLength(): number {
    return this.trxSys.historyLength;
  }

  /** Pages on the file's free list (dropped tables and indexes, freed undo pages). */
  get freePages(): number {
    return freePageCount(this.store);
  }

  /**
   * Hands every page of `trees` to the free list, 64 pages per mini-transaction (a dropped table's
   * or index's, after the dictionary no longer names it; `fseg_free_step`).
   */
  #freeTrees(trees: readonly { pages(): number[] }[]): void {
    const pages: number[] = [];
    for (const t of trees) pages.push(...t.pages());
    for (let i = 0; i < pages.length; i += 64) {
      const chunk = pages.slice(i, i + 64);
      this.#ddl(() => {
        for (const p of chunk) freePage(this.store, p);
      });
    }
  }

  /**
   * Drops what an interrupted copying ALTER TABLE left: its copy (`#alter-<table>`) is complete
   * only once the statement's last mini-transaction swaps it in, so one found at open is a
   * crash's leftover (InnoDB drops its `#sql-` tables at startup the same way).
   */
  /**
   * The end of a read-only open, which rolls back, purges and drops nothing (all of that writes):
   * a transaction left active in the undo logs is refused (it needs a read-write open first);
   * after an unclean shutdown with nothing to redo, the row counts come from the trees, in memory.
   */
  #openedReadOnly(clean: boolean): void {
    this.#readOnly = true;
    const active = this.undo.activeLogs().length;
    if (active > 0)
      throw new NeedsRecoveryError(this.path, `has ${active} transaction undo log(s) to roll back`);
    if (!clean)
      for (const t of this.#tables.values()) {
        const s = t.primary.tree.stats();
        t.rows = s.records - s.deletedRecords;
      }
  }

  /** Drops what no open may keep: a copying ALTER's unfinished copy, a session's temporary table. */
  #dropOrphans(): void {
    for (const t of this.tables())
      if (t.name.startsWith(ALTER_COPY_PREFIX) || t.name.startsWith(TEMPORARY_TABLE_PREFIX))
        this.dropTable(t.name);
  }

  /** Gives back the lock file, and removes a temporary database's directory. */
  #removeTemp(): void {
    this.#lock?.release();
    this.#lock = null;
    if (this.#tempDir !== undefined) {
      rmSync(this.#tempDir, { recursive: true, force: true });
      leftTemporaryDirs.delete(this.#tempDir);
    }
    this.#tempDir = undefined;
  }

  /** Close without flushing anything (for tests of what is on disk, and for failed loads). */
  abandon(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#cleaner?.stop();
    this.redo?.abort(new Error(`database ${this.path} was abandoned`));
    try {
      this.device.close();
    } finally {
      try {
        this.redo?.close();
      } finally {
        this.#removeTemp();
      }
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  #writeHeader(): void {
    const f = this.store.fix(0, 0, 2);
    const base = f * this.pool.pageSize;
    const b = this.pool.bytes;
    const r = this.catalog.roots;
    writeUint32BE(b, base + HDR_SYS_TABLES, r.tables);
    writeUint32BE(b, base + HDR_SYS_COLUMNS, r.columns);
    writeUint32BE(b, base + HDR_SYS_INDEXES, r.indexes);
    writeUint32BE(b, base + HDR_SYS_STATS, r.stats);
    writeUint32BE(b, base + HDR_NEXT_TABLE_ID, this.#nextTableId);
    writeUint32BE(b, base + HDR_NEXT_INDEX_ID, this.#nextIndexId);
    writeUint32BE(b, base + HDR_PAGE_COUNT, this.pool.spaceSize(0));
    this.store.markDirty(f);
    this.store.unfix(f, 2);
  }

  /**
   * Sets page 0's in-use mark ({@link HDR_IN_USE}) in a mini-transaction. Setting it writes page 0
   * through at once (before any other change of this open can reach the file), so a file whose
   * other pages hold changes of this open always says it needs its log.
   */
  #markInUse(v: 0 | 1): void {
    const s = this.store;
    s.begin();
    const f = s.fix(0, 0, 2);
    const at = f * this.pool.pageSize + HDR_IN_USE;
    const was = readUint32BE(this.pool.bytes, at);
    writeUint32BE(this.pool.bytes, at, v);
    s.markDirty(f);
    s.unfix(f, 2);
    s.commit();
    if (v === 1 && was !== 1) {
      this.pool.flushAll();
      this.device.sync();
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new RangeError(`database ${this.path} is closed`);
  }
}

function checkPath(path: unknown): asserts path is string {
  if (typeof path !== 'string' || path.length === 0)
    throw new TypeError(`path must be a non-empty string, got ${String(path)}`);
}

function entryOf(ix: TableIndex): IndexEntry {
  return {
    id: ix.id,
    name: ix.name,
    rootPage: ix.tree.rootPage,
    primary: ix.primary,
    unique: ix.unique,
    columns: ix.columns,
  };
}

function openPool(
  path: string,
  pageSize: number,
  options: DatabaseOptions,
  create: boolean,
): {
  pool: BufferPool;
  device: PageDevice;
  data: ExtendingDevice;
  durable: DurableOpen | null;
  afterLsn: bigint;
  clean: boolean;
} {
  const readOnly = options.readOnly === true && !create;
  const created = create && !existsSync(path);
  const file = readOnly ? new ReadOnlyFileDevice(path, pageSize) : new FileDevice(path, { pageSize, create });
  const raw: PageDevice = options.wrapDevice === undefined ? file : options.wrapDevice(file, 'data', created);
  const data = new ExtendingDevice(raw, path);
  let durable: DurableOpen | null = null;
  let afterLsn = 0n;
  let clean = true;
  try {
    // A new file's name is durable before anything is written into it.
    if (created) fsyncParent(path, options);
    if (readOnly) ({ end: afterLsn, clean } = readRedoReadOnly(path, pageSize));
    else if (options.redo === false) {
      if (!create) afterLsn = dropCleanRedo(path, pageSize, options);
    } else
      durable = create
        ? createDurable(path, data, pageSize, newDatabaseId(), 0n, options)
        : openDurable(path, data, pageSize, options);
  } catch (e) {
    data.close();
    throw e;
  }
  const base = durable?.device ?? data;
  const device: PageDevice = options.disk === undefined ? base : new SimulatedDevice(base, options.disk);
  const pool = new BufferPool({
    innodb_buffer_pool_size: options.innodb_buffer_pool_size ?? 134217728,
    innodb_page_size: pageSize,
    ...(options.innodb_buffer_pool_instances === undefined
      ? {}
      : { innodb_buffer_pool_instances: options.innodb_buffer_pool_instances }),
    ...(options.latches === undefined ? {} : { latches: options.latches }),
    device,
  });
  return { pool, device, data, durable, afterLsn, clean };
}

/** The mini-transaction store over the pool; the pool's LSN continues from the log's. */
function storeOf(pool: BufferPool, durable: DurableOpen | null, data: ExtendingDevice | null): MtrStore {
  if (durable !== null) pool.advanceLsn(durable.redo.lsn - 1n);
  const store = new MtrStore(pool, durable?.redo ?? null);
  if (data !== null) store.reserve = (pages) => data.extender.ensure(pages);
  store.reuse = true;
  return store;
}

function cleanerOf(
  pool: BufferPool,
  device: PageDevice,
  durable: DurableOpen | null,
  o: DatabaseOptions,
): PageCleaner | null {
  if (durable === null) return null;
  const cleaner = new PageCleaner(pool, durable.redo, device, {
    ioCapacity: o.innodb_io_capacity ?? 200,
    ioCapacityMax: o.innodb_io_capacity_max ?? 2000,
    adaptive: o.innodb_adaptive_flushing ?? true,
    maxDirtyPct: 75,
  });
  durable.redo.onLogFull = (target) => cleaner.freeLog(target);
  return cleaner;
}

/**
 * A secondary tree's options. Its entries are (index columns, primary-key columns it lacks) with an
 * empty value, so every entry is distinct; the tree is non-unique, as InnoDB's secondary index, so
 * the estimators count every field of the entry (n_uniq = all of them) and apply the transient
 * estimator's page-boundary rule. A UNIQUE index is unique on its own columns only: n_uniq = their
 * count (`dict_index_build_internal_non_clust`); the table checks that uniqueness itself.
 */
function secondaryTree(
  unique: boolean,
  columns: readonly number[],
): { unique: boolean; clustered: false; uniqueFields?: number } {
  return unique
    ? { unique: true, clustered: false, uniqueFields: columns.length }
    : { unique: false, clustered: false };
}

/** What {@link secondaryTree} gave the tree that is not stored in it, for `BTree.open`. */
function secondaryStats(
  primary: boolean,
  unique: boolean,
  columns: readonly number[],
): { uniqueFields?: number } {
  return !primary && unique ? { uniqueFields: columns.length } : {};
}

/** The header's dictionary roots and next ids, read through the pool. */
function readRoots(
  path: string,
  pool: BufferPool,
): {
  roots: { tables: number; columns: number; indexes: number; stats: number };
  nextTable: number;
  nextIndex: number;
} {
  const f = pool.fix(0, 0, 1);
  const base = f * pool.pageSize;
  const b = pool.bytes;
  const roots = {
    tables: readUint32BE(b, base + HDR_SYS_TABLES),
    columns: readUint32BE(b, base + HDR_SYS_COLUMNS),
    indexes: readUint32BE(b, base + HDR_SYS_INDEXES),
    stats: readUint32BE(b, base + HDR_SYS_STATS),
  };
  const nextTable = readUint32BE(b, base + HDR_NEXT_TABLE_ID);
  const nextIndex = readUint32BE(b, base + HDR_NEXT_INDEX_ID);
  const magicOk = MAGIC.every((m, i) => b[base + HDR_MAGIC + i] === m);
  pool.unfix(f, 1);
  if (!magicOk) throw new NotADatabaseError(path, 'page 0 changed while opening');
  return { roots, nextTable, nextIndex };
}

/** The TRX_SYS page number from page 0. */
function readTrxSysPage(pool: BufferPool): number {
  const f = pool.fix(0, 0, 1);
  const page = readUint32BE(pool.bytes, f * pool.pageSize + HDR_TRX_SYS);
  pool.unfix(f, 1);
  return page;
}

/**
 * The undo space over `store` and a transaction system whose ids continue past every id the file
 * may hold: the TRX_SYS bound (raised before any id beyond it is used) and any id a log names.
 */
function openUndo(store: MtrStore, trxSysPage: number): { undo: UndoSpace; trxSys: TrxSys } {
  const undo = new UndoSpace(store, trxSysPage);
  const next = Math.max(undo.readTrxIdStore(), undo.maxTrxIdInLogs() + 1, 1);
  const trxSys = new TrxSys(undefined, undefined, next);
  trxSys.persist = (bound) => undo.writeTrxIdStore(bound);
  trxSys.historyAdd(undo.historyLength());
  return { undo, trxSys };
}
