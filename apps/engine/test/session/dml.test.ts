// INSERT/UPDATE/DELETE and DDL: atomic statements (a failure leaves every table and index as it
// was, checked with checkIndexes and a full read), AUTO_INCREMENT, defaults, hidden row ids,
// reopening a file, CREATE/DROP INDEX and VIEW, SET/SHOW and the status counters.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session, SqlError } from '../../src/index.js';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});
function fresh() {
  const db = Database.temporary();
  dbs.push(db);
  return { db, s: new Session(db) };
}

describe('writes', () => {
  it('inserts many rows, defaults and AUTO_INCREMENT', () => {
    const { s } = fresh();
    s.query(
      "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5) NOT NULL DEFAULT 'x', n DECIMAL(6,2))",
    );
    const r = s.query("INSERT INTO t (v, n) VALUES ('a', 1.5), ('b', NULL)");
    expect([r.affectedRows, r.insertId]).toEqual([2, 1]);
    s.query('INSERT INTO t (n) VALUES (2.345)');
    expect(s.query('SELECT * FROM t ORDER BY id').rows).toEqual([
      [1, 'a', '1.50'],
      [2, 'b', null],
      [3, 'x', '2.35'],
    ]);
  });
  it('a failing multi-row INSERT changes nothing', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, u INT, KEY k (u), UNIQUE KEY uu (u))');
    s.query('INSERT INTO t VALUES (1, 10), (2, 20)');
    expect(() => s.query('INSERT INTO t VALUES (3, 30), (4, 40), (1, 50)')).toThrow(SqlError);
    expect(() => s.query('INSERT INTO t VALUES (5, 50), (6, 20)')).toThrow(
      /Duplicate entry '20' for key 'uu'/,
    );
    expect(() => s.query("INSERT INTO t VALUES (7, 'abc')")).toThrow(/Incorrect integer value/);
    expect(() => s.query('INSERT INTO t VALUES (8, 99999999999)')).toThrow(
      /Out of range value for column 'u' at row 1/,
    );
    db.table('t').checkIndexes();
    expect(s.query('SELECT id, u FROM t ORDER BY id').rows).toEqual([
      [1, 10],
      [2, 20],
    ]);
  });
  it('REPLACE removes the clashing rows first; INSERT IGNORE skips duplicates with a warning', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, u INT, v VARCHAR(3), UNIQUE KEY uu (u))');
    s.query("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b')");
    expect(s.query("REPLACE INTO t VALUES (1, 20, 'c')").affectedRows).toBe(3);
    expect(s.query('SELECT * FROM t').rows).toEqual([[1, 20, 'c']]);
    const r = s.query("INSERT IGNORE INTO t VALUES (1, 5, 'd'), (3, 30, 'e')");
    expect([r.affectedRows, r.warnings]).toEqual([1, 1]);
    db.table('t').checkIndexes();
  });
  it('UPDATE and DELETE through WHERE; a failing UPDATE changes nothing', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, u INT, UNIQUE KEY uu (u))');
    s.query('INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)');
    expect(s.query('UPDATE t SET u = u * 10 WHERE id >= 2').affectedRows).toBe(2);
    expect(() => s.query('UPDATE t SET u = 5')).toThrow(/Duplicate entry/);
    db.table('t').checkIndexes();
    expect(s.query('SELECT u FROM t ORDER BY id').rows).toEqual([[1], [20], [30]]);
    expect(s.query('DELETE FROM t WHERE u > 10').affectedRows).toBe(2);
    db.table('t').checkIndexes();
    expect(s.query('SELECT count(*) FROM t').rows).toEqual([[1]]);
  });
  it('CHAR drops trailing spaces, VARCHAR keeps them; too long is error 1406', () => {
    const { s } = fresh();
    s.query('CREATE TABLE t (c CHAR(4), v VARCHAR(4))');
    s.query("INSERT INTO t VALUES ('ab  ', 'ab  ')");
    expect(s.query('SELECT c, v, length(c), length(v) FROM t').rows).toEqual([['ab', 'ab  ', 2, 4]]);
    expect(() => s.query("INSERT INTO t VALUES ('abcde', 'x')")).toThrow(
      /Data too long for column 'c' at row 1/,
    );
    expect(s.query('SHOW WARNINGS').columns).toEqual(['Level', 'Code', 'Message']);
  });
  it('tables without a primary key get a hidden row id', () => {
    const { s } = fresh();
    s.query('CREATE TABLE t (a INT, b TEXT)');
    s.query("INSERT INTO t VALUES (1, 'x'), (1, 'x'), (NULL, NULL)");
    expect(s.query('SELECT * FROM t').columns).toEqual(['a', 'b']);
    expect(s.query('SELECT count(*) FROM t WHERE a = 1').rows).toEqual([[2]]);
  });
});

describe('DDL and the dictionary', () => {
  it('CREATE INDEX builds from the table and is used; DROP INDEX / TABLE / VIEW', () => {
    const { s } = fresh();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, f FLOAT)');
    s.query('INSERT INTO t VALUES (1, 5, 0.5), (2, 5, -1.5), (3, 6, 2.5)');
    s.query('CREATE INDEX ik ON t (k)');
    s.query('CREATE INDEX iff ON t (f)');
    s.query('FLUSH STATUS');
    expect(s.query('SELECT id FROM t WHERE k = 5 ORDER BY id').rows).toEqual([[1], [2]]);
    expect(s.status().Handler_read_key).toBeGreaterThan(0);
    expect(s.query('SELECT id FROM t FORCE INDEX (iff) WHERE f = -1.5').rows).toEqual([[2]]);
    expect(() => s.query('SELECT id FROM t FORCE INDEX (nope)')).toThrow(
      /Key 'nope' doesn't exist in table 't'/,
    );
    s.query('CREATE VIEW v AS SELECT k, count(*) AS n FROM t GROUP BY k');
    expect(s.query('SELECT * FROM v ORDER BY k').rows).toEqual([
      [5, 2],
      [6, 1],
    ]);
    s.query('DROP VIEW v');
    s.query('DROP INDEX ik ON t');
    expect(s.query('SELECT id FROM t WHERE k = 6').rows).toEqual([[3]]);
    s.query('DROP TABLE t');
    expect(() => s.query('SELECT * FROM t')).toThrow(/doesn't exist/);
    expect(() => s.query('DROP TABLE t')).toThrow(/Unknown table 'test.t'/);
    s.query('DROP TABLE IF EXISTS t');
  });
  it('DESCRIBE, SHOW COLUMNS and SHOW CREATE TABLE', () => {
    const { s } = fresh();
    s.query(
      "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5) NOT NULL DEFAULT 'x', KEY kv (v))",
    );
    const cols = [
      ['id', 'int(11)', 'NO', 'PRI', null, 'auto_increment'],
      ['v', 'varchar(5)', 'NO', 'MUL', 'x', ''],
    ];
    expect(s.query('DESCRIBE t').rows).toEqual(cols);
    expect(s.query('SHOW COLUMNS FROM t').rows).toEqual(cols);
    expect(s.query('SHOW CREATE TABLE t').rows[0]![1]).toContain(
      "`v` varchar(5) NOT NULL DEFAULT 'x',\n  PRIMARY KEY (`id`),\n  KEY `kv` (`v`)",
    );
    // an empty table: n_diff 0, rec_per_key max(1, ⌊0 / 2⌋) = 1, Cardinality ⌊0 / 1⌋ = 0
    expect(s.query('SHOW INDEX FROM t').rows).toEqual([
      ['t', 0, 'PRIMARY', 1, 'id', 'A', 0, null, null, '', 'BTREE', '', '', 'NO'],
      ['t', 1, 'kv', 1, 'v', 'A', 0, null, null, '', 'BTREE', '', '', 'NO'],
    ]);
  });
  it('tables, views and defaults survive reopening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sql-reopen-'));
    try {
      const path = join(dir, 'a.ekdb');
      const db = Database.create(path, { innodb_log_file_size: 1 << 20 });
      const s = new Session(db);
      s.query('CREATE TABLE t (a INT NOT NULL DEFAULT 7, b VARCHAR(3))');
      s.query("INSERT INTO t (b) VALUES ('q')");
      s.query('CREATE VIEW v AS SELECT a + 1 AS x FROM t');
      db.close();
      const db2 = Database.open(path);
      const s2 = new Session(db2);
      s2.query("INSERT INTO t (b) VALUES ('r')");
      expect(s2.query('SELECT x FROM v').rows).toEqual([[8], [8]]);
      expect(s2.query('SHOW TABLES').rows).toEqual([['t'], ['v']]);
      db2.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('session state', () => {
  it('SET / SELECT @@ / SHOW VARIABLES with MySQL names, optimizer_switch flag by flag', () => {
    const { s } = fresh();
    expect(s.query('SELECT @@sort_buffer_size, @@div_precision_increment').rows).toEqual([[262144, 4]]);
    s.query("SET SESSION optimizer_switch = 'mrr=on,mrr_sort_keys=on'");
    const sw = String(s.variables().optimizer_switch);
    expect(sw).toContain('mrr=on');
    expect(sw).toContain('mrr_sort_keys=on');
    expect(sw).toContain('index_condition_pushdown=on');
    s.query("SET optimizer_switch = 'default'");
    expect(String(s.variables().optimizer_switch)).toContain('mrr=off');
    expect(() => s.query("SET optimizer_switch = 'nope=on'")).toThrow(
      /Variable 'optimizer_switch' can't be set to the value of 'nope=on'/,
    );
    expect(() => s.query('SET nope = 1')).toThrow(SqlError);
    s.query('SET div_precision_increment = 6');
    expect(s.query('SELECT 1/3').rows).toEqual([['0.333333']]);
    expect(s.query("SHOW VARIABLES LIKE 'sort_buffer%'").rows).toEqual([['sort_buffer_size', '262144']]);
  });
  it('counts index reads as MySQL: ref, eq_ref and range steps including the one that finds the end', () => {
    const { s } = fresh();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, KEY ik (k))');
    s.query('INSERT INTO t VALUES (1, 5), (2, 5), (3, 6), (4, 7), (5, 9), (6, NULL)');
    const reads = (sql: string): [number, number, unknown[][]] => {
      s.query('FLUSH STATUS');
      const rows = s.query(sql).rows;
      const st = s.status();
      return [st.Handler_read_key!, st.Handler_read_next!, rows];
    };
    expect(reads('SELECT id FROM t WHERE id = 3')).toEqual([1, 0, [[3]]]);
    expect(reads('SELECT id FROM t WHERE k = 5')).toEqual([1, 2, [[1], [2]]]);
    expect(reads('SELECT id FROM t WHERE k = 8')).toEqual([1, 0, []]);
    // range 6..7 on ik: two rows, then the step onto k = 9 ends it
    expect(reads('SELECT id FROM t WHERE k BETWEEN 6 AND 7')).toEqual([1, 2, [[3], [4]]]);
    expect(s.status().Select_range).toBe(1);
    // open above: k > 6 reads 7, 9 and the end of the index; NULLs are never in a range
    expect(reads('SELECT id FROM t FORCE INDEX (ik) WHERE k > 6')).toEqual([1, 2, [[4], [5]]]);
    expect(reads('SELECT id FROM t FORCE INDEX (ik) WHERE k < 6')).toEqual([1, 2, [[1], [2]]]);
    // 2 of 6 rows: the range (1 + 2 seeks + 2 × 0.2) beats the scan (1 page + 6 × 0.2 + 2.1)
    expect(reads('SELECT id FROM t WHERE k < 6')).toEqual([1, 2, [[1], [2]]]);
    expect(reads('SELECT id FROM t IGNORE INDEX (ik) WHERE k < 6')[2]).toEqual([[1], [2]]);
  });
  it('counts handler calls per session; FLUSH STATUS resets', () => {
    const { s } = fresh();
    // a column outside the key: a table scan (a table of key columns only is read as an index scan)
    s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
    s.query('INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)');
    s.query('FLUSH STATUS');
    s.query('SELECT * FROM t');
    const st = s.status();
    // MariaDB 10.11 on the same table and statement: Handler_read_first 0, Handler_read_rnd_next 4
    expect(st.Handler_read_first).toBe(0);
    expect(st.Handler_read_rnd_next).toBe(4);
    expect(st.Innodb_rows_read).toBe(3);
    expect(st.Select_scan).toBe(1);
    s.query('SELECT * FROM t WHERE id = 2');
    expect(s.status().Handler_read_key).toBe(1);
  });
});

describe('ALTER TABLE', () => {
  it('adds and drops indexes in place and columns by copying; a failure leaves the old table', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(4))');
    s.query("INSERT INTO t VALUES (1, 10, 'x'), (2, 10, 'y'), (3, 30, NULL)");
    s.query('ALTER TABLE t ADD INDEX ia (a), ADD KEY ib (b)');
    expect(db.table('t').secondary.map((x) => x.name)).toEqual(['ia', 'ib']);
    expect(() => s.query('ALTER TABLE t ADD UNIQUE KEY ua (a)')).toThrow(/Duplicate entry/);
    expect(db.table('t').secondary.map((x) => x.name)).toEqual(['ia', 'ib']);
    s.query('ALTER TABLE t DROP INDEX ib');
    s.query('ALTER TABLE t ADD COLUMN c DECIMAL(5,2) NOT NULL DEFAULT 1.5 AFTER a, DROP COLUMN b');
    expect(s.query('SELECT * FROM t ORDER BY id').rows).toEqual([
      [1, 10, '1.50'],
      [2, 10, '1.50'],
      [3, 30, '1.50'],
    ]);
    db.table('t').checkIndexes();
    expect(s.query('SELECT id FROM t WHERE a = 10').rows).toEqual([[1], [2]]);
    s.query('SET GLOBAL expand_fast_index_creation = ON');
    const s2 = new Session(db);
    s2.query('ALTER TABLE t ADD COLUMN d INT');
    db.table('t').checkIndexes();
    expect(db.table('t').secondary.map((x) => x.name)).toEqual(['ia']);
    expect(() => s2.query('ALTER TABLE t DROP COLUMN nope')).toThrow(
      /Can't DROP COLUMN `nope`; check that it exists/,
    );
    expect(s2.query('SELECT count(*) FROM t').rows).toEqual([[3]]);
  });
});
