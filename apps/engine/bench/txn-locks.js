// What row locks and the undo log cost one session, on the built package:
//   node bench/txn-locks.js                 10,000 rows, 20,000 statements per run, 3 runs
//   TXN_ROWS=100000 TXN_OPS=50000 node bench/txn-locks.js
// The same prepared statements run three ways, in turns so each sees the same machine load:
//   autocommit          each statement its own transaction (a SELECT that meets no writer takes
//                       no lock at all; an UPDATE X-locks its row and logs its undo)
//   in transactions     BEGIN, 100 statements, COMMIT: every row read stays S-locked (or X for
//                       the UPDATE) until COMMIT, as a transaction's reads under two-phase locking
//   rolled back         the UPDATEs of each transaction undone by ROLLBACK
// Prints statements per second (median of the runs) and each way's ratio to autocommit.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, Session } from '../dist/index.js';

const rows = Number(process.env.TXN_ROWS ?? 10_000);
const ops = Number(process.env.TXN_OPS ?? 20_000);
const runs = Number(process.env.TXN_RUNS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'txn-bench-'));

try {
  const db = Database.create(join(dir, 'txn.db'));
  const s = new Session(db);
  s.query('CREATE TABLE sbtest1 (id INT PRIMARY KEY, k INT, c VARCHAR(120), pad VARCHAR(60))');
  for (let i = 0; i < rows; i += 1000) {
    const vals = [];
    for (let j = i; j < Math.min(rows, i + 1000); j++)
      vals.push(
        `(${j + 1}, ${(j * 7919) % rows}, '${String(j).padStart(10, '0').repeat(11)}', '${'p'.repeat(59)}')`,
      );
    s.query(`INSERT INTO sbtest1 VALUES ${vals.join(',')}`);
  }
  const ids = Array.from({ length: ops }, (_, i) => ((i * 2654435761) % rows) + 1);
  const select = s.prepare('SELECT c FROM sbtest1 WHERE id = ?');
  const update = s.prepare('UPDATE sbtest1 SET k = k + 1 WHERE id = ?');
  const begin = s.prepare('BEGIN');
  const commit = s.prepare('COMMIT');
  const rollback = s.prepare('ROLLBACK');

  const ways = {
    'SELECT, autocommit': () => {
      for (let i = 0; i < ops; i++) select.run([ids[i]]);
    },
    'SELECT, 100 per transaction': () => {
      for (let i = 0; i < ops; i += 100) {
        begin.run();
        for (let j = i; j < i + 100 && j < ops; j++) select.run([ids[j]]);
        commit.run();
      }
    },
    'UPDATE, autocommit': () => {
      for (let i = 0; i < ops; i++) update.run([ids[i]]);
    },
    'UPDATE, 100 per transaction': () => {
      for (let i = 0; i < ops; i += 100) {
        begin.run();
        for (let j = i; j < i + 100 && j < ops; j++) update.run([ids[j]]);
        commit.run();
      }
    },
    'UPDATE, 100 per transaction, rolled back': () => {
      for (let i = 0; i < ops; i += 100) {
        begin.run();
        for (let j = i; j < i + 100 && j < ops; j++) update.run([ids[j]]);
        rollback.run();
      }
    },
  };
  const rates = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (const f of Object.values(ways)) f(); // warm up
  for (let r = 0; r < runs; r++)
    for (const [name, f] of Object.entries(ways)) {
      const t0 = performance.now();
      f();
      rates[name].push(ops / ((performance.now() - t0) / 1000));
    }
  db.table('sbtest1').checkIndexes();
  db.close();
  const m = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
  const base = { SELECT: m['SELECT, autocommit'], UPDATE: m['UPDATE, autocommit'] };
  console.log(
    `${rows} rows, ${ops} statements per run, median of ${runs}; load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log('| statement | per second | vs autocommit |');
  console.log('|---|---:|---:|');
  for (const [k, v] of Object.entries(m))
    console.log(
      `| ${k} | ${Math.round(v).toLocaleString('en')} | ${(v / base[k.slice(0, 6)]).toFixed(3)}× |`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
