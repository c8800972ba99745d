// COM_CHANGE_USER on one connection, as mysql2's connection.changeUser() sends it: the steps run
// against MariaDB 10.11 by record-change-user.mjs (its answers are in change-user.mariadb.json)
// and against the engine's server by test/server/change-user.test.ts, which compares the two.
// Before the steps, as root: CREATE DATABASE cu_db, CREATE TABLE cu_db.k (a INT), CREATE USER
// 'cu_user'@'localhost' IDENTIFIED BY 'pw1' with ALL on cu_db.*, 'cu_two'@'localhost' IDENTIFIED
// BY 'pw2' with ALL on *.*; the connection starts as root in cu_db.

export const SETUP = [
  'DROP DATABASE IF EXISTS cu_db',
  'CREATE DATABASE cu_db',
  'CREATE TABLE cu_db.k (a INT)',
  "DROP USER IF EXISTS 'cu_user'@'localhost'",
  "CREATE USER 'cu_user'@'localhost' IDENTIFIED BY 'pw1'",
  "GRANT ALL ON cu_db.* TO 'cu_user'@'localhost'",
  "DROP USER IF EXISTS 'cu_two'@'localhost'",
  "CREATE USER 'cu_two'@'localhost' IDENTIFIED BY 'pw2'",
  "GRANT ALL ON *.* TO 'cu_two'@'localhost'",
];

export const TEARDOWN = [
  'DROP DATABASE IF EXISTS cu_db',
  "DROP USER IF EXISTS 'cu_user'@'localhost'",
  "DROP USER IF EXISTS 'cu_two'@'localhost'",
];

/**
 * The steps: a statement (its rows or its error number) or a change of user (ok or its error
 * number and SQLSTATE). Each answer is what the client sees.
 */
export const STEPS = [
  "SET @x = 5, SESSION sql_mode = 'ANSI_QUOTES', autocommit = 0",
  'BEGIN',
  'INSERT INTO cu_db.k VALUES (1)',
  "PREPARE s FROM 'SELECT 1'",
  { changeUser: { user: 'cu_user', password: 'pw1', database: 'cu_db' } },
  'SELECT CURRENT_USER(), DATABASE(), @x, @@sql_mode = @@GLOBAL.sql_mode, @@autocommit',
  'SELECT COUNT(*) FROM cu_db.k',
  'EXECUTE s',
  'SELECT COUNT(*) FROM mysql.user',
  'SET @y = 1',
  'BEGIN',
  'INSERT INTO cu_db.k VALUES (2)',
  { changeUser: { user: 'cu_user', password: 'wrong', database: 'cu_db' } },
  'SELECT CURRENT_USER(), DATABASE(), @y',
  'SELECT COUNT(*) FROM cu_db.k',
  { changeUser: { user: 'nobody_here', password: 'pw1', database: 'cu_db' } },
  'SELECT CURRENT_USER(), DATABASE()',
  { changeUser: { user: 'cu_two', password: 'pw2', database: 'cu_db' } },
  'SELECT CURRENT_USER(), DATABASE()',
  'INSERT INTO cu_db.k VALUES (3)',
  { changeUser: { user: 'cu_two', password: 'pw2', database: 'cu_none' } },
  'SELECT CURRENT_USER(), DATABASE()',
  // a fourth change after three refusals is refused as an unknown command, whatever it asks
  { changeUser: { user: 'cu_user', password: 'pw1', database: 'cu_db' } },
  'SELECT CURRENT_USER(), DATABASE()',
  'SELECT COUNT(*) FROM cu_db.k',
];

/** Runs the steps on a mysql2 (promise) connection: one answer per step. */
export async function run(conn) {
  const out = [];
  for (const step of STEPS) {
    if (typeof step === 'string') {
      try {
        const [res] = await conn.query({ sql: step, rowsAsArray: true });
        out.push({ sql: step, ...(Array.isArray(res) ? { rows: res.map((r) => r.map(text)) } : {}) });
      } catch (e) {
        out.push({ sql: step, error: { errno: e.errno, sqlState: e.sqlState } });
      }
      continue;
    }
    const { user, password, database } = step.changeUser;
    const name = `changeUser ${user} / ${password} → ${database}`;
    try {
      await conn.changeUser(step.changeUser);
      out.push({ changeUser: name, ok: true });
    } catch (e) {
      out.push({ changeUser: name, error: { errno: e.errno, sqlState: e.sqlState } });
    }
  }
  return out;
}

function text(v) {
  return v === null ? null : String(v);
}
