// Index condition pushdown, covering reads and IN-list ranges on TPC-H SF 0.1 (ENGINE_BENCH_SF),
// in memory and warm, beside SQLite: each query under index_condition_pushdown=on (MariaDB's
// default) and =off, and, with ENGINE_BENCH_BEFORE, the same queries on an older build run
// alternately in the same process. Median of ENGINE_BENCH_RUNS after a warm-up run; the handler
// and buffer-pool counters of one run of each.
//   node bench/index-reads.js
//   ENGINE_BENCH_BEFORE=/path/to/old/dist/index.js node bench/index-reads.js
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTpch } from '@enginekit/tpch';
import * as after from '../dist/index.js';
import { loadSqliteTpch, median } from './sql-peers.js';

const sf = Number(process.env.ENGINE_BENCH_SF ?? 0.1);
const runs = Number(process.env.ENGINE_BENCH_RUNS ?? 5);
const before =
  process.env.ENGINE_BENCH_BEFORE === undefined ? undefined : await import(process.env.ENGINE_BENCH_BEFORE);

const half = "l_shipdate BETWEEN '1995-01-01' AND '1995-06-30'";
const customers = Array.from({ length: 40 }, (_, i) => 1 + i * 37).join(', ');
// [name, enginekit SQL, SQLite SQL]
const queries = [
  [
    'ICP: shipdate range, l_linenumber = 1',
    `SELECT COUNT(*), SUM(l_quantity) FROM lineitem FORCE INDEX (i_l_shipdate) WHERE ${half} AND l_linenumber = 1`,
    `SELECT COUNT(*), SUM(l_quantity) FROM lineitem INDEXED BY i_l_shipdate WHERE ${half} AND l_linenumber = 1`,
  ],
  [
    'covering range: count over shipdate',
    `SELECT COUNT(*) FROM lineitem FORCE INDEX (i_l_shipdate) WHERE ${half}`,
    `SELECT COUNT(*) FROM lineitem INDEXED BY i_l_shipdate WHERE ${half}`,
  ],
  ['covering scan: count(*) of orders', 'SELECT COUNT(*) FROM orders', 'SELECT COUNT(*) FROM orders'],
  [
    'IN list: orders of 40 customers',
    `SELECT COUNT(*), SUM(o_totalprice) FROM orders WHERE o_custkey IN (${customers})`,
    `SELECT COUNT(*), SUM(o_totalprice) FROM orders WHERE o_custkey IN (${customers})`,
  ],
];
const COUNTERS = [
  'Handler_read_key',
  'Handler_read_next',
  'Handler_icp_attempts',
  'Innodb_buffer_pool_read_requests',
];

const dir = mkdtempSync(join(tmpdir(), 'engine-index-reads-'));
try {
  const tbl = join(dir, 'tbl');
  generateTpch({ sf, out: tbl });
  after.loadTpch({ db: join(dir, 'a.ekdb'), tbl });
  copyFileSync(join(dir, 'a.ekdb'), join(dir, 'b.ekdb'));
  const sqlite = loadSqliteTpch(tbl);
  const pool = { innodb_buffer_pool_size: 1 << 30 };
  const open = (mod, file, name, sets) => {
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
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  console.log(`TPC-H SF ${sf}, median of ${runs}; load average ${load()}\n`);
  console.log(`| query | SQLite ms | ${sessions.map((x) => `${x.name} ms (× SQLite)`).join(' | ')} |`);
  console.log(`|---|---:|${sessions.map(() => '---:').join('|')}|`);
  const counted = [];
  for (const [name, sql, lite] of queries) {
    const st = sqlite.prepare(lite);
    const fs = [() => st.all(), ...sessions.map((x) => () => x.s.query(sql).rows)];
    const answers = fs.map((f) => JSON.stringify(f())); // warm-up
    for (const a of answers.slice(2))
      if (a !== answers[1])
        throw new Error(`${name}: the enginekit configurations disagree: ${a} vs ${answers[1]}`);
    const times = fs.map(() => []);
    for (let r = 0; r < runs; r++)
      fs.forEach((f, i) => {
        const t = performance.now();
        f();
        times[i].push(performance.now() - t);
      });
    const m = times.map(median);
    console.log(
      `| ${name} | ${m[0].toFixed(1)} | ${m
        .slice(1)
        .map((x) => `${x.toFixed(1)} (${(x / m[0]).toFixed(2)}×)`)
        .join(' | ')} |`,
    );
    for (const x of sessions) {
      const explain = x.s.query(`EXPLAIN ${sql}`).rows[0];
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
  console.log(`\n| query | build | EXPLAIN (type key Extra) | ${COUNTERS.join(' | ')} |`);
  console.log(`|---|---|---|${COUNTERS.map(() => '---:').join('|')}|`);
  for (const r of counted) console.log(`| ${r.join(' | ')} |`);
  console.log(`\nload average after: ${load()}`);
  for (const x of sessions) x.db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
