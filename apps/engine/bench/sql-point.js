// Prepared point select `SELECT c FROM sbtest1 WHERE id = ?` on a sysbench-shaped table, enginekit's
// session vs better-sqlite3 on the same rows, interleaved rounds in one process; the median of
// each and the ratio. Imports the built package: run `pnpm exec tsup` first.
//   node bench/sql-point.js                   100 000 rows, 7 rounds of 1 s
//   SQL_BENCH_ROWS=1000000 node bench/sql-point.js
import Sqlite from 'better-sqlite3';
import { Database } from '../dist/index.js';

const rows = Number(process.env.SQL_BENCH_ROWS ?? 100_000);
const rounds = Number(process.env.SQL_BENCH_ROUNDS ?? 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pad = (i) => `${String(i).padStart(11, '0')}-${'x'.repeat(100)}`;

const db = Database.temporary({ innodb_buffer_pool_size: 512 << 20 });
const lite = new Sqlite(':memory:');
try {
  const s = db.session();
  s.query(
    'CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, PRIMARY KEY (id))',
  );
  lite.exec(
    'CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, k INT NOT NULL, c TEXT NOT NULL, pad TEXT NOT NULL)',
  );
  const ins = lite.prepare('INSERT INTO sbtest1 VALUES (?, ?, ?, ?)');
  lite.exec('BEGIN');
  for (let i = 1; i <= rows; i += 1000) {
    const vals = [];
    for (let j = i; j < i + 1000 && j <= rows; j++) {
      vals.push(`(${j}, ${j % 1000}, '${pad(j)}', '${pad(j).slice(0, 60)}')`);
      ins.run(j, j % 1000, pad(j), pad(j).slice(0, 60));
    }
    s.query(`INSERT INTO sbtest1 VALUES ${vals.join(',')}`);
  }
  lite.exec('COMMIT');
  const ours = s.prepare('SELECT c FROM sbtest1 WHERE id = ?');
  const theirs = lite.prepare('SELECT c FROM sbtest1 WHERE id = ?').raw();
  const run = (f) => {
    let n = 0;
    const t = performance.now();
    while (performance.now() - t < 1000) {
      f(1 + ((n * 7919) % rows));
      n++;
    }
    return n / ((performance.now() - t) / 1000);
  };
  const a = [];
  const b = [];
  for (let r = 0; r < rounds; r++) {
    a.push(run((id) => ours.run([id])));
    b.push(run((id) => theirs.get(id)));
  }
  const ma = median(a);
  const mb = median(b);
  console.log(`| engine | point selects/s (median of ${rounds}) | × better-sqlite3 |`);
  console.log('|---|---:|---:|');
  console.log(`| enginekit session.prepare | ${Math.round(ma)} | ${(ma / mb).toFixed(2)} |`);
  console.log(`| better-sqlite3 | ${Math.round(mb)} | 1.00 |`);
} finally {
  db.close();
  lite.close();
}
