// A prepared statement's parameters take the SQL types the client sent them with
// (COM_STMT_EXECUTE's parameter types), as in MariaDB: a DOUBLE stays a DOUBLE even when its value
// is whole, a DECIMAL keeps its scale, a DATETIME at midnight stays a DATETIME, a DATE and a TIME
// arrive as their own types. Expected answers recorded from MariaDB 10.11 through mysql2 (which
// sends a JavaScript number as a DOUBLE and a Date as a DATETIME), with
// `conn.execute({ sql, dateStrings: true }, params)`: the rows, and each column's type/decimals.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const T = mysql.TypedParameter;

const RECORDED: Array<[string, unknown[], Record<string, unknown>, string]> = [
  ['SELECT ? / 2 AS x, ? + 0 AS y', [5, 7], { x: 2.5, y: 7 }, 'x:5/31 y:5/31'],
  [
    'SELECT ? AS d, ? + INTERVAL 1 DAY AS n',
    [new Date(Date.UTC(2024, 0, 2)), new Date(Date.UTC(2024, 0, 2))],
    { d: '2024-01-02 00:00:00', n: '2024-01-03 00:00:00' },
    'd:12/0 n:12/0',
  ],
  [
    'SELECT ? AS x, ? * 2 AS y',
    [T.DECIMAL('1.50'), T.DECIMAL('1.50')],
    { x: '1.50', y: '3.00' },
    'x:0/2 y:246/2',
  ],
  ['SELECT ? AS x, ? / 2 AS y', [T.LONGLONG(5), T.LONGLONG(5)], { x: 5, y: '2.5000' }, 'x:8/0 y:246/4'],
  [
    'SELECT ? AS t, ? AS d',
    [T.TIME('12:34:56'), T.DATE(new Date(Date.UTC(2020, 0, 2)))],
    { t: '12:34:56', d: '2020-01-02' },
    't:11/0 d:10/0',
  ],
];

/** Column metadata that differs from MariaDB's, by statement, with the reason. */
const KNOWN_TYPES: Readonly<Record<string, [string, string]>> = {
  'SELECT ? AS x, ? * 2 AS y': [
    'x:246/2 y:246/2',
    "MariaDB labels a bare DECIMAL parameter's column with the old DECIMAL type (0); here it is NEWDECIMAL (246), as every other DECIMAL result",
  ],
};

let s: Running;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

describe('parameter types from the wire', () => {
  for (const [sql, params, row, types] of RECORDED)
    it(sql, async () => {
      const c = await s.connect();
      const [rows, fields] = await c.execute({ sql, dateStrings: true }, params as never);
      expect((rows as unknown[])[0]).toEqual(row);
      expect(fields.map((f) => `${f.name}:${f.columnType}/${f.decimals}`).join(' ')).toBe(
        KNOWN_TYPES[sql]?.[0] ?? types,
      );
    });
});
