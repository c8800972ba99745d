// Crash recovery of transactions through SQL: a transaction's undo records are in undo pages,
// redo-logged with its changes, so one whose commit mini-transaction did not reach the log is
// found active in its rollback segment slot and rolled back on open, while one that committed
// (and the statements of autocommit) stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session, type DatabaseOptions } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-txn-recovery-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const OPTS: DatabaseOptions = { innodb_page_size: 4096, innodb_buffer_pool_size: 256 * 4096 };
let n = 0;
const fresh = (): string => join(dir, `t${n++}.ekdb`);

function rows(db: Database): unknown[][] {
  return new Session(db).query('SELECT id, v FROM acc ORDER BY id').rows;
}

describe('transactions across a crash', () => {
  it('an open transaction is rolled back, a committed one and autocommit statements stay', () => {
    const path = fresh();
    const db = Database.create(path, OPTS);
    const a = new Session(db);
    a.query('CREATE TABLE acc (id INT PRIMARY KEY, v INT NOT NULL, KEY i_v (v))');
    a.query('INSERT INTO acc VALUES (1, 10), (2, 20), (3, 30)');
    // committed: moves 5 from 1 to 2
    a.query('BEGIN');
    a.query('UPDATE acc SET v = v - 5 WHERE id = 1');
    a.query('UPDATE acc SET v = v + 5 WHERE id = 2');
    a.query('COMMIT');
    // open at the crash: an update, an insert and a delete
    const b = new Session(db);
    b.query('BEGIN');
    b.query('UPDATE acc SET v = 999 WHERE id = 3');
    b.query('INSERT INTO acc VALUES (4, 40)');
    b.query('DELETE FROM acc WHERE id = 1');
    // an autocommit statement after them makes the log durable up to here, the open
    // transaction's records included
    a.query('INSERT INTO acc VALUES (5, 50)');
    db.abandon();

    const back = Database.open(path, OPTS);
    try {
      expect(back.recovery).not.toBeNull();
      expect(rows(back)).toEqual([
        [1, 5],
        [2, 25],
        [3, 30],
        [5, 50],
      ]);
      for (const t of back.tables()) t.checkIndexes();
    } finally {
      back.close();
    }
  });

  it('a transaction rolled back before the crash stays rolled back', () => {
    const path = fresh();
    const db = Database.create(path, OPTS);
    const s = new Session(db);
    s.query('CREATE TABLE acc (id INT PRIMARY KEY, v INT NOT NULL)');
    s.query('INSERT INTO acc VALUES (1, 10)');
    s.query('BEGIN');
    s.query('UPDATE acc SET v = 11 WHERE id = 1');
    s.query('ROLLBACK');
    s.query('INSERT INTO acc VALUES (2, 20)');
    db.abandon();
    const back = Database.open(path, OPTS);
    try {
      expect(rows(back)).toEqual([
        [1, 10],
        [2, 20],
      ]);
    } finally {
      back.close();
    }
  });
});
