import Sqlite from 'better-sqlite3';
import { type EngineModule, importEngine, loadAverage } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

/** One `INSERT … VALUES (…), (…)` text of `rows` sbtest-shaped rows from id `from` on. */
function insertText(from: number, rows: number): string {
  const values = Array.from(
    { length: rows },
    (_, i) => `(${from + i}, ${(from + i) % 1000}, 'c${from + i}', 'p${i % 97}')`,
  );
  return `INSERT INTO sbtest1 VALUES ${values.join(', ')}`;
}

const CREATE =
  "CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))";

/**
 * `statements` INSERT texts of `rows` rows through a new enginekit session and a new SQLite, each
 * inside one transaction (the statement's own work, not a log flush per commit), alternately so
 * both see the same machine load; ms of all but the first two texts (parsed in full: the rest of
 * one shape come from the digest of the first), and the rows those held.
 */
function measureSize(
  engine: EngineModule,
  rows: number,
  statements: number,
): { ek: number; sq: number; n: number } {
  const db = engine.Database.temporary({ innodb_buffer_pool_size: 512 << 20 });
  const s = new engine.Session(db);
  s.query(CREATE);
  const lite = new Sqlite(':memory:');
  lite.exec(
    CREATE.replace(/ NOT NULL DEFAULT ''/g, " DEFAULT ''").replace(
      ', PRIMARY KEY (id))',
      ', PRIMARY KEY (id)) WITHOUT ROWID',
    ),
  );
  // the same texts for both, each with its own rows (a dump's shape: one text per chunk of a table)
  const texts = Array.from({ length: statements }, (_, k) => insertText(1 + k * rows, rows));
  let ek = 0;
  let sq = 0;
  s.query('BEGIN');
  lite.exec('BEGIN');
  for (const [k, text] of texts.entries()) {
    const t0 = performance.now();
    s.query(text);
    const t1 = performance.now();
    lite.exec(text);
    const t2 = performance.now();
    if (k >= 2) {
      ek += t1 - t0;
      sq += t2 - t1;
    }
  }
  s.query('COMMIT');
  lite.exec('COMMIT');
  lite.close();
  s.close();
  db.close();
  return { ek, sq, n: (statements - 2) * rows };
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sizes = a.list('rows').map(Number);
  const statements = Math.max(3, a.number('statements'));
  const engine = await importEngine();
  // a warm-up pass over every size first: the first size measured would pay the JIT's warm-up
  for (const rows of sizes) measureSize(engine, rows, statements);
  io.out('| rows per INSERT | enginekit µs/row | SQLite µs/row | × SQLite |');
  io.out('|---:|---:|---:|---:|');
  for (const rows of sizes) {
    const { ek, sq, n } = measureSize(engine, rows, statements);
    io.out(
      `| ${rows} | ${((ek / n) * 1000).toFixed(1)} | ${((sq / n) * 1000).toFixed(1)} | ${(ek / sq).toFixed(2)} |`,
    );
  }
  io.out('');
  io.out(`load average: ${loadAverage()}`);
}

export const textInsert: MicroBench = {
  name: 'text-insert',
  title: 'multi-row INSERT texts (a dump loading), enginekit beside SQLite',
  about: `--statements INSERT texts of each size in --rows (sysbench-shaped rows with new values in every
text, as a dump file has), run through one enginekit session and through SQLite (better-sqlite3,
in memory, WITHOUT ROWID) alternately, each inside one transaction; the µs per row of all but the first two texts of each size
(those two are parsed in full, the rest of one shape come from the digest of the first; a text
longer than 32 KiB, here past about 1,300 rows, is parsed in full every time).`,
  options: {
    rows: { kind: 'list', default: '100,500,1000,2000', about: 'rows per INSERT text, one table per size' },
    statements: { kind: 'number', default: '12', about: 'INSERT texts per size (at least 3)' },
  },
  run,
};
