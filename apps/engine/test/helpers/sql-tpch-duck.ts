import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { TPCH_SCHEMA, TPCH_TABLES } from '@enginekit/tpch';

/** DuckDB's table from a .tbl file: DECIMAL(15,2) money, DATE, VARCHAR text, as the TPC-H schema. */
export async function loadDuck(c: DuckDBConnection, from: string): Promise<void> {
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns
      .map((col) => {
        const k = col.type.kind;
        const type =
          k === 'decimal'
            ? `DECIMAL(${col.type.precision},${col.type.scale})`
            : k === 'char' || k === 'varchar'
              ? 'VARCHAR'
              : k.toUpperCase();
        return `'${col.name}':'${type}'`;
      })
      .join(',');
    await c.run(
      `CREATE TABLE ${t} AS SELECT * EXCLUDE (end_pad) FROM read_csv('${join(from, `${t}.tbl`)}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${cols},'end_pad':'VARCHAR'})`,
    );
  }
}
