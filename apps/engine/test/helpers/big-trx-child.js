// A workload for the kill tests of long transactions and checkpoints, on the built engine:
//   big <path>    — 1,000 committed rows, then one transaction inserting 50,000 more in
//                   statements of 500 rows ("rows <n>" after each), then COMMIT ("committed")
//   ckpt <path> <first> — autocommit INSERTs ("ack <id>" once each returned, so durable) with a
//                   checkpoint (Database.flush) after every 40; runs until killed
import { existsSync, writeSync } from 'node:fs';
import { Database, Session } from '../../dist/index.js';

const [mode, path, firstArg] = process.argv.slice(2);
const opts = { innodb_page_size: 4096, innodb_buffer_pool_size: 256 * 4096, innodb_log_file_size: 1 << 20 };
const db = existsSync(path) ? Database.open(path, opts) : Database.create(path, opts);
const s = new Session(db);
if (!db.hasTable('t')) {
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(100), KEY kk (k))');
  s.query('BEGIN');
  for (let i = 0; i < 1000; i++) s.query(`INSERT INTO t VALUES (${i}, ${i % 13}, 'c${i}')`);
  s.query('COMMIT');
}
writeSync(1, `ready ${db.recoveredRollbacks}\n`);
if (mode === 'big') {
  s.query('BEGIN');
  for (let b = 0; b < 100; b++) {
    const values = [];
    for (let j = 0; j < 500; j++) {
      const id = 100000 + b * 500 + j;
      values.push(`(${id}, ${id % 13}, '${'b'.repeat(60)}')`);
    }
    s.query(`INSERT INTO t VALUES ${values.join(', ')}`);
    writeSync(1, `rows ${(b + 1) * 500}\n`);
  }
  s.query('COMMIT');
  writeSync(1, 'committed\n');
  for (;;) s.query('SELECT COUNT(*) FROM t');
} else {
  for (let id = Number(firstArg); ; id++) {
    s.query(`INSERT INTO t VALUES (${id}, ${id % 13}, 'a${id}')`);
    writeSync(1, `ack ${id}\n`);
    if (id % 40 === 0) db.flush();
  }
}
