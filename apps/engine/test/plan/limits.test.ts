// MySQL's fixed limits, each with MySQL's error: 61 tables in a join (1116), 64 indexes per
// table (1069), 16 columns per index (1070), 4096 columns (1117), 64-character names (1059).
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session, type SqlError } from '../../src/index.js';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});
function session() {
  const db = Database.temporary();
  dbs.push(db);
  return new Session(db);
}
function errorOf(f: () => unknown): [number, string, string] {
  try {
    f();
  } catch (e) {
    const x = e as SqlError;
    return [x.errno, x.code, x.message];
  }
  throw new Error('no error');
}

describe('limits', () => {
  it('joins at most 61 tables in one query block', () => {
    const s = session();
    s.query('CREATE TABLE t (a INT PRIMARY KEY)');
    s.query('INSERT INTO t VALUES (1)');
    const from = (n: number): string => Array.from({ length: n }, (_, i) => `t t${i}`).join(', ');
    expect(s.query(`SELECT COUNT(*) FROM ${from(61)}`).rows).toEqual([[1]]);
    expect(errorOf(() => s.query(`SELECT COUNT(*) FROM ${from(62)}`))).toEqual([
      1116,
      'ER_TOO_MANY_TABLES',
      'Too many tables; MySQL can only use 61 tables in a join',
    ]);
    const joins = `t j0 ${Array.from({ length: 61 }, (_, i) => `JOIN t j${i + 1} ON j${i + 1}.a = j0.a`).join(' ')}`;
    expect(errorOf(() => s.query(`SELECT 1 FROM ${joins}`))[0]).toBe(1116);
    // a derived table is one table of its outer block
    expect(s.query(`SELECT COUNT(*) FROM (SELECT t0.a FROM ${from(40)}) d, ${from(40)}`).rows).toEqual([[1]]);
  });

  it('refuses too many indexes, key parts, columns and long names', () => {
    const s = session();
    const cols = Array.from({ length: 17 }, (_, i) => `c${i} INT`).join(', ');
    const parts = Array.from({ length: 17 }, (_, i) => `c${i}`).join(', ');
    expect(errorOf(() => s.query(`CREATE TABLE k (${cols}, KEY (${parts}))`))).toEqual([
      1070,
      'ER_TOO_MANY_KEY_PARTS',
      'Too many key parts specified; max 16 parts allowed',
    ]);
    const keys = Array.from({ length: 65 }, (_, i) => `KEY k${i} (c${i % 17})`).join(', ');
    expect(errorOf(() => s.query(`CREATE TABLE k (${cols}, ${keys})`))).toEqual([
      1069,
      'ER_TOO_MANY_KEYS',
      'Too many keys specified; max 64 keys allowed',
    ]);
    // the primary key is one of the 64
    const keys63 = Array.from({ length: 63 }, (_, i) => `KEY k${i} (c${i % 17})`).join(', ');
    s.query(`CREATE TABLE k (${cols}, PRIMARY KEY (c0), ${keys63})`);
    expect(errorOf(() => s.query('CREATE INDEX k63 ON k (c1)'))[0]).toBe(1069);
    expect(
      errorOf(() =>
        s.query(`CREATE TABLE w (${Array.from({ length: 4097 }, (_, i) => `c${i} INT`).join(', ')})`),
      ),
    ).toEqual([1117, 'ER_TOO_MANY_FIELDS', 'Too many columns']);
    const long = 'x'.repeat(65);
    expect(errorOf(() => s.query(`CREATE TABLE ${long} (a INT)`))).toEqual([
      1059,
      'ER_TOO_LONG_IDENT',
      `Identifier name '${long}' is too long`,
    ]);
    expect(errorOf(() => s.query(`CREATE TABLE n (${long} INT)`))[0]).toBe(1059);
    s.query(`CREATE TABLE ${'y'.repeat(64)} (a INT)`);
  });
});
