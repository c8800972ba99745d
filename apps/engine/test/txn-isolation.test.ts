// Isolation through mysql2: the anomalies two-phase locking forbids are tried and never seen.
// Dirty read: a reader of a row another transaction changed, inserted or deleted (found by its
// primary key) waits for that transaction and sees only what it committed. Lost update: two
// read-modify-write transactions on one row both land (one may have to retry after 1213).
// Non-repeatable read: a row read inside a transaction cannot change until it ends. And the
// case the engine does not cover (no delete-marked records, no gap locks), pinned as it is.
import type mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { type Running, startServer } from './server-helpers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function setup(): Promise<{ s: Running; a: mysql.Connection; b: mysql.Connection }> {
  const s = await startServer();
  running.push(s);
  const a = await s.connect();
  const b = await s.connect();
  await a.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL, KEY kb (bal))');
  await a.query('INSERT INTO acc VALUES (1, 100), (2, 100), (3, 100)');
  for (const c of [a, b]) await c.query('SET SESSION innodb_lock_wait_timeout = 2');
  return { s, a, b };
}

const rows = async (c: mysql.Connection, sql: string): Promise<unknown[][]> =>
  ((await c.query({ sql, rowsAsArray: true }))[0] as unknown[][]).map((r) => [...r]);
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves to the promise's value, recording whether it was still pending after `ms`. */
async function stillPending(p: Promise<unknown>, ms: number): Promise<boolean> {
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

describe('dirty reads', () => {
  for (const read of [
    'SELECT bal FROM acc WHERE id = 1',
    'SELECT SUM(bal) FROM acc',
    'SELECT bal FROM acc WHERE bal < 50',
    'SELECT bal FROM acc WHERE id = 1 FOR SHARE',
  ]) {
    it(`an uncommitted update is never read: ${read}`, async () => {
      const { a, b } = await setup();
      await a.query('BEGIN');
      await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
      const r = rows(b, read);
      expect(await stillPending(r, 100)).toBe(true);
      await a.query('ROLLBACK');
      const got = await r;
      expect(got).toEqual(await rows(a, read));
      expect(JSON.stringify(got)).not.toMatch(/\b0\b/);
    });
  }

  it('an uncommitted insert is never read; neither is a row an uncommitted delete removed, by key', async () => {
    const { a, b } = await setup();
    await a.query('BEGIN');
    await a.query('INSERT INTO acc VALUES (4, 7)');
    const count = rows(b, 'SELECT COUNT(*) FROM acc');
    expect(await stillPending(count, 100)).toBe(true);
    await a.query('ROLLBACK');
    expect(await count).toEqual([[3]]);
    await a.query('BEGIN');
    await a.query('DELETE FROM acc WHERE id = 2');
    const byKey = rows(b, 'SELECT bal FROM acc WHERE id = 2');
    expect(await stillPending(byKey, 100)).toBe(true);
    await a.query('ROLLBACK');
    expect(await byKey).toEqual([[100]]);
  });

  it('not covered: a scan does not wait for a row an uncommitted transaction deleted (it is gone from the tree)', async () => {
    const { a, b } = await setup();
    await a.query('BEGIN');
    await a.query('DELETE FROM acc WHERE id = 2');
    // the reader sees the delete before it commits: InnoDB would read the delete-marked record
    // (MVCC) or wait for its lock; this engine removes the record at once
    expect(await rows(b, 'SELECT id FROM acc ORDER BY id')).toEqual([[1], [3]]);
    await a.query('ROLLBACK');
    expect(await rows(b, 'SELECT id FROM acc ORDER BY id')).toEqual([[1], [2], [3]]);
  });
});

describe('lost updates', () => {
  it('two read-modify-write transactions on one row both land', async () => {
    for (const locking of ['', ' FOR UPDATE']) {
      const { a, b } = await setup();
      let retries = 0;
      const bump = async (c: mysql.Connection, by: number): Promise<void> => {
        for (;;) {
          try {
            await c.query('BEGIN');
            const [[bal]] = (await rows(c, `SELECT bal FROM acc WHERE id = 1${locking}`)) as [[number]];
            await pause(30);
            await c.query(`UPDATE acc SET bal = ${bal + by} WHERE id = 1`);
            await c.query('COMMIT');
            return;
          } catch (e) {
            expect((e as { errno: number }).errno).toBe(1213);
            retries++;
            await c.query('ROLLBACK');
          }
        }
      };
      await Promise.all([bump(a, 10), bump(b, 1)]);
      expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[111]]);
      // plain reads take S locks: the two upgrades deadlock and one retries; FOR UPDATE queues
      expect(retries).toBe(locking === '' ? 1 : 0);
      await running.pop()!.stop();
    }
  });
});

describe('non-repeatable reads', () => {
  for (const locking of ['', ' FOR SHARE', ' LOCK IN SHARE MODE']) {
    it(`a row read in a transaction does not change under it${locking === '' ? '' : `:${locking}`}`, async () => {
      const { a, b } = await setup();
      await a.query('BEGIN');
      const first = await rows(a, `SELECT bal FROM acc WHERE id = 3${locking}`);
      const writer = b.query('UPDATE acc SET bal = 1 WHERE id = 3');
      expect(await stillPending(writer, 100)).toBe(true);
      expect(await rows(a, `SELECT bal FROM acc WHERE id = 3${locking}`)).toEqual(first);
      await a.query('COMMIT');
      await writer;
      expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[1]]);
    });
  }

  it('autocommit reads hold nothing: a writer goes between them', async () => {
    const { a, b } = await setup();
    expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[100]]);
    await b.query('UPDATE acc SET bal = 2 WHERE id = 3');
    expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[2]]);
    expect(await rows(a, 'SELECT @@transaction_isolation')).toEqual([['REPEATABLE-READ']]);
  });
});
