// TPC-H Q3, Q10 and the experiments' two variants at SF 0.1 (ENGINE_BENCH_SF), in memory and
// warm: two enginekit builds side by side with SQLite, the builds run alternately query by query
// in one process (before/after comparisons on a shared machine). The "after" build runs with
// MariaDB's defaults and again with `mrr=on` (DS-MRR rowid-ordered ranges) and with
// `join_cache_level=6` (BKA). Median of ENGINE_BENCH_RUNS after a warm-up run.
//   node bench/optimizer-ab.js                      # this build against itself (no BEFORE)
//   ENGINE_BENCH_BEFORE=/path/to/old/dist/index.js node bench/optimizer-ab.js
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

const Q3 = (
  segment,
  day,
  hint,
) => `select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem${hint}
where c_mktsegment = '${segment}' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < ${day} and l_shipdate > ${day}
group by l_orderkey, o_orderdate, o_shippriority order by revenue desc, o_orderdate limit 10`;
const Q10 = (
  from,
  to,
) => `select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name,
  c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= ${from}
  and o_orderdate < ${to} and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment order by revenue desc limit 20`;
const queries = [
  ['Q3', Q3('BUILDING', "date '1995-03-15'", ''), Q3('BUILDING', "'1995-03-15'", '')],
  [
    'Q10',
    Q10("date '1993-10-01'", "date '1993-10-01' + interval '3' month"),
    Q10("'1993-10-01'", "'1994-01-01'"),
  ],
  [
    'Q3 variant',
    Q3('AUTOMOBILE', "'1995-03-09'", ' FORCE INDEX (i_l_orderkey)'),
    Q3('AUTOMOBILE', "'1995-03-09'", ' INDEXED BY i_l_orderkey'),
  ],
  [
    'Q10 variant',
    Q10("'1993-08-01'", "date_add('1993-08-01', interval '3' month)"),
    Q10("'1993-08-01'", "'1993-11-01'"),
  ],
];
const configs = [
  ['after (defaults)', []],
  ['after, mrr=on', ["SET optimizer_switch='mrr=on,mrr_sort_keys=on,mrr_cost_based=off'"]],
  [
    'after, mrr=on, join_cache_level=6',
    ["SET optimizer_switch='mrr=on,mrr_sort_keys=on,mrr_cost_based=off'", 'SET join_cache_level = 6'],
  ],
];

const dir = mkdtempSync(join(tmpdir(), 'engine-optimizer-ab-'));
try {
  const tbl = join(dir, 'tbl');
  generateTpch({ sf, out: tbl });
  after.loadTpch({ db: join(dir, 'a.ekdb'), tbl });
  copyFileSync(join(dir, 'a.ekdb'), join(dir, 'b.ekdb'));
  const sqlite = loadSqliteTpch(tbl);
  const pool = { innodb_buffer_pool_size: 1 << 30 };
  const sessions = configs.map(([name, sets]) => {
    const db = after.Database.open(join(dir, 'a.ekdb'), pool);
    const s = new after.Session(db);
    for (const x of sets) s.query(x);
    return { name, db, run: (sql) => s.query(sql).rows.length };
  });
  if (before !== undefined) {
    const db = before.Database.open(join(dir, 'b.ekdb'), pool);
    const s = new before.Session(db);
    sessions.unshift({ name: 'before', db, run: (sql) => s.query(sql).rows.length });
  }
  console.log(
    `TPC-H SF ${sf}, median of ${runs}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(`| query | SQLite ms | ${sessions.map((x) => `${x.name} ms (× SQLite)`).join(' | ')} |`);
  console.log(`|---|---:|${sessions.map(() => '---:').join('|')}|`);
  for (const [name, mysql, lite] of queries) {
    const st = sqlite.prepare(lite);
    const times = [[], ...sessions.map(() => [])];
    const fs = [() => st.all().length, ...sessions.map((x) => () => x.run(mysql))];
    for (const f of fs) f(); // warm-up
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
  }
  console.log(
    `\nload average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const x of sessions) x.db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
