// Concurrency against a model: eight mysql2 connections run random transfers between a few
// accounts, each in a transaction that reads both balances (plain reads and locking reads,
// so S→X upgrades deadlock), moves the amount, logs the transfer, and commits or rolls back.
// One client holds its locks past innodb_lock_wait_timeout once, so waits time out too. At the
// end the total is unchanged, every account equals its start plus the committed transfers, the
// log holds exactly the committed transfers, and every index agrees with its table.
import type mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const ACCOUNTS = 6;
const CLIENTS = 8;
const TRANSFERS = 30;

function seeded(seed: number): (n: number) => number {
  let x = seed | 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

interface Transfer {
  readonly id: number;
  readonly src: number;
  readonly dst: number;
  readonly amt: number;
}

describe('concurrent transfers', () => {
  it('keep the total, keep every committed transfer and nothing else; deadlocks are 1213, timeouts 1205', async () => {
    const s = await startServer();
    running.push(s);
    const setup = await s.connect();
    await setup.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL, KEY kb (bal))');
    await setup.query(
      `INSERT INTO acc VALUES ${Array.from({ length: ACCOUNTS }, (_, i) => `(${i + 1}, 1000)`).join(', ')}`,
    );
    await setup.query(
      'CREATE TABLE xfer (id INT PRIMARY KEY, src INT NOT NULL, dst INT NOT NULL, amt INT NOT NULL, KEY ks (src))',
    );
    const committed: Transfer[] = [];
    const errors = { deadlock: 0, timeout: 0, rolledBack: 0 };

    const client = async (n: number): Promise<void> => {
      const c: mysql.Connection = await s.connect();
      await c.query('SET SESSION innodb_lock_wait_timeout = 1');
      const pick = seeded(1000 + n);
      for (let k = 0; k < TRANSFERS; k++) {
        const src = 1 + pick(ACCOUNTS);
        let dst = 1 + pick(ACCOUNTS - 1);
        if (dst >= src) dst++;
        const t: Transfer = { id: n * 1000 + k, src, dst, amt: 1 + pick(50) };
        const locking = pick(2) === 0 ? ' FOR UPDATE' : '';
        try {
          await c.query('BEGIN');
          await c.query(`SELECT bal FROM acc WHERE id = ${t.src}${locking}`);
          await c.query(`SELECT bal FROM acc WHERE id = ${t.dst}${locking}`);
          await c.query(`UPDATE acc SET bal = bal - ${t.amt} WHERE id = ${t.src}`);
          await c.query(`UPDATE acc SET bal = bal + ${t.amt} WHERE id = ${t.dst}`);
          await c.query(`INSERT INTO xfer VALUES (${t.id}, ${t.src}, ${t.dst}, ${t.amt})`);
          // client 0 once holds its locks past everyone's timeout
          if (n === 0 && k === 3) await new Promise((r) => setTimeout(r, 1300));
          if (pick(8) === 0) {
            await c.query('ROLLBACK');
            errors.rolledBack++;
          } else {
            await c.query('COMMIT');
            committed.push(t);
          }
        } catch (e) {
          const errno = (e as { errno?: number }).errno;
          if (errno === 1213) errors.deadlock++;
          else if (errno === 1205) errors.timeout++;
          else throw e;
          // after a deadlock the transaction is gone already; after a timeout only the statement
          await c.query('ROLLBACK');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    const [accRows] = await setup.query({ sql: 'SELECT id, bal FROM acc ORDER BY id', rowsAsArray: true });
    const balances = new Map((accRows as number[][]).map(([id, bal]) => [id!, bal!]));
    const want = new Map(Array.from({ length: ACCOUNTS }, (_, i) => [i + 1, 1000]));
    for (const t of committed) {
      want.set(t.src, want.get(t.src)! - t.amt);
      want.set(t.dst, want.get(t.dst)! + t.amt);
    }
    expect(balances).toEqual(want);
    expect([...balances.values()].reduce((a, b) => a + b, 0)).toBe(ACCOUNTS * 1000);
    const [log] = await setup.query({
      sql: 'SELECT id, src, dst, amt FROM xfer ORDER BY id',
      rowsAsArray: true,
    });
    expect((log as number[][]).map(([id, src, dst, amt]) => ({ id, src, dst, amt }))).toEqual(
      [...committed].sort((a, b) => a.id - b.id),
    );
    s.db.table('acc').checkIndexes();
    s.db.table('xfer').checkIndexes();
    expect(committed.length).toBeGreaterThan(CLIENTS * TRANSFERS * 0.15);
    expect(errors.deadlock).toBeGreaterThan(0);
    expect(errors.timeout).toBeGreaterThan(0);
    expect(errors.rolledBack).toBeGreaterThan(0);
    const [st] = await setup.query({ sql: "SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'", rowsAsArray: true });
    expect(Number((st as string[][])[0]![1])).toBe(errors.deadlock);
  });
});
