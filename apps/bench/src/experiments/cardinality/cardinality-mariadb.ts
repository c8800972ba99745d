import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DBT3_KEYS, generateTpch, type TpchTable } from '@enginekit/tpch';
import { findMariaDb, MARIADB_ABSENT, MariaDb } from '../../peers/mariadb.js';
import { loadMariaDbTpch } from '../../peers/mariadb-tpch.js';

export interface MariaDbCardinality {
  readonly index: string;
  readonly exact: number;
  readonly persistentMin: number;
  readonly persistentMax: number;
  readonly transientMin: number;
  readonly transientMax: number;
}

async function spreadOf(
  server: MariaDb,
  table: string,
  index: string,
  runs: number,
): Promise<[number, number]> {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (let i = 0; i < runs; i++) {
    await server.query(`ANALYZE TABLE ${table}`);
    const [row] = await server.query<{ c: number | string }>(
      `SELECT cardinality AS c FROM information_schema.STATISTICS WHERE table_schema = 'dbt3' AND table_name = '${table}' AND index_name = '${index}' AND seq_in_index = 1`,
    );
    const c = Number(row?.c ?? 0);
    min = Math.min(min, c);
    max = Math.max(max, c);
  }
  return [min, max];
}

/**
 * ANALYZE TABLE `runs` times in a private MariaDB over the same generated data, with persistent
 * statistics (innodb_stats_persistent_sample_pages 20) and then transient ones (8 pages): the
 * Cardinality SHOW INDEX reports for the leading column, against COUNT(DISTINCT). undefined
 * (after logging one line) when MariaDB is not installed.
 */
export async function mariaDbCardinality(
  sf: number,
  indexes: readonly { table: TpchTable; index: string }[],
  runs: number,
  log: (line: string) => void,
): Promise<{ rows: MariaDbCardinality[]; version: string } | undefined> {
  const binaries = findMariaDb();
  if (binaries === undefined) {
    log(MARIADB_ABSENT);
    return undefined;
  }
  const tables = [...new Set(indexes.map((i) => i.table))];
  const dir = mkdtempSync(join(process.env.ENGINEKIT_BENCH_DIR ?? tmpdir(), 'enginekit-bench-card-'));
  let server: MariaDb | undefined;
  try {
    generateTpch({ sf, out: dir, tables });
    server = await MariaDb.start(binaries, { innodb_buffer_pool_size: 256 << 20, log });
    log('cardinality: loading customer, orders, lineitem into MariaDB');
    await loadMariaDbTpch(server, dir, tables);
    const rows: MariaDbCardinality[] = [];
    for (const { table, index } of indexes) {
      const column = DBT3_KEYS[table].indexes.find((i) => i.name === index)?.columns[0];
      const [exact] = await server.query<{ n: number | string }>(
        `SELECT COUNT(DISTINCT ${column}) AS n FROM ${table}`,
      );
      await server.query('SET GLOBAL innodb_stats_persistent = ON');
      const p = await spreadOf(server, table, index, runs);
      await server.query('SET GLOBAL innodb_stats_persistent = OFF');
      const t = await spreadOf(server, table, index, runs);
      await server.query('SET GLOBAL innodb_stats_persistent = ON');
      rows.push({
        index: `${table}.${index}`,
        exact: Number(exact?.n ?? 0),
        persistentMin: p[0],
        persistentMax: p[1],
        transientMin: t[0],
        transientMax: t[1],
      });
    }
    return { rows, version: binaries.version };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
