// LOCK TABLES between sessions: a READ lock lets other sessions read and makes their writers wait;
// a WRITE lock makes every other use of the table wait, consistent reads outside a transaction
// included; a writer's open transaction makes LOCK TABLES … READ wait; waits end in the grant,
// 1205 after lock_wait_timeout (or at once with NOWAIT / on the synchronous API) and KILL QUERY's
// 1317; the locks outlive autocommit statements and go with UNLOCK TABLES, BEGIN and the session's
// end. (One session's rules — 1100, 1099, 1066, aliases, DDL — are recorded from MariaDB in
// test/data/statements.cases.mjs.)
import type mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/index.js';
import { failure, pause, type Running, rows, startServer } from '../helpers/server-helpers.js';
import { temporarySession } from '../helpers/temporary.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

/** A server (sessions on `threads` worker threads; 0: the main thread) with tables t and u, and two sessions. */
async function setup(threads = 0): Promise<{ s: Running; a: mysql.Connection; b: mysql.Connection }> {
  const s = await startServer({}, threads);
  running.push(s);
  const a = await s.connect();
  const b = await s.connect();
  await a.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
  await a.query('CREATE TABLE u (id INT PRIMARY KEY)');
  await a.query('INSERT INTO t VALUES (1, 10), (2, 20)');
  await b.query('SET SESSION lock_wait_timeout = 1');
  return { s, a, b };
}

describe('LOCK TABLES through the server', () => {
  it('READ: other sessions read; their writes wait until UNLOCK TABLES, then run', async () => {
    const { a, b } = await setup();
    await a.query('LOCK TABLES t READ');
    expect(await rows(b, 'SELECT COUNT(*) FROM t')).toEqual([[2]]);
    // a locking read takes the table for reading only: it does not wait either
    expect(await rows(b, 'SELECT v FROM t WHERE id = 1 LOCK IN SHARE MODE')).toEqual([[10]]);
    const insert = b.query('INSERT INTO t VALUES (3, 30)');
    await pause(150);
    const list = await rows(a, 'SHOW PROCESSLIST');
    expect(list.find((r) => r[0] === b.threadId)?.[6]).toBe('Waiting for table metadata lock');
    // the holder's autocommit statements do not release the table lock
    expect(await rows(a, 'SELECT COUNT(*) FROM t')).toEqual([[2]]);
    await pause(150);
    expect(list.length).toBeGreaterThan(0);
    await a.query('UNLOCK TABLES');
    await insert;
    expect(await rows(a, 'SELECT COUNT(*) FROM t')).toEqual([[3]]);
    // the statement that waited is counted once
    expect(await rows(b, "SHOW SESSION STATUS LIKE 'Com_insert'")).toEqual([['Com_insert', '1']]);
  });

  it('WRITE: every use by another session waits; lock_wait_timeout gives 1205', async () => {
    const { a, b } = await setup();
    await a.query('LOCK TABLES t WRITE');
    await a.query('INSERT INTO t VALUES (3, 30)');
    const timeout = {
      errno: 1205,
      sqlState: 'HY000',
      message: 'Lock wait timeout exceeded; try restarting transaction',
    };
    const t0 = Date.now();
    expect(await failure(b.query('SELECT COUNT(*) FROM t'))).toEqual(timeout);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(await failure(b.query('UPDATE t SET v = 0'))).toEqual(timeout);
    expect(await failure(b.query('ALTER TABLE t ADD COLUMN w INT'))).toEqual(timeout);
    // other tables are free
    await b.query('INSERT INTO u VALUES (1)');
    const read = rows(b, 'SELECT COUNT(*) FROM t');
    await pause(200);
    await a.query('UNLOCK TABLES');
    expect(await read).toEqual([[3]]);
  });

  it("a writer's open transaction makes LOCK TABLES … READ wait; NOWAIT fails at once", async () => {
    const { a, b } = await setup();
    await b.query('BEGIN');
    await b.query('UPDATE t SET v = v + 1 WHERE id = 1');
    await a.query('SET SESSION lock_wait_timeout = 1');
    const t0 = Date.now();
    expect((await failure(a.query('LOCK TABLES t READ NOWAIT'))).errno).toBe(1205);
    expect(Date.now() - t0).toBeLessThan(500);
    const lock = a.query('LOCK TABLES t READ');
    await pause(150);
    await b.query('COMMIT');
    await lock;
    expect(await rows(a, 'SELECT v FROM t WHERE id = 1')).toEqual([[11]]);
    // a failed wait holds nothing: b's write waits for the granted lock, not a leftover
    expect((await failure(b.query('UPDATE t SET v = 0'))).errno).toBe(1205);
    await a.query('UNLOCK TABLES');
    await b.query('UPDATE t SET v = 0');
  });

  it('KILL QUERY ends a LOCK TABLES that waits (1317); the session holds nothing after', async () => {
    const { a, b, s } = await setup();
    await a.query('LOCK TABLES t WRITE');
    await b.query('SET SESSION lock_wait_timeout = 30');
    const waiting = failure(b.query('LOCK TABLES t READ'));
    await pause(150);
    const c = await s.connect();
    await c.query(`KILL QUERY ${b.threadId}`);
    expect((await waiting).errno).toBe(1317);
    await a.query('UNLOCK TABLES');
    expect(await rows(c, 'SELECT COUNT(*) FROM t')).toEqual([[2]]);
    await c.query('INSERT INTO t VALUES (9, 9)');
  });

  it("a session's end and BEGIN release its table locks", async () => {
    const { a, b, s } = await setup();
    const c = await s.connect();
    await c.query('LOCK TABLES t WRITE');
    await c.end();
    await pause(50);
    expect(await rows(b, 'SELECT COUNT(*) FROM t')).toEqual([[2]]);
    await a.query('LOCK TABLES t WRITE');
    await a.query('BEGIN');
    expect(await rows(b, 'SELECT COUNT(*) FROM t')).toEqual([[2]]);
    // and the session is out of locked-tables mode
    expect(await rows(a, 'SELECT COUNT(*) FROM u')).toEqual([[0]]);
  });
});

describe('LOCK TABLES between worker threads', () => {
  it('a WRITE lock taken on one thread makes a session on another wait, then go on', async () => {
    const { a, b } = await setup(2);
    await a.query('LOCK TABLES t WRITE');
    await a.query('INSERT INTO t VALUES (3, 30)');
    expect((await failure(b.query('SELECT COUNT(*) FROM t'))).errno).toBe(1205);
    const read = rows(b, 'SELECT COUNT(*) FROM t');
    await pause(200);
    await a.query('UNLOCK TABLES');
    expect(await read).toEqual([[3]]);
  });
});

describe('LOCK TABLES on the synchronous API', () => {
  it('a conflicting request fails at once with 1205 (the API cannot wait)', () => {
    const a = temporarySession();
    const b = new Session(a.db);
    a.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
    a.query('INSERT INTO t VALUES (1, 10)');
    a.query('LOCK TABLES t READ');
    expect(b.query('SELECT v FROM t').rows).toEqual([[10]]);
    expect(() => b.query('UPDATE t SET v = 0')).toThrow(expect.objectContaining({ errno: 1205 }));
    a.query('LOCK TABLES t WRITE');
    expect(() => b.query('SELECT v FROM t')).toThrow(expect.objectContaining({ errno: 1205 }));
    expect(() => b.query('LOCK TABLES t READ')).toThrow(expect.objectContaining({ errno: 1205 }));
    a.query('UNLOCK TABLES');
    b.query('LOCK TABLES t READ');
    expect(() => a.query('INSERT INTO t VALUES (2, 20)')).toThrow(expect.objectContaining({ errno: 1205 }));
    b.close();
    a.query('INSERT INTO t VALUES (2, 20)');
    expect(a.query('SELECT COUNT(*) FROM t').rows).toEqual([[2]]);
  });

  it('a copying ALTER under LOCK TABLES … WRITE keeps the rebuilt table locked', () => {
    const a = temporarySession();
    const b = new Session(a.db);
    a.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
    a.query('LOCK TABLES t WRITE');
    a.query('ALTER TABLE t ADD COLUMN w INT');
    a.query('INSERT INTO t VALUES (1, 1, 1)');
    expect(() => b.query('SELECT * FROM t')).toThrow(expect.objectContaining({ errno: 1205 }));
    a.query('UNLOCK TABLES');
    expect(b.query('SELECT * FROM t').rows).toEqual([[1, 1, 1]]);
  });
});
