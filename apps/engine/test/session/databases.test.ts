// Several databases in one database file. The statements of test/data/databases.cases.mjs run on
// the engine against MariaDB 10.11's answers recorded in test/data/databases.mariadb.json (the
// file names the command that recorded them: node apps/engine/test/data/record-mariadb.mjs
// databases --socket PATH): values, errors with their numbers, warnings, affected rows. Then what
// MariaDB cannot be asked: the databases survive a reopen, a file from before databases opens
// with its tables in `test`, and the reports name a table's own database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeDatabase } from '../../src/commands/info.js';
import { Database, Session } from '../../src/index.js';
import { describeRecordedSuite } from '../helpers/mariadb-suite.js';
import { TableHandler } from '../../src/handler/table-handler.js';
import { errno } from '../helpers/errno.js';

/** Statements whose answer differs from MariaDB's, by text, with the reason. */
const KNOWN: Readonly<Record<string, string>> = {
  'EXPLAIN SELECT * FROM db_a.t WHERE id = 1':
    "EXPLAIN has MySQL's `filtered` column, which MariaDB prints only under EXPLAIN EXTENDED",
};

const open: Database[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const db of open) if (!db.closed) db.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'enginekit-dbs-'));
  dirs.push(d);
  return d;
}

function rows(s: Session, sql: string): unknown[][] {
  return s.query(sql).rows;
}

/** The keys of the dictionary table `#sql_meta` (tables, views, accounts, databases). */
function metaKeys(db: Database): string[] {
  const keys: string[] = [];
  const text = new TextDecoder();
  new TableHandler(db.table('#sql_meta')).rndScan((row) => {
    keys.push(text.decode(row.src[0]!.subarray(row.off[0]!, row.off[0]! + row.len[0]!)));
    return true;
  });
  return keys;
}

describeRecordedSuite('databases', 'databases', KNOWN);

describe('databases in the file', () => {
  it('survive a reopen: their tables, views, options, and a dropped test', () => {
    const path = join(tempDir(), 'dbs.db');
    const db = Database.create(path);
    const s = new Session(db);
    s.query('CREATE DATABASE sbtest COLLATE utf8mb4_bin');
    s.query('CREATE TABLE sbtest.t (id INT PRIMARY KEY, c VARCHAR(10))');
    s.query("INSERT INTO sbtest.t VALUES (1, 'x'), (2, 'y')");
    s.query('CREATE TABLE t (id INT PRIMARY KEY, n INT)');
    s.query('INSERT INTO t VALUES (1, 100)');
    s.query('USE sbtest');
    s.query('CREATE VIEW v AS SELECT c FROM t WHERE id = 2');
    s.query('DROP DATABASE test');
    db.close();

    const again = Database.open(path);
    open.push(again);
    const s2 = new Session(again);
    // `test` was dropped: a new session has no current database
    expect(rows(s2, 'SELECT DATABASE()')).toEqual([[null]]);
    expect(errno(() => s2.query('SELECT * FROM t'))).toBe(1046);
    expect(rows(s2, "SHOW DATABASES LIKE '%test'")).toEqual([['sbtest']]);
    expect(rows(s2, 'SHOW CREATE DATABASE sbtest')[0]![1]).toContain('COLLATE utf8mb4_bin');
    expect(rows(s2, 'SELECT id, c FROM sbtest.t ORDER BY id')).toEqual([
      [1, 'x'],
      [2, 'y'],
    ]);
    s2.query('USE sbtest');
    expect(rows(s2, 'SELECT * FROM v')).toEqual([['y']]);
    expect(rows(s2, 'SHOW TABLES')).toEqual([['t'], ['v']]);
    expect(errno(() => s2.query('USE test'))).toBe(1049);
    s2.query('CREATE DATABASE test');
    expect(rows(s2, 'SHOW TABLES FROM test')).toEqual([]);
    again.close();
  });

  it('CREATE and DROP DATABASE are durable at their end: a file abandoned unflushed recovers them from the redo log', () => {
    const path = join(tempDir(), 'crash.db');
    const db = Database.create(path);
    const s = new Session(db);
    s.query('CREATE DATABASE a');
    s.query('CREATE TABLE a.t (id INT PRIMARY KEY)');
    s.query('INSERT INTO a.t VALUES (1), (2)');
    s.query('CREATE DATABASE b');
    s.query('CREATE TABLE b.t (id INT PRIMARY KEY)');
    s.query('INSERT INTO b.t VALUES (3)');
    s.query('DROP DATABASE a');
    // as a kill: no page is written back, no checkpoint taken
    db.abandon();

    const again = Database.open(path);
    open.push(again);
    const s2 = new Session(again);
    expect(rows(s2, 'SHOW DATABASES')).toEqual([['b'], ['information_schema'], ['mysql'], ['test']]);
    expect(rows(s2, 'SELECT * FROM b.t')).toEqual([[3]]);
    expect(errno(() => s2.query('SELECT * FROM a.t'))).toBe(1146);
    expect(
      again
        .tables()
        .map((t) => t.name)
        .filter((n) => !n.startsWith('#')),
    ).toEqual(['b/t']);
    again.close();
  });

  it('a file from before databases opens with its tables in test', () => {
    // a file of the earlier format: tables under bare names, no database list in the dictionary
    // (what the engine wrote when a file held `test` alone); its layout is unchanged, so a file
    // written by a session that never names another database is one
    const path = join(tempDir(), 'old.db');
    const old = Database.create(path);
    const s = new Session(old);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5))');
    s.query("INSERT INTO t VALUES (1, 'a')");
    s.query('CREATE VIEW w AS SELECT v FROM t');
    expect(old.tables().map((t) => t.name)).toContain('t');
    expect(metaKeys(old).filter((k) => k === 's' || k.startsWith('s:'))).toEqual([]);
    old.close();

    const db = Database.open(path);
    open.push(db);
    const s2 = new Session(db);
    expect(rows(s2, 'SELECT DATABASE()')).toEqual([['test']]);
    expect(rows(s2, "SHOW DATABASES LIKE 'test'")).toEqual([['test']]);
    expect(rows(s2, 'SELECT * FROM test.t')).toEqual([[1, 'a']]);
    expect(rows(s2, 'SELECT * FROM test.w')).toEqual([['a']]);
    expect(
      rows(
        s2,
        "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_NAME IN ('t', 'w')",
      ),
    ).toEqual([
      ['test', 't'],
      ['test', 'w'],
    ]);
    // a new database is added beside it, and the first one stays: the list is written out whole
    s2.query('CREATE DATABASE other');
    expect(
      metaKeys(db)
        .filter((k) => k === 's' || k.startsWith('s:'))
        .sort(),
    ).toEqual(['s', 's:other', 's:test']);
    db.close();
    const db3 = Database.open(path);
    open.push(db3);
    expect(rows(new Session(db3), 'SHOW DATABASES')).toEqual([
      ['information_schema'],
      ['mysql'],
      ['other'],
      ['test'],
    ]);
    db3.close();
  });

  it('keeps a table in another database under its own storage name, two tables of one name apart', () => {
    const db = Database.temporary();
    open.push(db);
    const s = new Session(db);
    s.query('CREATE DATABASE a');
    s.query('CREATE TABLE a.t (x INT PRIMARY KEY)');
    s.query('CREATE TABLE t (x INT PRIMARY KEY)');
    s.query('INSERT INTO a.t VALUES (1), (2)');
    s.query('INSERT INTO t VALUES (3)');
    expect(
      db
        .tables()
        .map((t) => t.name)
        .filter((n) => !n.startsWith('#'))
        .sort(),
    ).toEqual(['a/t', 't']);
    expect(rows(s, 'SELECT SUM(x) FROM a.t')).toEqual([['3']]);
    expect(rows(s, 'SELECT SUM(x) FROM t')).toEqual([['3']]);
    expect(rows(s, 'SELECT COUNT(*) FROM a.t JOIN test.t')).toEqual([[2]]);
    // a name holding the separator is kept apart from a qualified one
    s.query('CREATE TABLE `a/t` (y INT PRIMARY KEY)');
    s.query('INSERT INTO `a/t` VALUES (9)');
    expect(rows(s, 'SELECT * FROM `a/t`')).toEqual([[9]]);
    expect(rows(s, 'SELECT COUNT(*) FROM a.t')).toEqual([[2]]);
    expect(rows(s, 'SHOW TABLES')).toEqual([['a/t'], ['t']]);
    // enginekit info names them as a reader types them
    const listed = describeDatabase(db, true)
      .map((r) => r.table)
      .filter((n) => !n.startsWith('#'));
    expect([...new Set(listed)].sort()).toEqual(['a.t', 'a/t', 't']);
  });

  it('names the table’s own database in lock waits and the process list', async () => {
    const db = Database.temporary();
    open.push(db);
    const a = new Session(db);
    const b = new Session(db);
    a.query('CREATE DATABASE sbtest');
    a.query('CREATE TABLE sbtest.t (id INT PRIMARY KEY, k INT)');
    a.query('INSERT INTO sbtest.t VALUES (1, 1)');
    a.query('USE sbtest');
    a.query('BEGIN');
    a.query('UPDATE t SET k = 2 WHERE id = 1');
    // as a server session does: a lock wait is a promise to await, not an error at once
    b.txn.asyncWaits = true;
    let pending: { wait(): Promise<void> } | undefined;
    try {
      b.query('UPDATE sbtest.t SET k = 3 WHERE id = 1');
    } catch (e) {
      pending = e as { wait(): Promise<void> };
    }
    expect(pending).toBeDefined();
    const status = String(rows(a, 'SHOW ENGINE INNODB STATUS')[0]![2]);
    expect(status).toContain('RECORD LOCKS index PRIMARY of table `sbtest`.`t`');
    const list = rows(a, 'SELECT ID, DB FROM information_schema.PROCESSLIST ORDER BY ID');
    expect(list).toEqual([
      [a.connectionId, 'sbtest'],
      [b.connectionId, 'test'],
    ]);
    a.query('COMMIT');
    await pending!.wait();
  });

  it('checks GRANT … ON db.* against the database a statement names', () => {
    const db = Database.temporary();
    open.push(db);
    const root = new Session(db);
    root.query('CREATE DATABASE sbtest');
    root.query('CREATE TABLE sbtest.t (id INT PRIMARY KEY)');
    root.query('CREATE TABLE t (id INT PRIMARY KEY)');
    root.query("CREATE USER 'sb'@'localhost'");
    root.query("GRANT ALL ON sbtest.* TO 'sb'@'localhost'");
    const s = new Session(db);
    s.account = { user: 'sb', host: 'localhost' };
    expect(errno(() => s.query('SELECT * FROM t'))).toBe(1142);
    expect(rows(s, 'SELECT * FROM sbtest.t')).toEqual([]);
    s.query('USE sbtest');
    s.query('INSERT INTO t VALUES (1)');
    expect(rows(s, 'SELECT * FROM t')).toEqual([[1]]);
    expect(errno(() => s.query('USE test'))).toBe(1044);
    expect(errno(() => s.query('DROP DATABASE test'))).toBe(1044);
    expect(errno(() => s.query('CREATE DATABASE other'))).toBe(1044);
    s.query('CREATE TABLE t2 (a INT)');
    expect(rows(root, 'SHOW TABLES FROM sbtest')).toEqual([['t'], ['t2']]);
  });
});
