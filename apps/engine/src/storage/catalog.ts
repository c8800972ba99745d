import { BTree, KeyCodec } from '@enginekit/btree-sampler';
import { CorruptionError, type PageStore } from '@enginekit/buffer-pool';
import type { ColumnType, StoredColumn } from './types.js';
import type { Collation } from './collation.js';

/** What the catalog says about one index. */
export interface IndexEntry {
  readonly id: number;
  readonly name: string;
  readonly rootPage: number;
  readonly primary: boolean;
  readonly unique: boolean;
  /** Row column positions, in key order. */
  readonly columns: readonly number[];
}

/** What the catalog says about one table. */
export interface TableEntry {
  readonly id: number;
  readonly name: string;
  readonly rows: number;
  readonly columns: readonly StoredColumn[];
  readonly indexes: readonly IndexEntry[];
}

/** Root pages of the four dictionary trees (kept in the header page). */
export interface CatalogRoots {
  readonly tables: number;
  readonly columns: number;
  readonly indexes: number;
  readonly stats: number;
}

const FLAG_PRIMARY = 1;
const FLAG_UNIQUE = 2;

/**
 * The data dictionary, itself four B+trees in the database file (after InnoDB's SYS_TABLES,
 * SYS_COLUMNS, SYS_INDEXES and mysql.innodb_index_stats). Keys and values are KeyCodec tuples:
 *
 * | tree | key | value |
 * |---|---|---|
 * | SYS_TABLES | (table_id INT) | (name, n_rows BIGINT, n_cols INT) |
 * | SYS_COLUMNS | (table_id, pos) | (name, type kind, two numbers of the type ({@link typeNumbers}), nullable) |
 * | SYS_INDEXES | (table_id, index_id) | (name, root page, flags: 1 primary, 2 unique, column positions 'a,b') |
 * | SYS_STATS | (table_id, index_id, stat_name) | (value BIGINT): see below |
 *
 * SYS_STATS rows (written by ANALYZE, src/storage/stats/store.ts): per index `size`, `n_leaf_pages`,
 * `height`, `n_rows` (entries) on every ANALYZE, and with persistent statistics `n_diff_pfxNN` and
 * `sample_pfxNN` (its sample size) per key prefix NN = 01…; per table, under index id 0, the
 * persistent `n_rows`, `clustered_index_size`, `sum_of_other_index_sizes`, `last_update` (seconds
 * since the epoch), and the table options `stats_persistent`, `stats_auto_recalc`,
 * `stats_sample_pages` when CREATE TABLE gave them.
 */
export class Catalog {
  readonly tables: BTree;
  readonly columns: BTree;
  readonly indexes: BTree;
  readonly stats: BTree;

  static readonly tableKey: KeyCodec = new KeyCodec([{ type: 'int32' }]);
  static readonly tableVal: KeyCodec = new KeyCodec([
    { type: 'string' },
    { type: 'int64' },
    { type: 'int32' },
  ]);
  static readonly pairKey: KeyCodec = new KeyCodec([{ type: 'int32' }, { type: 'int32' }]);
  static readonly columnVal: KeyCodec = new KeyCodec([
    { type: 'string' },
    { type: 'string' },
    { type: 'int32' },
    { type: 'int32' },
    { type: 'int32' },
  ]);
  static readonly indexVal: KeyCodec = new KeyCodec([
    { type: 'string' },
    { type: 'int32' },
    { type: 'int32' },
    { type: 'string' },
  ]);
  static readonly statKey: KeyCodec = new KeyCodec([
    { type: 'int32' },
    { type: 'int32' },
    { type: 'string' },
  ]);
  static readonly statVal: KeyCodec = new KeyCodec([{ type: 'int64' }]);

  private constructor(tables: BTree, columns: BTree, indexes: BTree, stats: BTree) {
    this.tables = tables;
    this.columns = columns;
    this.indexes = indexes;
    this.stats = stats;
  }

  /** Create the four empty dictionary trees (index ids 1–4). */
  static create(store: PageStore): Catalog {
    const mk = (id: number): BTree =>
      BTree.create(store, { indexId: id, tupleKeys: true, optimisticWrites: false });
    return new Catalog(mk(1), mk(2), mk(3), mk(4));
  }

  static open(store: PageStore, roots: CatalogRoots): Catalog {
    const op = (rootPage: number): BTree => BTree.open(store, { rootPage, optimisticWrites: false });
    return new Catalog(op(roots.tables), op(roots.columns), op(roots.indexes), op(roots.stats));
  }

  get roots(): CatalogRoots {
    return {
      tables: this.tables.rootPage,
      columns: this.columns.rootPage,
      indexes: this.indexes.rootPage,
      stats: this.stats.rootPage,
    };
  }

  /** Insert or replace a SYS_TABLES row. */
  putTable(id: number, name: string, rows: number, nCols: number): void {
    put(this.tables, Catalog.tableKey.encode([id]), Catalog.tableVal.encode([name, rows, nCols]));
  }

  putColumn(tableId: number, pos: number, col: StoredColumn): void {
    const [a, b] = typeNumbers(col.type);
    put(
      this.columns,
      Catalog.pairKey.encode([tableId, pos]),
      Catalog.columnVal.encode([col.name, col.type.kind, a, b, col.nullable === true ? 1 : 0]),
    );
  }

  putIndex(tableId: number, ix: IndexEntry): void {
    const flags = (ix.primary ? FLAG_PRIMARY : 0) | (ix.unique ? FLAG_UNIQUE : 0);
    put(
      this.indexes,
      Catalog.pairKey.encode([tableId, ix.id]),
      Catalog.indexVal.encode([ix.name, ix.rootPage, flags, ix.columns.join(',')]),
    );
  }

  putStat(tableId: number, indexId: number, name: string, value: number): void {
    put(this.stats, Catalog.statKey.encode([tableId, indexId, name]), Catalog.statVal.encode([value]));
  }

  /** Remove one SYS_STATS row; false if it was not there. */
  deleteStat(tableId: number, indexId: number, name: string): boolean {
    return this.stats.delete(Catalog.statKey.encode([tableId, indexId, name]));
  }

  /** Remove a table's SYS_TABLES, SYS_COLUMNS, SYS_INDEXES and SYS_STATS rows. */
  dropTable(tableId: number): void {
    this.tables.delete(Catalog.tableKey.encode([tableId]));
    const lo = Catalog.pairKey.encode([tableId]);
    const hi = Catalog.pairKey.encode([tableId + 1]);
    for (const tree of [this.columns, this.indexes, this.stats]) {
      const keys = [...tree.entries(lo, hi)].map(([k]) => k.slice());
      for (const k of keys) tree.delete(k);
    }
  }

  /** Remove one index's SYS_INDEXES and SYS_STATS rows. */
  dropIndex(tableId: number, indexId: number): void {
    this.indexes.delete(Catalog.pairKey.encode([tableId, indexId]));
    const lo = Catalog.pairKey.encode([tableId, indexId]);
    const hi = Catalog.pairKey.encode([tableId, indexId + 1]);
    const keys = [...this.stats.entries(lo, hi)].map(([k]) => k.slice());
    for (const k of keys) this.stats.delete(k);
  }

  /** The stats of one index as name → value. */
  indexStats(tableId: number, indexId: number): Map<string, number> {
    const out = new Map<string, number>();
    const lo = Catalog.pairKey.encode([tableId, indexId]);
    const hi = Catalog.pairKey.encode([tableId, indexId + 1]);
    for (const [k, v] of this.stats.entries(lo, hi)) {
      const name = Catalog.statKey.decode(k)[2] as string;
      out.set(name, Number(Catalog.statVal.decode(v)[0] as bigint));
    }
    return out;
  }

  /** Every table with its columns and indexes, in table-id order. */
  readAll(): TableEntry[] {
    const out: TableEntry[] = [];
    for (const [k, v] of this.tables.entries()) {
      const id = Catalog.tableKey.decode(k)[0] as number;
      const [name, rows, nCols] = Catalog.tableVal.decode(v) as [string, bigint, number];
      const lo = Catalog.pairKey.encode([id]);
      const hi = Catalog.pairKey.encode([id + 1]);
      const columns: StoredColumn[] = [];
      for (const [, cv] of this.columns.entries(lo, hi)) {
        const [cname, kind, a, b, nullable] = Catalog.columnVal.decode(cv) as [
          string,
          string,
          number,
          number,
          number,
        ];
        columns.push({
          name: cname,
          type: columnType(kind, a, b, name),
          ...(nullable === 1 ? { nullable: true } : {}),
        });
      }
      if (columns.length !== nCols)
        throw catalogCorruption(
          `catalog: table ${name} has ${columns.length} columns in SYS_COLUMNS, ${nCols} in SYS_TABLES`,
        );
      const indexes: IndexEntry[] = [];
      for (const [ik, iv] of this.indexes.entries(lo, hi)) {
        const ixId = Catalog.pairKey.decode(ik)[1] as number;
        const [iname, root, flags, cols] = Catalog.indexVal.decode(iv) as [string, number, number, string];
        indexes.push({
          id: ixId,
          name: iname,
          rootPage: root,
          primary: (flags & FLAG_PRIMARY) !== 0,
          unique: (flags & FLAG_UNIQUE) !== 0,
          columns: cols.split(',').map(Number),
        });
      }
      out.push({ id, name, rows: Number(rows), columns, indexes });
    }
    return out;
  }
}

function put(tree: BTree, key: Uint8Array, value: Uint8Array): void {
  if (!tree.update(key, value)) tree.insert(key, value);
}

/** Collations of text columns as SYS_COLUMNS numbers them (0: none, the bytes compare). */
const COLLATION_CODES: readonly (Collation | undefined)[] = [undefined, 'utf8mb4_general_ci', 'utf8mb4_bin'];
/** Added to the second number of a TEXT or BLOB column (a VARCHAR or VARBINARY stored off-page when long). */
const BLOB_FLAG = 16;

/**
 * The two numbers SYS_COLUMNS keeps beside a column's kind: DECIMAL (precision, scale); CHAR and
 * VARCHAR (length, collation: 0 none, 1 utf8mb4_general_ci, 2 utf8mb4_bin; + 16 for TEXT); BINARY
 * and VARBINARY (length, 0; 16 for BLOB); DATETIME, TIMESTAMP and TIME (fractional digits, 0); BIGINT (0, 1 when UNSIGNED).
 */
function typeNumbers(t: ColumnType): [number, number] {
  switch (t.kind) {
    case 'decimal':
      return [t.precision, t.scale];
    case 'char':
      return [t.length, Math.max(0, COLLATION_CODES.indexOf(t.collation))];
    case 'varchar':
      return [
        t.length,
        Math.max(0, COLLATION_CODES.indexOf(t.collation)) | (t.blob === true ? BLOB_FLAG : 0),
      ];
    case 'binary':
      return [t.length, 0];
    case 'varbinary':
      // a LONGBLOB's 2^32 − 1 is kept as the int32 with the same bits
      return [t.length | 0, t.blob === true ? BLOB_FLAG : 0];
    case 'datetime':
    case 'timestamp':
    case 'time':
      return [t.fsp, 0];
    case 'bigint':
      return [0, t.unsigned === true ? 1 : 0];
    default:
      return [0, 0];
  }
}

function columnType(kind: string, a: number, b: number, table: string): ColumnType {
  switch (kind) {
    case 'int':
    case 'date':
    case 'double':
      return { kind };
    case 'bigint':
      return b === 1 ? { kind, unsigned: true } : { kind };
    case 'decimal':
      return { kind, precision: a, scale: b };
    case 'char':
    case 'varchar': {
      const collation = COLLATION_CODES[b & ~BLOB_FLAG];
      const blob = kind === 'varchar' && (b & BLOB_FLAG) !== 0 ? { blob: true } : {};
      return collation === undefined ? { kind, length: a, ...blob } : { kind, length: a, collation, ...blob };
    }
    case 'binary':
      return { kind, length: a };
    case 'varbinary':
      return (b & BLOB_FLAG) !== 0 ? { kind, length: a >>> 0, blob: true } : { kind, length: a };
    case 'datetime':
    case 'timestamp':
    case 'time':
      return { kind, fsp: a };
    default:
      throw catalogCorruption(`catalog: table ${table} has a column of unknown type '${kind}'`);
  }
}

/** A dictionary that contradicts itself: the buffer pool's `CorruptionError`, not tied to one page. */
function catalogCorruption(message: string): CorruptionError {
  const e = new CorruptionError('', -1, -1, message);
  e.message = message;
  return e;
}
