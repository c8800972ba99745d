// CREATE TABLE … SELECT: MariaDB's answers for the statements a user types are recorded in
// test/data/statements.cases.mjs (script 'CREATE TABLE … SELECT'). Here what those cannot show:
// the rows of a big query go in whole with their indexes sound, a failure leaves neither the table
// nor its dictionary entry nor its pages behind (nor a temporary table), and another session sees
// the table with all of its rows or not at all.
import { describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { SqlDictionary } from '../../src/session/dictionary.js';
import { errno } from '../helpers/errno.js';

function source(): { db: Database; s: Session } {
  const db = Database.temporary();
  const s = new Session(db);
  s.query('CREATE TABLE src (id INT PRIMARY KEY, k INT, v VARCHAR(10))');
  const values = Array.from({ length: 1500 }, (_, i) => `(${i + 1}, ${(i * 7919) % 500}, 'v${i % 97}')`);
  s.query(`INSERT INTO src VALUES ${values.join(', ')}`);
  return { db, s };
}

describe('CREATE TABLE … SELECT', () => {
  it('copies every row of a big query into a table whose keys are sound', () => {
    const { db, s } = source();
    const r = s.query(
      'CREATE TABLE dst (KEY ik (k), UNIQUE KEY uv (id, v)) SELECT id, k, v, k * 2 AS k2 FROM src WHERE id % 3 <> 0',
    );
    expect(r.affectedRows).toBe(1000);
    expect(s.query('SELECT COUNT(*), SUM(k2) = 2 * SUM(k) FROM dst').rows).toEqual([[1000, 1]]);
    db.table('dst').checkIndexes();
    expect(s.query('SELECT COUNT(*) FROM dst FORCE INDEX (ik) WHERE k = 7').rows).toEqual(
      s.query('SELECT COUNT(*) FROM src WHERE k = 7 AND id % 3 <> 0').rows,
    );
    s.close();
    db.close();
  });

  it('a failure leaves no table, no dictionary entry and no pages; a temporary one likewise', () => {
    const { db, s } = source();
    const free = db.freePages;
    const tables = db.tables().length;
    // k takes each of its 500 values once in the first 500 rows: the 501st clashes, after 500 went in
    expect(errno(() => s.query('CREATE TABLE bad (UNIQUE KEY (k)) SELECT k FROM src WHERE id <= 600'))).toBe(
      1062,
    );
    expect(errno(() => s.query('SELECT * FROM bad'))).toBe(1146);
    expect(SqlDictionary.of(db).tables.has('bad')).toBe(false);
    expect(db.tables().length).toBe(tables);
    db.purge(10_000);
    expect(db.freePages).toBeGreaterThanOrEqual(free);
    expect(errno(() => s.query('CREATE TEMPORARY TABLE tbad (x INT NOT NULL) SELECT NULL AS x'))).toBe(1048);
    expect(s.temporaryTables.size).toBe(0);
    expect(db.tables().length).toBe(tables);
    // the name is free again
    s.query('CREATE TABLE bad SELECT 1 AS one');
    expect(s.query('SELECT * FROM bad').rows).toEqual([[1]]);
    s.close();
    db.close();
  });

  it('commits the open transaction first, and its rows commit with the table', () => {
    const { db, s } = source();
    const other = new Session(db);
    s.query('BEGIN');
    s.query("UPDATE src SET v = 'changed' WHERE id = 1");
    s.query('CREATE TABLE snap SELECT id, v FROM src WHERE id <= 2');
    expect(s.query('SELECT @@in_transaction').rows).toEqual([[0]]);
    expect(other.query('SELECT v FROM snap ORDER BY id').rows).toEqual([['changed'], ['v1']]);
    expect(other.query('SELECT v FROM src WHERE id = 1').rows).toEqual([['changed']]);
    s.close();
    other.close();
    db.close();
  });
});
