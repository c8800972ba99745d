// TPC-H SF 0.01, generated here, loaded into enginekit with the DBT3 keys and indexes and into
// DuckDB from the same .tbl files: all 22 queries (validation parameters) and the two variants
// of the MySQL/MariaDB experiments must give DuckDB's rows, in order (see
// helpers/sql-tpch-compare.ts for how DOUBLE results are compared with MySQL's DECIMAL ones).
//
// Queries the engine cannot answer yet are listed in NOT_YET with the reason; each runs as an
// expected failure (`it.fails`), so the day one starts to pass, the test fails until it is
// taken off the list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTpch } from '@enginekit/tpch';
import { Database, loadTpch, Session } from '../../src/index.js';
import { type DuckResult, diffRows, roundDouble } from '../helpers/sql-tpch-compare.js';
import { loadDuck } from '../helpers/sql-tpch-duck.js';
import { TPCH_QUERIES, type TpchQuery } from '../helpers/sql-tpch-queries.js';

/** Queries the engine does not answer correctly yet, and why. */
const NOT_YET: Readonly<Record<string, string>> = {};

const dir = mkdtempSync(join(tmpdir(), 'engine-tpch-queries-'));
const tbl = join(dir, 'tbl');
let duck: DuckDBInstance;
let conn: DuckDBConnection;
let db: Database | undefined;
let session: Session | undefined;

async function duckRun(q: TpchQuery): Promise<DuckResult> {
  for (const s of q.setup ?? []) await conn.run(s);
  try {
    const r = await conn.runAndReadAll(q.duck ?? q.sql);
    return { rows: r.getRows(), types: r.columnTypes().map((t) => String(t)) };
  } finally {
    for (const s of q.teardown ?? []) await conn.run(s);
  }
}

function engineRun(q: TpchQuery): unknown[][] {
  const s = session!;
  for (const x of q.setup ?? []) s.query(x);
  try {
    return s.query(q.sql).rows;
  } finally {
    for (const x of q.teardown ?? []) s.query(x);
  }
}

beforeAll(async () => {
  generateTpch({ sf: 0.01, out: tbl });
  duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  conn = await duck.connect();
  await loadDuck(conn, tbl);
  const path = join(dir, 'tpch.ekdb');
  loadTpch({ db: path, tbl });
  db = Database.open(path, {});
  session = new Session(db);
}, 120_000);

afterAll(() => {
  session?.close();
  db?.close();
  conn?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

describe('TPC-H SF 0.01 in DuckDB (the oracle side)', () => {
  it.each(TPCH_QUERIES.map((q) => [q.name, q] as const))('%s runs and gives rows', async (_name, q) => {
    const r = await duckRun(q);
    expect(r.rows.length).toBeGreaterThan(0);
    // every DOUBLE column has the MySQL scale it is compared at
    r.types.forEach((t, c) => {
      if (t === 'DOUBLE') expect(q.scales?.[c], `scale of DOUBLE column ${c}`).toBeDefined();
    });
  });

  it('compares exact values exactly and doubles at the MySQL scale', () => {
    const d: DuckResult = {
      rows: [['A', 1n, '12.50', 25.5751554]],
      types: ['VARCHAR', 'BIGINT', 'DECIMAL(38,2)', 'DOUBLE'],
    };
    expect(diffRows([['A', 1, '12.50', '25.575155']], d, { 3: 6 })).toEqual([]);
    expect(diffRows([['A', 1, '12.5', '25.575155']], d, { 3: 6 })).toEqual([
      'row 0 column 2: 12.5, DuckDB 12.50',
    ]);
    expect(diffRows([['A', 1, '12.50', '25.575156']], d, { 3: 6 })).toHaveLength(1);
    expect(diffRows([['A', 1, '12.50', '25.575155']], d, {})).toEqual([
      'column 3 is a DOUBLE in DuckDB and has no MySQL scale in the query table',
    ]);
    expect(diffRows([], d)).toEqual(['0 rows, DuckDB has 1']);
    expect(roundDouble(25.5751555, 6)).toBe('25.575156');
    expect(roundDouble(-0.0000004, 6)).toBe('0.000000');
    expect(roundDouble(-2.0000006, 6)).toBe('-2.000001');
  });
});

describe('TPC-H SF 0.01: enginekit gives DuckDB rows', () => {
  for (const q of TPCH_QUERIES) {
    const reason = NOT_YET[q.name];
    const check = async (): Promise<void> => {
      if (session === undefined) throw new Error('the engine session did not open');
      const want = await duckRun(q);
      const got = engineRun(q);
      expect(diffRows(got, want, q.scales ?? {})).toEqual([]);
    };
    const timeout = { timeout: 60_000 };
    if (reason === undefined) it(q.name, timeout, check);
    else it.fails(`${q.name} (not yet: ${reason})`, timeout, check);
  }
});
