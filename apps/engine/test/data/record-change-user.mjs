// Records what MariaDB answers to the COM_CHANGE_USER steps of change-user.cases.mjs, into
// change-user.mariadb.json beside this file (CI never needs a live server):
//
//   node apps/engine/test/data/record-change-user.mjs --socket /tmp/m/sock
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { run, SETUP, TEARDOWN } from './change-user.cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const i = process.argv.indexOf('--socket');
if (i < 0 || process.argv[i + 1] === undefined) {
  console.error('usage: node record-change-user.mjs --socket PATH');
  process.exit(2);
}
const socketPath = process.argv[i + 1];
const admin = await mysql.createConnection({ socketPath, user: 'root' });
for (const sql of SETUP) await admin.query(sql);
const conn = await mysql.createConnection({ socketPath, user: 'root', database: 'cu_db' });
conn.on('error', () => undefined);
const steps = await run(conn);
conn.destroy();
const [[[version]]] = await admin.query({ sql: 'SELECT VERSION()', rowsAsArray: true });
for (const sql of TEARDOWN) await admin.query(sql);
await admin.end();
const file = join(here, 'change-user.mariadb.json');
const lines = [
  '{',
  ` "server": ${JSON.stringify(version)},`,
  ' "recordedWith": "node apps/engine/test/data/record-change-user.mjs --socket PATH",',
  ' "steps": [',
  ...steps.map((s, j) => `  ${JSON.stringify(s)}${j + 1 < steps.length ? ',' : ''}`),
  ' ]',
  '}',
];
writeFileSync(file, `${lines.join('\n')}\n`);
console.log(`${file}: ${steps.length} steps`);
