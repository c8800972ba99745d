// The 22 TPC-H queries and the posts' two variants at SF 0.01, on the engine's DBT3 tables, give
// exactly DuckDB's rows on the same .tbl files: equal where DuckDB's type is exact (SUM of
// DECIMAL), and DuckDB's double rounded to our MySQL result scale where DuckDB divides in double.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, generateTpch, loadTpch, type Session, TPCH_SCHEMA, TPCH_TABLES } from '../src/index.js';
import { TPCH_Q15_VIEW, TPCH_QUERIES } from './fixtures/tpch-queries.js';

let dir: string;
let db: Database;
let s: Session;
let duck: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sql-tpch-'));
  generateTpch({ sf: 0.01, out: join(dir, 'tbl') });
  loadTpch({ db: join(dir, 'tpch.ekdb'), tbl: join(dir, 'tbl') });
  db = Database.open(join(dir, 'tpch.ekdb'));
  s = db.session();
  s.query(TPCH_Q15_VIEW);
  duck = await DuckDBInstance.create(':memory:');
  conn = await duck.connect();
  await conn.run('SET threads = 1');
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns
      .map((c) => {
        const k = c.type.kind;
        const type =
          k === 'decimal' ? 'DECIMAL(15,2)' : k === 'char' || k === 'varchar' ? 'VARCHAR' : k.toUpperCase();
        return `'${c.name}':'${type}'`;
      })
      .join(',');
    await conn.run(
      `CREATE TABLE ${t} AS SELECT * EXCLUDE (end_pad) FROM read_csv('${join(dir, 'tbl', `${t}.tbl`)}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${cols},'end_pad':'VARCHAR'})`,
    );
  }
  await conn.run(
    TPCH_Q15_VIEW.replace('(supplier_no, total_revenue) as', 'as').replace(
      'select l_suppkey, sum(l_extendedprice * (1 - l_discount))',
      'select l_suppkey as supplier_no, sum(l_extendedprice * (1 - l_discount)) as total_revenue',
    ),
  );
}, 300_000);

afterAll(() => {
  conn?.closeSync();
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Ours equals DuckDB's value: exactly, or DuckDB's number rounded to the digits we show. */
function same(ours: unknown, theirs: unknown): boolean {
  if (ours === null || theirs === null) return ours === theirs;
  const a = String(ours);
  const b = String(theirs);
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  const digits = /\.(\d+)$/.exec(a)?.[1]?.length ?? 0;
  return Math.abs(x - y) <= 0.5 * 10 ** -digits * (1 + 1e-9) + 1e-9 * Math.abs(y);
}

describe('TPC-H SF 0.01 against DuckDB', () => {
  for (const [name, sql] of Object.entries(TPCH_QUERIES)) {
    it(name, async () => {
      const dsql = sql
        .replace(/force index \([^)]*\)/i, '')
        .replace(/date_add\('([^']*)', interval '(\d+)' month\)/i, "date '$1' + interval '$2' month");
      const theirs = (await conn.runAndReadAll(dsql))
        .getRows()
        .map((r) => r.map((v) => (v === null ? null : String(v))));
      const ours = s.query(sql).rows;
      expect(ours.length).toBe(theirs.length);
      const bad = ours.flatMap((r, i) =>
        r.flatMap((v, j) =>
          same(v, theirs[i]![j]) ? [] : [`row ${i} col ${j}: ${String(v)} vs ${theirs[i]![j]}`],
        ),
      );
      expect(bad).toEqual([]);
    });
  }
  it('AVG(l_quantity) prints as MariaDB prints it', () => {
    expect(
      s.query(
        "SELECT avg(l_quantity) FROM lineitem WHERE l_returnflag = 'A' AND l_linestatus = 'F' AND l_shipdate <= DATE '1998-09-02'",
      ).rows,
    ).toEqual([['25.575155']]);
  });
});
