import { median } from '../measure.js';
import {
  SBTEST_INDEX,
  SBTEST_TABLE,
  sbtestInserts,
  sbtestRows,
  xorshift32,
} from '../internal/sbtest-rows.js';
import { type EngineDatabase, type EngineSession, importEngine, loadAverage } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

const ROWS = 100_000;
const at = (i: number): number => 1 + ((i * 7919) % ROWS);
const rangeAt = (i: number): [number, number] => {
  const a = 1 + ((i * 7919) % (ROWS - 100));
  return [a, a + 99];
};

/** [name, calls per round, a maker of one call on a session] */
const CASES: readonly (readonly [string, number, (s: EngineSession) => () => unknown])[] = [
  [
    'text point',
    3000,
    (s) => {
      let i = 0;
      return () => s.query(`SELECT c FROM sbtest1 WHERE id=${at(i++)}`);
    },
  ],
  ['text SELECT 1', 5000, (s) => () => s.query('SELECT 1')],
  [
    'prepared point',
    50000,
    (s) => {
      const p = s.prepare('SELECT c FROM sbtest1 WHERE id=?');
      let i = 0;
      return () => p.run([at(i++)]);
    },
  ],
  [
    'prepared k ref',
    50000,
    (s) => {
      const p = s.prepare('SELECT id, c FROM sbtest1 WHERE k=?');
      let i = 0;
      return () => p.run([at(i++)]);
    },
  ],
  [
    'order range',
    500,
    (s) => {
      const p = s.prepare('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c');
      let i = 0;
      return () => p.run(rangeAt(i++));
    },
  ],
  [
    'distinct range',
    500,
    (s) => {
      const p = s.prepare('SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c');
      let i = 0;
      return () => p.run(rangeAt(i++));
    },
  ],
];

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const beforePath = a.text('before');
  if (beforePath === undefined) throw new Error('micro sql-statements-ab needs --before <old build>');
  const rounds = a.number('rounds');
  const builds = { old: await importEngine(beforePath), new: await importEngine(a.text('after')) };
  // the same rows for both builds, from a generator seeded alike
  const rows = sbtestRows(ROWS, xorshift32());
  const envs = {} as Record<'old' | 'new', { db: EngineDatabase; s: EngineSession }>;
  for (const name of ['old', 'new'] as const) {
    const { Database, Session } = builds[name];
    const db = Database.temporary({ innodb_buffer_pool_size: 256 * 1024 * 1024 });
    const s = new Session(db);
    s.query(SBTEST_TABLE);
    for (const insert of sbtestInserts(rows, 1000)) s.query(insert);
    s.query(SBTEST_INDEX);
    s.query('ANALYZE TABLE sbtest1');
    envs[name] = { db, s };
  }
  io.out(`load average at start ${loadAverage()}`);
  io.out('| statement | old µs | new µs | new ÷ old |');
  io.out('|---|---:|---:|---:|');
  for (const [name, n, make] of CASES) {
    const fs = { old: make(envs.old.s), new: make(envs.new.s) };
    const t: Record<'old' | 'new', number[]> = { old: [], new: [] };
    for (const b of ['old', 'new'] as const) for (let i = 0; i < n; i++) fs[b]();
    for (let r = 0; r < rounds; r++)
      for (const b of r % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        const t0 = performance.now();
        for (let i = 0; i < n; i++) fs[b]();
        t[b].push(((performance.now() - t0) * 1000) / n);
      }
    const o = median(t.old);
    const w = median(t.new);
    io.out(`| ${name} | ${o.toFixed(1)} | ${w.toFixed(1)} | ${(w / o).toFixed(2)} |`);
  }
  io.out(`load average at end ${loadAverage()}`);
  for (const e of Object.values(envs)) {
    e.s.close();
    e.db.close();
  }
}

export const sqlStatementsAb: MicroBench = {
  name: 'sql-statements-ab',
  title: 'two enginekit builds statement by statement, alternately, on the same sbtest1',
  about: `Two builds in one process, each on its own copy of the same sysbench-shaped sbtest1 (100,000
rows, k_1 built after the rows): the text path (a point select with the id in the text,
\`SELECT 1\`), prepared point and \`ref\` selects, and sysbench's order_ranges and distinct_ranges
over 100 ids. Rounds alternate the order (old, new, then new, old, …) so both see the same load;
the median µs per statement of each build and the ratio.`,
  options: {
    before: { kind: 'text', about: 'the old build: its dist folder or index.js (required)' },
    after: { kind: 'text', about: "the new build (default: this app's @enginekit/engine)" },
    rounds: { kind: 'number', default: '7', about: 'timed rounds per statement' },
  },
  run,
};
