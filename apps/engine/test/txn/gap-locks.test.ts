// Gap, next-key and insert-intention locks through mysql2, two or three sessions on one server:
// a range read FOR UPDATE under REPEATABLE READ keeps phantoms out of its range (and out of the
// gap up to the next record past it) until it commits; gap locks never block each other, so two
// check-then-insert transactions end in a deadlock (1213) instead of write skew; READ COMMITTED
// takes no gap locks; a secondary-index range locks its index's gaps; duplicate-key checks hold
// S locks that turn three inserts of one key into a deadlock when the first rolls back; a cycle
// of three picks the lightest transaction as its victim. Which statement waits is checked
// against MariaDB 10.11 recordings (data/gap-locks-mariadb.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type mysql from 'mysql2/promise';
import { afterEach, describe, type ExpectStatic, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether the statement is still running after `ms` (it waits for a lock). */
async function waits(p: Promise<unknown>, ms = 300): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await pause(ms);
  return !done;
}

async function errno(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (e) {
    return (e as { errno?: number }).errno ?? -1;
  }
}

async function setup(n: number, level = 'REPEATABLE-READ'): Promise<{ s: Running; c: mysql.Connection[] }> {
  const s = await startServer({});
  running.push(s);
  const c: mysql.Connection[] = [];
  for (let i = 0; i < n; i++) {
    const k = await s.connect();
    await k.query('SET SESSION innodb_lock_wait_timeout = 1');
    await k.query(`SET SESSION transaction_isolation = '${level}'`);
    c.push(k);
  }
  // (a third column keeps kv from covering SELECT *, so a primary-key range reads PRIMARY)
  await c[0]!.query(
    "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, pad CHAR(1) NOT NULL DEFAULT 'x', KEY kv (v))",
  );
  await c[0]!.query('INSERT INTO t (id, v) VALUES (5, 50), (10, 100), (20, 200), (30, 300)');
  return { s, c };
}

const ids = async (c: mysql.Connection, sql: string): Promise<number[]> =>
  ((await c.query({ sql, rowsAsArray: true }))[0] as unknown[][]).map((r) => Number(r[0]));

describe('gap locks under REPEATABLE READ', () => {
  it('a BETWEEN … FOR UPDATE keeps a phantom out until it commits (1205 at innodb_lock_wait_timeout=1)', async () => {
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await a.query('BEGIN');
    expect(await ids(a, 'SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE')).toEqual([10, 20]);
    const t0 = Date.now();
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (15, 150)'))).toBe(1205);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    // the next-key lock on 30, the first record past the range, covers the gap (20, 30)
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (25, 250)'))).toBe(1205);
    // 10 was found by its full key first: the record only, the gap before it stays open
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (7, 70)'))).toBe(0);
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (35, 350)'))).toBe(0);
    // the range read again sees no phantom
    expect(await ids(a, 'SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE')).toEqual([10, 20]);
    const ins = b.query('INSERT INTO t (id, v) VALUES (15, 150)');
    expect(await waits(ins)).toBe(true);
    await a.query('COMMIT');
    await ins;
    expect(await ids(b, 'SELECT id FROM t ORDER BY id')).toEqual([5, 7, 10, 15, 20, 30, 35]);
  });

  it('an insert into a gap held by a next-key lock waits; a gap lock does not block another gap lock', async () => {
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await a.query('BEGIN');
    await b.query('BEGIN');
    // a missing key: a gap lock on the next record (20)
    expect(await ids(a, 'SELECT id FROM t WHERE id = 12 FOR UPDATE')).toEqual([]);
    expect(await waits(b.query('SELECT id FROM t WHERE id = 13 FOR UPDATE'))).toBe(false);
    expect(await waits(b.query('SELECT id FROM t WHERE id = 14 LOCK IN SHARE MODE'))).toBe(false);
    // the record 20 itself is free: a gap lock never blocks a record lock
    expect(await errno(b.query('UPDATE t SET v = 201 WHERE id = 20'))).toBe(0);
    await b.query('ROLLBACK');
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (11, 110)'))).toBe(1205);
    await a.query('ROLLBACK');
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (11, 110)'))).toBe(0);
  });

  it('two check-then-insert transactions deadlock (1213) instead of both committing', async () => {
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await a.query('BEGIN');
    await b.query('BEGIN');
    expect(await ids(a, 'SELECT id FROM t WHERE id = 12 FOR UPDATE')).toEqual([]);
    expect(await ids(b, 'SELECT id FROM t WHERE id = 13 FOR UPDATE')).toEqual([]);
    const ia = a.query('INSERT INTO t (id, v) VALUES (12, 120)');
    expect(await waits(ia)).toBe(true);
    // b closes the cycle; both weigh the same, so the requester is rolled back
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (13, 130)'))).toBe(1213);
    await ia;
    await a.query('COMMIT');
    expect(await ids(b, 'SELECT id FROM t WHERE id BETWEEN 11 AND 19')).toEqual([12]);
  });

  it('the end of the table is a gap too (the supremum)', async () => {
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await a.query('BEGIN');
    expect(await ids(a, 'SELECT id FROM t WHERE id > 25 FOR UPDATE')).toEqual([30]);
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (1000, 1)'))).toBe(1205);
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (1, 1)'))).toBe(0);
    await a.query('COMMIT');
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (1000, 1)'))).toBe(0);
  });

  it('a secondary-index range FOR UPDATE blocks inserts into its range of that index', async () => {
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await a.query('BEGIN');
    expect(await ids(a, 'SELECT id FROM t FORCE INDEX (kv) WHERE v BETWEEN 100 AND 200 FOR UPDATE')).toEqual([
      10, 20,
    ]);
    // a new row whose v falls in the range (or before the next entry, 300) waits
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (99, 150)'))).toBe(1205);
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (98, 250)'))).toBe(1205);
    // the rows found are locked through the clustered index too
    expect(await errno(b.query('UPDATE t SET v = 1 WHERE id = 10'))).toBe(1205);
    // outside the locked part of the index, and other rows, go ahead
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (97, 350)'))).toBe(0);
    // (a new v of 51 would go into the locked gap before 100 and wait: 49 goes before 50)
    expect(await errno(b.query('UPDATE t SET v = 49 WHERE id = 5'))).toBe(0);
    await a.query('COMMIT');
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (99, 150)'))).toBe(0);
  });

  it('duplicate-key checks S-lock the duplicate: three inserts of one key deadlock when the first rolls back', async () => {
    const { c } = await setup(3);
    const [a, b, d] = c as [mysql.Connection, mysql.Connection, mysql.Connection];
    for (const k of c) await k.query('SET SESSION innodb_lock_wait_timeout = 5');
    await a.query('BEGIN');
    await a.query('INSERT INTO t (id, v) VALUES (15, 150)');
    await b.query('BEGIN');
    await d.query('BEGIN');
    const ib = errno(b.query('INSERT INTO t (id, v) VALUES (15, 151)'));
    const id = errno(d.query('INSERT INTO t (id, v) VALUES (15, 152)'));
    await pause(200);
    await a.query('ROLLBACK');
    // both held S on 15 (now gap locks on 20): each insert intention waits for the other
    const got = [await ib, await id].sort();
    expect(got).toEqual([0, 1213]);
  });
});

describe('READ COMMITTED', () => {
  it('takes record locks only: the phantom insert goes through, the locked rows stay locked', async () => {
    const { c } = await setup(2, 'READ-COMMITTED');
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await a.query('BEGIN');
    expect(await ids(a, 'SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE')).toEqual([10, 20]);
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (15, 150)'))).toBe(0);
    expect(await errno(b.query('INSERT INTO t (id, v) VALUES (25, 250)'))).toBe(0);
    expect(await errno(b.query('UPDATE t SET v = 0 WHERE id = 20'))).toBe(1205);
    // the second read sees the committed phantom
    expect(await ids(a, 'SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE')).toEqual([10, 15, 20]);
    await a.query('COMMIT');
  });
});

describe('deadlocks', () => {
  it('a locking read of the clustered index and an insert waiting on its secondary gap (MariaDB: 1213)', async () => {
    // MariaDB 10.11, the same statements: the second SELECT fails with 1213 (deadlock) and the
    // INSERT goes on. InnoDB's insert places its clustered record, then waits on kv's gap; the
    // read reaches that record, implicitly locked by the inserter, and closes the cycle. The
    // engine's insert asks each index's insert intention before it places any entry (a statement
    // that waits runs again from its start), so the record is not there yet: the read goes on,
    // holding its locks, and the INSERT waits for its commit. Same locks held, no victim.
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    for (const k of c) await k.query('SET SESSION innodb_lock_wait_timeout = 5');
    await a.query('BEGIN');
    expect(await ids(a, 'SELECT id FROM t FORCE INDEX (kv) WHERE v BETWEEN 150 AND 250 FOR UPDATE')).toEqual([
      20,
    ]);
    await b.query('BEGIN');
    const ins = errno(b.query('INSERT INTO t (id, v) VALUES (25, 250)'));
    expect(await waits(ins)).toBe(true);
    expect(
      await ids(a, 'SELECT id FROM t FORCE INDEX (PRIMARY) WHERE id BETWEEN 20 AND 30 FOR UPDATE'),
    ).toEqual([20, 30]);
    expect(await waits(ins)).toBe(true);
    await a.query('COMMIT');
    expect(await ins).toBe(0);
    await b.query('COMMIT');
    expect(await ids(a, 'SELECT id FROM t ORDER BY id')).toEqual([5, 10, 20, 25, 30]);
  });

  it('a cycle of three rolls back the lightest transaction (undo records + locks), not the requester', async () => {
    const { c } = await setup(3);
    const [a, b, d] = c as [mysql.Connection, mysql.Connection, mysql.Connection];
    for (const k of c) await k.query('SET SESSION innodb_lock_wait_timeout = 10');
    await a.query('CREATE TABLE w (id INT PRIMARY KEY)');
    await a.query('BEGIN');
    await b.query('BEGIN');
    await d.query('BEGIN');
    // a and d write more than b
    await a.query('INSERT INTO w VALUES (1), (2), (3), (4), (5)');
    await d.query('INSERT INTO w VALUES (11), (12), (13), (14), (15)');
    await a.query('UPDATE t SET v = v + 1 WHERE id = 5');
    await b.query('UPDATE t SET v = v + 1 WHERE id = 10');
    await d.query('UPDATE t SET v = v + 1 WHERE id = 20');
    const wa = errno(a.query('UPDATE t SET v = v + 1 WHERE id = 10'));
    const wb = errno(b.query('UPDATE t SET v = v + 1 WHERE id = 20'));
    await pause(200);
    // d closes the cycle d → a → b → d; b weighs least and is rolled back
    const wd = errno(d.query('UPDATE t SET v = v + 1 WHERE id = 5'));
    expect(await wb).toBe(1213);
    expect(await wa).toBe(0);
    expect(await waits(wd)).toBe(true);
    await a.query('COMMIT');
    expect(await wd).toBe(0);
    await d.query('COMMIT');
    const [status] = (await a.query('SHOW ENGINE INNODB STATUS')) as unknown as [Array<{ Status: string }>];
    const text = status[0]!.Status;
    expect(text).toContain('LATEST DETECTED DEADLOCK');
    // the report lists the cycle from the requester: d (1), a (2), b (3)
    expect(text).toMatch(/\*\*\* WE ROLL BACK TRANSACTION \(3\)/);
  });
});

describe('lock names in SHOW ENGINE INNODB STATUS and INFORMATION_SCHEMA.INNODB_LOCKS', () => {
  it('names an insert intention waiting on a gap and the next-key lock that blocks it', async () => {
    const { c } = await setup(2);
    const [a, b] = c as [mysql.Connection, mysql.Connection];
    await b.query('SET SESSION innodb_lock_wait_timeout = 10');
    await a.query('BEGIN');
    await a.query('SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE');
    const ins = b.query('INSERT INTO t (id, v) VALUES (15, 150)');
    await pause(200);
    const [status] = (await a.query('SHOW ENGINE INNODB STATUS')) as unknown as [Array<{ Status: string }>];
    expect(status[0]!.Status).toMatch(
      /RECORD LOCKS index PRIMARY of table `test`.`t` trx id \d+ lock_mode X locks gap before rec insert intention waiting/,
    );
    const [locks] = (await a.query(
      'SELECT lock_mode, lock_type, lock_index FROM information_schema.INNODB_LOCKS ORDER BY lock_mode',
    )) as unknown as [Array<{ lock_mode: string; lock_type: string; lock_index: string }>];
    expect(locks).toEqual([
      { lock_mode: 'X', lock_type: 'RECORD', lock_index: 'PRIMARY' },
      { lock_mode: 'X,GAP', lock_type: 'RECORD', lock_index: 'PRIMARY' },
    ]);
    await a.query('COMMIT');
    await ins;
  });
});

/** MariaDB 10.11's answers: which statement of each scenario waited (see the file's `recorded`). */
interface Recorded {
  readonly recorded: string;
  readonly scenarios: ReadonlyArray<{
    readonly name: string;
    readonly isolation: string;
    readonly setup: readonly string[];
    readonly holder: readonly string[];
    readonly probes: ReadonlyArray<{ readonly sql: string; readonly waits: boolean }>;
  }>;
}

// Each scenario has its own server, so they run side by side (vitest's maxConcurrency at a time):
// most of their time is lock waits running out.
describe.concurrent('the same scenarios as MariaDB 10.11', () => {
  const data = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'data', 'gap-locks-mariadb.json'), 'utf8'),
  ) as Recorded;
  for (const sc of data.scenarios) {
    it(`${sc.name}: the same statements wait`, async ({ expect }) => {
      const s = await startServer({});
      try {
        await scenario(s, sc, expect);
      } finally {
        await s.stop();
      }
    });
  }
});

async function scenario(s: Running, sc: Recorded['scenarios'][number], expect: ExpectStatic): Promise<void> {
  const a = await s.connect();
  const b = await s.connect();
  for (const k of [a, b]) {
    await k.query(`SET SESSION transaction_isolation = '${sc.isolation}'`);
    await k.query('SET SESSION innodb_lock_wait_timeout = 1');
  }
  for (const q of sc.setup) await a.query(q);
  await a.query('BEGIN');
  for (const q of sc.holder) await a.query(q);
  const got: Array<{ sql: string; waits: boolean }> = [];
  for (const p of sc.probes) {
    await b.query('BEGIN');
    const n = await errno(b.query(p.sql));
    got.push({ sql: p.sql, waits: n === 1205 });
    await b.query('ROLLBACK');
  }
  await a.query('ROLLBACK');
  expect(got).toEqual(sc.probes.map((p) => ({ sql: p.sql, waits: p.waits })));
}
