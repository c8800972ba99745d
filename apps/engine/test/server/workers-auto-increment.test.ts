// AUTO_INCREMENT and the hidden DB_ROW_ID on worker threads: every worker takes values from one
// counter per table in shared memory, so concurrent inserters on different workers never take
// the same value, an explicit value raises the counter for all of them, and TRUNCATE on one
// worker starts it again for every other.
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const insertId = async (c: mysql.Connection, sql: string): Promise<number> => {
  const [r] = await c.query<mysql.ResultSetHeader>(sql);
  return r.insertId;
};

it('concurrent inserters on two workers take distinct values from one counter per table', async () => {
  const r = await startServer({}, 2);
  running.push(r);
  const conns = await Promise.all([0, 1, 2, 3].map(() => r.connect({ database: 'test' })));
  const [a, b] = conns as [mysql.Connection, mysql.Connection];
  await a.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, w INT NOT NULL)');
  await a.query('CREATE TABLE h (w INT NOT NULL, n INT NOT NULL)');
  await a.query('INSERT INTO t (w) VALUES (9), (9), (9)');
  const PER = 40;
  const taken = await Promise.all(
    conns.map(async (c, w) => {
      const ids: number[] = [];
      for (let i = 0; i < PER; i++) {
        ids.push(await insertId(c, `INSERT INTO t (w) VALUES (${w})`));
        await c.query(`INSERT INTO h VALUES (${w}, ${i})`);
      }
      return ids;
    }),
  );
  const all = taken.flat().sort((x, y) => x - y);
  expect(all).toEqual(Array.from({ length: 4 * PER }, (_, i) => i + 4));
  const [[t]] = await b.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS d FROM t');
  expect(t).toEqual({ n: 4 * PER + 3, d: 4 * PER + 3 });
  const [[h]] = await b.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM h');
  expect(h).toEqual({ n: 4 * PER });

  // an explicit value on one worker raises the counter the other takes from
  await a.query('INSERT INTO t VALUES (1000, 7)');
  expect(await insertId(b, 'INSERT INTO t (w) VALUES (7)')).toBe(1001);
  const [[shown]] = await a.query<mysql.RowDataPacket[]>('SHOW CREATE TABLE t');
  expect(shown!['Create Table']).toContain('AUTO_INCREMENT=1002');

  // TRUNCATE on one worker starts the counter again for the other
  await b.query('TRUNCATE TABLE t');
  expect(await insertId(a, 'INSERT INTO t (w) VALUES (1)')).toBe(1);
  expect(await insertId(b, 'INSERT INTO t (w) VALUES (1)')).toBe(2);
});
