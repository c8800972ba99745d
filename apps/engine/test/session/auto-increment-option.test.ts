// The AUTO_INCREMENT table option (CREATE TABLE … AUTO_INCREMENT = n, ALTER TABLE … AUTO_INCREMENT
// = n) sets where the counter starts, kept in the dictionary so a reopened database starts there
// too, as MariaDB 10.11 keeps it (its answers for the same statements are recorded in
// test/data/statements.cases.mjs); TRUNCATE forgets it, as MariaDB's does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'enginekit-autoinc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `f` on a session of the database at `path` (created when `create`), then closes both. */
function withSession<T>(path: string, create: boolean, f: (s: Session) => T): T {
  const db = create ? Database.create(path) : Database.open(path);
  const s = new Session(db);
  try {
    return f(s);
  } finally {
    s.close();
    db.close();
  }
}

const ids = (s: Session): unknown[] => s.query('SELECT id FROM t ORDER BY id').rows.map((r) => r[0]);

describe('the AUTO_INCREMENT table option', () => {
  it('starts the counter, survives a reopen, moves with ALTER and is forgotten by TRUNCATE', () => {
    const path = join(dir, 'a.ekdb');
    withSession(path, true, (s) => {
      s.query('CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, v INT) AUTO_INCREMENT = 100');
      expect(s.query('SHOW CREATE TABLE t').rows[0]![1]).toContain('AUTO_INCREMENT=100');
    });
    // no row was written before the reopen: the start comes from the dictionary, not the rows
    withSession(path, false, (s) => {
      s.query('INSERT INTO t (v) VALUES (1), (2)');
      expect(ids(s)).toEqual([100, 101]);
      s.query('ALTER TABLE t AUTO_INCREMENT = 500');
    });
    withSession(path, false, (s) => {
      s.query('INSERT INTO t (v) VALUES (3)');
      expect(ids(s)).toEqual([100, 101, 500]);
      // below the largest value stored, the counter goes on from that value
      s.query('ALTER TABLE t AUTO_INCREMENT = 5');
      s.query('INSERT INTO t (v) VALUES (4)');
      expect(ids(s)).toEqual([100, 101, 500, 501]);
      s.query('TRUNCATE TABLE t');
      s.query('INSERT INTO t (v) VALUES (5)');
      expect(ids(s)).toEqual([1]);
    });
  });

  it('is kept by a copying ALTER', () => {
    const path = join(dir, 'b.ekdb');
    withSession(path, true, (s) => {
      s.query('CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT) AUTO_INCREMENT = 40');
      s.query('ALTER TABLE t ADD COLUMN w INT');
    });
    withSession(path, false, (s) => {
      s.query('INSERT INTO t (w) VALUES (1)');
      expect(ids(s)).toEqual([40]);
    });
  });
});
