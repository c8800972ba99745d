// What a client learns about a result's columns. The statements of test/data/metadata.cases.mjs
// go to the engine's server through mysql2, and each result column's definition packet is compared
// with MariaDB 10.11's, recorded in test/data/metadata.mariadb.json (the file names the command
// that recorded it: node apps/engine/test/data/record-mariadb.mjs metadata --socket PATH): type,
// length, decimals, character set, flags, database, table, original table and original column.
import type { FieldPacket } from 'mysql2';
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedSuite } from '../helpers/mariadb-recorded.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

const suite = recordedSuite('metadata');

/** A recorded column with its origin (the suite records them). */
interface Field {
  readonly name: string;
  readonly type: number;
  readonly length: number;
  readonly decimals: number;
  readonly charset: number;
  readonly flags: number;
  readonly schema: string;
  readonly table: string;
  readonly orgTable: string;
  readonly orgName: string;
}

/** Statements whose columns differ from MariaDB's, by text, with the reason. */
const WIDTHS =
  "an expression's display width and NOT NULL flag: MariaDB computes both for each expression from its arguments (`id + 1` is 12 wide, COUNT(*) 21, comparisons are LONG 1 wide); the engine sends its type's widest and leaves NOT NULL unset";
const KNOWN: Readonly<Record<string, string>> = {
  'SELECT 1 AS one, 1 + 1, id + 1, k * 2, d + 1, d * 2, id / 2, -id FROM t': WIDTHS,
  'SELECT id + 1 FROM t': WIDTHS,
  "SELECT CONCAT(c, v), CONCAT('a', 'bc'), UPPER(c), LENGTH(c), SUBSTRING(v, 1, 2) FROM t": WIDTHS,
  'SELECT COUNT(*), COUNT(v), SUM(id), SUM(d), AVG(id), MIN(id), MAX(v), MAX(c) FROM t': WIDTHS,
  'SELECT c, COUNT(*) FROM t GROUP BY c': WIDTHS,
  "SELECT CAST(id AS CHAR), CAST('5' AS SIGNED), CAST(d AS DECIMAL(6,1)) FROM t": WIDTHS,
  'SELECT id = 1, id IS NULL, v LIKE "a%" FROM t': WIDTHS,
  'SELECT IFNULL(v, c), COALESCE(ti, id), IF(id > 0, c, v) FROM t': WIDTHS,
  'SELECT * FROM (SELECT id, c AS cc, k + 1 AS kk FROM t) AS dt': WIDTHS,
  'SELECT * FROM vw': WIDTHS,
  'SELECT id FROM t UNION SELECT k FROM t':
    "a UNION's columns: MariaDB describes the temporary table's aggregated type (LONG, NOT NULL, the first SELECT's column name as the original name); the engine describes the unified engine type as an expression",
  'SELECT id, c FROM t UNION ALL SELECT id, c FROM t':
    "a UNION's columns: MariaDB describes the temporary table's aggregated type (LONG, NOT NULL); the engine describes the unified engine type as an expression",
};

function fieldOf(f: FieldPacket): Field {
  return {
    name: f.name,
    type: f.columnType ?? -1,
    length: f.columnLength ?? -1,
    decimals: f.decimals,
    charset: f.characterSet ?? -1,
    flags: Number(f.flags),
    schema: f.schema ?? '',
    table: f.table,
    orgTable: f.orgTable ?? '',
    orgName: f.orgName ?? '',
  };
}

/** What differs, column by column and property by property. */
function differences(want: readonly Field[], got: readonly Field[]): string[] {
  if (want.length !== got.length) return [`${want.length} columns ≠ ${got.length}`];
  const out: string[] = [];
  want.forEach((w, i) => {
    const g = got[i]!;
    for (const k of Object.keys(w) as (keyof Field)[])
      if (w[k] !== g[k]) out.push(`${w.name}.${k}: ${JSON.stringify(w[k])} ≠ ${JSON.stringify(g[k])}`);
  });
  return out;
}

let server: Running;
let conn: Connection;

beforeAll(async () => {
  server = await startServer();
  conn = await server.connect({ charset: 'UTF8MB4_GENERAL_CI' });
});

afterAll(async () => {
  await server.stop();
});

describe(`result column definitions against MariaDB ${suite.server}`, () => {
  for (const script of suite.scripts) {
    it(script.name, async () => {
      await conn.query('DROP DATABASE IF EXISTS test');
      await conn.query('CREATE DATABASE test');
      await conn.query('USE test');
      const wrong: string[] = [];
      for (const st of script.statements) {
        let got: Field[] | undefined;
        let errno: number | undefined;
        try {
          const [res, fields] = await conn.query({ sql: st.sql, rowsAsArray: true });
          got = Array.isArray(res) ? (fields as FieldPacket[]).map(fieldOf) : undefined;
        } catch (e) {
          errno = (e as { errno?: number }).errno ?? -1;
        }
        const d =
          errno !== st.error?.errno
            ? [`error ${st.error?.errno ?? 'none'} ≠ ${errno ?? 'none'}`]
            : st.columns === undefined
              ? []
              : differences(st.columns as unknown as Field[], got ?? []);
        if (d.length > 0 && KNOWN[st.sql] === undefined) wrong.push(`${st.sql}\n    ${d.join('\n    ')}`);
        if (d.length === 0 && KNOWN[st.sql] !== undefined)
          wrong.push(`${st.sql}\n    now agrees: drop it from KNOWN`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  }
});

describe('values in the binary protocol follow the column types', () => {
  it('TINY, SHORT, INT24, LONG, YEAR and FLOAT columns travel in their own widths', async () => {
    await conn.query('DROP DATABASE IF EXISTS test');
    await conn.query('CREATE DATABASE test');
    await conn.query('USE test');
    await conn.query(
      'CREATE TABLE w (id INT PRIMARY KEY, ti TINYINT, si SMALLINT, mi MEDIUMINT, tu TINYINT UNSIGNED, iu INT UNSIGNED, y YEAR, f FLOAT, b BIGINT)',
    );
    await conn.query(
      'INSERT INTO w VALUES (-2147483648, -128, -32768, -8388608, 255, 4294967295, 2155, 1.5, -9007199254740993), (2147483647, 127, 32767, 8388607, 0, 0, 1901, -0.25, 1)',
    );
    const sql = 'SELECT id, ti, si, mi, tu, iu, y, f, b FROM w ORDER BY id';
    const [binary, fields] = await conn.execute({ sql, rowsAsArray: true, supportBigNumbers: true });
    const [text] = await conn.query({ sql, rowsAsArray: true, supportBigNumbers: true });
    expect((fields as FieldPacket[]).map((f) => f.columnType)).toEqual([3, 1, 2, 9, 1, 3, 13, 4, 8]);
    expect(binary).toEqual([
      [-2147483648, -128, -32768, -8388608, 255, 4294967295, 2155, 1.5, '-9007199254740993'],
      [2147483647, 127, 32767, 8388607, 0, 0, 1901, -0.25, 1],
    ]);
    expect(binary).toEqual(text);
  });
});
