// CREATE TABLE … LIKE copies a table's definition (columns with their types, NULL, defaults,
// AUTO_INCREMENT and ON UPDATE, its keys, its collation and STATS_* options) and none of its rows,
// as MariaDB 10.11 does (CREATE TABLE … SELECT: create-select.test.ts; temporary tables:
// temporary-tables.test.ts).
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import { temporarySession } from '../helpers/temporary.js';

function session(): Session {
  return temporarySession();
}

const showCreate = (s: Session, t: string): string => String(s.query(`SHOW CREATE TABLE ${t}`).rows[0]![1]);

describe('CREATE TABLE … LIKE', () => {
  it('copies the definition, not the rows; the copy counts AUTO_INCREMENT from 1', () => {
    const s = session();
    // the statement MariaDB 10.11 ran: its SHOW CREATE TABLE of the copy is the source's with the
    // copy's name (no AUTO_INCREMENT= clause), and the copy has no rows
    s.query(
      "CREATE TABLE lk_src (id INT NOT NULL AUTO_INCREMENT, code VARCHAR(10) NOT NULL DEFAULT 'x', " +
        'amount DECIMAL(10,2) DEFAULT 1.50, note TEXT, ' +
        'ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, ' +
        'PRIMARY KEY (id), UNIQUE KEY u_code (code), KEY k_amount (amount, code)) STATS_PERSISTENT=0',
    );
    s.query("INSERT INTO lk_src (code) VALUES ('a'), ('b')");
    s.query('CREATE TABLE lk_copy LIKE lk_src');
    const source = showCreate(s, 'lk_src')
      .replace('`lk_src`', '`lk_copy`')
      .replace(/ AUTO_INCREMENT=\d+/, '');
    expect(showCreate(s, 'lk_copy')).toBe(source);
    // the STATS_* options (which SHOW CREATE TABLE does not print yet) came along
    const db = s.db;
    expect(db.statisticsDictionary.options(db.table('lk_copy').id)).toEqual(
      db.statisticsDictionary.options(db.table('lk_src').id),
    );
    expect(db.statisticsDictionary.options(db.table('lk_copy').id).statsPersistent).toBe(false);
    expect(s.query('SELECT COUNT(*) FROM lk_copy').rows[0]![0]).toBe(0);
    s.query("INSERT INTO lk_copy (code) VALUES ('z')");
    expect(s.query('SELECT id, code, amount FROM lk_copy').rows).toEqual([[1, 'z', '1.50']]);
    // the copy's keys work: its unique key refuses a duplicate
    expect(() => s.query("INSERT INTO lk_copy (code) VALUES ('z')")).toThrow(
      expect.objectContaining({ errno: 1062 }),
    );
    s.query('DROP TABLE lk_src');
    expect(s.query('SELECT COUNT(*) FROM lk_copy').rows[0]![0]).toBe(1);
  });

  it('a table without a primary key and with a column collation', () => {
    const s = session();
    s.query('CREATE TABLE lk_h (a INT, b VARCHAR(3) COLLATE utf8mb4_bin)');
    s.query('CREATE TABLE lk_hc LIKE lk_h');
    expect(showCreate(s, 'lk_hc')).toBe(showCreate(s, 'lk_h').replace('`lk_h`', '`lk_hc`'));
    s.query("INSERT INTO lk_hc VALUES (1, 'A'), (2, 'a')");
    expect(s.query("SELECT a FROM lk_hc WHERE b = 'a'").rows).toEqual([[2]]);
  });

  it('errors as MariaDB: an existing target (1050, or a note with IF NOT EXISTS), a missing source (1146)', () => {
    const s = session();
    s.query('CREATE TABLE a1 (x INT)');
    s.query('CREATE TABLE b1 (y INT)');
    expect(() => s.query('CREATE TABLE b1 LIKE a1')).toThrow(expect.objectContaining({ errno: 1050 }));
    s.query('CREATE TABLE IF NOT EXISTS b1 LIKE a1');
    expect(showCreate(s, 'b1')).toContain('`y`');
    expect(() => s.query('CREATE TABLE c1 LIKE nope')).toThrow(expect.objectContaining({ errno: 1146 }));
    expect(() => s.query('SELECT * FROM c1')).toThrow(expect.objectContaining({ errno: 1146 }));
  });
});

describe('DROP TEMPORARY TABLE', () => {
  it('leaves a table of that name when the session has no temporary one', () => {
    const s = session();
    s.query('CREATE TABLE t2 (a INT)');
    s.query('INSERT INTO t2 VALUES (1)');
    expect(() => s.query('DROP TEMPORARY TABLE t2')).toThrow(expect.objectContaining({ errno: 1051 }));
    s.query('DROP TEMPORARY TABLE IF EXISTS t2');
    expect(s.query('SELECT a FROM t2').rows).toEqual([[1]]);
  });
});
