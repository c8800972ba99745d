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
  const { dir, remove } = runDir('txn');
  try {
    const { db, s } = patternTable(engine, join(dir, 'txn.db'), rows);
    const ids = Array.from({ length: ops }, (_, i) => ((i * 2654435761) % rows) + 1);
    const select = s.prepare('SELECT c FROM sbtest1 WHERE id = ?');
    const update = s.prepare('UPDATE sbtest1 SET k = k + 1 WHERE id = ?');
    const begin = s.prepare('BEGIN');
    const commit = s.prepare('COMMIT');
    const rollback = s.prepare('ROLLBACK');
    const id = (i: number): number => ids[i] as number;
    /** Statements in transactions of 100, ended by `end`. */
    const batched = (stmt: typeof select, end: typeof commit) => (): void => {
      for (let i = 0; i < ops; i += 100) {
        begin.run();
        for (let j = i; j < i + 100 && j < ops; j++) stmt.run([id(j)]);
        end.run();
      }
    };
    const ways: Record<string, () => void> = {
      'SELECT, autocommit': () => {
        for (let i = 0; i < ops; i++) select.run([id(i)]);
      },
      'SELECT, 100 per transaction': batched(select, commit),
      'UPDATE, autocommit': () => {
        for (let i = 0; i < ops; i++) update.run([id(i)]);
      },
      'UPDATE, 100 per transaction': batched(update, commit),
      'UPDATE, 100 per transaction, rolled back': batched(update, rollback),
    };
    const rates: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
    for (const f of Object.values(ways)) f(); // warm up
    for (let r = 0; r < runs; r++)
      for (const [name, f] of Object.entries(ways)) {
        const t0 = performance.now();
        f();
        rates[name]?.push(ops / ((performance.now() - t0) / 1000));
      }
    db.table('sbtest1').checkIndexes();
    db.close();
    const m = Object.entries(rates).map(([k, v]) => [k, median(v)] as const);
    const base = (k: string): number =>
      m.find(([n]) => n === `${k.slice(0, 6)}, autocommit`)?.[1] ?? Number.NaN;
    io.out(
      `${rows} rows, ${ops} statements per run, median of ${runs}; load average ${loadAverage(1).split(',')[0]}`,
    );
    io.out('| statement | per second | vs autocommit |');
    io.out('|---|---:|---:|');
    for (const [k, v] of m)
      io.out(`| ${k} | ${Math.round(v).toLocaleString('en')} | ${(v / base(k)).toFixed(3)}× |`);
  } finally {
    remove();
  }
}

export const txnLocks: MicroBench = {
  name: 'txn-locks',
  title: 'what row locks and the undo log cost one session: autocommit, transactions, rollback',
  about: `The same prepared statements three ways, in turns so each sees the same load:
  autocommit       each statement its own transaction (a SELECT meeting no writer takes no lock;
                   an UPDATE X-locks its row and logs its undo)
  in transactions  BEGIN, 100 statements, COMMIT: every row read stays locked until COMMIT
  rolled back      the UPDATEs of each transaction undone by ROLLBACK
Statements per second, median of --runs, and each way's ratio to autocommit.`,
  options: {
    rows: { kind: 'number', default: '10000', about: 'rows of sbtest1' },
    ops: { kind: 'number', default: '20000', about: 'statements per run' },
    runs: { kind: 'number', default: '3', about: 'timed runs' },
  },
  run,
};
