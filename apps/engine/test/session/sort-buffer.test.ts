// innodb_sort_buffer_size is a startup option, as in MySQL: given when the database opens, read
// only in SQL, used by every index build, and refused by name when out of MySQL's range before
// any file is touched.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachDatabase, Database, Session, shareDatabase } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-sort-buffer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rows = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `(${i}, '${((i * 7919) % 10007).toString(36).padStart(40, 'x')}')`,
  ).join(',');

describe('innodb_sort_buffer_size', () => {
  it('is what the database was opened with, read only, and every size builds the same index', () => {
    const path = join(dir, 'sb.ekdb');
    let db = Database.create(path);
    let s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, c VARCHAR(60))');
    for (let i = 0; i < 4; i++)
      s.query(
        `INSERT INTO t VALUES ${rows(5000).replace(/\((\d+),/g, (_, n) => `(${Number(n) + i * 5000},`)}`,
      );
    expect(s.query('SELECT @@innodb_sort_buffer_size').rows).toEqual([[1048576]]);
    db.close();
    const answers: unknown[] = [];
    for (const size of [65536, 8 * 1048576]) {
      db = Database.open(path, { innodb_sort_buffer_size: size });
      s = new Session(db);
      expect(s.query('SELECT @@innodb_sort_buffer_size').rows).toEqual([[size]]);
      expect(() => s.query('SET GLOBAL innodb_sort_buffer_size = 2097152')).toThrow(/read only/);
      s.query('ALTER TABLE t ADD INDEX ic (c)');
      expect(() => db.table('t').checkIndexes()).not.toThrow();
      answers.push(
        s.query("SELECT COUNT(*), MIN(c), MAX(c) FROM t FORCE INDEX (ic) WHERE c BETWEEN 'v' AND 'y'").rows,
      );
      s.query('ALTER TABLE t DROP INDEX ic');
      db.close();
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it("a thread attached to the database has the opener's size", () => {
    const path = join(dir, 'shared.ekdb');
    const db = Database.create(path, { innodb_sort_buffer_size: 4 * 1048576 });
    const other = attachDatabase(shareDatabase(db, 1)(1));
    try {
      expect(other.sortBufferSize).toBe(4 * 1048576);
      const s = new Session(other);
      expect(s.query('SELECT @@innodb_sort_buffer_size').rows).toEqual([[4 * 1048576]]);
      s.close();
    } finally {
      other.detachFromPool();
      db.close();
    }
  });

  it('out of MySQL range is refused by name before any file is made', () => {
    const path = join(dir, 'bad.ekdb');
    for (const v of [1000, 67108865, 1.5])
      expect(() => Database.create(path, { innodb_sort_buffer_size: v })).toThrow(
        new RegExp(`innodb_sort_buffer_size must be an integer from 65536 to 67108864, got ${v}`),
      );
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.ib_logfile0`)).toBe(false);
  });
});
