// Isolation through mysql2, level by level, as InnoDB gives it. REPEATABLE READ (the default)
// and READ COMMITTED read a snapshot without locks: a reader never waits for a writer and never
// sees an uncommitted change (dirty read); under REPEATABLE READ a row read twice, and a range
// counted twice, are the same within the transaction (no non-repeatable read, no phantom), while
// READ COMMITTED sees each commit at its next statement. Lost updates: locking reads (FOR UPDATE)
// serialize read-modify-write transactions; a plain read under REPEATABLE READ does not (InnoDB's
// behaviour too), under SERIALIZABLE it S-locks and the two upgrades deadlock instead.
// SERIALIZABLE keeps two-phase locking for every read: a reader waits for the writer.
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function setup(threads: number): Promise<{ s: Running; a: mysql.Connection; b: mysql.Connection }> {
  const s = await startServer({}, threads);
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

const READS = [
  'SELECT bal FROM acc WHERE id = 1',
  'SELECT SUM(bal) FROM acc',
  'SELECT bal FROM acc WHERE bal < 50',
  'SELECT id, bal FROM acc FORCE INDEX (kb) WHERE bal BETWEEN 0 AND 1000 ORDER BY bal, id',
  'SELECT id FROM acc WHERE id BETWEEN 1 AND 3',
];

// Every level on the main thread and on worker threads: one engine, the same answers.
for (const threads of [0, 2]) {
  describe(threads === 0 ? 'sessions on the main thread' : 'sessions on 2 worker threads', () => {
    describe('dirty reads', () => {
      for (const level of ['REPEATABLE-READ', 'READ-COMMITTED']) {
        for (const read of READS) {
          it(`${level}: a reader does not wait and sees the committed row: ${read}`, async () => {
            const { a, b } = await setup(threads);
            await b.query(`SET SESSION transaction_isolation = '${level}'`);
            const before = await rows(b, read);
            await a.query('BEGIN');
            await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
            await a.query('DELETE FROM acc WHERE id = 2');
            await a.query('INSERT INTO acc VALUES (4, 7)');
            // autocommit and inside a transaction
            expect(await rows(b, read)).toEqual(before);
            await b.query('BEGIN');
            expect(await rows(b, read)).toEqual(before);
            await b.query('COMMIT');
            await a.query('ROLLBACK');
            expect(await rows(b, read)).toEqual(before);
          });
        }
      }

      it('SERIALIZABLE: a reader waits for the writer and sees only what it committed', async () => {
        for (const read of READS.slice(0, 3)) {
          const { a, b } = await setup(threads);
          await b.query("SET SESSION transaction_isolation = 'SERIALIZABLE'");
          await a.query('BEGIN');
          await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
          const r = rows(b, read);
          expect(await stillPending(r, 100)).toBe(true);
          await a.query('ROLLBACK');
          const got = await r;
          expect(got).toEqual(await rows(a, read));
          expect(JSON.stringify(got)).not.toMatch(/\b0\b/);
          await running.pop()!.stop();
        }
      });

      it('a locking read (FOR SHARE) reads the latest version: it waits for the writer', async () => {
        const { a, b } = await setup(threads);
        await a.query('BEGIN');
        await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
        const r = rows(b, 'SELECT bal FROM acc WHERE id = 1 FOR SHARE');
        expect(await stillPending(r, 100)).toBe(true);
        await a.query('COMMIT');
        expect(await r).toEqual([[0]]);
      });

      it('READ-UNCOMMITTED reads the latest rows, uncommitted ones included, without waiting', async () => {
        const { a, b } = await setup(threads);
        await b.query("SET SESSION transaction_isolation = 'READ-UNCOMMITTED'");
        await a.query('BEGIN');
        await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
        expect(await rows(b, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[0]]);
        await a.query('ROLLBACK');
        expect(await rows(b, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[100]]);
      });
    });

    describe('non-repeatable reads and phantoms', () => {
      it('REPEATABLE-READ: rows and ranges read twice are the same while others commit', async () => {
        const { a, b } = await setup(threads);
        await a.query('BEGIN');
        const first = await rows(a, 'SELECT id, bal FROM acc WHERE bal >= 50 ORDER BY id');
        // the writer does not wait for the reader
        await b.query('UPDATE acc SET bal = 1 WHERE id = 3');
        await b.query('INSERT INTO acc VALUES (9, 500)');
        await b.query('DELETE FROM acc WHERE id = 1');
        expect(await rows(a, 'SELECT id, bal FROM acc WHERE bal >= 50 ORDER BY id')).toEqual(first);
        expect(await rows(a, 'SELECT COUNT(*) FROM acc')).toEqual([[3]]);
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[100]]);
        // a locking read sees the latest rows, as InnoDB
        expect(await rows(a, 'SELECT id FROM acc WHERE id >= 1 ORDER BY id FOR SHARE')).toEqual([
          [2],
          [3],
          [9],
        ]);
        await a.query('COMMIT');
        expect(await rows(a, 'SELECT id, bal FROM acc ORDER BY id')).toEqual([
          [2, 100],
          [3, 1],
          [9, 500],
        ]);
      });

      it('REPEATABLE-READ: the snapshot is made at the first read, or at once WITH CONSISTENT SNAPSHOT', async () => {
        const { a, b } = await setup(threads);
        await a.query('BEGIN');
        await b.query('UPDATE acc SET bal = 5 WHERE id = 1');
        // no read yet: the first one sees the commit before it
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[5]]);
        await a.query('COMMIT');
        await a.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
        await b.query('UPDATE acc SET bal = 6 WHERE id = 1');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[5]]);
        await a.query('COMMIT');
        await a.query('START TRANSACTION READ ONLY, WITH CONSISTENT SNAPSHOT');
        await b.query('UPDATE acc SET bal = 7 WHERE id = 1');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[6]]);
        await a.query('COMMIT');
      });

      it('READ-COMMITTED: each statement sees every commit made before it', async () => {
        const { a, b } = await setup(threads);
        await a.query("SET SESSION transaction_isolation = 'READ-COMMITTED'");
        await a.query('BEGIN');
        expect(await rows(a, 'SELECT COUNT(*) FROM acc WHERE bal >= 50')).toEqual([[3]]);
        await b.query('UPDATE acc SET bal = 1 WHERE id = 3');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[1]]);
        await b.query('INSERT INTO acc VALUES (9, 500)');
        expect(await rows(a, 'SELECT COUNT(*) FROM acc WHERE bal >= 50')).toEqual([[3]]);
        await b.query('BEGIN');
        await b.query('UPDATE acc SET bal = 2 WHERE id = 3');
        // uncommitted: not seen, and not waited for
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[1]]);
        await b.query('COMMIT');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[2]]);
        await a.query('COMMIT');
      });

      it('SERIALIZABLE: a row read in a transaction is S-locked: a writer waits until it ends', async () => {
        for (const locking of ['', ' FOR SHARE', ' LOCK IN SHARE MODE']) {
          const { a, b } = await setup(threads);
          if (locking === '') await a.query("SET SESSION transaction_isolation = 'SERIALIZABLE'");
          await a.query('BEGIN');
          const first = await rows(a, `SELECT bal FROM acc WHERE id = 3${locking}`);
          const writer = b.query('UPDATE acc SET bal = 1 WHERE id = 3');
          expect(await stillPending(writer, 100)).toBe(true);
          expect(await rows(a, `SELECT bal FROM acc WHERE id = 3${locking}`)).toEqual(first);
          await a.query('COMMIT');
          await writer;
          expect(await rows(a, 'SELECT bal FROM acc WHERE id = 3')).toEqual([[1]]);
          await running.pop()!.stop();
        }
      });
    });

    describe('lost updates', () => {
      /** Two read-modify-write transactions on one row; returns the final balance and the retries. */
      async function bumpTwice(level: string, locking: string): Promise<{ bal: unknown; retries: number }> {
        const { a, b } = await setup(threads);
        for (const c of [a, b]) await c.query(`SET SESSION transaction_isolation = '${level}'`);
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
        const bal = (await rows(a, 'SELECT bal FROM acc WHERE id = 1'))[0]![0];
        await running.pop()!.stop();
        return { bal, retries };
      }

      it('FOR UPDATE: both land at every level (the second queues)', async () => {
        for (const level of ['REPEATABLE-READ', 'READ-COMMITTED', 'SERIALIZABLE'])
          expect(await bumpTwice(level, ' FOR UPDATE')).toEqual({ bal: 111, retries: 0 });
      });

      it('SERIALIZABLE plain reads: both land (the two S→X upgrades deadlock and one retries)', async () => {
        expect(await bumpTwice('SERIALIZABLE', '')).toEqual({ bal: 111, retries: 1 });
      });

      it('REPEATABLE-READ plain reads are not locking reads: one update is lost, as in InnoDB', async () => {
        const { bal, retries } = await bumpTwice('REPEATABLE-READ', '');
        expect(retries).toBe(0);
        expect([110, 101]).toContain(bal);
      });
    });

    describe('isolation levels and the version store', () => {
      it('SET TRANSACTION applies to the next transaction only; tx_isolation is transaction_isolation', async () => {
        const { s, a, b } = await setup(threads);
        await a.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
        await a.query('BEGIN');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[100]]);
        await b.query('UPDATE acc SET bal = 3 WHERE id = 1');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[3]]);
        await expect(a.query('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE')).rejects.toMatchObject({
          errno: 1568,
        });
        await a.query('COMMIT');
        // the next one is the session's again: REPEATABLE READ
        await a.query('BEGIN');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[3]]);
        await b.query('UPDATE acc SET bal = 4 WHERE id = 1');
        expect(await rows(a, 'SELECT bal FROM acc WHERE id = 1')).toEqual([[3]]);
        await a.query('COMMIT');
        await a.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
        expect(await rows(a, 'SELECT @@tx_isolation, @@transaction_isolation')).toEqual([
          ['READ-COMMITTED', 'READ-COMMITTED'],
        ]);
        await a.query("SET tx_isolation = 'SERIALIZABLE'");
        expect(await rows(a, 'SELECT @@transaction_isolation')).toEqual([['SERIALIZABLE']]);
        await a.query('SET GLOBAL TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
        expect(await rows(a, 'SELECT @@global.transaction_isolation')).toEqual([['READ-UNCOMMITTED']]);
        void s;
      });

      it('history list length: committed update undo stays while a view may need it, then purge removes it', async () => {
        const { s, a, b } = await setup(threads);
        const history = async (): Promise<number> => {
          const status = (await rows(a, 'SHOW ENGINE INNODB STATUS'))[0]![2];
          return Number(/History list length (\d+)/.exec(String(status))![1]);
        };
        await a.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
        await b.query('UPDATE acc SET bal = 1 WHERE id = 1');
        await b.query('UPDATE acc SET bal = 2 WHERE id = 2');
        expect(await history()).toBe(2);
        expect(await rows(b, "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'")).toEqual([
          ['Innodb_history_list_length', '2'],
        ]);
        await a.query('COMMIT');
        // the next writer's commit purges what no view needs any more, its own update included
        await b.query('UPDATE acc SET bal = 3 WHERE id = 3');
        expect(await history()).toBe(0);
        s.db.table('acc').checkIndexes(true);
      });
    });
  });
}
