// Statements that break the WASM parser (a tree deeper than its stack) must not break it for
// anyone else: the poisoned instance is replaced, the statement gets MySQL's error, and the next
// statement on another connection parses. MariaDB 10.11's answers to the same statements,
// recorded on a private mariadbd (`mariadb -S $SOCK -uroot t1 < stmt.sql`):
//   SELECT 1+1+…+1 (1,000 terms)        ERROR 1436 (HY000) Thread stack overrun: 267064 bytes used
//                                       of a 299008 byte stack, and 32000 bytes needed. …
//   SELECT 1+1+…+1 (500 terms)          500
//   SELECT abs(abs(…(1)…)) (1,000 deep)  ERROR 1436
//   SELECT (((…(1)…))) (100,000 deep)   ERROR 1064 (42000) memory exhausted near '(((((…' at line 1
//   SELECT 1 FROM DUAL WHERE 1=0 OR …   (1,000 terms) 1
//   SELECT 1 IN (1,…,100000)            1
// The engine's parser nests at most 50 levels and holds chains of about 700 terms: past those
// it answers 1436 (MariaDB parses more before its stack runs out; the error is the same).
import { afterEach, describe, expect, it } from 'vitest';
import { parserInstances } from '../../src/sql/wasm-parser.js';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';
import type { SqlError } from '../../src/sql/errors.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const chain = (n: number, term: string, op: string): string => Array(n).fill(term).join(op);

const POISON: ReadonlyArray<readonly [string, string]> = [
  ['a 2 KB sum', `SELECT ${chain(1000, '1', '+')}`],
  ['1,000 ORs', `SELECT 1 FROM t WHERE ${chain(1000, 'a = 1', ' OR ')}`],
  ['100,000 nested parentheses', `SELECT ${'('.repeat(100000)}1${')'.repeat(100000)}`],
  ['1,000 nested calls', `SELECT ${'abs('.repeat(1000)}1${')'.repeat(1000)}`],
  ['a 20,000-term sum', `SELECT ${chain(20000, 'a', '+')} FROM t`],
];

function errnoOf(f: () => unknown): number {
  try {
    f();
  } catch (e) {
    return (e as SqlError).errno;
  }
  return 0;
}

describe('parser isolation', () => {
  it('a statement that breaks the parser fails alone; the next one on another connection parses', async () => {
    running = await startServer();
    const bad = await running.connect();
    const good = await running.connect();
    await good.query('CREATE TABLE t (a INT PRIMARY KEY)');
    await good.query('INSERT INTO t VALUES (1), (2)');
    for (const [what, sql] of POISON) {
      const err = await bad.query(sql).then(
        () => undefined,
        (e: { errno: number; message: string }) => e,
      );
      expect(err?.errno, what).toBe(1436);
      expect(err?.message, what).toMatch(/^Thread stack overrun/);
      const [rows] = await good.query('SELECT COUNT(*) AS n FROM t WHERE a > ?', [0]);
      expect(rows, what).toEqual([{ n: 2 }]);
    }
    // the poisoning connection is still usable too
    const [rows] = await bad.query('SELECT 1 + 1 AS two');
    expect(rows).toEqual([{ two: 2 }]);
  });

  it('replaces the instance only when it failed, and answers as MariaDB within its limits', () => {
    const db = Database.temporary();
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (a INT)');
      const before = parserInstances();
      // a syntax error is the parser's own answer: the instance stays
      expect(errnoOf(() => s.query('SELEC 1'))).toBe(1064);
      expect(errnoOf(() => s.query(`SELECT ${'('.repeat(60)}1${')'.repeat(60)}`))).toBe(1436);
      expect(parserInstances()).toBe(before);
      expect(errnoOf(() => s.query(`SELECT ${chain(1000, '1', '+')}`))).toBe(1436);
      expect(s.query('SELECT 2').rows).toEqual([[2]]);
      expect(parserInstances()).toBe(before + 1);
      // what MariaDB answers, the engine answers too below its limits
      expect(s.query(`SELECT ${chain(500, '1', '+')}`).rows).toEqual([[500]]);
      expect(s.query(`SELECT ${'('.repeat(40)}1${')'.repeat(40)}`).rows).toEqual([[1]]);
      expect(
        s.query(`SELECT 1 IN (${Array.from({ length: 2000 }, (_, i) => i + 1).join(',')})`).rows,
      ).toEqual([[1]]);
    } finally {
      db.close();
    }
  });

  it('65,536 placeholders are 1390, 65,535 are accepted', async () => {
    running = await startServer();
    const c = await running.connect();
    const err = await c.prepare(`SELECT ${chain(65536, '?', ',')}`).then(
      () => undefined,
      (e: { errno: number; message: string }) => e,
    );
    expect(err?.errno).toBe(1390);
    expect(err?.message).toBe('Prepared statement contains too many placeholders');
    const st = await c.prepare(`SELECT 1 FROM DUAL WHERE 1 IN (${chain(65535, '?', ',')})`);
    expect((st as unknown as { statement: { parameters: unknown[] } }).statement.parameters.length).toBe(
      65535,
    );
    await st.close();
  });
});
