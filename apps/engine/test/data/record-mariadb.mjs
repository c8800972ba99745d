// Records what a real MariaDB answers to a suite of statement scripts, as data the engine's tests
// compare against (CI never needs a live server). A suite is `<name>.cases.mjs` beside this file,
// exporting `scripts()`: [{ name, sqlMode?, statements: [sql, …] }]. Each script runs on one
// connection in a fresh database named `test` (dropped and created again first, so messages name
// `test` as the engine's do), under its sql_mode (default: the server's), and every statement's
// (a string, or { sql, check } whose `check` is kept beside the answer for the test to read)
// columns, rows (as the text protocol sends them), error and warnings are written to
// `<name>.mariadb.json` (a suite exporting `recordColumns = false` keeps only values and errors;
// one exporting `recordOrigins = true` adds each column's schema, table, original table and
// original column name; one exporting `charset` connects in that collation, e.g.
// 'UTF8MB4_GENERAL_CI', instead of mysql2's default utf8mb4_unicode_ci).
//
//   mariadb-install-db --datadir=/tmp/m/data --auth-root-authentication-method=normal
//   mariadbd --datadir=/tmp/m/data --socket=/tmp/m/sock --skip-networking --user=$(whoami) &
//   node apps/engine/test/data/record-mariadb.mjs precedence --socket /tmp/m/sock
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2';

const here = dirname(fileURLToPath(import.meta.url));

function usage() {
  console.error('usage: node record-mariadb.mjs SUITE --socket PATH [--user root] [--password P]');
  process.exit(2);
}

const args = process.argv.slice(2);
const suite = args[0];
if (suite === undefined || suite.startsWith('-')) usage();
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i < 0 ? def : args[i + 1];
};
const socketPath = opt('--socket');
if (socketPath === undefined) usage();

/** Every field as the bytes the text protocol sent (turned into text by {@link textOf}). */
function typeCast(field) {
  return field.buffer();
}

const STRING_TYPES = [249, 250, 251, 252, 253, 254, 15];

/** A field's text as the protocol sent it; a binary string (charset 63) as `0x…` hex. */
function textOf(b, f) {
  if (b === null) return null;
  if (f.characterSet === 63 && STRING_TYPES.includes(f.columnType)) return `0x${b.toString('hex')}`;
  return b.toString('utf8');
}

/**
 * A statement's warning count, from its OK packet or its result set's closing EOF packet (mysql2
 * keeps the latter to itself). SHOW WARNINGS alone would not do: a statement that reads no table
 * leaves the previous statement's warnings in place.
 */
function warningCountOf(cmd, res) {
  return Array.isArray(res) ? (cmd.eofWarnings ?? 0) : (res?.warningStatus ?? 0);
}

function query(conn, options, values) {
  return new Promise((resolve, reject) => {
    const cmd = conn.query(options, values, (err, res, fields) =>
      err ? reject(err) : resolve([res, fields, cmd]),
    );
  });
}

async function run(conn, sql, withColumns, withOrigins) {
  const out = { sql };
  let warnings = 0;
  try {
    const [res, fields, cmd] = await query(conn, { sql, rowsAsArray: true, typeCast });
    warnings = warningCountOf(cmd, res);
    if (Array.isArray(res)) {
      if (withColumns)
        out.columns = fields.map((f) => ({
          name: f.name,
          type: f.columnType,
          length: f.columnLength,
          decimals: f.decimals,
          charset: f.characterSet,
          flags: f.flags,
          ...(withOrigins
            ? { schema: f.schema, table: f.table, orgTable: f.orgTable, orgName: f.orgName }
            : {}),
        }));
      out.rows = res.map((r) => r.map((b, i) => textOf(b, fields[i])));
    } else {
      out.affectedRows = res.affectedRows;
      if (res.insertId) out.insertId = String(res.insertId);
    }
  } catch (e) {
    if (e.errno === undefined) throw e;
    out.error = { errno: e.errno, sqlState: e.sqlState, message: e.sqlMessage };
  }
  if (warnings > 0) {
    const [w] = await query(conn, { sql: 'SHOW WARNINGS', rowsAsArray: true });
    out.warnings = w.map((r) => [r[0], Number(r[1]), r[2]]);
  }
  return out;
}

const {
  scripts,
  recordColumns = true,
  recordOrigins = false,
  charset,
} = await import(join(here, `${suite}.cases.mjs`));
const conn = mysql.createConnection({
  socketPath,
  user: opt('--user', 'root'),
  password: opt('--password', ''),
  multipleStatements: false,
  ...(charset === undefined ? {} : { charset }),
  // affected rows as MySQL counts them without CLIENT_FOUND_ROWS (rows changed, not matched), as
  // the engine's API does
  flags: '-FOUND_ROWS',
});
// the EOF packet that ends a result set carries its statement's warning count
const Query = conn.query('DO 0').constructor;
const row = Query.prototype.row;
Query.prototype.row = function (packet, c) {
  if (packet.isEOF()) this.eofWarnings = packet.eofWarningCount();
  return row.call(this, packet, c);
};
const one = async (sql) => (await query(conn, { sql, rowsAsArray: true }))[0][0][0];
const version = await one('SELECT VERSION()');
const defaultMode = await one('SELECT @@GLOBAL.sql_mode');
const [baseDbs] = await query(conn, { sql: 'SHOW DATABASES', rowsAsArray: true });
const keep = new Set(baseDbs.map((r) => r[0]));
const recorded = [];
for (const script of scripts()) {
  await query(conn, 'DROP DATABASE IF EXISTS test');
  await query(conn, 'CREATE DATABASE test');
  await query(conn, 'USE test');
  await query(conn, 'SET SESSION sql_mode = ?', [script.sqlMode ?? defaultMode]);
  const statements = [];
  for (const st of script.statements) {
    const rec = await run(conn, typeof st === 'string' ? st : st.sql, recordColumns, recordOrigins);
    statements.push(typeof st === 'string' || st.check === undefined ? rec : { ...rec, check: st.check });
  }
  recorded.push({ name: script.name, ...(script.sqlMode ? { sqlMode: script.sqlMode } : {}), statements });
  const [dbs] = await query(conn, { sql: 'SHOW DATABASES', rowsAsArray: true });
  for (const [d] of dbs) if (!keep.has(d) && d !== 'test') await query(conn, `DROP DATABASE \`${d}\``);
}
await query(conn, 'DROP DATABASE IF EXISTS test');
conn.end();
const file = join(here, `${suite}.mariadb.json`);
// one statement a line, so a re-recording shows as a readable diff
const lines = [
  '{',
  ` "server": ${JSON.stringify(version)},`,
  ` "recordedWith": ${JSON.stringify(`node apps/engine/test/data/record-mariadb.mjs ${suite} --socket PATH`)},`,
  ' "scripts": [',
];
recorded.forEach((script, i) => {
  const head = { name: script.name, ...(script.sqlMode ? { sqlMode: script.sqlMode } : {}) };
  lines.push(`  ${JSON.stringify(head).slice(0, -1)}, "statements": [`);
  script.statements.forEach((st, j) => {
    lines.push(`   ${JSON.stringify(st)}${j + 1 < script.statements.length ? ',' : ''}`);
  });
  lines.push(`  ]}${i + 1 < recorded.length ? ',' : ''}`);
});
lines.push(' ]', '}');
writeFileSync(file, `${lines.join('\n')}\n`);
console.log(`${file}: ${recorded.reduce((n, s) => n + s.statements.length, 0)} statements`);
