// Locking reads are phantom-free while writers run on other worker threads at the same time: a
// transaction under REPEATABLE READ reads a range FOR UPDATE twice while another worker inserts
// into and past that range as fast as it can; both reads return the same rows (the inserts into
// the locked range wait). Before the walks guarded the gaps they entered from another leaf, and
// inserters checked their insert intention again with the entry in place, hundreds of such pairs
// differed in a few seconds; a statement run again for a moved gap must not send its rows twice.
// Plain reads through a secondary index, and joins probing one, keep answering beside the
// inserts: a writer changes one index per mini-transaction, so it never holds the clustered leaf
// while it waits for the secondary leaf a reader holds as it fetches the row (the server stalled),
// and a read that descends an index it is walking (a probe, or the row behind a probed entry) holds
// no leaf of it meanwhile (the statement runs again walking copied leaves), so neither a split nor
// an insert queued on the leaf it holds waits for it in a cycle.
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

const SECONDS = 4;

/** ER_LOCK_DEADLOCK: the transaction was chosen as a deadlock's victim and rolled back. */
function deadlock(e: unknown): boolean {
  return (e as { errno?: number }).errno === 1213;
}

async function race(
  ddl: string,
  read: string,
  insert: (i: number) => string,
  maxInserts = Number.POSITIVE_INFINITY,
): Promise<{ rounds: number; inserts: number; differing: string[] }> {
  const r = await startServer({}, 2);
  running.push(r);
  const a = await r.connect({ database: 'test' });
  const b = await r.connect({ database: 'test' });
  await a.query(ddl);
  await b.query('SET innodb_lock_wait_timeout = 50');
  const stop = Date.now() + SECONDS * 1000;
  const differing: string[] = [];
  const reader = async (): Promise<number> => {
    let rounds = 0;
    while (Date.now() < stop) {
      await a.query('BEGIN');
      let r1: mysql.RowDataPacket[];
      let r2: mysql.RowDataPacket[];
      try {
        [r1] = await a.query<mysql.RowDataPacket[]>(read);
        [r2] = await a.query<mysql.RowDataPacket[]>(read);
      } catch (e) {
        // a locking read and an insert can wait for each other (the insert holds its new record,
        // waits for a gap the read locked; the read reaches that record): InnoDB rolls one back
        if (!deadlock(e)) throw e;
        continue;
      }
      await a.query('COMMIT');
      const ids1 = r1.map((x) => x.id as number);
      const ids2 = r2.map((x) => x.id as number);
      if (ids1.join() !== ids2.join() && differing.length < 5)
        differing.push(`${ids1.length} rows (${new Set(ids1).size} distinct), then ${ids2.length}`);
      rounds++;
    }
    return rounds;
  };
  const writer = async (): Promise<number> => {
    let n = 0;
    while (Date.now() < stop && n < maxInserts)
      await b.query(insert(n++)).catch((e: unknown) => {
        if (!deadlock(e)) throw e;
      });
    return n;
  };
  const [rounds, inserts] = await Promise.all([reader(), writer()]);
  return { rounds, inserts, differing };
}

describe('locking reads beside inserts on another worker', () => {
  it('a range to the end of the clustered index', async () => {
    const out = await race(
      'CREATE TABLE t (id INT PRIMARY KEY, v INT)',
      'SELECT id FROM t WHERE id >= 0 FOR UPDATE',
      (i) => `INSERT INTO t VALUES (${1000 + i}, 1)`,
    );
    expect(out.rounds).toBeGreaterThan(10);
    expect(out.inserts).toBeGreaterThan(10);
    expect(out.differing).toEqual([]);
  }, 60_000);

  it('a range of a secondary index, inserts inside and around it', async () => {
    const out = await race(
      'CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, KEY k (k))',
      'SELECT id FROM t FORCE INDEX (k) WHERE k BETWEEN 300 AND 700 ORDER BY k, id FOR UPDATE',
      (i) => `INSERT INTO t VALUES (${i + 1}, ${(i * 7919) % 1000})`,
    );
    expect(out.rounds).toBeGreaterThan(10);
    expect(out.differing).toEqual([]);
  }, 60_000);

  it('a join locking the clustered index and, through the secondary one, the same rows again', async () => {
    // the probe's row is read from the clustered index while the outer walk holds a clustered leaf
    const out = await race(
      'CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, KEY k (k))',
      'SELECT a.id, b.id AS bid FROM t a FORCE INDEX (PRIMARY) JOIN t b FORCE INDEX (k) ON b.k = a.k WHERE a.id < 400 ORDER BY a.id, b.id FOR UPDATE',
      (i) => `INSERT INTO t VALUES (${i + 1}, ${(i * 7919) % 1000})`,
    );
    expect(out.rounds).toBeGreaterThan(10);
    expect(out.inserts).toBeGreaterThan(10);
    expect(out.differing).toEqual([]);
  }, 60_000);
});

describe('reads that hold one index while they read another, beside inserts on another worker', () => {
  it.each([
    [
      'a secondary range and its rows',
      'SELECT id FROM t FORCE INDEX (k) WHERE k BETWEEN 300 AND 700 ORDER BY k, id',
    ],
    [
      'a join probing the secondary index from the clustered one',
      'SELECT a.id FROM t a FORCE INDEX (PRIMARY) JOIN t b FORCE INDEX (k) ON b.k = a.k WHERE a.id < 400 ORDER BY a.id',
    ],
    [
      'a join probing the secondary index it walks (leaves split meanwhile)',
      'SELECT COUNT(*) FROM t a FORCE INDEX (k) JOIN t b FORCE INDEX (k) ON b.k = a.k + 1 WHERE a.k BETWEEN 100 AND 900',
    ],
  ])(
    '%s',
    async (_name, read) => {
      const out = await race(
        'CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, KEY k (k))',
        read,
        (i) => `INSERT INTO t VALUES (${i + 1}, ${(i * 7919) % 1000})`,
      );
      expect(out.rounds).toBeGreaterThan(10);
      expect(out.inserts).toBeGreaterThan(10);
    },
    60_000,
  );
});
