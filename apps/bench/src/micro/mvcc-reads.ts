import { join } from 'node:path';
import { median } from '../measure.js';
import { importEngine, loadAverage, runDir } from './common.js';
import { patternTable } from './pattern-table.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const rows = a.number('rows');
  const ops = a.number('ops');
  const runs = a.number('runs');
  const engine = await importEngine();
  const { dir, remove } = runDir('mvcc');
  try {
    const { db, s } = patternTable(engine, join(dir, 'mvcc.db'), rows);
    const writer = new engine.Session(db);
    const starts = Array.from({ length: ops }, (_, i) => ((i * 2654435761) % (rows - 100)) + 1);
    const range = s.prepare('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?');
    const begin = s.prepare('BEGIN');
    const commit = s.prepare('COMMIT');
    const reads = (): void => {
      for (let i = 0; i < ops; i += 100) {
        begin.run();
        for (let j = i; j < i + 100 && j < ops; j++)
          range.run([starts[j] as number, (starts[j] as number) + 99]);
        commit.run();
      }
    };
    /** The writer holds uncommitted updates of every `step`-th row (0: none); returns the undo. */
    const writes = (step: number): (() => void) => {
      if (step === 0) return () => undefined;
      writer.query('BEGIN');
      writer.query(`UPDATE sbtest1 SET k = k + 1 WHERE id % ${step} = 0`);
      return () => void writer.query('ROLLBACK');
    };
    const ways: Record<string, readonly [string, number]> = {
      'READ UNCOMMITTED': ['READ-UNCOMMITTED', 0],
      'REPEATABLE READ, no versions': ['REPEATABLE-READ', 0],
      'REPEATABLE READ, 100 versions': ['REPEATABLE-READ', Math.floor(rows / 100)],
      'REPEATABLE READ, all versions': ['REPEATABLE-READ', 1],
      SERIALIZABLE: ['SERIALIZABLE', 0],
    };
    const rates: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
    const timed = ([level, step]: readonly [string, number]): number => {
      s.query(`SET SESSION transaction_isolation = '${level}'`);
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
    for (let r = 0; r < runs; r++) for (const [name, w] of Object.entries(ways)) rates[name]?.push(timed(w));
    db.table('sbtest1').checkIndexes();
    db.close();
    const m = Object.entries(rates).map(([k, v]) => [k, median(v)] as const);
    const base = m[0]?.[1] ?? Number.NaN;
    io.out(
      `${rows} rows, ${ops} range reads of 100 rows per run, median of ${runs}; load average ${loadAverage(1).split(',')[0]}`,
    );
    io.out('| way | range reads per second | vs READ UNCOMMITTED |');
    io.out('|---|---:|---:|');
    for (const [k, v] of m)
      io.out(`| ${k} | ${Math.round(v).toLocaleString('en')} | ${(v / base).toFixed(3)}× |`);
  } finally {
    remove();
  }
}

export const mvccReads: MicroBench = {
  name: 'mvcc-reads',
  title: 'what a consistent read costs one session, by isolation level and versions to rebuild',
  about: `\`SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? + 99\` (sysbench's simple range) in
transactions of 100 statements, the ways in turns so each sees the same load:
  READ UNCOMMITTED              the latest rows, no view, no locks
  REPEATABLE READ, no versions  a consistent read with no writer active: no undo record read
  REPEATABLE READ, 100 versions a writer holds 100 uncommitted updates spread over the table
  REPEATABLE READ, all versions the writer holds an uncommitted update of every row
  SERIALIZABLE                  a locking read: every row S-locked until COMMIT
(the writer's UPDATE and ROLLBACK are outside the timed part). Reads per second, median of
--runs, and each way's ratio to READ UNCOMMITTED.`,
  options: {
    rows: { kind: 'number', default: '10000', about: 'rows of sbtest1' },
    ops: { kind: 'number', default: '10000', about: 'range reads per run' },
    runs: { kind: 'number', default: '3', about: 'timed runs' },
  },
  run,
};
