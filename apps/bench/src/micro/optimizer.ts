import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseOptions, StatisticsSource } from '@enginekit/engine';
import { generateTpch, TPCH_QUERY_COUNT, tpchQuery, tpchVariant } from '@enginekit/tpch';
import { type EngineDatabase, importEngine, loadAverage, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';
import { Q10_COUNTERS } from '../internal/sql-configs.js';

/** The posts' counter rows (the experiments' list): the SHOW STATUS deltas printed for every run. */
const COUNTERS = Q10_COUNTERS;
const MARIADB_Q3 = [
  "SET optimizer_switch='index_condition_pushdown=off,mrr=on,mrr_sort_keys=on,mrr_cost_based=off,join_cache_incremental=on,join_cache_hashed=on,join_cache_bka=on'",
  'SET join_cache_level = 8',
  'SET join_buffer_size = 6291456',
  'SET mrr_buffer_size = 6291456',
];
const MARIADB_Q10 = (mrrBuffer: number): string[] => [
  "SET optimizer_switch='index_condition_pushdown=off,mrr=on,mrr_sort_keys=on,mrr_cost_based=off'",
  `SET mrr_buffer_size = ${mrrBuffer}`,
];

interface Run {
  readonly explain: readonly (readonly unknown[])[];
  readonly rows: number;
  readonly ms: number;
  readonly modeledMs: number;
  readonly delta: Record<string, number>;
}

/** The simulated disk's modeled milliseconds so far (0 on a real file). */
function modeledMs(db: EngineDatabase): number {
  const device = db.device as { stats?: () => { modeledMs: number } };
  return typeof device.stats === 'function' ? device.stats().modeledMs : 0;
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const { Database, Session, loadTpch } = await importEngine();
  const { dir, remove } = runDir('optimizer');

  /** One run on a fresh open: the settings, EXPLAIN, then the query with its counter deltas. */
  const once = (
    path: string,
    options: DatabaseOptions,
    sets: readonly string[],
    sql: string,
    statistics?: StatisticsSource,
  ): Run => {
    const db = Database.open(path, options);
    try {
      const s = new Session(db);
      if (statistics !== undefined) s.statistics = statistics;
      for (const x of sets) s.query(x);
      const explain = s.query(`EXPLAIN ${sql}`).rows;
      s.query('FLUSH STATUS');
      const before = s.status();
      const dev = modeledMs(db);
      const t0 = performance.now();
      const rows = s.query(sql).rows.length;
      const ms = performance.now() - t0;
      const after = s.status();
      const delta = Object.fromEntries(COUNTERS.map((c) => [c, (after[c] ?? 0) - (before[c] ?? 0)]));
      return { explain, rows, ms, modeledMs: modeledMs(db) - dev, delta };
    } finally {
      db.close();
    }
  };

  const print = (title: string, r: Run): void => {
    io.out('');
    io.out(`### ${title}`);
    io.out('');
    io.out('```text');
    io.out(r.explain.map((row) => row.map((v) => (v === null ? 'NULL' : String(v))).join('\t')).join('\n'));
    io.out('```');
    io.out('');
    io.out(
      `${r.rows} rows, ${r.ms.toFixed(0)} ms wall${r.modeledMs > 0 ? `, ${(r.modeledMs / 1000).toFixed(1)} s modeled disk time` : ''}`,
    );
    io.out('');
    io.out('| counter | delta |\n|---|---|');
    for (const [k, v] of Object.entries(r.delta)) io.out(`| ${k} | ${v} |`);
  };

  try {
    const tbl = join(dir, 'tbl');
    const path = join(dir, 'tpch.ekdb');
    generateTpch({ sf, out: tbl });
    loadTpch({ db: path, tbl });
    const fileBytes = statSync(path).size;
    const poolBytes = Math.max(4 << 20, Math.round((fileBytes * 0.08) / (1 << 20)) * (1 << 20));
    io.out(
      `# TPC-H SF ${sf}: file ${(fileBytes / 1048576).toFixed(0)} MiB; load average ${loadAverage(1, ' ')}`,
    );
    const memory: DatabaseOptions = { innodb_buffer_pool_size: 1 << 30 };
    const ioBound: DatabaseOptions = { innodb_buffer_pool_size: poolBytes, disk: 'hdd' };
    const q3 = tpchVariant('q3-force-index').answer;
    const q10 = tpchVariant('q10-date-add').answer;
    // warm: one run fills the pool inside the same open, the measured run is the second
    const warm = (sets: readonly string[], sql: string): Run => {
      const db = Database.open(path, memory);
      try {
        const s = new Session(db);
        for (const x of sets) s.query(x);
        s.query(sql);
      } finally {
        db.close();
      }
      return once(path, memory, sets, sql);
    };
    print('Q3 variant, MariaDB settings (join_cache_level 8, 6M buffers), in memory', warm(MARIADB_Q3, q3));
    print(
      `Q3 variant, MariaDB settings, IO-bound (hdd, ${poolBytes >> 20} MiB pool, cold)`,
      once(path, ioBound, MARIADB_Q3, q3),
    );
    print(
      'Q3 variant, join_cache_level 2 (no BKA), IO-bound cold',
      once(path, ioBound, ['SET join_cache_level = 2'], q3),
    );
    for (const buf of [262144, 4194304]) {
      print(`Q10 variant, mrr=on, mrr_buffer_size=${buf}, in memory`, warm(MARIADB_Q10(buf), q10));
      print(
        `Q10 variant, mrr=on, mrr_buffer_size=${buf}, IO-bound cold`,
        once(path, ioBound, MARIADB_Q10(buf), q10),
      );
    }
    print('Q10 variant, mrr=off, IO-bound cold', once(path, ioBound, [], q10));
    // the bad plan: statistics that understate rows per key of i_c_nationkey (n_diff = its rows)
    const exact = Database.open(path, memory);
    const exactSource = new Session(exact).statistics;
    const bad: StatisticsSource = {
      statistics(table) {
        const st = exactSource.statistics(table);
        const ix = st.indexes.get('i_c_nationkey');
        if (ix === undefined) return st;
        const indexes = new Map(st.indexes);
        indexes.set('i_c_nationkey', { ...ix, nDiff: ix.nDiff.map(() => st.rows) });
        return { ...st, indexes };
      },
    };
    print(
      'Q10 good plan (exact statistics), mrr=on 4M, IO-bound cold',
      once(path, ioBound, MARIADB_Q10(4194304), q10),
    );
    print(
      'Q10 bad plan (i_c_nationkey n_diff = table rows, so rec_per_key 1), mrr=on 4M, IO-bound cold',
      once(path, ioBound, MARIADB_Q10(4194304), q10, bad),
    );
    // the bad source read the exact statistics of this open database
    exact.close();
    // optimization time: EXPLAIN binds and plans without running
    const db = Database.open(path, memory);
    try {
      const s = new Session(db);
      const times: number[] = [];
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
      const sorted = [...times].sort((x, y) => x - y);
      io.out('');
      io.out(
        `Optimization time (EXPLAIN, statistics cached), 22 queries: median ${sorted[11]?.toFixed(2)} ms, max ${sorted[21]?.toFixed(2)} ms; load average ${loadAverage(1).split(',')[0]}`,
      );
    } finally {
      db.close();
    }
  } finally {
    remove();
  }
}

export const optimizer: MicroBench = {
  name: 'optimizer',
  title:
    "the optimizer's experiments: the Q3 and Q10 variants in memory and IO-bound, plan quality, plan time",
  about: `The Q3 and Q10 variants of the MySQL/MariaDB join and MRR posts at TPC-H --sf under the posts'
MariaDB settings, in memory (warm pool) and IO-bound (simulated hdd, a pool of ~8 % of the file,
cold: a fresh open per run), with EXPLAIN and the SHOW STATUS deltas of the posts' counters;
then Q10's good and bad plan (the statistics that pick each) IO-bound, with page reads and the
simulated disk's modeled time; then the median optimization time (EXPLAIN: bind + plan) of the
22 queries.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor' },
  },
  run,
};
