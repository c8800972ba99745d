import { join } from 'node:path';
import { median } from '../measure.js';
import { type EngineDatabase, loadAverage, tpchForTwoBuilds } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';
import { Q3, Q10 } from './tpch-queries.js';

/** [name, enginekit (MySQL) text, SQLite text]: group, order and limit on one line. */
const QUERIES: readonly (readonly [string, string, string])[] = [
  ['Q3', Q3('BUILDING', "date '1995-03-15'", '', ' '), Q3('BUILDING', "'1995-03-15'", '', ' ')],
  [
    'Q10',
    Q10("date '1993-10-01'", "date '1993-10-01' + interval '3' month", ' '),
    Q10("'1993-10-01'", "'1994-01-01'", ' '),
  ],
  [
    'Q3 variant',
    Q3('AUTOMOBILE', "'1995-03-09'", ' FORCE INDEX (i_l_orderkey)', ' '),
    Q3('AUTOMOBILE', "'1995-03-09'", ' INDEXED BY i_l_orderkey', ' '),
  ],
  [
    'Q10 variant',
    Q10("'1993-08-01'", "date_add('1993-08-01', interval '3' month)", ' '),
    Q10("'1993-08-01'", "'1993-11-01'", ' '),
  ],
];
const MRR = "SET optimizer_switch='mrr=on,mrr_sort_keys=on,mrr_cost_based=off'";
const CONFIGS: readonly (readonly [string, readonly string[]])[] = [
  ['after (defaults)', []],
  ['after, mrr=on', [MRR]],
  ['after, mrr=on, join_cache_level=6', [MRR, 'SET join_cache_level = 6']],
];

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const runs = a.number('runs');
  const tpch = await tpchForTwoBuilds('optimizer-ab', sf, a.text('before'));
  const { dir, after, before, sqlite } = tpch;
  try {
    const pool = { innodb_buffer_pool_size: 1 << 30 };
    const sessions: { name: string; db: EngineDatabase; run: (sql: string) => number }[] = CONFIGS.map(
      ([name, sets]) => {
        const db = after.Database.open(join(dir, 'a.ekdb'), pool);
        const s = new after.Session(db);
        for (const x of sets) s.query(x);
        return { name, db, run: (sql: string) => s.query(sql).rows.length };
      },
    );
    if (before !== undefined) {
      const db = before.Database.open(join(dir, 'b.ekdb'), pool);
      const s = new before.Session(db);
      sessions.unshift({ name: 'before', db, run: (sql) => s.query(sql).rows.length });
    }
    io.out(`TPC-H SF ${sf}, median of ${runs}; load average ${loadAverage(1, ' ')}`);
    io.out('');
    io.out(`| query | SQLite ms | ${sessions.map((x) => `${x.name} ms (× SQLite)`).join(' | ')} |`);
    io.out(`|---|---:|${sessions.map(() => '---:').join('|')}|`);
    for (const [name, mysql, lite] of QUERIES) {
      const st = sqlite.prepare(lite);
      const fs = [() => st.all().length, ...sessions.map((x) => () => x.run(mysql))];
      const times: number[][] = fs.map(() => []);
      for (const f of fs) f(); // warm-up
      for (let r = 0; r < runs; r++)
        fs.forEach((f, i) => {
          const t = performance.now();
          f();
          times[i]?.push(performance.now() - t);
        });
      const [lm = Number.NaN, ...rest] = times.map(median);
      io.out(
        `| ${name} | ${lm.toFixed(1)} | ${rest.map((x) => `${x.toFixed(1)} (${(x / lm).toFixed(2)}×)`).join(' | ')} |`,
      );
    }
    io.out('');
    io.out(`load average after: ${loadAverage(1, ' ')}`);
    for (const x of sessions) x.db.close();
  } finally {
    tpch.close();
  }
}

export const optimizerAb: MicroBench = {
  name: 'optimizer-ab',
  title: 'TPC-H Q3, Q10 and the variants: two enginekit builds side by side with SQLite',
  about: `TPC-H Q3, Q10 and the join/MRR experiments' two variants at --sf, in memory and warm, beside
SQLite: this build with MariaDB's defaults, with mrr=on (DS-MRR rowid-ordered ranges) and with
mrr=on and join_cache_level=6 (BKA), and --before another build, run alternately query by query
in one process (before/after on a shared machine). Median of --runs after a warm-up run.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor' },
    runs: { kind: 'number', default: '5', about: 'timed runs per query' },
    before: {
      kind: 'text',
      about: 'the "before" build (its dist folder or index.js); none: this build alone',
    },
  },
  run,
};
