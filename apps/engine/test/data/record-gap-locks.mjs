// Records which statements of the lock scenarios in gap-locks.cases.mjs wait on a real MariaDB,
// as gap-locks-mariadb.json (test/txn/gap-locks.test.ts replays them on the engine). Each
// scenario starts in a fresh database `test`.
//
//   mariadb-install-db --datadir=/tmp/m/data --auth-root-authentication-method=normal
//   mariadbd --datadir=/tmp/m/data --socket=/tmp/m/sock --skip-networking --user=$(whoami) &
//   node apps/engine/test/data/record-gap-locks.mjs --socket /tmp/m/sock
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { scenarios } from './gap-locks.cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const i = args.indexOf('--socket');
if (i < 0 || args[i + 1] === undefined) {
  console.error('usage: node record-gap-locks.mjs --socket PATH');
  process.exit(2);
}
const socketPath = args[i + 1];
const connect = () => mysql.createConnection({ socketPath, user: 'root' });

const admin = await connect();
const [[{ v: server }]] = await admin.query('SELECT VERSION() AS v');
const out = [];
for (const sc of scenarios()) {
  await admin.query('DROP DATABASE IF EXISTS test');
  await admin.query('CREATE DATABASE test');
  const a = await connect();
  const b = await connect();
  for (const c of [a, b]) {
    await c.query('USE test');
    await c.query(`SET SESSION tx_isolation = '${sc.isolation}'`);
    await c.query('SET SESSION innodb_lock_wait_timeout = 1');
  }
  for (const q of sc.setup) await a.query(q);
  await a.query('BEGIN');
  for (const q of sc.holder) await a.query(q);
  const probes = [];
  for (const sql of sc.probes) {
    await b.query('BEGIN');
    let waits = false;
    try {
      await b.query(sql);
    } catch (e) {
      if (e.errno === 1205) waits = true;
      else throw new Error(`${sc.name}: ${sql}: ${e.message}`);
    }
    await b.query('ROLLBACK');
    probes.push({ sql, waits });
  }
  await a.query('ROLLBACK');
  await a.end();
  await b.end();
  out.push({ ...sc, probes });
}
await admin.query('DROP DATABASE IF EXISTS test');
await admin.end();
const doc = {
  server,
  recorded: 'node apps/engine/test/data/record-gap-locks.mjs --socket PATH',
  scenarios: out,
};
writeFileSync(join(here, 'gap-locks-mariadb.json'), `${JSON.stringify(doc, null, 1)}\n`);
console.log(`${out.length} scenarios recorded from ${server}`);
