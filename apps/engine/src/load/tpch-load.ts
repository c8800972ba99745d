import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fsyncParent } from '../storage/dir-sync.js';
import { resolveDatabasePath } from '../storage/real-path.js';
import { removeRedoFiles } from '../storage/redo/index.js';
import { Database, type DatabaseOptions } from '../storage/database.js';
import { type IndexBuildOptions, TableLoader } from '../storage/index-build.js';
import { K_TEXT } from '../storage/row.js';
import type { Table } from '../storage/table.js';
import {
  generateTpch,
  readTblBatches,
  type TblData,
  TPCH_SCHEMA,
  TPCH_TABLES,
  type TpchTable,
} from '@enginekit/tpch';
import { dbt3Schema } from './dbt3-schema.js';

/** What the loader reports while it works. */
export type LoadPhase = 'generate' | 'rows' | 'index' | 'done';

export interface LoadProgress {
  readonly table: TpchTable;
  readonly phase: LoadPhase;
  /** Rows loaded so far (phase 'rows'), or the index just built (phase 'index'). */
  readonly rows: number;
  /** Expected rows of the table (estimated from the file size for a `.tbl` directory). */
  readonly expectedRows: number;
  readonly index?: string;
}

export interface TpchLoadOptions extends DatabaseOptions, IndexBuildOptions {
  /** The database file to write; replaced only when the whole load succeeded. */
  readonly db: string;
  /** A directory holding region.tbl … lineitem.tbl (dbgen format). */
  readonly tbl?: string;
  /** Or: generate this scale factor first (into a temp directory removed afterwards). */
  readonly sf?: number;
  /** Rows per parsed batch (default 65536). */
  readonly batchRows?: number;
  readonly onProgress?: (p: LoadProgress) => void;
}

export interface TpchLoadResult {
  readonly db: string;
  readonly rows: Readonly<Record<TpchTable, number>>;
  /** Rows that were not in primary-key order in their file and were inserted after the bulk load. */
  readonly lateRows: Readonly<Record<TpchTable, number>>;
  readonly bytes: number;
  readonly seconds: number;
}

/**
 * The side file a load of `db` builds before renaming it over `db`: `<db>.loading-<pid>` beside the
 * file `db` resolves to through symbolic links (a rename works within one file system).
 */
export function sideFilePath(db: string): string {
  return `${resolveDatabasePath(db)}.loading-${process.pid}`;
}

/**
 * `enginekit tpch load`: create the DBT3 schema and index set and load dbgen `.tbl` files (or
 * freshly generated ones). All or nothing: the database is built in `<db>.loading-<pid>` and
 * renamed over `db` only at the end, so a malformed line (a {@link TblFormatError} naming file,
 * line, column and value) or any other failure leaves no file behind, or the previous one untouched.
 */
export function loadTpch(options: TpchLoadOptions): TpchLoadResult {
  const started = performance.now();
  if (typeof options.db !== 'string' || options.db.length === 0)
    throw new TypeError(`db must be a file path, got ${String(options.db)}`);
  if ((options.tbl === undefined) === (options.sf === undefined))
    throw new TypeError('give exactly one of tbl (a .tbl directory) or sf (a scale factor)');
  let dir = options.tbl;
  let generated: string | undefined;
  const tmp = sideFilePath(options.db);
  let db: Database | undefined;
  let loader: TableLoader | undefined;
  try {
    if (options.sf !== undefined) {
      generated = mkdtempSync(join(options.tmpdir ?? tmpdir(), 'enginekit-tpch-'));
      options.onProgress?.({ table: 'region', phase: 'generate', rows: 0, expectedRows: 0 });
      generateTpch({ sf: options.sf, out: generated });
      dir = generated;
    }
    const files = TPCH_TABLES.map((t) => join(dir!, `${t}.tbl`));
    for (const f of files) if (!existsSync(f)) throw new RangeError(`tbl: ${f} does not exist`);
    rmSync(tmp, { force: true });
    // No redo log for the load itself: the side file is renamed into place only when complete,
    // which is what makes a load crash-safe (the old database or the new one).
    db = Database.create(tmp, { ...options, redo: false });
    const rows = {} as Record<TpchTable, number>;
    const lateRows = {} as Record<TpchTable, number>;
    for (const [i, name] of TPCH_TABLES.entries()) {
      const table = db.createTable(dbt3Schema(name));
      const expected = estimateRows(files[i]!);
      loader = new TableLoader(table, options);
      const l = loader;
      const row = table.newRow();
      let loaded = 0;
      readTblBatches(
        files[i]!,
        TPCH_SCHEMA[name],
        (batch) => {
          addBatch(table, batch, row, l);
          loaded += batch.rows;
          options.onProgress?.({ table: name, phase: 'rows', rows: loaded, expectedRows: expected });
        },
        { batchRows: options.batchRows ?? 65_536 },
      );
      l.finish((ix) =>
        options.onProgress?.({
          table: name,
          phase: 'index',
          rows: loaded,
          expectedRows: expected,
          index: ix.name,
        }),
      );
      loader = undefined;
      rows[name] = l.rows;
      lateRows[name] = l.lateRows;
      options.onProgress?.({ table: name, phase: 'done', rows: loaded, expectedRows: loaded });
    }
    db.analyze();
    db.close();
    db = undefined;
    // Over the file a link names, not over the link: the link keeps naming the database.
    const target = resolveDatabasePath(options.db);
    renameSync(tmp, target);
    fsyncParent(target, options);
    // Log files of a database that was at this path before belong to it, not to the new file.
    removeRedoFiles(target, options);
    return {
      db: options.db,
      rows,
      lateRows,
      bytes: statSync(options.db).size,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (e) {
    loader?.close();
    db?.abandon();
    rmSync(tmp, { force: true });
    throw e;
  } finally {
    if (generated !== undefined) rmSync(generated, { recursive: true, force: true });
  }
}

/** Copy batch rows into the reused row buffer and hand them to the loader (no object per row). */
function addBatch(table: Table, batch: TblData, row: ReturnType<Table['newRow']>, loader: TableLoader): void {
  const cols = batch.columns;
  const n = cols.length;
  // per column: text offsets, or numbers (one of the two is EMPTY)
  const offsets: Int32Array[] = [];
  const numbers: Array<Int32Array | Float64Array> = [];
  const text = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    const col = cols[c]!;
    if ('bytes' in col) {
      if (table.codec.kinds[c] !== K_TEXT)
        throw new TypeError(`column ${col.name}: text in a numeric column`);
      row.src[c] = col.bytes;
      offsets.push(col.offsets);
      numbers.push(NO_NUMBERS);
      text[c] = 1;
    } else {
      offsets.push(NO_OFFSETS);
      numbers.push(col.values);
    }
  }
  const off = row.off;
  const len = row.len;
  const nums = row.nums;
  for (let r = 0; r < batch.rows; r++) {
    for (let c = 0; c < n; c++) {
      if (text[c] === 1) {
        const o = offsets[c]!;
        const s = o[r]!;
        off[c] = s;
        len[c] = o[r + 1]! - s;
      } else nums[c] = numbers[c]![r]!;
    }
    loader.add(row);
  }
}

const NO_OFFSETS = new Int32Array(0);
const NO_NUMBERS = new Float64Array(0);

/** Rows in a `.tbl` file estimated from its size and the lines in its first 64 KiB. */
export function estimateRows(path: string): number {
  const size = statSync(path).size;
  if (size === 0) return 0;
  const buf = new Uint8Array(Math.min(size, 65536));
  const fd = openSync(path, 'r');
  let got: number;
  try {
    got = readSync(fd, buf, 0, buf.length, 0);
  } finally {
    closeSync(fd);
  }
  let lines = 0;
  for (let i = 0; i < got; i++) if (buf[i] === 0x0a) lines++;
  if (lines === 0) return 1;
  return Math.max(1, Math.round((size * lines) / got));
}
