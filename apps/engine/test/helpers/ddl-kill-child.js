// A DDL workload for the SIGKILL test: failing and succeeding index builds and copying ALTERs on
// one table, through a Session on the built engine, printing "step <n>" after each statement
// returns. Runs until killed.
import { existsSync, writeSync } from 'node:fs';
import { Database, Session } from '../../dist/index.js';

const [path] = process.argv.slice(2);
const opts = { innodb_page_size: 4096, innodb_buffer_pool_size: 64 * 4096, innodb_log_file_size: 1 << 20 };
const db = existsSync(path) ? Database.open(path, opts) : Database.create(path, opts);
const s = new Session(db);
if (!db.hasTable('t')) {
  s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT, w VARCHAR(40), KEY k_w (w))');
  s.query('BEGIN');
  for (let i = 0; i < 2000; i++) s.query(`INSERT INTO t VALUES (${i}, ${i % 7}, 'w${i}')`);
  s.query('COMMIT');
}
writeSync(1, 'ready\n');
const steps = [
  'CREATE UNIQUE INDEX u ON t (v)',
  'CREATE INDEX k_vw ON t (v, w)',
  'ALTER TABLE t ADD COLUMN z INT',
  'ALTER TABLE t ADD UNIQUE u2 (id, v), DROP INDEX k_vw',
  'ALTER TABLE t DROP COLUMN z',
  'ALTER TABLE t DROP INDEX u2',
];
for (let n = 0; ; n++) {
  const sql = steps[n % steps.length];
  const has = (ix) => db.table('t').secondary.some((x) => x.name === ix);
  const hasZ = db.table('t').columns.some((c) => c.name === 'z');
  // keep the sequence valid whatever state a previous crash left
  if (sql.includes('ADD COLUMN') && hasZ) continue;
  if (sql.includes('DROP COLUMN') && !hasZ) continue;
  if (sql.includes('CREATE INDEX k_vw') && has('k_vw')) continue;
  if (sql.includes('u2') && sql.includes('ADD') && (has('u2') || !has('k_vw'))) continue;
  if (sql.includes('DROP INDEX u2') && !has('u2')) continue;
  try {
    s.query(sql);
  } catch (e) {
    if (e.errno !== 1062) throw e;
  }
  writeSync(1, `step ${n}\n`);
}
