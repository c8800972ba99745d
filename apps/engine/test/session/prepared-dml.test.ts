// Prepared INSERT, UPDATE and DELETE bind the values of each execution, also after an execution
// that failed (a duplicate key): a prepared statement is planned once and run many times.
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

describe('prepared DML statements', () => {
  let db: Database | undefined;
  afterEach(() => db?.close());

  it('use the parameters of every execution', () => {
    db = Database.temporary();
    const s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, KEY i_v (v))');
    const ins = s.prepare('INSERT INTO t VALUES (?, ?)');
    const upd = s.prepare('UPDATE t SET v = ? WHERE id = ?');
    const del = s.prepare('DELETE FROM t WHERE id = ?');
    for (let i = 1; i <= 5; i++) ins.run([i, i * 10]);
    expect(() => ins.run([3, 0])).toThrow(expect.objectContaining({ errno: 1062 }));
    ins.run([6, 60]);
    upd.run([99, 2]);
    upd.run([77, 4]);
    expect(del.run([1]).affectedRows).toBe(1);
    expect(del.run([5]).affectedRows).toBe(1);
    expect(s.query('SELECT id, v FROM t ORDER BY id').rows).toEqual([
      [2, 99],
      [3, 30],
      [4, 77],
      [6, 60],
    ]);
    for (const t of db.tables()) t.checkIndexes();
  });
});
