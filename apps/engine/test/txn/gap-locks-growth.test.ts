// The lock table grows with demand: an INSERT … SELECT of 131,072 rows under REPEATABLE READ
// holds a next-key lock on every source row (the new rows are locked implicitly, by their
// DB_TRX_ID) and succeeds; the records live in a growable SharedArrayBuffer that starts at
// 65,536 and doubles up to 70 % of the buffer pool, past which a statement fails with 1206
// (ER_LOCK_TABLE_FULL) and leaves nothing behind.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { beforeAll, describe, expect, it } from 'vitest';
import { Database, Session, SqlError } from '../../src/index.js';
import {
  GRANTED,
  LOCK_ORDINARY,
  LockTable,
  lockCapacityFor,
  LOCK_RECORD_BYTES,
  MAX_LOCK_RECORDS,
  MUST_WAIT,
} from '../../src/txn/lock-table.js';
import { instanceOf } from '../../src/session/instance.js';

const ROWS = 131072;

// the worker below attaches with the built package
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);

function fill(db: Database): void {
  const s = new Session(db);
  s.query('CREATE TABLE src (id INT PRIMARY KEY, v INT NOT NULL)');
  s.query('CREATE TABLE dst (id INT PRIMARY KEY, v INT NOT NULL)');
  s.query('INSERT INTO src VALUES (1, 1)');
  // doubling to 16,384 rows, then copies of those: no statement holds more than 33,000 locks
  const CHUNK = 16384;
  for (let n = 1; n < CHUNK; n *= 2) s.query(`INSERT INTO src SELECT id + ${n}, v FROM src`);
  for (let n = CHUNK; n < ROWS; n += CHUNK)
    s.query(`INSERT INTO src SELECT id + ${n}, v FROM src WHERE id <= ${CHUNK}`);
  s.close();
}

describe('a lock table that grows', () => {
  it(`INSERT … SELECT of ${ROWS} rows under REPEATABLE READ takes every lock and succeeds`, () => {
    const db = Database.temporary();
    try {
      fill(db);
      const locks = instanceOf(db).lockTable;
      const before = locks.capacity;
      const s = new Session(db);
      expect(s.query('SELECT @@transaction_isolation').rows).toEqual([['REPEATABLE-READ']]);
      s.query('BEGIN');
      s.query('INSERT INTO dst SELECT * FROM src');
      // a next-key lock per source row and the supremum, and the two tables' metadata locks
      expect(locks.inUse).toBe(ROWS + 3);
      const after = locks.capacity;
      expect(before.records).toBe(65536);
      expect(after.records).toBe(262144);
      expect(after.growths).toBeGreaterThan(before.growths);
      expect(after.max).toBe(lockCapacityFor(128 * 1024 * 1024));
      locks.checkValid();
      s.query('COMMIT');
      expect(locks.inUse).toBe(0);
      expect(s.query('SELECT COUNT(*), SUM(id) FROM dst').rows).toEqual([
        [ROWS, String((ROWS * (ROWS + 1)) / 2)],
      ]);
      s.close();
    } finally {
      db.close();
    }
  }, 300_000);

  it('past 70 % of the buffer pool a statement fails with 1206 and changes nothing', () => {
    // 4 MiB of buffer pool: room for 73,400 lock records, fewer than the statement needs
    const pool = 4 * 1024 * 1024;
    const db = Database.temporary({ innodb_buffer_pool_size: pool });
    try {
      fill(db);
      const locks = instanceOf(db).lockTable;
      expect(locks.capacity.max).toBe(Math.floor((pool * 0.7) / LOCK_RECORD_BYTES));
      const s = new Session(db);
      let err: unknown;
      try {
        s.query('INSERT INTO dst SELECT * FROM src');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SqlError);
      expect((err as SqlError).errno).toBe(1206);
      expect(s.query('SELECT COUNT(*) FROM dst').rows).toEqual([[0]]);
      expect(locks.inUse).toBe(0);
      locks.checkValid();
      s.close();
    } finally {
      db.close();
    }
  }, 300_000);
});

describe('the bound of a large pool', () => {
  it("stops at the lock table's most records: a 4 GiB pool opens and takes locks", () => {
    expect(lockCapacityFor(128 * 1024 * 1024)).toBe(2_348_810);
    expect(lockCapacityFor(2 ** 32)).toBe(MAX_LOCK_RECORDS);
    // a pool whose 70 % is past the most records the table holds
    const db = Database.temporary({ innodb_buffer_pool_size: 4 * 2 ** 30 - 65536 });
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (id INT PRIMARY KEY)');
      s.query('INSERT INTO t VALUES (1), (2)');
      expect(instanceOf(db).lockTable.capacity.max).toBe(MAX_LOCK_RECORDS);
      s.query('BEGIN');
      expect(s.query('SELECT id FROM t FOR UPDATE').rows).toEqual([[1], [2]]);
      s.query('COMMIT');
      s.close();
    } finally {
      db.close();
    }
  });
});

describe('growth across threads', () => {
  it('a worker that grows the table leaves locks the main thread sees and waits for', async () => {
    const t = LockTable.create({ capacity: 4, maxCapacity: 4096, transactions: 4 });
    const dist = new URL('../../dist/index.js', import.meta.url).href;
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(${JSON.stringify(dist)}).then(({ LockTable }) => {
        const t = new LockTable(workerData);
        const trx = t.begin(9);
        for (let i = 0; i < 1000; i++) t.lockRecord(trx, 1, 2, Uint8Array.of(i >> 8, i & 255), 0, 2, 'X', 0);
        parentPort.postMessage({ trx, capacity: t.capacity.records });
      });
    `;
    const worker = new Worker(code, { eval: true, workerData: t.buffer });
    const got = await new Promise<{ trx: number; capacity: number }>((resolve, reject) => {
      worker.on('message', resolve);
      worker.on('error', reject);
    });
    await worker.terminate();
    expect(got.capacity).toBe(1024);
    // this thread's view follows the grown buffer
    expect(t.capacity.records).toBe(1024);
    expect(t.inUse).toBe(1000);
    t.checkValid();
    const mine = t.begin(1);
    expect(t.lockRecord(mine, 1, 2, Uint8Array.of(3, 200), 0, 2, 'S', LOCK_ORDINARY, true)).toBe(MUST_WAIT);
    expect(t.lockRecord(mine, 1, 2, Uint8Array.of(4, 0), 0, 2, 'S', LOCK_ORDINARY, true)).toBe(GRANTED);
    t.end(got.trx);
    expect(t.lockRecord(mine, 1, 2, Uint8Array.of(3, 200), 0, 2, 'S', LOCK_ORDINARY)).toBe(GRANTED);
    t.checkValid();
  });
});
