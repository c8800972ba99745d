// What a consistent read costs one session, on the built package:
//   node bench/mvcc-reads.js                 10,000 rows, 10,000 range reads of 100 rows per run, 3 runs
//   MVCC_ROWS=100000 MVCC_OPS=20000 MVCC_RUNS=5 node bench/mvcc-reads.js
// A reader runs `SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? + 99` (sysbench's simple range)
// inside transactions of 100 statements, in turns so each way sees the same machine load:
//   READ UNCOMMITTED             the latest rows, no view, no locks: the table's own read
//   REPEATABLE READ, no versions a consistent read while no writer is active: every record's
//                                DB_TRX_ID is one the view sees, so no undo record is read
//   REPEATABLE READ, 100 versions a writer holds 100 uncommitted updates spread over the table:
//                                about one row of each range is rebuilt from its undo record
//   REPEATABLE READ, all versions the writer holds an uncommitted update of every row: every
//                                row read is rebuilt from its undo record
// (the writer's UPDATE and ROLLBACK are outside the timed part)
//   SERIALIZABLE                 a locking read: every row S-locked until COMMIT
// Prints reads per second (median of the runs) and each way's ratio to READ UNCOMMITTED.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, Session } from '../dist/index.js';

const rows = Number(process.env.MVCC_ROWS ?? 10_000);
const ops = Number(process.env.MVCC_OPS ?? 10_000);
const runs = Number(process.env.MVCC_RUNS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'mvcc-bench-'));

try {
  const db = Database.create(join(dir, 'mvcc.db'));
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
  const writer = new Session(db);
  const starts = Array.from({ length: ops }, (_, i) => ((i * 2654435761) % (rows - 100)) + 1);
  const range = s.prepare('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?');
  const begin = s.prepare('BEGIN');
  const commit = s.prepare('COMMIT');
  const reads = () => {
    for (let i = 0; i < ops; i += 100) {
      begin.run();
      for (let j = i; j < i + 100 && j < ops; j++) range.run([starts[j], starts[j] + 99]);
      commit.run();
    }
  };
  const level = (l) => s.query(`SET SESSION transaction_isolation = '${l}'`);
  /** The writer holds uncommitted updates of every `step`-th row (0: none). */
  const writes = (step) => {
    if (step === 0) return () => undefined;
    writer.query('BEGIN');
    writer.query(`UPDATE sbtest1 SET k = k + 1 WHERE id % ${step} = 0`);
    return () => writer.query('ROLLBACK');
  };
  const ways = {
    'READ UNCOMMITTED': ['READ-UNCOMMITTED', 0],
    'REPEATABLE READ, no versions': ['REPEATABLE-READ', 0],
    'REPEATABLE READ, 100 versions': ['REPEATABLE-READ', Math.floor(rows / 100)],
    'REPEATABLE READ, all versions': ['REPEATABLE-READ', 1],
    SERIALIZABLE: ['SERIALIZABLE', 0],
  };
  const rates = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  const timed = ([l, step]) => {
    level(l);
    const undo = writes(step);
    try {
      const t0 = performance.now();
      reads();
      return ops / ((performance.now() - t0) / 1000);
    } finally {
      undo();
    }
  };
  for (const w of Object.values(ways)) timed(w); // warm up
  for (let r = 0; r < runs; r++) for (const [name, w] of Object.entries(ways)) rates[name].push(timed(w));
  db.table('sbtest1').checkIndexes();
  db.close();
  const m = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
  const base = m['READ UNCOMMITTED'];
  console.log(
    `${rows} rows, ${ops} range reads of 100 rows per run, median of ${runs}; load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log('| way | range reads per second | vs READ UNCOMMITTED |');
  console.log('|---|---:|---:|');
  for (const [k, v] of Object.entries(m))
    console.log(`| ${k} | ${Math.round(v).toLocaleString('en')} | ${(v / base).toFixed(3)}× |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
