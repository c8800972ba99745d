import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ColumnType, DBT3_KEYS, readTblBatches, TPCH_SCHEMA, TPCH_TABLES } from '@enginekit/tpch';
import Sqlite from 'better-sqlite3';

function sqliteType(t: ColumnType): string {
  if (t.kind === 'decimal') return 'REAL';
  if (t.kind === 'int' || t.kind === 'bigint') return 'INTEGER';
  return 'TEXT';
}

/** `CREATE TABLE` of one TPC-H table clustered on its DBT3 primary key (WITHOUT ROWID). */
function createTable(
  db: Sqlite.Database,
  t: (typeof TPCH_TABLES)[number],
  type: (t: ColumnType) => string,
): void {
  const cols = TPCH_SCHEMA[t].columns;
  db.exec(
    `CREATE TABLE ${t} (${cols.map((c) => `${c.name} ${type(c.type)} NOT NULL`).join(', ')}, PRIMARY KEY (${DBT3_KEYS[t].primaryKey.join(', ')})) WITHOUT ROWID`,
  );
}

function createIndexes(db: Sqlite.Database, t: (typeof TPCH_TABLES)[number]): void {
  for (const ix of DBT3_KEYS[t].indexes)
    db.exec(`CREATE INDEX ${ix.name} ON ${t} (${ix.columns.join(', ')})`);
}

/**
 * TPC-H into a SQLite file in enginekit's own types, for timing the load beside enginekit's:
 * DECIMAL as the exact scaled integer and DATE as days (as `readTblBatches` hands them on),
 * text as TEXT; the same tables clustered on the primary key, the secondary indexes built after
 * the rows, all in one transaction, SQLite's default journal and sync, a page cache of
 * `cacheBytes`. No ANALYZE: the figure is the load.
 */
export function loadSqliteTpchScaled(tbl: string, file: string, cacheBytes: number): void {
  const db = new Sqlite(file);
  db.pragma(`cache_size = -${Math.round(cacheBytes / 1024)}`);
  const decoder = new TextDecoder();
  db.exec('BEGIN');
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns;
    createTable(db, t, (c) => (c.kind === 'char' || c.kind === 'varchar' ? 'TEXT' : 'INTEGER'));
    const ins = db.prepare(`INSERT INTO ${t} VALUES (${cols.map(() => '?').join(', ')})`);
    const values: unknown[] = new Array(cols.length);
    readTblBatches(join(tbl, `${t}.tbl`), TPCH_SCHEMA[t], (batch) => {
      for (let r = 0; r < batch.rows; r++) {
        for (let c = 0; c < cols.length; c++) {
          const col = batch.columns[c];
          if (col === undefined) continue;
          values[c] =
            'bytes' in col
              ? decoder.decode(col.bytes.subarray(col.offsets[r], col.offsets[r + 1]))
              : col.values[r];
        }
        ins.run(values);
      }
    });
    createIndexes(db, t);
  }
  db.exec('COMMIT');
  db.close();
}

/**
 * TPC-H from dbgen `.tbl` files into a SQLite file (1 GiB page cache; `:memory:` for an
 * in-memory database) with the DBT3 keys (WITHOUT ROWID tables on
 * the primary key) and indexes, then ANALYZE. DECIMAL is REAL and DATE 'YYYY-MM-DD' text:
 * SQLite's own way to hold them.
 */
export function loadSqliteTpch(tbl: string, file: string): Sqlite.Database {
  const db = new Sqlite(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec('BEGIN');
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns;
    createTable(db, t, sqliteType);
    const ins = db.prepare(`INSERT INTO ${t} VALUES (${cols.map(() => '?').join(', ')})`);
    const numeric = cols.map(
      (c) => c.type.kind === 'int' || c.type.kind === 'bigint' || c.type.kind === 'decimal',
    );
    const text = readFileSync(join(tbl, `${t}.tbl`), 'latin1');
    const values: unknown[] = new Array(cols.length);
    let start = 0;
    while (start < text.length) {
      const end = text.indexOf('\n', start);
      const line = text.slice(start, end < 0 ? text.length : end);
      start = end < 0 ? text.length : end + 1;
      if (line.length === 0) continue;
      const f = line.split('|');
      for (let c = 0; c < cols.length; c++) values[c] = numeric[c] ? Number(f[c]) : f[c];
      ins.run(values);
    }
    createIndexes(db, t);
  }
  db.exec('COMMIT');
  db.exec('ANALYZE');
  // A page cache that holds the database, as enginekit's pool and DuckDB's memory do: warm runs
  // then measure the queries, not the file system.
  db.pragma('cache_size = -1048576');
  return db;
}

const UNIT: Readonly<Record<string, 'day' | 'month' | 'year'>> = {
  day: 'day',
  days: 'day',
  month: 'month',
  year: 'year',
};

function shift(date: string, sign: number, n: number, unit: 'day' | 'month' | 'year'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  if (unit === 'day') {
    t.setUTCDate(t.getUTCDate() + sign * n);
    return t.toISOString().slice(0, 10);
  }
  // Months and years as MySQL adds them: the day is clamped to the end of the target month.
  const months = y * 12 + (m - 1) + sign * n * (unit === 'year' ? 12 : 1);
  const ty = Math.floor(months / 12);
  const tm = months - ty * 12;
  const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate();
  return new Date(Date.UTC(ty, tm, Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * The MySQL text of a TPC-H query in SQLite's dialect: date arithmetic on literals folded to
 * 'YYYY-MM-DD' text, `extract(year from x)`, `substring(x from a for b)`, index hints.
 */
export function toSqlite(sql: string): string {
  return (
    sql
      .replace(
        /date_add\(\s*'(\d{4}-\d{2}-\d{2})'\s*,\s*interval\s+'?(\d+)'?\s+(\w+)\s*\)/gi,
        (_m, d: string, n: string, u: string) =>
          `'${shift(d, 1, Number(n), UNIT[u.toLowerCase()] ?? 'day')}'`,
      )
      .replace(
        /date\s+'(\d{4}-\d{2}-\d{2})'\s*([+-])\s*interval\s+'(\d+)'\s+(\w+)(\s*\(\d+\))?/gi,
        (_m, d: string, s: string, n: string, u: string) =>
          `'${shift(d, s === '-' ? -1 : 1, Number(n), UNIT[u.toLowerCase()] ?? 'day')}'`,
      )
      .replace(/date\s+'(\d{4}-\d{2}-\d{2})'/gi, "'$1'")
      .replace(/extract\(\s*year\s+from\s+([\w.]+)\s*\)/gi, "cast(strftime('%Y', $1) as integer)")
      .replace(/substring\(\s*([\w.]+)\s+from\s+(\d+)\s+for\s+(\d+)\s*\)/gi, 'substr($1, $2, $3)')
      .replace(/FORCE INDEX \((\w+)\)/gi, 'INDEXED BY $1')
      // REAL arithmetic: .06 - 0.01 is just below the stored 0.05, so constant bounds are folded.
      .replace(/(\d*\.\d+)\s*([+-])\s*(\d*\.\d+)/g, (_m, a: string, s: string, b: string) =>
        (Number(a) + (s === '-' ? -1 : 1) * Number(b)).toFixed(
          Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0),
        ),
      )
  );
}
