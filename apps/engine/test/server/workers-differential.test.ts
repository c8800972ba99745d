// Sessions on worker threads answer as sessions on one thread do. One seeded script of DDL, DML
// and queries over tables with AUTO_INCREMENT, a hidden DB_ROW_ID, unique and plain secondary
// indexes and a view runs twice: on one connection of a server whose sessions run on the main
// thread (the oracle), and spread statement by statement over three connections of a server with
// two worker threads (a transaction stays on its connection). Every statement's rows, affected
// rows, insert id and error number must be the same. What a worker keeps for itself instead of in
// shared memory shows here: AUTO_INCREMENT counters were one such thing (1062 on the second
// worker's insert).
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

function rng(seed: number): (n: number) => number {
  let x = seed | 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

/** One step: a statement alone, or a transaction's statements (run on one connection). */
type Step = readonly string[];

const SETUP: Step[] = [
  ['CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, s VARCHAR(10), UNIQUE KEY uk (k))'],
  ['CREATE TABLE h (k INT NOT NULL, v INT, KEY kv (v))'],
  ['CREATE TABLE b (id INT PRIMARY KEY, a_k INT, n INT NOT NULL DEFAULT 0, KEY ak (a_k))'],
  ['CREATE VIEW va AS SELECT k, s FROM a WHERE k % 2 = 0'],
];

function script(seed: number, steps: number): Step[] {
  const r = rng(seed);
  const k = () => r(60);
  const word = () => ['x', 'yy', 'zzz', 'q', null][r(5)];
  const lit = (w: string | null | undefined) => (w == null ? 'NULL' : `'${w}'`);
  const one = (): string => {
    switch (r(22)) {
      case 0:
      case 1:
        return `INSERT INTO a (k, s) VALUES (${k()}, ${lit(word())})`;
      case 2:
        return `INSERT INTO a (k, s) VALUES (${k()}, 'm'), (${k()}, 'n')`;
      case 3:
        return `INSERT INTO a VALUES (${100 + r(200)}, ${k()}, 'e')`;
      case 4:
        return `INSERT IGNORE INTO a (k, s) VALUES (${k()}, 'i')`;
      case 5:
        return `INSERT INTO a (k, s) VALUES (${k()}, 'd') ON DUPLICATE KEY UPDATE s = CONCAT(COALESCE(s, ''), '+')`;
      case 6:
        return `REPLACE INTO a (id, k, s) VALUES (${1 + r(30)}, ${k()}, 'r')`;
      case 7:
        return `UPDATE a SET k = k + ${1 + r(3)} WHERE id = ${1 + r(40)}`;
      case 8:
        return `DELETE FROM a WHERE k BETWEEN ${k()} AND ${k()}`;
      case 9:
        return `INSERT INTO h VALUES (${k()}, ${r(4) === 0 ? 'NULL' : k()})`;
      case 10:
        return `DELETE FROM h WHERE v < ${k()} LIMIT 2`;
      case 11:
        return `INSERT INTO b (id, a_k) SELECT id + ${r(1000) * 1000}, k FROM a WHERE k < ${k()}`;
      case 12:
        return `UPDATE b SET n = n + 1 WHERE a_k IN (SELECT k FROM a WHERE s IS NOT NULL)`;
      case 13:
        return 'SELECT id, k, s FROM a ORDER BY id';
      case 14:
        return 'SELECT COUNT(*), SUM(v), MIN(k) FROM h';
      case 15:
        return 'SELECT a.k, COUNT(b.id), SUM(b.n) FROM a LEFT JOIN b ON b.a_k = a.k GROUP BY a.k ORDER BY a.k';
      case 16:
        return 'SELECT * FROM va ORDER BY k';
      case 17:
        return 'SHOW CREATE TABLE a';
      case 18:
        return [
          'ALTER TABLE h ADD COLUMN w INT DEFAULT 7',
          'ALTER TABLE h DROP COLUMN w',
          'ALTER TABLE a ADD INDEX ks (s)',
          'ALTER TABLE a DROP INDEX ks',
          'ANALYZE TABLE a, b',
          'TRUNCATE TABLE h',
        ][r(6)]!;
      case 19:
        return `SELECT k FROM a WHERE k > ${k()} ORDER BY k LIMIT 3`;
      case 20:
        return 'SELECT k, v FROM h ORDER BY k, v';
      default:
        return `DELETE FROM a WHERE id = ${1 + r(40)}`;
    }
  };
  const out: Step[] = [...SETUP];
  for (let i = 0; i < steps; i++) {
    if (r(8) === 0) {
      const body = Array.from({ length: 2 + r(3) }, one).filter((s) => !/^(ALTER|ANALYZE|TRUNCATE)/.test(s));
      out.push(['BEGIN', ...body, r(3) === 0 ? 'ROLLBACK' : 'COMMIT']);
    } else out.push([one()]);
  }
  return out;
}

async function answer(c: mysql.Connection, sql: string): Promise<unknown> {
  try {
    const [res] = await c.query({ sql, rowsAsArray: true });
    if (Array.isArray(res)) return { rows: res };
    const h = res as mysql.ResultSetHeader;
    return { affected: h.affectedRows, insertId: h.insertId };
  } catch (e) {
    return { errno: (e as { errno?: number }).errno ?? String(e) };
  }
}

async function runOn(r: Running, conns: number, steps: Step[]): Promise<unknown[]> {
  const cs = await Promise.all(Array.from({ length: conns }, () => r.connect({ database: 'test' })));
  const out: unknown[] = [];
  let next = 0;
  for (const step of steps) {
    const c = cs[next++ % cs.length]!;
    for (const sql of step) out.push([sql, await answer(c, sql)]);
  }
  return out;
}

describe('sessions on worker threads against sessions on the main thread', () => {
  it.each([11, 12, 13])(
    'seed %i: the same answer to every statement',
    async (seed) => {
      const steps = script(seed, 120);
      const oracle = await startServer({}, 0);
      running.push(oracle);
      const want = await runOn(oracle, 1, steps);
      const workers = await startServer({}, 2);
      running.push(workers);
      const got = await runOn(workers, 3, steps);
      for (let i = 0; i < want.length; i++) expect(got[i], `statement ${i}`).toEqual(want[i]);
      for (const t of ['a', 'h', 'b']) workers.db.table(t).checkIndexes();
    },
    120_000,
  );
});
