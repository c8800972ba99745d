// Snapshots under concurrent writers, through mysql2: six connections run random transfers
// between accounts (locking reads, rollbacks, deadlocks), and while they run, readers under
// REPEATABLE READ and READ COMMITTED sum the balances through the clustered index, through the
// secondary index, and count the transfer log. A snapshot is a committed state, so every sum
// equals the total and the log's amounts net to zero; under REPEATABLE READ every read of one
// transaction sees the same state (the sums and the log agree across statements). A reader
// never waits, so no read fails (a self-join makes later reads of its index walk detached
// leaves). At the end every index agrees with its table and purge has
// removed every old version. The same runs with the sessions on two worker threads, whose
// writers change pages one row operation at a time, interleaved.
import type mysql from 'mysql2/promise';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const ACCOUNTS = 6;
const WRITERS = 6;
const TRANSFERS = 25;

function seeded(seed: number): (n: number) => number {
  let x = seed | 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const one = async (c: mysql.Connection, sql: string): Promise<number> => {
  const [r] = await c.query({ sql, rowsAsArray: true });
  return Number((r as unknown[][])[0]![0]);
};

describe.each([0, 2])('snapshots under concurrent transfers, %i worker threads', (threads) => {
  it('every consistent read sees a committed state; REPEATABLE READ sees one state per transaction', async () => {
    const s = await startServer({}, threads);
    running.push(s);
    const setup = await s.connect();
    await setup.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL, KEY kb (bal))');
    await setup.query(
      `INSERT INTO acc VALUES ${Array.from({ length: ACCOUNTS }, (_, i) => `(${i + 1}, 1000)`).join(', ')}`,
    );
    // each transfer logs its two legs, so the log's amounts net to zero in a committed state
    await setup.query(
      'CREATE TABLE leg (id INT PRIMARY KEY, acc INT NOT NULL, amt INT NOT NULL, KEY ka (acc))',
    );
    let writing = WRITERS;
    let committed = 0;

    const writer = async (n: number): Promise<void> => {
      const c = await s.connect();
      await c.query('SET SESSION innodb_lock_wait_timeout = 1');
      const pick = seeded(7000 + n);
      for (let k = 0; k < TRANSFERS; k++) {
        const src = 1 + pick(ACCOUNTS);
        let dst = 1 + pick(ACCOUNTS - 1);
        if (dst >= src) dst++;
        const amt = 1 + pick(50);
        const id = (n * 1000 + k) * 2;
        try {
          await c.query('BEGIN');
          await c.query(`SELECT bal FROM acc WHERE id IN (${src}, ${dst}) FOR UPDATE`);
          await c.query(`UPDATE acc SET bal = bal - ${amt} WHERE id = ${src}`);
          await c.query(`INSERT INTO leg VALUES (${id}, ${src}, ${-amt})`);
          await c.query(`UPDATE acc SET bal = bal + ${amt} WHERE id = ${dst}`);
          await c.query(`INSERT INTO leg VALUES (${id + 1}, ${dst}, ${amt})`);
          if (pick(6) === 0) await c.query('ROLLBACK');
          else {
            await c.query('COMMIT');
            committed++;
          }
        } catch (e) {
          const errno = (e as { errno?: number }).errno;
          if (errno !== 1213 && errno !== 1205) throw e;
          await c.query('ROLLBACK');
        }
      }
      writing--;
    };

    const reads = { rr: 0, rc: 0 };
    const reader = async (level: 'REPEATABLE-READ' | 'READ-COMMITTED'): Promise<void> => {
      const c = await s.connect();
      await c.query(`SET SESSION transaction_isolation = '${level}'`);
      while (writing > 0) {
        await c.query('BEGIN');
        const byPk = await one(c, 'SELECT SUM(bal) FROM acc');
        const byIndex = await one(c, 'SELECT SUM(bal) FROM acc FORCE INDEX (kb) WHERE bal > -100000');
        const legs = await one(c, 'SELECT COALESCE(SUM(amt), 0) FROM leg');
        const n1 = await one(c, 'SELECT COUNT(*) FROM leg');
        const n2 = await one(c, 'SELECT COUNT(*) FROM leg FORCE INDEX (ka) WHERE acc > 0');
        // a self-join through ka: from its first run on a thread, reads of ka there walk
        // detached leaves, whose entries rollback and purge may remove before the row is read
        const pairs = await one(
          c,
          'SELECT COUNT(*) FROM leg a FORCE INDEX (ka) JOIN leg b FORCE INDEX (ka) ON b.acc = a.acc WHERE a.acc > 0',
        );
        await c.query('COMMIT');
        expect(byPk).toBe(ACCOUNTS * 1000);
        expect(byIndex).toBe(ACCOUNTS * 1000);
        expect(legs).toBe(0);
        expect(n1 % 2).toBe(0);
        expect(pairs).toBeGreaterThanOrEqual(n2);
        if (level === 'REPEATABLE-READ') {
          expect(n2).toBe(n1);
          reads.rr++;
        } else reads.rc++;
        expect(await one(c, 'SELECT SUM(bal) FROM acc')).toBe(ACCOUNTS * 1000); // autocommit
      }
    };

    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, n) => writer(n)),
      reader('REPEATABLE-READ'),
      reader('READ-COMMITTED'),
    ]);
    expect(committed).toBeGreaterThan(WRITERS * TRANSFERS * 0.3);
    expect(reads.rr).toBeGreaterThan(3);
    expect(reads.rc).toBeGreaterThan(3);
    expect(await one(setup, 'SELECT COUNT(*) FROM leg')).toBe(committed * 2);
    s.db.table('acc').checkIndexes();
    s.db.table('leg').checkIndexes();
    while (s.db.historyLength > 0) s.db.purge(5000);
    s.db.table('acc').checkIndexes(true);
    s.db.table('leg').checkIndexes(true);
  });
});
