// The executor's loops poll the statement's interrupt: with max_statement_time each kind of long
// loop ends with 1969 soon after the deadline, and the same statements finish when there is none
// and they are small; Session.cancel() (KILL QUERY of the session) between statements is spent:
// the next statement runs, as MariaDB's KILL QUERY of an idle connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

const db = Database.temporary();
const N = 3000;

beforeAll(() => {
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, g INT NOT NULL)');
  const rows = Array.from({ length: N }, (_, i) => `(${i + 1}, ${(i * 7919) % 1000}, ${i % 10})`).join(',');
  s.query(`INSERT INTO t VALUES ${rows}`);
});
afterAll(() => db.close());

/** Runs `sql` under max_statement_time = 0.1; returns the error number and the time taken. */
function timed(sql: string): { errno: number | undefined; ms: number } {
  const s = new Session(db);
  s.query('SET max_statement_time = 0.1');
  s.query('SET max_recursive_iterations = 100000000');
  const t0 = performance.now();
  try {
    s.query(sql);
    return { errno: undefined, ms: performance.now() - t0 };
  } catch (e) {
    return { errno: (e as { errno?: number }).errno, ms: performance.now() - t0 };
  } finally {
    s.close();
  }
}

const LONG: Record<string, string> = {
  'a nested-loop join': 'SELECT COUNT(*) FROM t a, t b, t c WHERE a.v + b.v + c.v = -1',
  'a hash join (BNLH)':
    'SELECT COUNT(*) FROM t a JOIN t b ON a.g = b.g JOIN t c ON b.g = c.g WHERE a.v + b.v + c.v = -1',
  'GROUP BY over a join': 'SELECT a.v, b.v, COUNT(*) FROM t a, t b GROUP BY a.v, b.v',
  'ORDER BY over a join': 'SELECT a.id, b.id FROM t a, t b ORDER BY a.v + b.v LIMIT 1',
  'a window function with a moving frame':
    'SELECT SUM(x.v) OVER (ORDER BY x.k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (SELECT a.v, a.id * 100000 + b.id AS k FROM t a, t b WHERE b.id <= 20) x',
  'a recursive CTE':
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 50000000) SELECT COUNT(*) FROM r',
  'a derived table materialized': 'SELECT COUNT(*) FROM (SELECT a.v FROM t a, t b) d WHERE d.v = -1',
};

describe('max_statement_time reaches every long loop', () => {
  for (const [what, sql] of Object.entries(LONG))
    it(`${what}: 1969 soon after 100 ms`, () => {
      const r = timed(sql);
      expect(r.errno).toBe(1969);
      expect(r.ms).toBeGreaterThanOrEqual(95);
      expect(r.ms).toBeLessThan(2000);
    });

  it('statements that finish in time answer as before', () => {
    const s = new Session(db);
    s.query('SET max_statement_time = 5');
    expect(s.query('SELECT COUNT(*) FROM t a, t b WHERE a.id = b.id').rows).toEqual([[N]]);
    const sum = s.query(
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 500) SELECT SUM(n) FROM r',
    ).rows[0]![0];
    expect(Number(sum)).toBe(125250);
    s.close();
  });

  it('Session.cancel() between statements does not stop the next one', () => {
    const s = new Session(db);
    s.cancel();
    expect(s.query('SELECT COUNT(*) FROM t').rows).toEqual([[N]]);
    s.close();
  });
});
