// A workload for the SIGKILL test: autocommit statements through a Session on the built engine,
// printing "ack <id>" after each INSERT returns (so after its commit is durable with
// innodb_flush_log_at_trx_commit=1). Runs until killed.
import { existsSync, writeSync } from 'node:fs';
import { Database, Session } from '../../dist/index.js';

const [path, flushArg, firstArg] = process.argv.slice(2);
const opts = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 32 * 4096,
  innodb_log_file_size: 131072,
  innodb_flush_log_at_trx_commit: Number(flushArg),
};
const db = existsSync(path) ? Database.open(path, opts) : Database.create(path, opts);
const s = new Session(db);
if (!db.hasTable('k')) s.query('CREATE TABLE k (id INT PRIMARY KEY, v INT, pad VARCHAR(200), KEY i_v (v))');
writeSync(
  1,
  `ready ${db.recovery === null ? 'clean' : `recovered ${db.recovery.mtrs} mtrs in ${db.recovery.ms.toFixed(1)} ms`}\n`,
);
let id = Number(firstArg);
for (;;) {
  s.query(`INSERT INTO k VALUES (${id}, ${id % 97}, '${'p'.repeat(id % 150)}')`);
  writeSync(1, `ack ${id}\n`);
  if (id % 7 === 0) s.query(`UPDATE k SET v = v + 1000 WHERE id = ${id - 3}`);
  id++;
}
