// Handler counters of each access type (ALL, index, ref, const, range on the clustered and on a
// secondary index, IN-list ranges, DS-MRR, index condition pushdown, eq_ref and ref joins, a GROUP
// BY's temporary table and its filesort) equal MariaDB 10.11's for the same table, statement and
// plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

const ROWS = Array.from({ length: 400 }, (_, i) => `(${i + 1}, ${(i + 1) % 40}, ${((i + 1) * 7) % 100})`);
const U_ROWS = Array.from({ length: 30 }, (_, i) => `(${i + 1}, ${((i + 1) * 13) % 45})`);

/**
 * Recorded from MariaDB 10.11 on the same two tables (CREATE TABLE t (id INT PRIMARY KEY, k INT NOT
 * NULL, v INT NOT NULL, KEY ik (k)); CREATE TABLE u (id INT PRIMARY KEY, tk INT NOT NULL); the rows
 * above; ANALYZE TABLE), each with
 *   SET SESSION optimizer_switch='<switches>,rowid_filter=off'; FLUSH STATUS; <statement>;
 *   SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_%' AND Value <> '0'
 * (Handler_commit left out), and the access type EXPLAIN showed.
 */
const CASES: readonly { sql: string; switches: string; type: string; status: Record<string, number> }[] = [
  { sql: 'SELECT * FROM t', switches: 'mrr=off', type: 'ALL', status: { Handler_read_rnd_next: 401 } },
  {
    sql: 'SELECT k FROM t',
    switches: 'mrr=off',
    type: 'index',
    status: { Handler_read_first: 1, Handler_read_next: 400 },
  },
  {
    sql: 'SELECT v FROM t WHERE k = 5',
    switches: 'mrr=off',
    type: 'ref',
    status: { Handler_read_key: 1, Handler_read_next: 10 },
  },
  {
    sql: 'SELECT v FROM t WHERE id = 17',
    switches: 'mrr=off',
    type: 'const',
    status: { Handler_read_key: 1 },
  },
  {
    sql: 'SELECT v FROM t WHERE id BETWEEN 10 AND 30',
    switches: 'mrr=off',
    type: 'range',
    status: { Handler_read_key: 1, Handler_read_next: 21 },
  },
  {
    sql: 'SELECT v FROM t FORCE INDEX (ik) WHERE k BETWEEN 3 AND 5',
    switches: 'mrr=off',
    type: 'range',
    status: { Handler_read_key: 1, Handler_read_next: 30 },
  },
  {
    sql: 'SELECT v FROM t FORCE INDEX (ik) WHERE k IN (3, 7, 11)',
    switches: 'mrr=off',
    type: 'range',
    status: { Handler_read_key: 3, Handler_read_next: 30 },
  },
  {
    sql: 'SELECT v FROM t FORCE INDEX (ik) WHERE k BETWEEN 3 AND 5',
    switches: 'mrr=on,mrr_cost_based=off',
    type: 'range',
    status: { Handler_mrr_init: 1, Handler_read_key: 1, Handler_read_next: 30, Handler_read_rnd: 30 },
  },
  {
    sql: 'SELECT v FROM t FORCE INDEX (ik) WHERE k IN (3, 7, 11)',
    switches: 'mrr=on,mrr_cost_based=off',
    type: 'range',
    status: { Handler_mrr_init: 1, Handler_read_key: 3, Handler_read_next: 30, Handler_read_rnd: 30 },
  },
  {
    sql: 'SELECT v FROM t FORCE INDEX (ik) WHERE k BETWEEN 3 AND 9 AND k % 3 = 0',
    switches: 'index_condition_pushdown=on,mrr=off',
    type: 'range',
    status: { Handler_icp_attempts: 70, Handler_icp_match: 30, Handler_read_key: 1, Handler_read_next: 30 },
  },
  {
    sql: 'SELECT STRAIGHT_JOIN t.v FROM u, t WHERE t.id = u.tk',
    switches: 'mrr=off',
    type: 'eq_ref',
    status: { Handler_read_key: 30, Handler_read_rnd_next: 31 },
  },
  {
    sql: 'SELECT STRAIGHT_JOIN t.v FROM u, t WHERE t.k = u.tk',
    switches: 'mrr=off',
    type: 'ref',
    status: { Handler_read_key: 30, Handler_read_next: 270, Handler_read_rnd_next: 31 },
  },
  {
    sql: 'SELECT v, COUNT(*) FROM t GROUP BY v ORDER BY COUNT(*) DESC, v LIMIT 5',
    switches: 'mrr=off',
    type: 'ALL',
    status: {
      Handler_read_key: 400,
      Handler_read_rnd: 5,
      Handler_read_rnd_next: 502,
      Handler_tmp_update: 300,
      Handler_tmp_write: 100,
    },
  },
];

let db: Database;
let s: Session;
beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, v INT NOT NULL, KEY ik (k))');
  s.query('CREATE TABLE u (id INT PRIMARY KEY, tk INT NOT NULL)');
  s.query(`INSERT INTO t VALUES ${ROWS.join(', ')}`);
  s.query(`INSERT INTO u VALUES ${U_ROWS.join(', ')}`);
  s.query('ANALYZE TABLE t');
  s.query('ANALYZE TABLE u');
});
afterAll(() => {
  s.close();
  db.close();
});

describe('handler counters per access type, as MariaDB 10.11', () => {
  for (const c of CASES) {
    it(`${c.type}: ${c.sql} (${c.switches})`, () => {
      s.query(`SET SESSION optimizer_switch='index_condition_pushdown=off,${c.switches}'`);
      const plan = s.query(`EXPLAIN ${c.sql}`).rows;
      expect(plan.at(-1)![3]).toBe(c.type);
      s.query('FLUSH STATUS');
      s.query(c.sql);
      const got: Record<string, number> = {};
      for (const [name, v] of Object.entries(s.status() as unknown as Record<string, number>))
        if (name.startsWith('Handler_') && v !== 0) got[name] = v;
      expect(got).toEqual(c.status);
    });
  }
});
