// ORDER BY and LIMIT in a multiple-table UPDATE, as MariaDB (10.3.2 and later) takes them: the
// joined rows are taken in ORDER BY order, LIMIT counts joined rows (two that reach one target
// row count twice, and change it once), and each target row is changed once, by the first joined
// row that reaches it. The statements and their ROW_COUNT() and table contents were run on
// MariaDB 10.11.19 (a private mariadbd, InnoDB). Where ORDER BY reads a column of a table the
// statement does not change, MariaDB picks the right rows but assigns values from the last row its
// sort read (`SET u1.x = u2.y + 1 … ORDER BY u2.y LIMIT 1` set 31, where u2.y of the chosen row
// is 20); the engine assigns the chosen row's values, and the test says where.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

let db: Database;
let s: Session;

beforeEach(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE u1 (id INT PRIMARY KEY, x INT)');
  s.query('CREATE TABLE u2 (id INT PRIMARY KEY, y INT)');
  s.query('INSERT INTO u1 VALUES (1,1),(2,2),(3,3)');
  s.query('INSERT INTO u2 VALUES (1,10),(2,20),(3,30)');
});

afterEach(() => {
  s.close();
  db.close();
});

const rows = (sql: string) => s.query(sql).rows;

describe('ORDER BY and LIMIT in a multiple-table UPDATE', () => {
  it('takes the joined rows in ORDER BY order and stops after LIMIT of them (MariaDB 10.11)', () => {
    expect(
      s.query('UPDATE u1 JOIN u2 ON u1.id = u2.id SET u1.x = u2.y ORDER BY u1.id DESC LIMIT 2').affectedRows,
    ).toBe(2);
    expect(rows('SELECT * FROM u1')).toEqual([
      [1, 1],
      [2, 20],
      [3, 30],
    ]);
    expect(s.query('UPDATE u1, u2 SET u1.x = 0 WHERE u1.id = u2.id LIMIT 1').affectedRows).toBe(1);
    expect(rows('SELECT * FROM u1')).toEqual([
      [1, 0],
      [2, 20],
      [3, 30],
    ]);
    // MariaDB changes the same row (id 2), to 31: see the header
    expect(
      s.query('UPDATE u1 JOIN u2 ON u1.id = u2.id SET u1.x = u2.y + 1 WHERE u2.y > 10 ORDER BY u2.y LIMIT 1')
        .affectedRows,
    ).toBe(1);
    expect(rows('SELECT * FROM u1')).toEqual([
      [1, 0],
      [2, 21],
      [3, 30],
    ]);
    expect(s.query('UPDATE u1 JOIN u2 ON u1.id = u2.id SET u1.x = -1 LIMIT 0').affectedRows).toBe(0);
    expect(rows('SELECT * FROM u1')).toEqual([
      [1, 0],
      [2, 21],
      [3, 30],
    ]);
  });

  it('counts joined rows: two that reach one row count twice and change it once, the first one', () => {
    s.query('CREATE TABLE a2 (id INT PRIMARY KEY, r INT, y INT)');
    s.query('INSERT INTO a2 VALUES (1,1,10),(2,1,11),(3,2,20),(4,3,30)');
    // MariaDB: ROW_COUNT() 1, as here (u1.1 reached twice); it sets 30 (see the header)
    expect(
      s.query('UPDATE u1 JOIN a2 ON u1.id = a2.r SET u1.x = a2.y ORDER BY a2.id LIMIT 2').affectedRows,
    ).toBe(1);
    expect(rows('SELECT * FROM u1')).toEqual([
      [1, 10],
      [2, 2],
      [3, 3],
    ]);
    expect(
      s.query('UPDATE u1 JOIN a2 ON u1.id = a2.r SET u1.x = a2.y ORDER BY a2.id DESC LIMIT 3').affectedRows,
    ).toBe(3);
    expect(rows('SELECT * FROM u1')).toEqual([
      [1, 11],
      [2, 20],
      [3, 30],
    ]);
    const e = (() => {
      try {
        s.query('UPDATE u1 JOIN a2 ON u1.id = a2.r SET u1.x = 1 ORDER BY nope LIMIT 1');
      } catch (x) {
        return x as { errno: number; message: string };
      }
      return undefined;
    })();
    expect([e?.errno, e?.message]).toEqual([1054, "Unknown column 'nope' in 'order clause'"]);
  });
});
