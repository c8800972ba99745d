// ALTER TABLE's copy (ADD/DROP COLUMN) with Percona's expand_fast_index_creation: OFF keeps
// every secondary index up to date row by row during the copy; ON copies the rows with the
// primary key alone and then builds every secondary by merge sort (bottom-up bulk load), so its
// trees come out packed. Both give the same table; a failure leaves the old table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-alter-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

/** A table of `n` rows whose secondary keys arrive in an order unrelated to the primary key. */
function table(n: number) {
  const db = Database.temporary();
  dbs.push(db);
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(120), KEY ka (a), UNIQUE KEY ub (b))');
  const rows: string[] = [];
  for (let i = 0; i < n; i++)
    rows.push(`(${i}, ${(i * 7919) % 1009}, '${String((i * 104729) % 100003).padStart(100, 'v')}')`);
  for (let i = 0; i < rows.length; i += 500)
    s.query(`INSERT INTO t VALUES ${rows.slice(i, i + 500).join(', ')}`);
  return { db, s };
}

const leafPages = (db: Database, index: string): number =>
  db
    .table('t')
    .secondary.find((x) => x.name === index)!
    .tree.stats().leafPages;

describe('ALTER TABLE copy and expand_fast_index_creation', () => {
  it('ON builds the secondaries after the copy, packed; OFF maintains them row by row', () => {
    const off = table(1500);
    const on = table(1500);
    off.s.query('SET SESSION expand_fast_index_creation = OFF');
    on.s.query('SET SESSION expand_fast_index_creation = ON');
    const alter = 'ALTER TABLE t ADD COLUMN c BIGINT NOT NULL DEFAULT 9007199254740993';
    off.s.query(alter);
    on.s.query(alter);
    for (const x of [off, on]) x.db.table('t').checkIndexes();
    for (const q of [
      'SELECT * FROM t ORDER BY id',
      'SELECT id FROM t WHERE a = 17 ORDER BY id',
      `SELECT id, c FROM t WHERE b = '${'4729'.padStart(100, 'v')}'`,
    ])
      expect(on.s.query(q).rows, q).toEqual(off.s.query(q).rows);
    expect(on.s.query('SELECT DISTINCT c FROM t').rows).toEqual([[9007199254740993n]]);
    expect(leafPages(on.db, 'ka')).toBeLessThanOrEqual(leafPages(off.db, 'ka'));
    expect(leafPages(on.db, 'ub')).toBeLessThan(leafPages(off.db, 'ub'));
  });

  it('ON: a duplicate found by the build leaves the old table', () => {
    const { db, s } = table(300);
    s.query('UPDATE t SET b = NULL WHERE id = 5');
    s.query('UPDATE t SET a = a % 10');
    s.query('SET SESSION expand_fast_index_creation = ON');
    // a new unique key over a column with duplicates: the sort finds them
    expect(() => s.query('ALTER TABLE t ADD COLUMN d INT, ADD UNIQUE KEY ua (a)')).toThrow(/Duplicate entry/);
    db.table('t').checkIndexes();
    expect(db.table('t').columns.map((c) => c.name)).toEqual(['id', 'a', 'b']);
    expect(db.table('t').secondary.map((x) => x.name)).toEqual(['ka', 'ub']);
    expect(s.query('SELECT COUNT(*), COUNT(b) FROM t').rows).toEqual([[300, 299]]);
  });

  it("ON with a redo log: the secondaries are built without redo, even past the log's size", () => {
    // a 2 × 1 MiB log against a 2.6 MB secondary index: logging every page image of the build
    // filled the log (the bulk loader holds its pages latched, so no checkpoint could free it)
    const path = join(dir, 'redo.ekdb');
    let db = Database.create(path, { innodb_log_file_size: 1 << 20 });
    let s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(120), KEY ka (a), KEY kb (b))');
    for (let i = 0; i < 20_000; i += 1000)
      s.query(
        `INSERT INTO t VALUES ${Array.from({ length: 1000 }, (_, j) => {
          const id = i + j;
          return `(${id}, ${(id * 7919) % 1009}, '${String((id * 104729) % 100003).padStart(110, 'v')}')`;
        }).join(', ')}`,
      );
    s.query('SET expand_fast_index_creation = ON');
    s.query('ALTER TABLE t ADD COLUMN d INT DEFAULT 7');
    db.table('t').checkIndexes();
    const answer = s.query('SELECT COUNT(*), SUM(d), MIN(b), MAX(b) FROM t FORCE INDEX (kb)').rows;
    expect(answer[0]![0]).toBe(20_000);
    db.close();
    db = Database.open(path, { innodb_log_file_size: 1 << 20 });
    s = new Session(db);
    db.table('t').checkIndexes();
    expect(s.query('SELECT COUNT(*), SUM(d), MIN(b), MAX(b) FROM t FORCE INDEX (kb)').rows).toEqual(answer);
    db.close();
  }, 120_000);
});
