// The optimizer settings a session plans under are kept between statements, and every change of
// a variable they come from is seen by the very next statement: SET optimizer_switch (flag by
// flag and `default`), SET of a numeric optimizer variable (join_cache_level changes the next
// EXPLAIN), SET GLOBAL not reaching an open session, and text queries with and without
// parameter markers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

let db: Database;
let s: Session;

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, KEY k_1 (k))');
  s.query('INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)');
});

afterAll(() => {
  s.close();
  db.close();
});

describe('optimizer settings', () => {
  it('are the same object while the variables stay', () => {
    const a = s.optimizerSettings();
    s.query('SELECT k FROM t WHERE id = 2');
    expect(s.optimizerSettings()).toBe(a);
  });

  it('see SET optimizer_switch at the next statement, flag by flag and by default', () => {
    expect(s.optimizerSettings().switches.mrr).toBe(false);
    s.query("SET optimizer_switch = 'mrr=on'");
    expect(s.optimizerSettings().switches.mrr).toBe(true);
    expect(s.optimizerSettings().switches.hash_join).toBe(true);
    s.query("SET SESSION optimizer_switch = 'hash_join=off,mrr=default'");
    expect(s.optimizerSettings().switches.mrr).toBe(false);
    expect(s.optimizerSettings().switches.hash_join).toBe(false);
    s.query("SET optimizer_switch = 'default'");
    expect(s.optimizerSettings().switches.hash_join).toBe(true);
  });

  it('see a numeric variable change, and not a GLOBAL one in an open session', () => {
    s.query('SET optimizer_search_depth = 3');
    expect(s.optimizerSettings().optimizer_search_depth).toBe(3);
    s.query('SET GLOBAL optimizer_search_depth = 5');
    expect(s.optimizerSettings().optimizer_search_depth).toBe(3);
    const other = new Session(db);
    try {
      expect(other.optimizerSettings().optimizer_search_depth).toBe(5);
    } finally {
      other.close();
      s.query('SET GLOBAL optimizer_search_depth = DEFAULT');
      s.query('SET optimizer_search_depth = DEFAULT');
    }
    expect(s.optimizerSettings().optimizer_search_depth).toBe(62);
  });

  it('change the plan of the next statement (join_cache_level 0: no join buffer)', () => {
    s.query('CREATE TABLE u (id INT PRIMARY KEY, v INT)');
    s.query('INSERT INTO u VALUES (1, 10), (2, 20), (3, 30)');
    const extra = (): string =>
      JSON.stringify(s.query('EXPLAIN SELECT t.id FROM t JOIN u ON t.k = u.v').rows.map((r) => r[10]));
    expect(extra()).toContain('Using join buffer');
    s.query('SET join_cache_level = 0');
    expect(extra()).not.toContain('Using join buffer');
    s.query('SET join_cache_level = DEFAULT');
    expect(extra()).toContain('Using join buffer');
  });
});

describe('text queries', () => {
  it('bind `?` and `:name` markers, and need none without them', () => {
    expect(s.query('SELECT k FROM t WHERE id = ?', [3]).rows).toEqual([[30]]);
    expect(s.query('SELECT :a + 1', [4]).rows).toEqual([[5]]);
    expect(s.query("SELECT k FROM t WHERE id = 1 AND '?' = '?'").rows).toEqual([[10]]);
    expect(s.query('SELECT k FROM t WHERE id = 1').rows).toEqual([[10]]);
  });
});
