// TEMPORARY tables: what one session's statements see (MariaDB's answers for those are recorded in
// test/data/statements.cases.mjs, script 'temporary tables'), and what MariaDB cannot be asked
// through one connection: other sessions never see them, they go with their session, a crash
// leaves none behind, and a prepared statement made before one appeared reads it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { SqlDictionary } from '../../src/session/dictionary.js';
import { TEMPORARY_TABLE_PREFIX } from '../../src/storage/database.js';
import { verifyDatabaseFile } from '../../src/storage/verify.js';
import { errno } from '../helpers/errno.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engine-temporary-'));
  dirs.push(dir);
  return join(dir, 'db.ekdb');
}

const hidden = (db: Database): string[] =>
  db
    .tables()
    .map((t) => t.name)
    .filter((n) => n.startsWith(TEMPORARY_TABLE_PREFIX));

describe('temporary tables', () => {
  it('belong to their session: others see the table they hide, and cannot name them', () => {
    const db = Database.temporary();
    const a = new Session(db);
    const b = new Session(db);
    a.query('CREATE TABLE t (id INT PRIMARY KEY)');
    a.query('INSERT INTO t VALUES (1), (2)');
    a.query('CREATE TEMPORARY TABLE t (v VARCHAR(5))');
    a.query("INSERT INTO t VALUES ('a')");
    b.query('CREATE TEMPORARY TABLE t (n INT)');
    b.query('INSERT INTO t VALUES (7), (8), (9)');
    expect(a.query('SELECT * FROM t').rows).toEqual([['a']]);
    expect(b.query('SELECT COUNT(*) FROM t').rows).toEqual([[3]]);
    const c = new Session(db);
    expect(c.query('SELECT id FROM t ORDER BY id').rows).toEqual([[1], [2]]);
    // the hidden tables are real tables of the file, and no listing or name reaches them
    const names = hidden(db);
    expect(names).toHaveLength(2);
    for (const n of names) expect(errno(() => c.query(`SELECT * FROM \`${n}\``))).toBe(1146);
    expect(c.query('SHOW TABLES').rows).toEqual([['t']]);
    expect(c.query("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_NAME LIKE '#%'").rows).toEqual(
      [[0]],
    );
    a.close();
    b.close();
    c.close();
    db.close();
  });

  it('go when their session closes or resets, rows, dictionary entry and all', () => {
    const db = Database.temporary();
    const s = new Session(db);
    s.query('CREATE TEMPORARY TABLE t1 (a INT PRIMARY KEY, b TEXT)');
    s.query('CREATE TEMPORARY TABLE t2 LIKE t1');
    s.query("INSERT INTO t1 VALUES (1, REPEAT('x', 20000))");
    expect(hidden(db)).toHaveLength(2);
    s.reset();
    expect(hidden(db)).toEqual([]);
    expect(errno(() => s.query('SELECT * FROM t1'))).toBe(1146);
    s.query('CREATE TEMPORARY TABLE t3 (a INT)');
    s.close();
    expect(hidden(db)).toEqual([]);
    expect([...SqlDictionary.of(db).tables.keys()].filter((n) => n.startsWith('#'))).toEqual([]);
    db.close();
  });

  it('a crash leaves none: the next open drops them, and a new one by the same hidden name starts empty', () => {
    const path = newFile();
    let db = Database.create(path);
    let s = new Session(db);
    s.query('CREATE TABLE keep (a INT PRIMARY KEY)');
    s.query('INSERT INTO keep VALUES (1)');
    s.query('CREATE TEMPORARY TABLE scratch (a INT PRIMARY KEY, b INT)');
    s.query('INSERT INTO scratch VALUES (1, 10), (2, 20)');
    const [name] = hidden(db);
    db.commit();
    // the process ends without closing the session or the file
    db.abandon();
    db = Database.open(path);
    expect(hidden(db)).toEqual([]);
    s = new Session(db, { connectionId: Number(name!.split('-')[1]) });
    expect(s.query('SELECT * FROM keep').rows).toEqual([[1]]);
    expect(errno(() => s.query('SELECT * FROM scratch'))).toBe(1146);
    s.query('CREATE TEMPORARY TABLE scratch (x VARCHAR(3))');
    expect(hidden(db)).toEqual([name]);
    expect(s.query('SELECT * FROM scratch').rows).toEqual([]);
    expect(s.query('SHOW CREATE TABLE scratch').rows[0]![1]).toContain('`x` varchar(3)');
    s.close();
    db.close();
    verifyDatabaseFile(path);
    db = Database.open(path);
    expect(hidden(db)).toEqual([]);
    db.close();
  });

  it('a prepared statement reads the table its name means now (a temporary one made or dropped since, a table re-created)', () => {
    const db = Database.temporary();
    const s = new Session(db);
    s.query('CREATE TABLE t (a INT PRIMARY KEY)');
    s.query('INSERT INTO t VALUES (1)');
    const p = s.prepare('SELECT * FROM t');
    expect(p.run([]).rows).toEqual([[1]]);
    s.query('CREATE TEMPORARY TABLE t (x VARCHAR(3), y INT)');
    s.query("INSERT INTO t VALUES ('tmp', 2)");
    expect(p.run([]).rows).toEqual([['tmp', 2]]);
    s.query('DROP TEMPORARY TABLE t');
    expect(p.run([]).rows).toEqual([[1]]);
    // dropped and made again: the old plan's pages are free, and were read as a corrupt page
    s.query('DROP TABLE t');
    s.query('CREATE TABLE t (k CHAR(2) PRIMARY KEY, n INT)');
    s.query("INSERT INTO t VALUES ('zz', 5)");
    expect(p.run([]).rows).toEqual([['zz', 5]]);
    s.query('DROP TABLE t');
    expect(errno(() => p.run([]))).toBe(1146);
    s.close();
    db.close();
  });

  it('writes to a temporary table roll back with the transaction; making or dropping one commits nothing', () => {
    const db = Database.temporary();
    const s = new Session(db);
    const other = new Session(db);
    s.query('CREATE TABLE p (a INT PRIMARY KEY)');
    s.query('CREATE TEMPORARY TABLE t (a INT PRIMARY KEY)');
    s.query('BEGIN');
    s.query('INSERT INTO p VALUES (1)');
    s.query('INSERT INTO t VALUES (1), (2)');
    s.query('CREATE TEMPORARY TABLE u (b INT)');
    s.query('DROP TEMPORARY TABLE t');
    // still one transaction: the other session sees nothing of it
    expect(other.query('SELECT COUNT(*) FROM p').rows).toEqual([[0]]);
    s.query('ROLLBACK');
    expect(s.query('SELECT COUNT(*) FROM p').rows).toEqual([[0]]);
    expect(s.query('SELECT COUNT(*) FROM u').rows).toEqual([[0]]);
    // DROP TABLE (without TEMPORARY) commits, as MariaDB's
    s.query('BEGIN');
    s.query('INSERT INTO p VALUES (2)');
    s.query('DROP TABLE u');
    expect(other.query('SELECT a FROM p').rows).toEqual([[2]]);
    s.close();
    other.close();
    db.close();
  });
});
