import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { TPCH_SCHEMA, TPCH_TABLES } from '@enginekit/tpch';

/** TPC-H from `.tbl` files into a DuckDB file limited to one thread (DECIMAL(15,2), DATE). */
export async function loadDuckTpch(
  tbl: string,
  file: string,
): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(file, { threads: '1' });
  const conn = await instance.connect();
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns
      .map((c) => {
        const k = c.type;
        const type =
          k.kind === 'decimal'
            ? `DECIMAL(${k.precision},${k.scale})`
            : k.kind === 'char' || k.kind === 'varchar'
              ? 'VARCHAR'
              : k.kind.toUpperCase();
        return `'${c.name}':'${type}'`;
      })
      .join(',');
    await conn.run(
      `CREATE TABLE ${t} AS SELECT * EXCLUDE (end_pad) FROM read_csv('${join(tbl, `${t}.tbl`)}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${cols},'end_pad':'VARCHAR'})`,
    );
  }
  await conn.run('CHECKPOINT');
  return { instance, conn };
}

/** DuckDB reads the queries as written, but for MySQL's index hints and `date_add` on a text literal. */
export function toDuck(sql: string): string {
  return sql
    .replace(/\s+FORCE INDEX \(\w+\)/gi, '')
    .replace(
      /date_add\(\s*'(\d{4}-\d{2}-\d{2})'\s*,\s*interval\s+'?(\d+)'?\s+(\w+)\s*\)/gi,
      "(date '$1' + interval '$2' $3)",
    );
}
