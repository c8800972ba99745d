// UPDATE under READ COMMITTED reads semi-consistently, as InnoDB: a row another transaction
// holds is judged on its last committed version without waiting; only a row whose committed
// version matches is waited for, then read again under its lock, so the WHERE clause decides on
// what the holder left. Which statements wait in each case is checked against MariaDB in
// gap-locks.test.ts (data/gap-locks-mariadb.json); the outcomes here were recorded from MariaDB
// 10.11.19 with the same statements.
import type mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function twoSessions(): Promise<[mysql.Connection, mysql.Connection]> {
  const s = await startServer({});
  running.push(s);
  const a = await s.connect();
  const b = await s.connect();
  for (const k of [a, b]) await k.query("SET SESSION transaction_isolation = 'READ-COMMITTED'");
  await a.query('CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, u INT)');
  await a.query('INSERT INTO t VALUES (5, 50, 5), (10, 100, 10), (20, 200, 20), (30, 300, 30)');
  return [a, b];
}

const rows = async (c: mysql.Connection): Promise<unknown[]> =>
  (await c.query({ sql: 'SELECT id, v, u FROM t ORDER BY id', rowsAsArray: true }))[0] as unknown[];

const affected = async (p: Promise<unknown>): Promise<number> =>
  ((await p) as [mysql.ResultSetHeader])[0].affectedRows;

describe('semi-consistent UPDATE under READ COMMITTED', () => {
  it('waits for a row whose committed version matches, then judges what the holder committed', async () => {
    const [a, b] = await twoSessions();
    await a.query('BEGIN');
    await a.query('UPDATE t SET v = 999 WHERE id = 20');
    const upd = b.query('UPDATE t SET u = u + 1 WHERE v + 0 = 200');
    let done = false;
    void upd.then(() => {
      done = true;
    });
    await pause(300);
    expect(done).toBe(false);
    await a.query('COMMIT');
    // MariaDB 10.11.19: 0 rows affected; the row now holds v = 999
    expect(await affected(upd)).toBe(0);
    expect(await rows(b)).toEqual([
      [5, 50, 5],
      [10, 100, 10],
      [20, 999, 20],
      [30, 300, 30],
    ]);
  });

  it('after the holder rolls back, the waiting UPDATE changes the row', async () => {
    const [a, b] = await twoSessions();
    await a.query('BEGIN');
    await a.query('UPDATE t SET v = 999 WHERE id = 20');
    const upd = b.query('UPDATE t SET u = u + 1 WHERE v + 0 = 200');
    await pause(300);
    await a.query('ROLLBACK');
    // MariaDB 10.11.19: 1 row affected
    expect(await affected(upd)).toBe(1);
    expect(await rows(b)).toEqual([
      [5, 50, 5],
      [10, 100, 10],
      [20, 200, 21],
      [30, 300, 30],
    ]);
  });

  it('passes a held row whose committed version does not match, and locks only the rows it changed', async () => {
    const [a, b] = await twoSessions();
    await a.query('BEGIN');
    await a.query('UPDATE t SET v = 150 WHERE id = 20');
    await b.query('BEGIN');
    // committed v = 200 does not match: no wait, though the holder's v = 150 would
    expect(await affected(b.query('UPDATE t SET u = u + 1 WHERE v + 0 < 160'))).toBe(2);
    // b holds 5 and 10 only: the rows its scan rejected (30) were given back at once
    await a.query('SET SESSION innodb_lock_wait_timeout = 1');
    expect(await affected(a.query('UPDATE t SET u = 0 WHERE id = 30'))).toBe(1);
    await expect(a.query('UPDATE t SET u = 0 WHERE id = 10')).rejects.toMatchObject({ errno: 1205 });
    await b.query('COMMIT');
    await a.query('COMMIT');
    expect(await rows(b)).toEqual([
      [5, 50, 6],
      [10, 100, 11],
      [20, 150, 20],
      [30, 300, 0],
    ]);
  });

  it('DELETE and REPEATABLE READ UPDATE wait as before', async () => {
    const [a, b] = await twoSessions();
    await b.query('SET SESSION innodb_lock_wait_timeout = 1');
    await a.query('BEGIN');
    await a.query('SELECT * FROM t WHERE id = 20 FOR UPDATE');
    await expect(b.query('DELETE FROM t WHERE v + 0 = 100')).rejects.toMatchObject({ errno: 1205 });
    await b.query("SET SESSION transaction_isolation = 'REPEATABLE-READ'");
    await expect(b.query('UPDATE t SET u = 1 WHERE v + 0 = 100')).rejects.toMatchObject({ errno: 1205 });
    await a.query('ROLLBACK');
  });
});
