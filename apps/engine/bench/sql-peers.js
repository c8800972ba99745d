// The peers of the SQL benchmarks, loaded from the same dbgen .tbl files as enginekit:
// SQLite (better-sqlite3, in memory, DBT3 keys and indexes, ANALYZE run; DECIMAL as REAL and
// DATE as 'YYYY-MM-DD' text, SQLite's own way to hold them) and DuckDB (in memory, one thread,
// DECIMAL(15,2), DATE). Also the shared timing helpers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Sqlite from 'better-sqlite3';
import { DBT3_KEYS, TPCH_SCHEMA, TPCH_TABLES } from '@enginekit/tpch';

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall time in ms of `runs` calls of a synchronous or async `f`, after one warm-up call. */
export async function timeRuns(f, runs) {
  await f();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

function sqliteType(t) {
  if (t.kind === 'decimal') return 'REAL';
  if (t.kind === 'int' || t.kind === 'bigint') return 'INTEGER';
  return 'TEXT';
}

/** TPC-H from `tbl` into an in-memory SQLite database with the DBT3 keys and indexes, analyzed. */
export function loadSqliteTpch(tbl) {
  const db = new Sqlite(':memory:');
  db.exec('BEGIN');
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns;
    const keys = DBT3_KEYS[t];
    db.exec(
      `CREATE TABLE ${t} (${cols.map((c) => `${c.name} ${sqliteType(c.type)} NOT NULL`).join(', ')}, PRIMARY KEY (${keys.primaryKey.join(', ')})) WITHOUT ROWID`,
    );
    const ins = db.prepare(`INSERT INTO ${t} VALUES (${cols.map(() => '?').join(', ')})`);
    const numeric = cols.map(
      (c) => c.type.kind !== 'char' && c.type.kind !== 'varchar' && c.type.kind !== 'date',
    );
    const text = readFileSync(join(tbl, `${t}.tbl`), 'latin1');
    let start = 0;
    const values = new Array(cols.length);
    while (start < text.length) {
      const end = text.indexOf('\n', start);
      const line = text.slice(start, end < 0 ? text.length : end);
      start = end < 0 ? text.length : end + 1;
      if (line.length === 0) continue;
      const f = line.split('|');
      for (let c = 0; c < cols.length; c++) values[c] = numeric[c] ? Number(f[c]) : f[c];
      ins.run(values);
    }
    for (const ix of keys.indexes) db.exec(`CREATE INDEX ${ix.name} ON ${t} (${ix.columns.join(', ')})`);
  }
  db.exec('COMMIT');
  db.exec('ANALYZE');
  return db;
}

/** TPC-H from `tbl` into an in-memory DuckDB limited to one thread; returns its connection. */
export async function loadDuckTpch(tbl) {
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await duck.connect();
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns
      .map((c) => {
        const k = c.type.kind;
        const type =
          k === 'decimal'
            ? `DECIMAL(${c.type.precision},${c.type.scale})`
            : k === 'char' || k === 'varchar'
              ? 'VARCHAR'
              : k.toUpperCase();
        return `'${c.name}':'${type}'`;
      })
      .join(',');
    await conn.run(
      `CREATE TABLE ${t} AS SELECT * EXCLUDE (end_pad) FROM read_csv('${join(tbl, `${t}.tbl`)}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${cols},'end_pad':'VARCHAR'})`,
    );
  }
  return conn;
}

/**
 * The engine's SQL session on a database file, or undefined when this build has none. `engine`:
 * the build's exports (its `Database` and `Session`).
 */
export function engineSession(engine, path, options) {
  if (typeof engine.Session !== 'function') return undefined;
  const db = engine.Database.open(path, options);
  return { db, session: new engine.Session(db) };
}

/** `uptime`'s load averages, to print beside every figure. */
export async function loadAverage() {
  const { loadavg } = await import('node:os');
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
}
