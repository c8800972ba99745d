// SQL's PREPARE counts in Prepared_stmt_count as MariaDB counts it (10.11.19, checked with the
// mariadb client): one count for every session of the server, raised by each statement a name
// holds, lowered by DEALLOCATE PREPARE and by the session's end, capped by the GLOBAL
// max_prepared_stmt_count with error 1461 (42000). PREPARE of a name that holds a statement
// replaces it (the count stays), and a PREPARE that fails drops the old one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { SqlError } from '../../src/sql/errors.js';

let db: Database;
let a: Session;
let b: Session;

beforeEach(() => {
  db = Database.temporary();
  a = new Session(db);
  b = new Session(db);
});

afterEach(() => {
  a.close();
  b.close();
  db.close();
});

const open = (s: Session): number =>
  Number(s.query("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'").rows[0]![1]);

function failure(f: () => unknown): SqlError {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('PREPARE and Prepared_stmt_count', () => {
  it('one count and one cap for every session', () => {
    a.query('SET GLOBAL max_prepared_stmt_count = 2');
    a.query("PREPARE p FROM 'SELECT 1'");
    a.query("PREPARE p FROM 'SELECT 2'");
    expect(open(b)).toBe(1);
    b.query("PREPARE q FROM 'SELECT 3'");
    expect(open(a)).toBe(2);
    const e = failure(() => b.query("PREPARE r FROM 'SELECT 4'"));
    expect([e.errno, e.sqlState, e.message]).toEqual([
      1461,
      '42000',
      "Can't create more than max_prepared_stmt_count statements (current value: 2)",
    ]);
    expect(open(a)).toBe(2);
    // a failing PREPARE drops the statement its name held
    expect(failure(() => a.query("PREPARE p FROM 'SELEC 5'")).errno).toBe(1064);
    expect(open(b)).toBe(1);
    b.query('DEALLOCATE PREPARE q');
    expect(open(a)).toBe(0);
    b.query("PREPARE q FROM 'SELECT 6'");
    b.query("PREPARE r FROM 'SELECT 7'");
    expect(open(a)).toBe(2);
    // a session that ends gives its statements back
    b.close();
    expect(open(a)).toBe(0);
  });
});
