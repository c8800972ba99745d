// A statement text that comes back is parsed twice and then served from a kept, deeply frozen
// tree (the text parsed last is also handed back once more at once, unkept): the same answers on every run (DIV and MOD rewrites, views, parameter markers, prepared
// statements), a syntax error never kept, and a tree nobody can change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session, SqlError } from '../../src/index.js';
import { parseSql } from '../../src/sql/parser.js';

let db: Database;
let s: Session;

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT)');
  s.query('INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)');
  s.query('CREATE VIEW v AS SELECT id, k * 2 AS k2 FROM t WHERE id > 1');
});

afterAll(() => {
  s.close();
  db.close();
});

function isDeepFrozen(n: unknown): boolean {
  if (n === null || typeof n !== 'object') return true;
  if (!Object.isFrozen(n)) return false;
  return Object.values(n as Record<string, unknown>).every(isDeepFrozen);
}

describe('the parse cache', () => {
  it('keeps a text seen twice, frozen, and gives that tree from then on', () => {
    const text = 'SELECT id FROM t WHERE k BETWEEN 10 AND 25 /* kept */';
    const a = parseSql(text);
    // the last text's trees are handed back once more (a worker parses a statement for its kind,
    // then its session runs it), not kept
    expect(parseSql(text)).toBe(a);
    const b = parseSql(text);
    const c = parseSql(text);
    const d = parseSql(text);
    expect(a).not.toBe(b);
    expect(c).toBe(b);
    expect(d).toBe(b);
    expect(b).toEqual(a);
    expect(isDeepFrozen(b)).toBe(true);
    expect(isDeepFrozen(a)).toBe(false);
    expect(() => {
      (b as unknown[]).push(1);
    }).toThrow(TypeError);
  });

  it('never keeps a syntax error', () => {
    for (let i = 0; i < 3; i++) expect(() => s.query('SELEC 1')).toThrow(SqlError);
  });

  it('gives the same answers on every run of the same text', () => {
    const runs = (sql: string, params: unknown[] = []): unknown[] =>
      [1, 2, 3, 4].map(() => s.query(sql, params).rows);
    for (const r of runs('SELECT 7 DIV 2, 7 MOD 3, 7 % 4')) expect(r).toEqual([[3, 1, 3]]);
    for (const r of runs('SELECT k FROM t WHERE id = 2 # a comment')) expect(r).toEqual([[20]]);
    for (const r of runs('SELECT id, k2 FROM v ORDER BY id'))
      expect(r).toEqual([
        [2, 40],
        [3, 60],
      ]);
    for (const r of runs('SELECT k FROM t WHERE id = 3 LOCK IN SHARE MODE')) expect(r).toEqual([[30]]);
    // the rewrites that leave a mark on the tree (ROLLUP, two-part units, INTERVAL(), IGNORE), with
    // literals that change from run to run: the trees of texts of one digest keep their marks
    const marked = [1, 2, 3, 4].map(
      (i) =>
        s.query(
          `SELECT k, COUNT(*), INTERVAL(k, ${i}0, 25), EXTRACT(DAY_HOUR FROM '2024-01-0${i} 0${i}:00:00' + ` +
            `INTERVAL '${i} ${i}' DAY_HOUR) FROM t WHERE id < ${i + 1} GROUP BY k WITH ROLLUP`,
        ).rows,
    );
    expect(marked[1]).toEqual([
      [10, 1, 0, 404],
      [20, 1, 1, 404],
      [null, 2, -1, 404],
    ]);
    expect(marked[3]!.at(-1)).toEqual([null, 3, -1, 808]);
    for (let i = 0; i < 3; i++) s.query(`UPDATE IGNORE t SET id = 1 WHERE id = ${i + 2}`);
    expect(s.query('SELECT id FROM t ORDER BY id').rows).toEqual([[1], [2], [3]]);
    const seen = [1, 2, 3, 1].map((id) => s.query('SELECT k FROM t WHERE id = ?', [id]).rows);
    expect(seen).toEqual([[[10]], [[20]], [[30]], [[10]]]);
    for (let i = 0; i < 3; i++) {
      const p = s.prepare('SELECT k + ? FROM t WHERE id = ?');
      expect(p.run([i, 1]).rows).toEqual([[10 + i]]);
    }
  });

  it('leaves statements that change data working on every run', () => {
    for (let i = 0; i < 3; i++) s.query('UPDATE t SET k = k + 1 WHERE id = 1');
    expect(s.query('SELECT k FROM t WHERE id = 1').rows).toEqual([[13]]);
    for (let i = 0; i < 3; i++) s.query("SET optimizer_switch = 'mrr=on'");
    expect(s.optimizerSettings().switches.mrr).toBe(true);
    s.query("SET optimizer_switch = 'default'");
  });
});
