// Column defaults as DESCRIBE, SHOW CREATE TABLE and information_schema.COLUMNS show them, against
// MariaDB 10.11.19's answers, recorded with the mariadb client on a private mariadbd:
//   CREATE TABLE t (a DATETIME DEFAULT CURRENT_TIMESTAMP, b DATETIME(3) DEFAULT NOW(3),
//     c DATE DEFAULT (CURDATE()), d INT DEFAULT -5, e INT DEFAULT (1+2), f VARCHAR(10) DEFAULT 'x''y',
//     g TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, h DECIMAL(5,2) DEFAULT 1.50);
//   DESCRIBE t; SHOW CREATE TABLE t;
//   SELECT COLUMN_NAME, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE();
import { describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const COLUMNS = [
  ['a', 'DATETIME DEFAULT CURRENT_TIMESTAMP'],
  ['b', 'DATETIME(3) DEFAULT NOW(3)'],
  ['c', 'DATE DEFAULT (CURDATE())'],
  ['d', 'INT DEFAULT -5'],
  ['e', 'INT DEFAULT (1+2)'],
  ['f', "VARCHAR(10) DEFAULT 'x''y'"],
  ['g', 'TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP'],
  ['h', 'DECIMAL(5,2) DEFAULT 1.50'],
] as const;

/** Per column: DESCRIBE's Default, SHOW CREATE TABLE's line, COLUMN_DEFAULT (MariaDB 10.11.19). */
const MARIADB: Record<string, readonly [string, string, string]> = {
  a: ['current_timestamp()', '`a` datetime DEFAULT current_timestamp()', 'current_timestamp()'],
  b: ['current_timestamp(3)', '`b` datetime(3) DEFAULT current_timestamp(3)', 'current_timestamp(3)'],
  c: ['curdate()', '`c` date DEFAULT curdate()', 'curdate()'],
  d: ['-5', '`d` int(11) DEFAULT -5', '-5'],
  e: ['(1 + 2)', '`e` int(11) DEFAULT (1 + 2)', '(1 + 2)'],
  f: ["x'y", "`f` varchar(10) DEFAULT 'x''y'", "'x''y'"],
  g: [
    'current_timestamp()',
    '`g` timestamp NULL DEFAULT current_timestamp() ON UPDATE current_timestamp()',
    'current_timestamp()',
  ],
  h: ['1.50', '`h` decimal(5,2) DEFAULT 1.50', '1.50'],
};

describe('column defaults as shown', () => {
  it('literals bare or quoted, expressions as MariaDB prints them, in DESCRIBE, SHOW CREATE TABLE and COLUMNS', () => {
    const db = Database.temporary();
    const s = new Session(db);
    s.query(`CREATE TABLE t (${COLUMNS.map(([n, d]) => `${n} ${d}`).join(', ')})`);
    const described = s.query('DESCRIBE t').rows.map((r) => [r[0], r[4]]);
    const created = String(s.query('SHOW CREATE TABLE t').rows[0]![1])
      .split('\n')
      .slice(1, 1 + COLUMNS.length)
      .map((l) => l.trim().replace(/,$/, ''));
    const listed = s.query(
      'SELECT COLUMN_NAME, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY ORDINAL_POSITION',
    ).rows;
    expect(described).toEqual(COLUMNS.map(([n]) => [n, MARIADB[n]![0]]));
    expect(created).toEqual(COLUMNS.map(([n]) => MARIADB[n]![1]));
    expect(listed).toEqual(COLUMNS.map(([n]) => [n, MARIADB[n]![2]]));
    // DESCRIBE's Extra of g (MariaDB: `on update current_timestamp()`)
    expect(s.query('DESCRIBE t').rows.find((r) => r[0] === 'g')![5]).toBe('on update current_timestamp()');
    // the defaults still work
    s.query('INSERT INTO t () VALUES ()');
    const [row] = s.query('SELECT d, e, f, h, a IS NOT NULL, c = CURDATE() FROM t').rows;
    expect(row).toEqual([-5, 3, "x'y", '1.50', 1, 1]);
    // as MariaDB: an empty row with no column list is a row of defaults; with a column list, 1136
    s.query('INSERT INTO t VALUES (), ()');
    expect(s.query('SELECT COUNT(*), MIN(d) FROM t').rows).toEqual([[3, -5]]);
    expect(() => s.query('INSERT INTO t (d) VALUES ()')).toThrow(
      /Column count doesn't match value count at row 1/,
    );
    db.close();
  });
});
