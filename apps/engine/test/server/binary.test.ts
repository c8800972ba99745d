// The binary protocol (prepared statements) byte for byte: COM_STMT_EXECUTE as mysql2's client
// writes it (its own Execute packet class) against vectors worked out by hand from MySQL's
// protocol description (binary protocol value encodings, the NULL bitmap), binary result rows
// against hand vectors, and every parameter type end to end through the real client.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { columnMeta } from '../../src/server/column-types.js';
import { writeBinaryRow } from '../../src/server/packets/binary-row.js';
import { readExecuteHeader, readExecuteParams } from '../../src/server/packets/stmt-execute.js';
import { PacketReader, PacketWriter } from '../../src/server/wire.js';
import {
  T_DATE,
  T_DBL,
  T_INT,
  T_NULL,
  T_STR,
  dateTimeType,
  decType,
  timeType,
} from '../../src/exec/types.js';
import { TypedParam } from '../../src/plan/bind-expr.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

const require = createRequire(import.meta.url);
const mysql2Dir = dirname(require.resolve('mysql2'));
/** mysql2's client-side COM_STMT_EXECUTE writer (not exported: loaded by path). */
const Execute = require(join(mysql2Dir, 'lib/packets/execute.js')) as new (
  id: number,
  params: unknown[],
  charset: number,
  timezone: string,
) => { toPacket(): { buffer: Buffer } };

function clientExecute(id: number, params: unknown[]): Buffer {
  return new Execute(id, params, 45, 'Z').toPacket().buffer.subarray(4);
}

function decode(payload: Buffer, count: number): { id: number; values: unknown[] } {
  const r = new PacketReader(payload, 1);
  const h = readExecuteHeader(r);
  const values: unknown[] = [];
  readExecuteParams(r, count, undefined, values);
  expect(r.remaining).toBe(0);
  return { id: h.statementId, values };
}

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('COM_STMT_EXECUTE as the mysql2 client sends it', () => {
  it('matches the hand-worked bytes for a number, NULL, a string and a boolean', () => {
    const got = clientExecute(7, [1, null, 'ab', true]);
    // command, statement id 7, flags 0, iteration count 1, NULL bitmap (param 1: bit 1),
    // new-params-bound 1, types DOUBLE, NULL, VAR_STRING, TINY, then 1.0, 'ab', 1
    const want = hex(`17 07000000 00 01000000 02 01 0500 0600 fd00 0100
      000000000000f03f 026162 01`);
    expect(got.toString('hex')).toBe(want.toString('hex'));
    expect(decode(got, 4)).toEqual({
      id: 7,
      values: [new TypedParam(T_DBL, 1), null, 'ab', new TypedParam(T_INT, 1)],
    });
  });

  it('decodes every typed parameter', () => {
    const T = mysql.TypedParameter;
    const params = [
      T.TINY(-5),
      T.TINY.unsigned(250),
      T.SHORT(-300),
      T.SHORT.unsigned(65000),
      T.INT24(-70000),
      T.LONG(-2147483648),
      T.LONG.unsigned(4000000000),
      T.LONGLONG(-9007199254740995n),
      T.LONGLONG(42),
      T.FLOAT(1.5),
      T.DOUBLE(2.25),
      T.DECIMAL('12.345'),
      T.VARCHAR('héllo'),
      T.STRING('fixed'),
      T.BLOB(Buffer.from('xyz')),
      T.DATE(new Date(Date.UTC(2020, 0, 2))),
      T.DATETIME(new Date(Date.UTC(2021, 11, 31, 23, 59, 58))),
      T.TIME('12:34:56'),
      T.YEAR(2024),
    ];
    const { values } = decode(clientExecute(1, params), params.length);
    // each value in the type it was sent with, in the engine's runtime form: DECIMAL as its
    // scaled integer, DATE as days since 1970, DATETIME and TIME as microseconds
    const int = (v: number | bigint): TypedParam => new TypedParam(T_INT, v);
    expect(values).toEqual([
      int(-5),
      int(250),
      int(-300),
      int(65000),
      int(-70000),
      int(-2147483648),
      int(4000000000),
      int(-9007199254740995n),
      int(42),
      new TypedParam(T_DBL, 1.5),
      new TypedParam(T_DBL, 2.25),
      new TypedParam(decType(5, 3), 12345n),
      'héllo',
      'fixed',
      'xyz',
      new TypedParam(T_DATE, 18263),
      new TypedParam(dateTimeType(0), Date.UTC(2021, 11, 31, 23, 59, 58) * 1000),
      new TypedParam(timeType(0), (12 * 3600 + 34 * 60 + 56) * 1_000_000),
      int(2024),
    ]);
  });

  it('reads NULLs from the bitmap across byte boundaries', () => {
    const params = Array.from({ length: 11 }, (_, i) => ([0, 7, 8, 10].includes(i) ? null : i));
    const got = clientExecute(3, params);
    // bitmap: params 0 and 7 in the first byte (0x81), 8 and 10 in the second (0x05)
    expect(got.subarray(10, 12).toString('hex')).toBe('8105');
    // mysql2 sends the numbers as DOUBLEs
    expect(decode(got, 11).values).toEqual(params.map((p) => (p === null ? null : new TypedParam(T_DBL, p))));
  });

  it('reuses the bound types when the client sends none', () => {
    const first = clientExecute(2, [5, 'a']);
    const r = new PacketReader(first, 1);
    readExecuteHeader(r);
    const out: unknown[] = [];
    const types = readExecuteParams(r, 2, undefined, out);
    // bitmap 00, bound 0, then DOUBLE 6.0 and 'b'
    const again = hex('17 02000000 00 01000000 00 00 0000000000001840 0162');
    const r2 = new PacketReader(again, 1);
    readExecuteHeader(r2);
    readExecuteParams(r2, 2, types, out);
    expect(out).toEqual([new TypedParam(T_DBL, 6), 'b']);
  });

  it('refuses a truncated packet as malformed', () => {
    const full = clientExecute(9, [1, 'abc']);
    for (let n = 10; n < full.length; n++) {
      const r = new PacketReader(full.subarray(0, n), 1);
      readExecuteHeader(r);
      expect(() => readExecuteParams(r, 2, undefined, [])).toThrow('Malformed communication packet.');
    }
  });
});

describe('binary result rows', () => {
  it('match the hand-worked bytes', () => {
    const cols = [
      columnMeta('i', T_INT),
      columnMeta('n', T_NULL),
      columnMeta('d', decType(10, 2)),
      columnMeta('f', T_DBL),
      columnMeta('s', T_STR),
      columnMeta('t', T_DATE),
      columnMeta('z', T_INT),
    ];
    const w = new PacketWriter(16).reset(1);
    writeBinaryRow(w, cols, [-2, null, '1.50', 2.5, 'ab', '2020-01-02', null]);
    const got = w.take();
    // header (length 32, sequence 1), 0x00, bitmap with offset 2: columns 1 and 6 → bits 3, 8
    const want = hex(`200000 01 00 0801
      feffffffffffffff 04312e3530 0000000000000440 026162 04e40701 02`);
    expect(got.toString('hex')).toBe(want.toString('hex'));
  });
});

describe('prepared statements through the client', () => {
  const running: Running[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
  });

  it('round-trips every parameter type', async () => {
    const s = await startServer();
    running.push(s);
    const c = await s.connect({ dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
    const T = mysql.TypedParameter;
    const cases: [unknown, unknown][] = [
      [T.TINY(-5), '-5'],
      [T.TINY.unsigned(250), '250'],
      [T.SHORT(-300), '-300'],
      [T.SHORT.unsigned(65000), '65000'],
      [T.INT24(-70000), '-70000'],
      [T.LONG(-2147483648), '-2147483648'],
      [T.LONG.unsigned(4000000000), '4000000000'],
      [T.LONGLONG(-9007199254740995n), '-9007199254740995'],
      [T.FLOAT(1.5), 1.5],
      [T.DOUBLE(2.25), 2.25],
      [T.DECIMAL('12.345'), '12.345'],
      [T.VARCHAR('héllo wörld'), 'héllo wörld'],
      [T.BLOB(Buffer.from('xyz')), 'xyz'],
      [T.DATE(new Date(Date.UTC(2020, 0, 2))), '2020-01-02'],
      [T.DATETIME(new Date(Date.UTC(2021, 11, 31, 23, 59, 58))), '2021-12-31 23:59:58'],
      [T.TIME('12:34:56'), '12:34:56'],
      [T.YEAR(2024), '2024'],
      // mysql2 sends a JavaScript number as a DOUBLE: MariaDB answers that DOUBLE (7, not '7')
      [7, 7],
      [0.5, 0.5],
      [true, '1'],
      ['plain', 'plain'],
      [null, null],
    ];
    for (const [param, want] of cases) {
      const [rows] = await c.execute('SELECT ? AS v', [param] as Parameters<typeof c.execute>[1]);
      expect((rows as { v: unknown }[])[0]!.v, String(param)).toEqual(want);
    }
  });

  it('binds parameters into a table query, with NULLs in rows and parameters', async () => {
    const s = await startServer();
    running.push(s);
    const c = await s.connect({ dateStrings: true });
    await c.query(
      'CREATE TABLE p (id INT PRIMARY KEY, a INT, b VARCHAR(20), c DECIMAL(12,3), d DATE, e DOUBLE, f INT, g INT, h INT, i INT)',
    );
    const ins = 'INSERT INTO p VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
    await c.execute(ins, [1, 10, 'one', '1.250', '2020-01-02', 0.5, 1, 2, 3, 4]);
    await c.execute(ins, [2, null, null, null, null, null, null, null, null, 9]);
    await c.execute(ins, [
      3,
      30,
      'three',
      mysql.TypedParameter.DECIMAL('-3.5'),
      new Date(Date.UTC(1999, 11, 31)),
      -1e300,
      null,
      8,
      null,
      null,
    ]);
    const [rows] = await c.execute('SELECT * FROM p WHERE id >= ? ORDER BY id', [1]);
    expect(rows).toEqual([
      { id: 1, a: 10, b: 'one', c: '1.250', d: '2020-01-02', e: 0.5, f: 1, g: 2, h: 3, i: 4 },
      { id: 2, a: null, b: null, c: null, d: null, e: null, f: null, g: null, h: null, i: 9 },
      { id: 3, a: 30, b: 'three', c: '-3.500', d: '1999-12-31', e: -1e300, f: null, g: 8, h: null, i: null },
    ]);
    // the text protocol gives the same rows
    const [text] = await c.query('SELECT * FROM p ORDER BY id');
    expect(text).toEqual(rows);
    const [byNull] = await c.execute('SELECT id FROM p WHERE b <=> ?', [null]);
    expect(byNull).toEqual([{ id: 2 }]);
    const [upd] = await c.execute('UPDATE p SET b = ? WHERE id = ?', ['two', 2]);
    expect((upd as mysql.ResultSetHeader).affectedRows).toBe(1);
  });

  it('closes and resets statements; an unknown statement id is 1243', async () => {
    const s = await startServer();
    running.push(s);
    const c = await s.connect();
    const st = await c.prepare('SELECT ? + 1 AS v');
    const [r] = await st.execute([41]);
    expect(r).toEqual([{ v: 42 }]);
    st.close();
    // the closed id is gone on the server; a new statement gets a new id
    await expect(st.execute([1])).rejects.toMatchObject({ errno: 1243, sqlState: 'HY000' });
    const [again] = await c.execute('SELECT ? + 2 AS v', [1]);
    expect(again).toEqual([{ v: 3 }]);
  });
});
