// Values a client sends or a statement computes that MySQL's types cannot hold: invalid UTF-8
// (1366 in strict mode, never U+FFFD), infinities (never sent as text), numeric overflows
// (1690 where MariaDB answers it), and duplicate keys shown as typed. MariaDB's answers were
// recorded from a private MariaDB 10.11.19 (`mariadb -S $SOCK -uroot --batch t1 < stmt.sql`,
// each statement on its own).
import { afterEach, describe, expect, it } from 'vitest';
import { CommandProcessor } from '../../src/server/command-processor.js';
import type { SqlError } from '../../src/sql/errors.js';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

const dbs: Database[] = [];
let running: Running | undefined;
afterEach(async () => {
  for (const d of dbs.splice(0)) d.close();
  await running?.stop();
  running = undefined;
});

function session() {
  const db = Database.temporary();
  dbs.push(db);
  return new Session(db);
}

function errorOf(f: () => unknown): [number, string] {
  try {
    f();
  } catch (e) {
    return [(e as SqlError).errno, (e as SqlError).message];
  }
  return [0, ''];
}

/** Sends a COM_QUERY whose text is `bytes` through a CommandProcessor; the reply's first packet. */
function rawQuery(p: CommandProcessor, bytes: Buffer): { errno: number; message: string } | { ok: Buffer } {
  const reply = p.handle(Buffer.concat([Buffer.from([0x03]), bytes]));
  if (reply instanceof Promise) throw new Error('unexpected wait');
  const b = reply.bytes;
  if (b[4] === 0xff) {
    const len = b.readUIntLE(0, 3);
    return { errno: b.readUInt16LE(5), message: b.subarray(13, 4 + len).toString('utf8') };
  }
  return { ok: b };
}

describe('invalid UTF-8', () => {
  it('is refused when stored (1366, as MariaDB) and never equal to other invalid bytes', () => {
    const db = Database.temporary();
    dbs.push(db);
    const p = new CommandProcessor(new Session(db), 1);
    const q = (...parts: Array<string | number[]>): Buffer =>
      Buffer.concat(parts.map((x) => (typeof x === 'string' ? Buffer.from(x) : Buffer.from(x))));
    expect(rawQuery(p, q('CREATE TABLE u (s VARCHAR(20))'))).toHaveProperty('ok');
    // MariaDB: ERROR 1366 (22007): Incorrect string value: '\xFF\xFEb' for column `t1`.`u`.`s` at row 1
    expect(rawQuery(p, q("INSERT INTO u VALUES ('a", [0xff, 0xfe], "b')"))).toEqual({
      errno: 1366,
      message: "Incorrect string value: '\\xFF\\xFEb' for column `test`.`u`.`s` at row 1",
    });
    // MariaDB: '\xFFbcdef...' (six characters, then ...) and a truncated sequence '\xC3'
    expect(rawQuery(p, q("INSERT INTO u VALUES ('a", [0xff], "bcdefghijklmnop')"))).toMatchObject({
      errno: 1366,
      message: "Incorrect string value: '\\xFFbcdef...' for column `test`.`u`.`s` at row 1",
    });
    expect(rawQuery(p, q("INSERT INTO u VALUES ('ok", [0xc3], "')"))).toMatchObject({
      errno: 1366,
      message: "Incorrect string value: '\\xC3' for column `test`.`u`.`s` at row 1",
    });
    // nothing was stored; valid UTF-8 (2, 3 and 4 bytes) is
    expect(rawQuery(p, q("INSERT INTO u VALUES ('é€😀')"))).toHaveProperty('ok');
    expect(new Session(db).query('SELECT s FROM u').rows).toEqual([['é€😀']]);
    // MariaDB: SELECT '\xff' = '\xfe' → 0
    const s = new Session(db);
    s.query('CREATE TABLE r (a INT, b INT)');
    expect(
      rawQuery(p, q("INSERT INTO r SELECT '", [0xff], "' = '", [0xfe], "', '", [0xff], "' = '", [0xff], "'")),
    ).toHaveProperty('ok');
    expect(s.query('SELECT a, b FROM r').rows).toEqual([[0, 1]]);
  });

  it('a string parameter with invalid UTF-8 is refused too', async () => {
    running = await startServer();
    const c = await running.connect();
    await c.query('CREATE TABLE u (s VARCHAR(20))');
    const err = await c.execute('INSERT INTO u VALUES (?)', [Buffer.from([0x61, 0xff])]).then(
      () => undefined,
      (e: { errno: number; message: string }) => e,
    );
    expect(err?.errno).toBe(1366);
    expect(err?.message).toBe("Incorrect string value: '\\xFF' for column `test`.`u`.`s` at row 1");
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM u');
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe('infinities', () => {
  it('never go out as text: clamped as MariaDB, or 1690', async () => {
    const s = session();
    // MariaDB: CAST('1e400' AS DOUBLE) → 1.7976931348623157e308; '-1e400' → -1.79…e308
    expect(s.query("SELECT CAST('1e400' AS DOUBLE), CAST('-1e400' AS DOUBLE), '1e400' + 0").rows).toEqual([
      [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_VALUE],
    ]);
    // MariaDB: EXP(1000) and POW(10, 400) → ERROR 1690 DOUBLE value is out of range in 'exp(1000)'
    expect(errorOf(() => s.query('SELECT EXP(1000)'))).toEqual([
      1690,
      "DOUBLE value is out of range in 'exp(1000)'",
    ]);
    expect(errorOf(() => s.query('SELECT POW(10, 400)'))).toEqual([
      1690,
      "DOUBLE value is out of range in 'pow(10,400)'",
    ]);
    // MariaDB: SQRT(-1), LN(0) → NULL
    expect(s.query('SELECT SQRT(-1), LN(0)').rows).toEqual([[null, null]]);
    // MariaDB: INSERT INTO dd VALUES ('1e400') → ERROR 1264 Out of range value for column 'd' at row 1
    s.query('CREATE TABLE dd (d DOUBLE)');
    expect(errorOf(() => s.query("INSERT INTO dd VALUES ('1e400')"))).toEqual([
      1264,
      "Out of range value for column 'd' at row 1",
    ]);
    // a sum that overflows is never sent as 'Infinity' (MariaDB answers 0; the engine refuses)
    running = await startServer();
    const c = await running.connect();
    for (const sql of [
      'SELECT SUM(a) AS s FROM (SELECT 1e308 AS a UNION ALL SELECT 1e308) x',
      'SELECT AVG(a) AS s FROM (SELECT 1e308 AS a UNION ALL SELECT 1e308) x',
    ]) {
      const text = await c.query(sql).then(
        ([r]) => r,
        (e: { errno: number }) => e.errno,
      );
      expect(text, sql).toBe(1690);
      const binary = await c.execute(sql).then(
        ([r]) => r,
        (e: { errno: number }) => e.errno,
      );
      expect(binary, sql).toBe(1690);
    }
  });
});

/**
 * MariaDB 10.11's answers: a value, or [errno, message]. Cases marked `differs` are answered
 * otherwise by the engine, whose answer is pinned beside MariaDB's so a change to either shows:
 * an error message quotes the expression as it was written, not in MariaDB's lower case.
 */
const OVERFLOWS: ReadonlyArray<{
  sql: string;
  mariadb: string | [number, string];
  differs?: string | [number, string];
}> = [
  {
    sql: 'SELECT 9223372036854775807 + 1',
    mariadb: [1690, "BIGINT value is out of range in '9223372036854775807 + 1'"],
  },
  {
    sql: 'SELECT 9223372036854775807 * 2',
    mariadb: [1690, "BIGINT value is out of range in '9223372036854775807 * 2'"],
  },
  {
    sql: 'SELECT 4294967296 * 4294967296',
    mariadb: [1690, "BIGINT value is out of range in '4294967296 * 4294967296'"],
  },
  {
    sql: 'SELECT -9223372036854775807 * 3',
    mariadb: [1690, "BIGINT value is out of range in '-9223372036854775807 * 3'"],
  },
  { sql: 'SELECT -(-9223372036854775808)', mariadb: '9223372036854775808' },
  { sql: 'SELECT 9223372036854775807 + 0.5', mariadb: '9223372036854775807.5' },
  { sql: 'SELECT 9223372036854775807 + 1.0', mariadb: '9223372036854775808.0' },
  {
    sql: 'SELECT 99999999999999999999999999999999999999999999999999999999999999999 + 1',
    mariadb: '100000000000000000000000000000000000000000000000000000000000000000',
  },
  {
    sql: 'SELECT 123456789012345678901234567890 * 123456789012345678901234567890',
    mariadb: '15241578753238836750495351562536198787501905199875019052100',
  },
  { sql: 'SELECT 9223372036854775807 DIV -1', mariadb: '-9223372036854775807' },
  {
    sql: 'SELECT -9223372036854775808 DIV -1',
    mariadb: [1690, "BIGINT value is out of range in '-9223372036854775808 DIV -1'"],
  },
  { sql: 'SELECT 1e308 * 10', mariadb: [1690, "DOUBLE value is out of range in '1e308 * 10'"] },
  { sql: 'SELECT 1e308 + 1e308', mariadb: [1690, "DOUBLE value is out of range in '1e308 + 1e308'"] },
  { sql: 'SELECT CAST(1e20 AS SIGNED)', mariadb: '9223372036854775807' },
  { sql: 'SELECT CAST(-1 AS UNSIGNED)', mariadb: '18446744073709551615' },
  { sql: 'SELECT 5 % 0', mariadb: 'NULL' },
  { sql: 'SELECT 1 / 0', mariadb: 'NULL' },
  {
    sql: 'SELECT SUM(a) FROM (SELECT 9223372036854775807 AS a UNION ALL SELECT 1) x',
    mariadb: '9223372036854775808',
  },
  {
    sql: 'SELECT -9223372036854775808 - 1',
    mariadb: [1690, "BIGINT value is out of range in '-9223372036854775808 - 1'"],
  },
  {
    sql: 'SELECT 18446744073709551615 + 1',
    mariadb: [1690, "BIGINT UNSIGNED value is out of range in '18446744073709551615 + 1'"],
  },
  {
    sql: 'SELECT 2 - CAST(3 AS UNSIGNED)',
    mariadb: [1690, "BIGINT UNSIGNED value is out of range in '2 - cast(3 as unsigned)'"],
    differs: [1690, "BIGINT UNSIGNED value is out of range in '2 - CAST(3 AS UNSIGNED)'"],
  },
  {
    sql: 'SELECT ABS(-9223372036854775808)',
    mariadb: [1690, "BIGINT value is out of range in 'abs(-9223372036854775808)'"],
  },
  {
    sql: 'SELECT -9223372036854775808 * -1',
    mariadb: [1690, "BIGINT value is out of range in '-9223372036854775808 * -1'"],
  },
  {
    sql: 'SELECT CAST(18446744073709551615 AS SIGNED)',
    mariadb: '-1',
  },
];

describe('overflows', () => {
  it('answer as MariaDB 10.11 (1690), except the pinned BIGINT UNSIGNED cases', () => {
    const s = session();
    for (const o of OVERFLOWS) {
      let got: string | [number, string];
      try {
        const v = s.query(o.sql).rows[0]![0];
        got = v === null ? 'NULL' : String(v);
      } catch (e) {
        got = [(e as SqlError).errno, (e as SqlError).message];
      }
      expect(got, o.sql).toEqual(o.differs ?? o.mariadb);
    }
  });

  it('INSERT of out-of-range values is 1264 in strict mode', () => {
    const s = session();
    s.query('CREATE TABLE n (a TINYINT, b INT UNSIGNED, c BIGINT, d DECIMAL(4,2))');
    // MariaDB: ERROR 1264 (22003): Out of range value for column 'a' at row 1 (and b, c, d)
    for (const [col, v] of [
      ['a', '128'],
      ['b', '-1'],
      ['c', '9223372036854775808'],
      ['d', '100'],
    ] as const) {
      expect(
        errorOf(() => s.query(`INSERT INTO n (${col}) VALUES (${v})`)),
        col,
      ).toEqual([1264, `Out of range value for column '${col}' at row 1`]);
    }
  });
});

describe('duplicate keys', () => {
  it('show the value as typed, composite keys joined with -, from DML and from an index build', () => {
    const s = session();
    s.query(
      'CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(10), d DECIMAL(6,2), e DATE, UNIQUE KEY uv (v), UNIQUE KEY ud (d, e))',
    );
    s.query("INSERT INTO a VALUES (5, 'x', 1.5, '2020-01-02')");
    // MariaDB: Duplicate entry '5' for key 'PRIMARY', 'x' for 'uv', '1.50-2020-01-02' for 'ud'
    expect(errorOf(() => s.query("INSERT INTO a VALUES (5, 'y', 2, '2020-01-02')"))).toEqual([
      1062,
      "Duplicate entry '5' for key 'PRIMARY'",
    ]);
    expect(errorOf(() => s.query("INSERT INTO a VALUES (6, 'z', 1.50, '2020-01-02')"))).toEqual([
      1062,
      "Duplicate entry '1.50-2020-01-02' for key 'ud'",
    ]);
    s.query('CREATE TABLE c (x INT, d DATE)');
    s.query("INSERT INTO c VALUES (5, '2021-03-04'), (5, '2021-03-04')");
    expect(errorOf(() => s.query('ALTER TABLE c ADD UNIQUE KEY ux (x)'))).toEqual([
      1062,
      "Duplicate entry '5' for key 'ux'",
    ]);
    expect(errorOf(() => s.query('CREATE UNIQUE INDEX xd ON c (x, d)'))).toEqual([
      1062,
      "Duplicate entry '5-2021-03-04' for key 'xd'",
    ]);
  });
});

describe('a native function called with the wrong number of arguments', () => {
  it('is 1582 naming the function as written (MariaDB: ATAN() → ATAN)', () => {
    const s = session();
    for (const [sql, name] of [
      ['SELECT ATAN()', 'ATAN'],
      ['SELECT sqrt(1, 2)', 'sqrt'],
      ['SELECT Conv(1, 2)', 'Conv'],
      ['SELECT PI(1)', 'PI'],
    ] as const) {
      let err: SqlError | undefined;
      try {
        s.query(sql);
      } catch (e) {
        err = e as SqlError;
      }
      expect([err?.errno, err?.message], sql).toEqual([
        1582,
        `Incorrect parameter count in the call to native function '${name}'`,
      ]);
    }
  });
});
