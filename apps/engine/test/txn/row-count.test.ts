// The table's row count across row changes that fail part way. A row change inside a transaction
// is one mini-transaction per index (the clustered record first, then each secondary entry), so a
// statement can fail after its clustered step committed; rolling the statement back then removes
// (or puts back) that record through the undo log. The count must move with the clustered record
// — when its step commits, and when the undo takes it back — or it drifts by one per failure,
// which checkIndexes() reports and the optimizer's estimates inherit.
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import type { TableIndex } from '../../src/storage/table.js';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

/**
 * Makes an `insert` into `ix`'s tree throw once, as a failed mini-transaction would: the next one,
 * or the one after `pass` inserts that go through.
 */
function failNextInsert(ix: TableIndex, pass = 0): void {
  const tree = ix.tree;
  const insert = tree.insert.bind(tree);
  let left = pass;
  Object.defineProperty(tree, 'insert', {
    configurable: true,
    value: (...a: Parameters<typeof insert>) => {
      if (left-- > 0) return insert(...a);
      delete (tree as { insert?: unknown }).insert;
      throw new Error(`injected failure in ${ix.name}`);
    },
  });
}

function setup(): { db: Database; s: Session } {
  const db = Database.temporary({ innodb_page_size: 4096 });
  dbs.push(db);
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, KEY kk (k))');
  s.query('INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)');
  return { db, s };
}

/** The row count agrees with the clustered index (checkIndexes) and with COUNT(*). */
function expectRows(db: Database, s: Session, n: number): void {
  const t = db.table('t');
  expect(t.rows).toBe(n);
  expect(() => t.checkIndexes()).not.toThrow();
  expect(s.query('SELECT COUNT(*) FROM t').rows).toEqual([[n]]);
}

describe('row count when a row change fails between its index steps', () => {
  it('an INSERT whose secondary entry fails', () => {
    const { db, s } = setup();
    s.query('BEGIN');
    failNextInsert(db.table('t').secondary[0]!);
    expect(() => s.query('INSERT INTO t VALUES (4, 40)')).toThrow(/injected failure in kk/);
    expectRows(db, s, 3);
    s.query('INSERT INTO t VALUES (4, 40)');
    s.query('COMMIT');
    expectRows(db, s, 4);
  });

  it('an INSERT taking over a delete-marked record whose secondary entry fails', () => {
    const { db, s } = setup();
    s.query('BEGIN');
    s.query('DELETE FROM t WHERE id = 2');
    expectRows(db, s, 2);
    failNextInsert(db.table('t').secondary[0]!);
    expect(() => s.query('INSERT INTO t VALUES (2, 25)')).toThrow(/injected failure in kk/);
    expectRows(db, s, 2);
    s.query('ROLLBACK');
    expectRows(db, s, 3);
  });

  it('an UPDATE of the primary key whose new record fails', () => {
    const { db, s } = setup();
    s.query('BEGIN');
    failNextInsert(db.table('t').primary);
    expect(() => s.query('UPDATE t SET id = 9 WHERE id = 1')).toThrow(/injected failure in PRIMARY/);
    expectRows(db, s, 3);
    s.query('COMMIT');
    expectRows(db, s, 3);
  });

  it("an UPDATE of the primary key whose new record's secondary entry fails", () => {
    const { db, s } = setup();
    s.query('BEGIN');
    failNextInsert(db.table('t').secondary[0]!);
    expect(() => s.query('UPDATE t SET id = 9, k = 90 WHERE id = 1')).toThrow(/injected failure in kk/);
    expectRows(db, s, 3);
    s.query('UPDATE t SET id = 9, k = 90 WHERE id = 1');
    s.query('COMMIT');
    expectRows(db, s, 3);
    expect(s.query('SELECT id FROM t ORDER BY id').rows).toEqual([[2], [3], [9]]);
  });

  it('a multi-row INSERT failing on its third row, under autocommit', () => {
    const { db, s } = setup();
    failNextInsert(db.table('t').secondary[0]!, 2);
    expect(() => s.query('INSERT INTO t VALUES (4, 40), (5, 50), (6, 60)')).toThrow(/injected/);
    expectRows(db, s, 3);
  });
});
