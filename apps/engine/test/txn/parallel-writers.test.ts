// Writers on two worker threads at once (each row operation under the change latch, row locks
// between them): racing inserts of one unique secondary value let exactly one through (the other
// waits for it and gets 1062, or takes over once it rolled back); racing inserts of one primary
// key likewise; racing updates of one counter lose none. Every index agrees with its table after.
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

const errno = (e: unknown): number => (e as { errno?: number }).errno ?? -1;

it('racing writers on two workers: unique values, primary keys and counters', async () => {
  const r = await startServer({}, 2);
  running.push(r);
  const conns = await Promise.all([0, 1, 2, 3].map(() => r.connect({ database: 'test' })));
  const [a] = conns as [mysql.Connection];
  await a.query('CREATE TABLE u (id INT PRIMARY KEY, v INT NOT NULL, UNIQUE KEY uv (v))');
  await a.query('CREATE TABLE c (id INT PRIMARY KEY, n INT NOT NULL)');
  await a.query('INSERT INTO c VALUES (1, 0), (2, 0)');
  const ROUNDS = 60;
  let dup = 0;
  let ok = 0;
  await Promise.all(
    conns.map(async (c, w) => {
      for (let i = 0; i < ROUNDS; i++) {
        // every connection inserts value i (a new id each): one of the four gets it
        try {
          await c.query(`INSERT INTO u VALUES (${w * 1000 + i}, ${i})`);
          ok++;
        } catch (e) {
          expect(errno(e)).toBe(1062);
          dup++;
        }
        // the same primary key from every connection
        await c.query(`INSERT IGNORE INTO u VALUES (${100000 + i}, ${100000 + w * 1000 + i})`);
        await c.query(`UPDATE c SET n = n + 1 WHERE id = ${1 + (i % 2)}`);
      }
    }),
  );
  expect(ok).toBe(ROUNDS);
  expect(dup).toBe(3 * ROUNDS);
  const [[u]] = await a.query<mysql.RowDataPacket[]>(
    'SELECT COUNT(*) AS n, COUNT(DISTINCT v) AS d FROM u WHERE id < 100000',
  );
  expect(u).toEqual({ n: ROUNDS, d: ROUNDS });
  const [[p]] = await a.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM u WHERE id >= 100000');
  expect(p).toEqual({ n: ROUNDS });
  const [[s]] = await a.query<mysql.RowDataPacket[]>('SELECT SUM(n) AS s FROM c');
  expect(Number(s!.s)).toBe(4 * ROUNDS);
  for (const t of ['u', 'c']) r.db.table(t).checkIndexes();
}, 60_000);
