import { join } from 'node:path';
import { type ColumnType, DBT3_KEYS, TPCH_SCHEMA, TPCH_TABLES, type TpchTable } from '@enginekit/tpch';
import { MariaDb, type MariaDbBinaries } from './mariadb.js';

function sqlType(t: ColumnType): string {
  switch (t.kind) {
    case 'int':
      return 'INT';
    case 'bigint':
      return 'BIGINT';
    case 'decimal':
      return `DECIMAL(${t.precision},${t.scale})`;
    case 'date':
      return 'DATE';
    case 'char':
      return `CHAR(${t.length})`;
    case 'varchar':
      return `VARCHAR(${t.length})`;
  }
}

export interface MariaDbLoad {
  readonly loadMs: number;
  readonly indexMs: number;
  readonly analyzeMs: number;
  /** Data + index bytes of the dbt3 schema (information_schema.TABLES). */
  readonly bytes: number;
}

/**
 * The DBT3 schema in MariaDB from dbgen `.tbl` files: each table with its primary key, LOAD DATA
 * LOCAL INFILE, then the DBT3 secondary indexes (one ALTER TABLE per table), then ANALYZE TABLE.
 */
export async function loadMariaDbTpch(
  server: MariaDb,
  tbl: string,
  tables: readonly TpchTable[] = TPCH_TABLES,
): Promise<MariaDbLoad> {
  const t0 = performance.now();
  await server.query('SET SESSION unique_checks = 0');
  for (const t of tables) {
    const cols = TPCH_SCHEMA[t].columns;
    const keys = DBT3_KEYS[t];
    await server.query(
      `CREATE TABLE ${t} (${cols.map((c) => `${c.name} ${sqlType(c.type)} NOT NULL`).join(', ')}, PRIMARY KEY (${keys.primaryKey.join(', ')})) ENGINE=InnoDB`,
    );
    await server.query(
      `LOAD DATA LOCAL INFILE '${join(tbl, `${t}.tbl`)}' INTO TABLE ${t} FIELDS TERMINATED BY '|' LINES TERMINATED BY '\\n'`,
    );
  }
  const t1 = performance.now();
  for (const t of tables) {
    const ix = DBT3_KEYS[t].indexes;
    if (ix.length === 0) continue;
    await server.query(
      `ALTER TABLE ${t} ${ix.map((i) => `ADD INDEX ${i.name} (${i.columns.join(', ')})`).join(', ')}`,
    );
  }
  const t2 = performance.now();
  for (const t of tables) await server.query(`ANALYZE TABLE ${t}`);
  const t3 = performance.now();
  const [size] = await server.query<{ bytes: string | number }>(
    "SELECT SUM(data_length + index_length) AS bytes FROM information_schema.TABLES WHERE table_schema = 'dbt3'",
  );
  return { loadMs: t1 - t0, indexMs: t2 - t1, analyzeMs: t3 - t2, bytes: Number(size?.bytes ?? 0) };
}

/** Bytes of data and indexes of the tables given (for the IO-bound pool: 8 % of this). */
export async function mariaDbDataBytes(server: MariaDb, tables: readonly string[]): Promise<number> {
  const [row] = await server.query<{ bytes: string | number }>(
    `SELECT SUM(data_length + index_length) AS bytes FROM information_schema.TABLES WHERE table_schema = 'dbt3' AND table_name IN (${tables.map((t) => `'${t}'`).join(', ')})`,
  );
  return Number(row?.bytes ?? 0);
}

/** `after − before` for every counter in `names` (SHOW SESSION STATUS deltas). */
export function statusDelta(
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
  names: readonly string[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of names) out[n] = (after[n] ?? 0) - (before[n] ?? 0);
  return out;
}

/** Starts a private server with a pool of 1.5× the `.tbl` bytes and loads the DBT3 schema into it. */
export async function startMariaDbTpch(
  binaries: MariaDbBinaries,
  files: { readonly tbl: string; readonly dbBytes: number },
  log: (line: string) => void,
  tables: readonly TpchTable[] = TPCH_TABLES,
): Promise<{ server: MariaDb; load: MariaDbLoad }> {
  const server = await MariaDb.start(binaries, {
    innodb_buffer_pool_size: Math.max(64 << 20, Math.ceil(files.dbBytes * 1.5)),
    log,
  });
  try {
    log('loading the .tbl files into MariaDB (LOAD DATA LOCAL INFILE, DBT3 indexes, ANALYZE)');
    const load = await loadMariaDbTpch(server, files.tbl, tables);
    return { server, load };
  } catch (e) {
    await server.stop();
    throw e;
  }
}
