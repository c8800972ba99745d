// The optimizer's experiments at TPC-H SF 0.1 (ENGINE_BENCH_SF): the Q3 and Q10 variants of the
// MySQL/MariaDB join and MRR posts under the posts' MariaDB settings, in memory (warm pool) and
// IO-bound (simulated hdd, a pool of ~8 % of the file, cold: a fresh open per run), printing
// EXPLAIN and the SHOW STATUS deltas of the posts' counter rows; then the bad and the good Q10
// plan side by side (the statistics that select each) IO-bound, with page reads and the
// simulated disk's modeled time; then the median optimization time (EXPLAIN: bind + plan, no
// execution) of the 22 queries. Imports the built package (`pnpm build` first).
//   node bench/optimizer.js
//   ENGINE_BENCH_SF=0.01 node bench/optimizer.js
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTpch, TPCH_QUERY_COUNT, tpchQuery, tpchVariant } from '@enginekit/tpch';
import { Database, Session, loadTpch } from '../dist/index.js';

const sf = Number(process.env.ENGINE_BENCH_SF ?? 0.1);
const dir = mkdtempSync(join(tmpdir(), 'engine-bench-optimizer-'));
const COUNTERS = [
  'Handler_mrr_init',
  'Handler_mrr_key_refills',
  'Handler_mrr_rowid_refills',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd',
  'Handler_read_rnd_next',
  'Innodb_buffer_pool_read_ahead',
  'Innodb_buffer_pool_read_requests',
  'Innodb_buffer_pool_reads',
  'Innodb_data_read',
  'Innodb_pages_read',
  'Innodb_rows_read',
  'Select_scan',
  'Sort_scan',
];
const MARIADB_Q3 = [
  "SET optimizer_switch='index_condition_pushdown=off,mrr=on,mrr_sort_keys=on,mrr_cost_based=off,join_cache_incremental=on,join_cache_hashed=on,join_cache_bka=on'",
  'SET join_cache_level = 8',
  'SET join_buffer_size = 6291456',
  'SET mrr_buffer_size = 6291456',
];
const MARIADB_Q10 = (mrrBuffer) => [
  "SET optimizer_switch='index_condition_pushdown=off,mrr=on,mrr_sort_keys=on,mrr_cost_based=off'",
  `SET mrr_buffer_size = ${mrrBuffer}`,
];

const explainText = (rows) =>
  rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('\t')).join('\n');

function run(path, options, sets, sql, statistics) {
  const db = Database.open(path, options);
  try {
    const s = new Session(db);
    if (statistics !== undefined) s.statistics = statistics;
    for (const x of sets) s.query(x);
    const explain = s.query(`EXPLAIN ${sql}`).rows;
    s.query('FLUSH STATUS');
    const before = s.status();
    const dev = typeof db.device.stats === 'function' ? db.device.stats().modeledMs : 0;
    const t0 = performance.now();
    const rows = s.query(sql).rows.length;
    const ms = performance.now() - t0;
    const after = s.status();
    const modeledMs = (typeof db.device.stats === 'function' ? db.device.stats().modeledMs : 0) - dev;
    const delta = Object.fromEntries(COUNTERS.map((c) => [c, (after[c] ?? 0) - (before[c] ?? 0)]));
    return { explain, rows, ms, modeledMs, delta };
  } finally {
    db.close();
  }
}

function printRun(title, r) {
  console.log(`\n### ${title}\n`);
  console.log('```text');
  console.log(explainText(r.explain));
  console.log('```\n');
  console.log(
    `${r.rows} rows, ${r.ms.toFixed(0)} ms wall${r.modeledMs > 0 ? `, ${(r.modeledMs / 1000).toFixed(1)} s modeled disk time` : ''}\n`,
  );
  console.log('| counter | delta |\n|---|---|');
  for (const [k, v] of Object.entries(r.delta)) console.log(`| ${k} | ${v} |`);
}

try {
  const tbl = join(dir, 'tbl');
  const path = join(dir, 'tpch.ekdb');
  generateTpch({ sf, out: tbl });
  loadTpch({ db: path, tbl });
  const fileBytes = statSync(path).size;
  const poolBytes = Math.max(4 << 20, Math.round((fileBytes * 0.08) / (1 << 20)) * (1 << 20));
  console.log(
    `# TPC-H SF ${sf}: file ${(fileBytes / 1048576).toFixed(0)} MiB; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const memory = { innodb_buffer_pool_size: 1 << 30 };
  const io = { innodb_buffer_pool_size: poolBytes, disk: 'hdd' };
  const q3 = tpchVariant('q3-force-index').answer;
  const q10 = tpchVariant('q10-date-add').answer;
  // warm: one run to fill the pool is inside the same open (the measured run is the second)
  const warm = (sets, sql) => {
    const db = Database.open(path, memory);
    try {
      const s = new Session(db);
      for (const x of sets) s.query(x);
      s.query(sql);
    } finally {
      db.close();
    }
    return run(path, memory, sets, sql);
  };
  printRun('Q3 variant, MariaDB settings (join_cache_level 8, 6M buffers), in memory', warm(MARIADB_Q3, q3));
  printRun(
    `Q3 variant, MariaDB settings, IO-bound (hdd, ${poolBytes >> 20} MiB pool, cold)`,
    run(path, io, MARIADB_Q3, q3),
  );
  printRun(
    'Q3 variant, join_cache_level 2 (no BKA), IO-bound cold',
    run(path, io, ['SET join_cache_level = 2'], q3),
  );
  for (const buf of [262144, 4194304]) {
    printRun(`Q10 variant, mrr=on, mrr_buffer_size=${buf}, in memory`, warm(MARIADB_Q10(buf), q10));
    printRun(
      `Q10 variant, mrr=on, mrr_buffer_size=${buf}, IO-bound cold`,
      run(path, io, MARIADB_Q10(buf), q10),
    );
  }
  printRun('Q10 variant, mrr=off, IO-bound cold', run(path, io, [], q10));
  // the bad plan: statistics that understate rows per key of i_c_nationkey (n_diff = its rows)
  const exact = Database.open(path, memory);
  const exactSource = new Session(exact).statistics;
  const bad = {
    statistics(table) {
      const st = exactSource.statistics(table);
      const ix = st.indexes.get('i_c_nationkey');
      if (ix === undefined) return st;
      const indexes = new Map(st.indexes);
      indexes.set('i_c_nationkey', { ...ix, nDiff: ix.nDiff.map(() => st.rows) });
      return { ...st, indexes };
    },
  };
  printRun(
    'Q10 good plan (exact statistics), mrr=on 4M, IO-bound cold',
    run(path, io, MARIADB_Q10(4194304), q10),
  );
  printRun(
    'Q10 bad plan (i_c_nationkey n_diff = table rows, so rec_per_key 1), mrr=on 4M, IO-bound cold',
    run(path, io, MARIADB_Q10(4194304), q10, bad),
  );
  // the bad source reads the exact statistics of this open database
  exact.close();
  // optimization time: EXPLAIN binds and plans without running
  const db = Database.open(path, memory);
  try {
    const s = new Session(db);
    const times = [];
    for (let q = 1; q <= TPCH_QUERY_COUNT; q++) {
      const t = tpchQuery(q);
      const at = t.statements.indexOf(t.answer);
      for (const x of t.statements.slice(0, at)) s.query(x);
      s.query(`EXPLAIN ${t.answer}`); // statistics cached
      const t0 = performance.now();
      for (let i = 0; i < 5; i++) s.query(`EXPLAIN ${t.answer}`);
      times.push((performance.now() - t0) / 5);
      for (const x of t.statements.slice(at + 1)) s.query(x);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `\nOptimization time (EXPLAIN, statistics cached), 22 queries: median ${sorted[11].toFixed(2)} ms, max ${sorted[21].toFixed(2)} ms; load average ${loadavg()[0].toFixed(1)}`,
    );
  } finally {
    db.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
