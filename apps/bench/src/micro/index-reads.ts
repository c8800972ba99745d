import { join } from 'node:path';
import { median } from '../measure.js';
import {
  type EngineDatabase,
  type EngineModule,
  type EngineSession,
  loadAverage,
  tpchForTwoBuilds,
} from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

const HALF = "l_shipdate BETWEEN '1995-01-01' AND '1995-06-30'";
const CUSTOMERS = Array.from({ length: 40 }, (_, i) => 1 + i * 37).join(', ');
/** [name, enginekit SQL, SQLite SQL] */
const QUERIES: readonly (readonly [string, string, string])[] = [
  [
    'ICP: shipdate range, l_linenumber = 1',
    `SELECT COUNT(*), SUM(l_quantity) FROM lineitem FORCE INDEX (i_l_shipdate) WHERE ${HALF} AND l_linenumber = 1`,
    `SELECT COUNT(*), SUM(l_quantity) FROM lineitem INDEXED BY i_l_shipdate WHERE ${HALF} AND l_linenumber = 1`,
  ],
  [
    'covering range: count over shipdate',
    `SELECT COUNT(*) FROM lineitem FORCE INDEX (i_l_shipdate) WHERE ${HALF}`,
    `SELECT COUNT(*) FROM lineitem INDEXED BY i_l_shipdate WHERE ${HALF}`,
  ],
  ['covering scan: count(*) of orders', 'SELECT COUNT(*) FROM orders', 'SELECT COUNT(*) FROM orders'],
  [
    'IN list: orders of 40 customers',
    `SELECT COUNT(*), SUM(o_totalprice) FROM orders WHERE o_custkey IN (${CUSTOMERS})`,
    `SELECT COUNT(*), SUM(o_totalprice) FROM orders WHERE o_custkey IN (${CUSTOMERS})`,
  ],
];
const COUNTERS = [
  'Handler_read_key',
  'Handler_read_next',
  'Handler_icp_attempts',
  'Innodb_buffer_pool_read_requests',
];

interface Open {
  readonly name: string;
  readonly db: EngineDatabase;
  readonly s: EngineSession;
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const runs = a.number('runs');
  const tpch = await tpchForTwoBuilds('index-reads', sf, a.text('before'));
  const { dir, after, before, sqlite } = tpch;
  try {
    const pool = { innodb_buffer_pool_size: 1 << 30 };
    const open = (mod: EngineModule, file: string, name: string, sets: readonly string[]): Open => {
      const db = mod.Database.open(join(dir, file), pool);
      const s = new mod.Session(db);
      for (const x of sets) s.query(x);
      return { name, db, s };
    };
    const sessions = [
      open(after, 'a.ekdb', 'ICP on', []),
      open(after, 'a.ekdb', 'ICP off', ["SET optimizer_switch = 'index_condition_pushdown=off'"]),
    ];
    if (before !== undefined) sessions.unshift(open(before, 'b.ekdb', 'before', []));
    io.out(`TPC-H SF ${sf}, median of ${runs}; load average ${loadAverage(1, ' ')}`);
    io.out('');
    io.out(`| query | SQLite ms | ${sessions.map((x) => `${x.name} ms (× SQLite)`).join(' | ')} |`);
    io.out(`|---|---:|${sessions.map(() => '---:').join('|')}|`);
    const counted: (string | number)[][] = [];
    for (const [name, sql, lite] of QUERIES) {
      const st = sqlite.prepare(lite);
      const fs = [() => st.all(), ...sessions.map((x) => () => x.s.query(sql).rows)];
      const answers = fs.map((f) => JSON.stringify(f())); // warm-up
      for (const ans of answers.slice(2))
        if (ans !== answers[1])
          throw new Error(`${name}: the enginekit configurations disagree: ${ans} vs ${answers[1]}`);
      const times: number[][] = fs.map(() => []);
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
      for (const x of sessions) {
        const explain = x.s.query(`EXPLAIN ${sql}`).rows[0] ?? [];
        const pool0 = x.s.status().Innodb_buffer_pool_read_requests ?? 0;
        x.s.query('FLUSH STATUS');
        x.s.query(sql);
        const stt = x.s.status();
        counted.push([
          name,
          x.name,
          `${explain[3]} ${explain[5] ?? ''} ${explain[10] ?? ''}`.trim(),
          ...COUNTERS.map((c) =>
            c === 'Innodb_buffer_pool_read_requests' ? (stt[c] ?? 0) - pool0 : (stt[c] ?? 0),
          ),
        ]);
      }
    }
    io.out('');
    io.out(`| query | build | EXPLAIN (type key Extra) | ${COUNTERS.join(' | ')} |`);
    io.out(`|---|---|---|${COUNTERS.map(() => '---:').join('|')}|`);
    for (const r of counted) io.out(`| ${r.join(' | ')} |`);
    io.out('');
    io.out(`load average after: ${loadAverage(1, ' ')}`);
    for (const x of sessions) x.db.close();
  } finally {
    tpch.close();
  }
}

export const indexReads: MicroBench = {
  name: 'index-reads',
  title: 'index condition pushdown, covering reads and IN-list ranges, beside SQLite',
  about: `Four queries on TPC-H --sf, in memory and warm, beside SQLite: each under
index_condition_pushdown=on (MariaDB's default) and =off, and with --before the same queries on
another build, run alternately in one process. Median of --runs after a warm-up run; then the
handler and buffer-pool counters of one run of each.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor' },
    runs: { kind: 'number', default: '5', about: 'timed runs per query' },
    before: { kind: 'text', about: 'another build (its dist folder or index.js) run alternately' },
  },
  run,
};
