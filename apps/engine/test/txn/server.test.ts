// Transactions through the real mysql2 client: a statement waits for a row lock and goes on
// when the holder commits; innodb_lock_wait_timeout gives 1205 and fails only the statement;
// a deadlock gives 1213 and rolls back the whole transaction; DDL waits for the metadata lock;
// SHOW PROCESSLIST and information_schema.PROCESSLIST; KILL QUERY and KILL CONNECTION; a client
// that disconnects mid-transaction is rolled back; the counters.
import type mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, pause, type Running, rows, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function setup(): Promise<{ s: Running; a: mysql.Connection; b: mysql.Connection }> {
  const s = await startServer();
  running.push(s);
  const a = await s.connect();
  const b = await s.connect();
  await a.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL)');
  await a.query('INSERT INTO acc VALUES (1, 100), (2, 100), (3, 100)');
  await a.query('SET SESSION innodb_lock_wait_timeout = 1');
  await b.query('SET SESSION innodb_lock_wait_timeout = 1');
  return { s, a, b };
}

async function status(c: mysql.Connection, name: string): Promise<number> {
  const r = await rows(c, `SHOW GLOBAL STATUS LIKE '${name}'`);
  return Number(r[0]?.[1]);
}

describe('row locks through the server', () => {
  it('a writer waits for the holder, then runs; the waiting session shows in the process list', async () => {
    const { a, b } = await setup();
    await a.query('BEGIN');
    await a.query('UPDATE acc SET bal = bal - 10 WHERE id = 1');
    const waiting = b.query('UPDATE acc SET bal = bal + 1 WHERE id = 1');
    await pause(100);
    const list = await rows(a, 'SHOW FULL PROCESSLIST');
    const bId = b.threadId;
    const entry = list.find((r) => r[0] === bId);
    expect(entry?.[4]).toBe('Query');
    expect(entry?.[6]).toBe('Waiting for row lock');
    expect(entry?.[7]).toBe('UPDATE acc SET bal = bal + 1 WHERE id = 1');
    const is = await rows(a, 'SELECT ID, STATE FROM information_schema.PROCESSLIST ORDER BY ID');
    expect(is).toContainEqual([bId, 'Waiting for row lock']);
    expect(await status(a, 'Threads_running')).toBe(2);
    await a.query('COMMIT');
    await waiting;
    expect(await rows(b, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[91]]);
    expect(await status(a, 'Innodb_row_lock_waits')).toBe(1);
    expect(await status(a, 'Innodb_row_lock_time')).toBeGreaterThanOrEqual(50);
    expect(await status(a, 'Innodb_row_lock_current_waits')).toBe(0);
    // the statement that waited is counted once
    expect(await status(b, 'Com_update')).toBe(2);
  });

  it('a lock wait timeout is 1205 and fails only the statement', async () => {
    const { a, b } = await setup();
    await a.query('BEGIN');
    await a.query('SELECT * FROM acc WHERE id = 2 FOR UPDATE');
    await b.query('BEGIN');
    await b.query('UPDATE acc SET bal = 0 WHERE id = 3');
    const e = await failure(b.query('UPDATE acc SET bal = 0 WHERE id = 2'));
    expect(e).toEqual({
      errno: 1205,
      sqlState: 'HY000',
      message: 'Lock wait timeout exceeded; try restarting transaction',
    });
    // b's transaction goes on: its earlier change is still there and still its own
    expect(await rows(b, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[0]]);
    await b.query('ROLLBACK');
    await a.query('COMMIT');
    expect(await rows(a, 'SELECT bal FROM acc ORDER BY id')).toEqual([[100], [100], [100]]);
  });

  it('a deadlock is 1213 and rolls back the whole transaction of the victim', async () => {
    const { a, b } = await setup();
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query('UPDATE acc SET bal = bal - 5 WHERE id = 1');
    await b.query('UPDATE acc SET bal = bal - 7 WHERE id = 2');
    const aWaits = a.query('UPDATE acc SET bal = bal + 5 WHERE id = 2');
    await pause(50);
    const e = await failure(b.query('UPDATE acc SET bal = bal + 7 WHERE id = 1'));
    expect(e).toEqual({
      errno: 1213,
      sqlState: '40001',
      message: 'Deadlock found when trying to get lock; try restarting transaction',
    });
    await aWaits;
    await a.query('COMMIT');
    // b's first update is gone with its transaction; a's transfer is whole
    expect(await rows(b, 'SELECT bal FROM acc ORDER BY id')).toEqual([[95], [105], [100]]);
    expect(await status(a, 'Innodb_deadlocks')).toBe(1);
    const [[, , st]] = (await rows(a, 'SHOW ENGINE INNODB STATUS')) as [[string, string, string]];
    expect(st).toContain('LATEST DETECTED DEADLOCK');
    expect(st).toContain('*** WE ROLL BACK TRANSACTION (1)');
    expect(st).toContain('TRANSACTIONS');
  });

  it('DDL waits for the metadata lock of an open transaction (lock_wait_timeout)', async () => {
    const { s, a, b } = await setup();
    await a.query('BEGIN');
    await a.query('SELECT * FROM acc WHERE id = 1');
    await b.query('SET SESSION lock_wait_timeout = 1');
    const e = await failure(b.query('ALTER TABLE acc ADD COLUMN note INT'));
    expect(e.errno).toBe(1205);
    const ddl = b.query('CREATE INDEX ib ON acc (bal)');
    await pause(100);
    const list = await rows(a, 'SHOW PROCESSLIST');
    expect(list.find((r) => r[0] === b.threadId)?.[6]).toBe('Waiting for table metadata lock');
    await a.query('COMMIT');
    await ddl;
    expect(s.db.table('acc').secondary.map((x) => x.name)).toEqual(['ib']);
  });

  it('KILL QUERY ends a wait with 1317; KILL ends a session and rolls it back', async () => {
    const { s, a, b } = await setup();
    const c = await s.connect();
    await a.query('BEGIN');
    await a.query('UPDATE acc SET bal = 1 WHERE id = 1');
    const waiting = b.query('SELECT * FROM acc WHERE id = 1 FOR SHARE');
    await pause(50);
    await c.query(`KILL QUERY ${b.threadId}`);
    expect((await failure(waiting)).errno).toBe(1317);
    // KILL CONNECTION of the holder: its transaction is rolled back, its client sees the end
    await c.query(`KILL ${a.threadId}`);
    await pause(50);
    expect((await failure(a.query('SELECT 1'))).message).toMatch(/closed|Connection lost|PROTOCOL/i);
    expect(await rows(b, 'SELECT bal FROM acc WHERE id = 1 FOR UPDATE')).toEqual([[100]]);
    expect((await failure(c.query('KILL 99999'))).errno).toBe(1094);
    expect(await status(c, 'Com_kill')).toBe(3);
    expect(await status(c, 'Innodb_row_lock_current_waits')).toBe(0);
  });

  it('a unique key taken by an uncommitted insert waits: a duplicate only if that one commits', async () => {
    const { a, b } = await setup();
    await a.query('CREATE TABLE u (id INT PRIMARY KEY, email VARCHAR(20), UNIQUE KEY ue (email))');
    await a.query('BEGIN');
    await a.query("INSERT INTO u VALUES (1, 'x@y')");
    const second = b.query("INSERT INTO u VALUES (2, 'x@y')");
    await pause(100);
    await a.query('ROLLBACK');
    await second;
    await a.query('BEGIN');
    await a.query("INSERT INTO u VALUES (3, 'p@q')");
    const third = b.query("INSERT INTO u VALUES (4, 'p@q')");
    await pause(100);
    await a.query('COMMIT');
    expect((await failure(third)).errno).toBe(1062);
    expect(await rows(a, 'SELECT id, email FROM u ORDER BY id')).toEqual([
      [2, 'x@y'],
      [3, 'p@q'],
    ]);
  });

  it('a client that disconnects mid-transaction has it rolled back', async () => {
    const { s, a, b } = await setup();
    await a.query('START TRANSACTION');
    await a.query('INSERT INTO acc VALUES (4, 1)');
    await a.query('DELETE FROM acc WHERE id = 2');
    const waiting = b.query('SELECT bal FROM acc WHERE id = 2 FOR UPDATE');
    await pause(50);
    a.destroy();
    expect(((await waiting)[0] as unknown[]).length).toBe(1);
    expect(await rows(b, 'SELECT id, bal FROM acc ORDER BY id')).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
    s.db.table('acc').checkIndexes();
  });

  it('a client that disconnects while its statement waits leaves no wait behind', async () => {
    const { s, a, b } = await setup();
    await a.query('BEGIN');
    await a.query('UPDATE acc SET bal = 0 WHERE id = 3');
    void b.query('UPDATE acc SET bal = 5 WHERE id = 3').catch(() => undefined);
    await pause(50);
    expect(await status(a, 'Innodb_row_lock_current_waits')).toBe(1);
    b.destroy();
    await pause(50);
    expect(await status(a, 'Innodb_row_lock_current_waits')).toBe(0);
    await a.query('COMMIT');
    expect((await rows(a, 'SHOW PROCESSLIST')).length).toBe(1);
    expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[0]]);
    void s;
  });
});
