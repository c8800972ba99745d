import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateTpch,
  TPCH_QUERY_COUNT,
  TPCH_SCHEMA,
  TPCH_TABLES,
  tpchQuery,
  tpchVariant,
} from '../src/index.js';

// The query texts run on DuckDB over SF 0.01: every statement parses and binds there, and the two
// experiment forms return what the standard text returns for the same parameters.
const dir = mkdtempSync(join(tmpdir(), 'tpch-queries-'));
let instance: DuckDBInstance;
let conn: DuckDBConnection;

const duckType = (kind: string, t: { precision?: number; scale?: number }): string =>
  kind === 'decimal'
    ? `DECIMAL(${t.precision},${t.scale})`
    : kind === 'char' || kind === 'varchar'
      ? 'VARCHAR'
      : kind.toUpperCase();

beforeAll(async () => {
  generateTpch({ sf: 0.01, out: dir });
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  for (const t of TPCH_TABLES) {
    const spec = TPCH_SCHEMA[t].columns
      .map((c) => `'${c.name}':'${duckType(c.type.kind, c.type as never)}'`)
      .join(',');
    await conn.run(
      `CREATE TABLE ${t} AS SELECT * EXCLUDE (end_pad) FROM read_csv('${join(dir, `${t}.tbl`)}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${spec},'end_pad':'VARCHAR'})`,
    );
  }
}, 120_000);
afterAll(() => {
  conn?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

async function rows(statements: readonly string[], answer: string): Promise<string[][]> {
  let out: string[][] = [];
  for (const s of statements) {
    const r = await conn.runAndReadAll(s);
    if (s === answer) out = r.getRows().map((row) => row.map((v) => String(v)));
  }
  return out;
}

describe('the 22 queries on DuckDB (SF 0.01)', () => {
  it.each(Array.from({ length: TPCH_QUERY_COUNT }, (_, i) => i + 1))(
    'Q%i runs with validation and seeded parameters',
    async (q) => {
      const v = tpchQuery(q, { sf: 0.01 });
      const answer = await rows(v.statements, v.answer);
      if (q === 1)
        expect(answer.map((r) => r.slice(0, 2))).toEqual([
          ['A', 'F'],
          ['N', 'F'],
          ['N', 'O'],
          ['R', 'F'],
        ]);
      if (q === 4)
        expect(answer.map((r) => r[0])).toEqual([
          '1-URGENT',
          '2-HIGH',
          '3-MEDIUM',
          '4-NOT SPECIFIED',
          '5-LOW',
        ]);
      const s = tpchQuery(q, { seed: 1, sf: 0.01 });
      await rows(s.statements, s.answer);
    },
  );

  it('q3-force-index returns what Q3 returns for AUTOMOBILE and 1995-03-09', async () => {
    const v = tpchVariant('q3-force-index');
    expect(v.parameters).toEqual(['AUTOMOBILE', '1995-03-09']);
    const standard = tpchQuery(3, { parameters: v.parameters });
    const plain = v.answer.replace(' FORCE INDEX (i_l_orderkey)', '');
    expect(plain).not.toBe(v.answer);
    const got = await rows([plain], plain);
    expect(got.length).toBe(10);
    expect(got).toEqual(await rows(standard.statements, standard.answer));
  });

  it('q10-date-add returns what Q10 returns for 1993-08-01', async () => {
    const v = tpchVariant('q10-date-add');
    const standard = tpchQuery(10, { parameters: v.parameters });
    const duck = v.answer.replace(
      "date_add( '1993-08-01' ,interval '3' month)",
      "date '1993-08-01' + interval '3' month",
    );
    expect(duck).not.toBe(v.answer);
    const got = await rows([duck], duck);
    expect(got.length).toBe(20);
    expect(got).toEqual(await rows(standard.statements, standard.answer));
  });
});
