// TPC-H Q1, Q3, Q6, Q10 and the two variants of the MySQL/MariaDB join and MRR experiments
// (Q3 AUTOMOBILE/1995-03-09 with FORCE INDEX (i_l_orderkey), Q10 1993-08-01 + 3 months LIMIT 20)
// at SF 0.1, in memory and warm: enginekit vs SQLite (better-sqlite3, same data and indexes,
// ANALYZE run) vs DuckDB on one thread. Median of ENGINE_BENCH_RUNS after a warm-up run; the
// ratios are from this one run. Then a full scan of lineitem (`count(*) … where l_quantity > 0`)
// in rows/s on the same three. Imports the built package (`pnpm build` first).
//   node bench/sql-tpch.js
//   ENGINE_BENCH_SF=0.01 ENGINE_BENCH_RUNS=3 node bench/sql-tpch.js
//   ENGINE_BENCH_ONLY='Q10 variant' ENGINE_BENCH_PEERS=0 node --cpu-prof --cpu-prof-dir=.tmp bench/sql-tpch.js
//                                                               where enginekit's time goes
//   ENGINE_BENCH_DIST=path/to/other/dist/index.js node bench/sql-tpch.js   another build
//   ENGINE_BENCH_COMPARE=path/to/old/dist/index.js ENGINE_BENCH_PEERS=0 node bench/sql-tpch.js
//       before/after: this build and the old one on copies of the same data, run alternately
//       (one run of each in turn, so both see the same load), with the new/old ratio
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTpch } from '@enginekit/tpch';
// ENGINE_BENCH_DIST: another build's index.js (an older build, for before/after runs)
const { Database, Session, loadTpch } = await import(
  process.env.ENGINE_BENCH_DIST === undefined
    ? '../dist/index.js'
    : new URL(process.env.ENGINE_BENCH_DIST, `file://${process.cwd()}/`).href
);
import { engineSession, loadAverage, loadDuckTpch, loadSqliteTpch, median } from './sql-peers.js';

/**
 * Medians of `runs` calls of `f` after a warm-up call: wall ms and the process's CPU ms (user +
 * system, every thread: DuckDB's worker too). On a shared machine the CPU time moves less with
 * the load than the wall time does.
 */
async function timeRuns(f, runs) {
  await f();
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    await f();
    wall.push(performance.now() - t);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}
// ENGINE_BENCH_COMPARE: an older build to time alternately with this one
const old =
  process.env.ENGINE_BENCH_COMPARE === undefined
    ? undefined
    : await import(new URL(process.env.ENGINE_BENCH_COMPARE, `file://${process.cwd()}/`).href);

/** Medians (wall and CPU ms) of `runs` calls of `fa` and `fb` taken in turn, after a warm-up of each. */
function alternate(fa, fb, runs) {
  fa();
  fb();
  const w = [[], []];
  const c = [[], []];
  for (let i = 0; i < runs; i++)
    for (const [k, f] of [fa, fb].entries()) {
      const c0 = process.cpuUsage();
      const t = performance.now();
      f();
      w[k].push(performance.now() - t);
      const d = process.cpuUsage(c0);
      c[k].push((d.user + d.system) / 1000);
    }
  return [0, 1].map((k) => ({ wall: median(w[k]), cpu: median(c[k]) }));
}

const sf = Number(process.env.ENGINE_BENCH_SF ?? 0.1);
const runs = Number(process.env.ENGINE_BENCH_RUNS ?? 5);
const poolBytes = Number(process.env.ENGINE_BENCH_POOL_MB ?? 1024) * 1024 * 1024;
const only = process.env.ENGINE_BENCH_ONLY; // one query by name
const peers = process.env.ENGINE_BENCH_PEERS !== '0'; // 0: enginekit alone (for profiles)

const Q3 = (
  segment,
  day,
  hint,
) => `select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem${hint}
where c_mktsegment = '${segment}' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < ${day} and l_shipdate > ${day}
group by l_orderkey, o_orderdate, o_shippriority
order by revenue desc, o_orderdate
limit 10`;
const Q10 = (
  from,
  to,
) => `select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name,
  c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= ${from}
  and o_orderdate < ${to} and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by revenue desc
limit 20`;
const Q1 = (day) => `select l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
  sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
  avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
from lineitem where l_shipdate <= ${day}
group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus`;
const Q6 = (from, to, lo, hi) => `select sum(l_extendedprice * l_discount) as revenue from lineitem
where l_shipdate >= ${from} and l_shipdate < ${to} and l_discount between ${lo} and ${hi} and l_quantity < 24`;

// [name, MySQL text (enginekit), SQLite text, DuckDB text]
const queries = [
  [
    'Q1',
    Q1("date '1998-12-01' - interval '90' day"),
    Q1("'1998-09-02'"),
    Q1("date '1998-12-01' - interval '90' day"),
  ],
  [
    'Q3',
    Q3('BUILDING', "date '1995-03-15'", ''),
    Q3('BUILDING', "'1995-03-15'", ''),
    Q3('BUILDING', "date '1995-03-15'", ''),
  ],
  [
    'Q6',
    Q6("date '1994-01-01'", "date '1994-01-01' + interval '1' year", '0.06 - 0.01', '0.06 + 0.01'),
    // REAL arithmetic: 0.06 - 0.01 is below the stored 0.05, so SQLite gets the bounds as written
    Q6("'1994-01-01'", "'1995-01-01'", '0.05', '0.07'),
    Q6("date '1994-01-01'", "date '1994-01-01' + interval '1' year", '0.06 - 0.01', '0.06 + 0.01'),
  ],
  [
    'Q10',
    Q10("date '1993-10-01'", "date '1993-10-01' + interval '3' month"),
    Q10("'1993-10-01'", "'1994-01-01'"),
    Q10("date '1993-10-01'", "date '1993-10-01' + interval '3' month"),
  ],
  [
    'Q3 variant',
    Q3('AUTOMOBILE', "'1995-03-09'", ' FORCE INDEX (i_l_orderkey)'),
    Q3('AUTOMOBILE', "'1995-03-09'", ' INDEXED BY i_l_orderkey'),
    Q3('AUTOMOBILE', "date '1995-03-09'", ''),
  ],
  [
    'Q10 variant',
    Q10("'1993-08-01'", "date_add('1993-08-01', interval '3' month)"),
    Q10("'1993-08-01'", "'1993-11-01'"),
    Q10("date '1993-08-01'", "date '1993-08-01' + interval '3' month"),
  ],
];

const dir = mkdtempSync(join(process.env.ENGINE_BENCH_DIR ?? tmpdir(), 'engine-sql-tpch-bench-'));
const tbl = join(dir, 'tbl');
try {
  generateTpch({ sf, out: tbl });
  const path = join(dir, 'tpch.ekdb');
  loadTpch({ db: path, tbl });
  const sqlite = loadSqliteTpch(tbl);
  const duck = await loadDuckTpch(tbl);
  const ek = engineSession({ Database, Session }, path, { innodb_buffer_pool_size: poolBytes });
  if (ek === undefined) console.log('this build of enginekit has no SQL session: SQLite and DuckDB only');
  if (old !== undefined && ek !== undefined) {
    const oldPath = join(dir, 'tpch-old.ekdb');
    old.loadTpch({ db: oldPath, tbl });
    const ok = engineSession(old, oldPath, { innodb_buffer_pool_size: poolBytes });
    const lines = [
      '| query | this build ms (CPU) | old build ms (CPU) | this / old (CPU) |',
      '|---|---:|---:|---:|',
    ];
    const all = [...queries, ['scan', 'select count(*) from lineitem where l_quantity > 0']];
    for (const [name, mysql] of all) {
      if (only !== undefined && name !== only) continue;
      const [a, b] = alternate(
        () => ek.session.query(mysql),
        () => ok.session.query(mysql),
        runs,
      );
      const rows = (x) =>
        JSON.stringify(x.session.query(mysql).rows, (_k, v) => (typeof v === 'bigint' ? `${v}` : v));
      const same = rows(ek) === rows(ok) ? '' : ' (the answers differ)';
      const t = (x) => `${x.wall.toFixed(1)} (${x.cpu.toFixed(1)})`;
      const ratio = `${(a.wall / b.wall).toFixed(2)}× (${(a.cpu / b.cpu).toFixed(2)}×)`;
      lines.push(`| ${name} | ${t(a)} | ${t(b)} | ${ratio}${same} |`);
      console.log(lines[lines.length - 1]);
    }
    console.log(
      `\nTPC-H SF ${sf}, this build and ${process.env.ENGINE_BENCH_COMPARE} alternately, median of ${runs}, load average ${await loadAverage()}:\n`,
    );
    for (const line of lines) console.log(line);
    ok.session.close?.();
    ok.db.close();
  }
  // with ENGINE_BENCH_COMPARE and no peers, the comparison above is the whole run
  const main = old === undefined || peers;
  const table = [
    '| query | enginekit ms (CPU) | SQLite ms (CPU) | DuckDB 1 thread ms (CPU) | enginekit / SQLite (CPU) | enginekit / DuckDB (CPU) | rows (ek/SQLite/DuckDB) |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const [name, mysql, lite, duckSql] of main ? queries : []) {
    if (only !== undefined && name !== only) continue;
    let n = ['-', 0, 0];
    const st = sqlite.prepare(lite);
    const s = peers
      ? await timeRuns(() => {
          n[1] = st.all().length;
        }, runs)
      : undefined;
    const d = peers
      ? await timeRuns(async () => {
          n[2] = (await duck.runAndReadAll(duckSql)).getRows().length;
        }, runs)
      : undefined;
    let e;
    if (ek !== undefined) {
      try {
        e = await timeRuns(() => {
          n[0] = ek.session.query(mysql).rows.length;
        }, runs);
      } catch (err) {
        n = [`error: ${String(err.message).slice(0, 60)}`, n[1], n[2]];
      }
    }
    const f = (x) => (x === undefined ? '-' : `${x.wall.toFixed(1)} (${x.cpu.toFixed(1)})`);
    const r = (x) =>
      e === undefined || x === undefined
        ? '-'
        : `${(e.wall / x.wall).toFixed(2)}× (${(e.cpu / x.cpu).toFixed(2)}×)`;
    table.push(`| ${name} | ${f(e)} | ${f(s)} | ${f(d)} | ${r(s)} | ${r(d)} | ${n.join(' / ')} |`);
    console.log(table[table.length - 1]);
  }
  // a full scan of lineitem: the same count on both, as rows of lineitem per second
  const scanSql = 'select count(*) from lineitem where l_quantity > 0';
  const scanRows = sqlite.prepare('select count(*) from lineitem').pluck().get();
  const scanLite = sqlite.prepare(scanSql).pluck();
  const scanning = main && (only === undefined || only === 'scan');
  const ls = scanning && peers ? await timeRuns(() => scanLite.get(), runs) : undefined;
  const ds = scanning && peers ? await timeRuns(() => duck.runAndReadAll(scanSql), runs) : undefined;
  // enginekit plans the count as a covering scan of i_l_orderkey_quantity (type index, as
  // MariaDB): the table scan is timed with the index ignored, the planned one beside it
  const tableScanSql = scanSql.replace('from lineitem', 'from lineitem ignore index (i_l_orderkey_quantity)');
  let es;
  let ei;
  if (ek !== undefined && scanning) {
    try {
      es = await timeRuns(() => ek.session.query(tableScanSql), runs);
      ei = await timeRuns(() => ek.session.query(scanSql), runs);
    } catch (err) {
      console.log(`enginekit scan: ${err.message}`);
    }
  }
  const rps = (x) => (x === undefined ? '-' : `${(((scanRows / x.wall) * 1000) / 1e6).toFixed(2)} M`);
  const ms = (x) => (x === undefined ? '-' : `${x.wall.toFixed(1)} (${x.cpu.toFixed(1)})`);
  const scan = [
    `| full scan of lineitem (${scanRows} rows), \`${scanSql}\` | rows/s | ms (CPU) |`,
    '|---|---:|---:|',
    `| enginekit, table scan (\`ignore index (i_l_orderkey_quantity)\`) | ${rps(es)} | ${ms(es)} |`,
    `| enginekit, as planned (covering scan of i_l_orderkey_quantity) | ${rps(ei)} | ${ms(ei)} |`,
    `| SQLite | ${rps(ls)} | ${ms(ls)} |`,
    `| DuckDB 1 thread | ${rps(ds)} | ${ms(ds)} |`,
  ];
  if (main) {
    console.log(`\nTPC-H SF ${sf}, median of ${runs} warm runs, load average ${await loadAverage()}:\n`);
    for (const line of table) console.log(line);
  }
  if (scanning) {
    console.log('');
    for (const line of scan) console.log(line);
  }
  ek?.session.close?.();
  ek?.db.close();
  sqlite.close();
  duck.closeSync();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
