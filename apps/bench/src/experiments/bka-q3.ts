import { POSTS } from '../posts.js';
import { tpchVariant } from '@enginekit/tpch';
import type { Experiment, ExperimentContext, ExperimentOutput } from '../experiment.js';
import { buildDbt3Trees, PAGE } from '../internal/dbt3-trees.js';
import { configBars, counterTable } from '../internal/peer-tables.js';
import { type BkaConfig, type Q3Run, q3Driving, runQ3 } from '../internal/q3-packages.js';
import { runSqlConfigs, type SqlConfigRuns, sqlNote } from '../internal/sql-configs.js';
import { TpchFiles } from '../internal/tpch-files.js';
import { round } from '../measure.js';
import { findMariaDb, MARIADB_ABSENT } from '../peers/mariadb.js';
import { startMariaDbTpch } from '../peers/mariadb-tpch.js';
import { EngineTarget, MariaDbTarget, type SqlTarget } from '../peers/sql-target.js';
import type { Chart, Claim, Table } from '../result.js';

const K = 1024;
const M = 1024 * 1024;
const LIMIT = 2 * M; // join_buffer_space_limit's default
const RAISED = 256 * M;

/** The join post's configurations, as MariaDB 10.11 spells them. */
export const BKA_CONFIGS: readonly BkaConfig[] = [
  {
    label: 'baseline (level 2, mrr off)',
    join_cache_level: 2,
    join_buffer_size: 256 * K,
    mrr_buffer_size: 256 * K,
    join_buffer_space_limit: LIMIT,
  },
  {
    label: 'BKA 256K',
    join_cache_level: 6,
    join_buffer_size: 256 * K,
    mrr_buffer_size: 256 * K,
    join_buffer_space_limit: LIMIT,
  },
  {
    label: 'BKA 6M, limit 2M',
    join_cache_level: 6,
    join_buffer_size: 6 * M,
    mrr_buffer_size: 6 * M,
    join_buffer_space_limit: LIMIT,
  },
  {
    label: 'BKA 6M, limit raised',
    join_cache_level: 6,
    join_buffer_size: 6 * M,
    mrr_buffer_size: 6 * M,
    join_buffer_space_limit: RAISED,
  },
  {
    label: 'BKAH 6M (level 8), limit raised',
    join_cache_level: 8,
    join_buffer_size: 6 * M,
    mrr_buffer_size: 6 * M,
    join_buffer_space_limit: RAISED,
  },
];

/** The post's IO-bound counters (SF 2, 1 GB pool, cold): MySQL 5.5, MariaDB 5.5, MariaDB 5.5 at 6M. */
const POST: Readonly<Record<string, readonly [number, number, number]>> = {
  Handler_mrr_init: [Number.NaN, 1133, 1],
  Handler_mrr_key_refills: [Number.NaN, 0, 0],
  Handler_mrr_rowid_refills: [Number.NaN, 22, 0],
  Handler_read_key: [1829910, 1801917, 1790641],
  Handler_read_next: [2651500, 2628103, 2592816],
  Handler_read_rnd_next: [23078, 22867, 23049],
  Innodb_buffer_pool_read_ahead: [1152, 23228, 130731],
  Innodb_buffer_pool_read_requests: [12947073, 10251697, 9319281],
  Innodb_buffer_pool_reads: [327963, 335080, 14067],
  Innodb_data_reads: [329115, 335526, 16164],
  Innodb_pages_read: [329115, 358308, 144798],
};
const COUNTERS = Object.keys(POST);

export function bkaStatements(c: BkaConfig): string[] {
  const mrr = c.join_cache_level === 2 ? 'off' : 'on';
  return [
    `SET SESSION optimizer_switch='index_condition_pushdown=off,mrr=${mrr},mrr_sort_keys=on,mrr_cost_based=off,join_cache_incremental=on,join_cache_hashed=on,join_cache_bka=on'`,
    `SET SESSION join_cache_level=${c.join_cache_level}`,
    `SET SESSION join_buffer_size=${c.join_buffer_size}`,
    `SET SESSION mrr_buffer_size=${c.mrr_buffer_size}`,
    `SET SESSION join_buffer_space_limit=${c.join_buffer_space_limit}`,
  ];
}

async function run(ctx: ExperimentContext): Promise<ExperimentOutput> {
  const sf = ctx.sf ?? (ctx.quick ? 0.01 : 0.1);
  ctx.log(`bka-q3: building the DBT3 trees at SF ${sf}`);
  const trees = buildDbt3Trees(sf);
  const driving = q3Driving(trees);
  const poolPages = Math.max(64, Math.round(trees.pages * 0.08));
  const allPages = trees.pages + 64;
  // Warm the JIT on every configuration once, then measure.
  for (const c of BKA_CONFIGS) runQ3(trees, driving, c, allPages, false);
  ctx.log('bka-q3: package path, IO-bound and in memory');
  const cold = BKA_CONFIGS.map((c) => runQ3(trees, driving, c, poolPages, true));
  const warm = BKA_CONFIGS.map((c) => runQ3(trees, driving, c, allPages, false));
  const bka6 = BKA_CONFIGS[3] as BkaConfig;
  const base = BKA_CONFIGS[0] as BkaConfig;
  const sizes = ctx.quick ? [32 * K, 256 * K, 4 * M] : [256 * K, 1 * M, 4 * M, 16 * M, 64 * M];
  const sweep = sizes.map((s) =>
    runQ3(
      trees,
      driving,
      { ...bka6, label: `BKA ${s / K}K`, join_buffer_size: s, mrr_buffer_size: s },
      poolPages,
      true,
    ),
  );
  const fractions = ctx.quick ? [0.08, 1] : [0.08, 0.2, 0.5, 1];
  const pools = fractions.map((f) => {
    const pages = Math.max(64, Math.round(trees.pages * f));
    return {
      fraction: f,
      pages,
      base: runQ3(trees, driving, base, pages, true),
      bka: runQ3(trees, driving, bka6, pages, true),
    };
  });
  const answer = cold[0]?.top ?? [];
  const same = (r: Q3Run): boolean => JSON.stringify(r.top) === JSON.stringify(answer);
  const answersAgree = [...cold, ...warm, ...sweep].every(same);

  const files = TpchFiles.shared(sf, ctx.log);
  const sqlText = tpchVariant('q3-force-index').answer;
  const targets: SqlTarget[] = [new EngineTarget(files)];
  const binaries = findMariaDb();
  let mariaNote = MARIADB_ABSENT;
  const sql = new Map<string, SqlConfigRuns>();
  try {
    if (binaries !== undefined) {
      const { server, load } = await startMariaDbTpch(binaries, files, ctx.log);
      targets.push(new MariaDbTarget(server));
      mariaNote = `${binaries.version}, ${(load.bytes / M).toFixed(1)} MiB of data and indexes`;
    } else ctx.log(MARIADB_ABSENT);
    for (const t of targets) {
      const rows = await t
        .query(
          "SELECT SUM(data_length + index_length) FROM information_schema.TABLES WHERE table_schema = 'dbt3'",
        )
        .catch(() => [] as string[][]);
      const dataBytes = t.name === 'enginekit' ? files.dbBytes : Number(rows[0]?.[0] ?? files.dbBytes);
      ctx.log(`bka-q3: ${t.name}, in memory and IO-bound`);
      sql.set(
        t.name,
        await runSqlConfigs(t, BKA_CONFIGS, bkaStatements, sqlText, dataBytes, ctx.quick ? 1 : 3, {
          // --quick: the engine's path at the baseline and one BKA level (it does not act on them yet).
          only: (i) => !ctx.quick || t.name !== 'enginekit' || i === 0 || i === 3,
        }),
      );
    }
  } finally {
    for (const t of targets) await t.close();
  }
  const engine = sql.get('enginekit');
  const maria = sql.get('MariaDB');
  const sqlSame = (r: { answer: readonly (readonly string[])[] } | undefined): boolean =>
    r === undefined ||
    (r.answer.length === answer.length &&
      r.answer.every((row, i) => row[0] === answer[i]?.[0] && row[1] === answer[i]?.[1]));
  const engineAgrees = engine?.cold.every(sqlSame) ?? false;
  const mariaAgrees = maria === undefined ? null : maria.cold.every(sqlSame);

  const timeRows = BKA_CONFIGS.map((c, i) => ({
    config: c.label,
    ran: `${cold[i]?.algorithm}${cold[i]?.grantedBytes ? `, ${Math.round((cold[i]?.grantedBytes ?? 0) / K)}K buffer` : ''}`,
    pkgModeledS: round((cold[i]?.modeledMs ?? 0) / 1000, 2),
    pkgCpuMs: round(cold[i]?.cpuMs ?? 0, 1),
    pkgPages: cold[i]?.counters.Innodb_pages_read ?? 0,
    pkgMemCpuMs: round(warm[i]?.cpuMs ?? 0, 1),
    sqlColdMs: engine?.cold[i] ? round(engine.cold[i].ms, 1) : null,
    sqlModeledS: engine?.cold[i] ? round((engine.cold[i].modeledMs ?? 0) / 1000, 2) : null,
    sqlWarmMs: engine?.warm[i] ? round(engine.warm[i].ms, 1) : null,
    mariaColdMs: maria?.cold[i] ? round(maria.cold[i].ms, 1) : null,
    mariaWarmMs: maria?.warm[i] ? round(maria.warm[i].ms, 1) : null,
    mariaPages: maria?.cold[i]?.counters.Innodb_pages_read ?? null,
  }));
  const sweepRows = sweep.map((r, i) => ({
    join_buffer_size: `${(sizes[i] as number) / K}K`,
    fills: r.counters.joinBufferFills ?? 0,
    refills: r.counters.Handler_mrr_rowid_refills ?? 0,
    pages: r.counters.Innodb_pages_read ?? 0,
    readAhead: r.counters.Innodb_buffer_pool_read_ahead ?? 0,
    modeledS: round(r.modeledMs / 1000, 2),
  }));
  const poolRows = pools.map((p) => ({
    pool: `${Math.round(p.fraction * 100)} %`,
    pages: p.pages,
    basePages: p.base.counters.Innodb_pages_read ?? 0,
    bkaPages: p.bka.counters.Innodb_pages_read ?? 0,
    baseS: round(p.base.modeledMs / 1000, 2),
    bkaS: round(p.bka.modeledMs / 1000, 2),
    ratio: round(p.base.modeledMs / Math.max(1e-9, p.bka.modeledMs), 2),
  }));

  const pagesBase = cold[0]?.counters.Innodb_pages_read ?? 0;
  const pagesBka = cold[3]?.counters.Innodb_pages_read ?? 0;
  const claims: Claim[] = [
    {
      text: 'IO-bound, BKA reads fewer pages than the nested-loop baseline',
      post: 'Innodb_pages_read 329,115 (MySQL 5.5) → 144,798 (MariaDB 5.5, 6M buffers); 2534 s → under a minute',
      ours: `pages read ${pagesBase} → ${pagesBka}; modeled ${round((cold[0]?.modeledMs ?? 0) / 1000, 1)} s → ${round((cold[3]?.modeledMs ?? 0) / 1000, 1)} s`,
      holds: pagesBka < pagesBase && (cold[3]?.modeledMs ?? 0) < (cold[0]?.modeledMs ?? 0),
    },
    {
      text: 'a join buffer above join_buffer_space_limit is cut down to fit it (optimize_join_buffer_size=on)',
      post: 'the post raised both buffers to 6M; MariaDB 10.x caps all join buffers of a query at 2M by default',
      ours: `6M asked, ${Math.round((cold[2]?.grantedBytes ?? 0) / K)}K granted under the 2M limit, ${Math.round((cold[3]?.grantedBytes ?? 0) / K)}K once raised`,
      holds: (cold[2]?.grantedBytes ?? 0) <= LIMIT && (cold[3]?.grantedBytes ?? 0) === 6 * M,
    },
    {
      text: 'a bigger join buffer means fewer fills and fewer MRR rounds',
      post: 'Handler_mrr_init 1133 → 1 and rowid refills 22 → 0 from the default to 6M buffers',
      ours: `fills ${sweepRows.map((r) => `${r.join_buffer_size} ${r.fills}`).join(', ')}`,
      holds: sweepRows.every((r, i) => i === 0 || r.fills <= (sweepRows[i - 1]?.fills ?? 0)),
    },
    {
      text: 'in memory BKA makes little difference',
      post: 'in-memory times within a few tenths of a second of each other',
      ours: `CPU ms ${timeRows.map((r) => r.pkgMemCpuMs).join(' / ')} (one warm run each)`,
      holds: null,
    },
    {
      text: 'every path gives the same answer (top 10 orders by revenue)',
      post: '—',
      ours: `packages ${answersAgree ? 'agree' : 'DIFFER'}; engine SQL ${engineAgrees ? 'agrees' : 'DIFFERS'}${mariaAgrees === null ? '' : `; MariaDB ${mariaAgrees ? 'agrees' : 'DIFFERS'}`}`,
      holds: answersAgree && engineAgrees && mariaAgrees !== false,
    },
  ];
  const rejected = [...new Set(engine?.cold.flatMap((r) => r?.rejected ?? []) ?? [])];
  const tables: Table[] = [
    counterTable({
      id: 'counters-io',
      title: `IO-bound counters of Q3 (SF ${sf}, cold pool at 8 % of the data): the post, ours (package path), MariaDB`,
      note: `Ours: ${driving.length} driving orders (AUTOMOBILE, before 1995-03-09, in customer order) joined to lineitem through i_l_orderkey: nested loops (each entry's row fetched at once) or BKA/BKAH over DS-MRR with key-ordered scan; ${trees.pages} pages, pool ${poolPages}, hdd model. MariaDB: ${mariaNote}.`,
      postLabels: ['MySQL 5.5', 'MariaDB 5.5', 'MariaDB 5.5 6M'],
      post: POST,
      counters: ['joinBufferFills', ...COUNTERS],
      labels: { joinBufferFills: 'join buffer fills' },
      configs: BKA_CONFIGS,
      ours: cold.map((r) => r.counters),
      maria,
    }),
    {
      id: 'time',
      title:
        'Query time per configuration: IO-bound (packages: I/O modeled, CPU measured; MariaDB: wall on the real disk) and in memory',
      columns: [
        { key: 'config', label: 'configuration' },
        { key: 'ran', label: 'ran as' },
        { key: 'pkgModeledS', label: 'packages modeled I/O s', digits: 2 },
        { key: 'pkgCpuMs', label: 'packages CPU ms (cold)', digits: 1 },
        { key: 'pkgPages', label: 'packages pages read' },
        { key: 'pkgMemCpuMs', label: 'packages CPU ms (warm)', digits: 1 },
        { key: 'sqlColdMs', label: 'engine SQL cold ms', digits: 1 },
        { key: 'sqlModeledS', label: 'engine SQL modeled I/O s', digits: 2 },
        { key: 'sqlWarmMs', label: 'engine SQL warm ms', digits: 1 },
        { key: 'mariaColdMs', label: 'MariaDB cold ms', digits: 1 },
        { key: 'mariaWarmMs', label: 'MariaDB warm ms', digits: 1 },
        { key: 'mariaPages', label: 'MariaDB pages read' },
      ],
      rows: timeRows,
      note: `${sqlNote(engine)}${rejected.length ? ` The engine refused: ${rejected.join('; ')}.` : ''}`,
    },
    {
      id: 'join-buffer-sweep',
      title: 'join_buffer_size sweep (BKA, mrr_buffer_size alike, limit raised), IO-bound, package path',
      columns: [
        { key: 'join_buffer_size', label: 'join_buffer_size' },
        { key: 'fills', label: 'buffer fills' },
        { key: 'refills', label: 'Handler_mrr_rowid_refills' },
        { key: 'pages', label: 'pages read' },
        { key: 'readAhead', label: 'read-ahead' },
        { key: 'modeledS', label: 'modeled I/O s', digits: 2 },
      ],
      rows: sweepRows,
    },
    {
      id: 'pool-sweep',
      title: 'Pool size sweep: baseline vs BKA 6M, cold, package path',
      columns: [
        { key: 'pool', label: 'pool (of the data)' },
        { key: 'pages', label: 'pool pages' },
        { key: 'basePages', label: 'baseline pages read' },
        { key: 'bkaPages', label: 'BKA pages read' },
        { key: 'baseS', label: 'baseline modeled s', digits: 2 },
        { key: 'bkaS', label: 'BKA modeled s', digits: 2 },
        { key: 'ratio', label: 'baseline / BKA (×)', digits: 2 },
      ],
      rows: poolRows,
    },
  ];
  const charts: Chart[] = [
    configBars(
      'io-time',
      'IO-bound Q3, ours: modeled I/O seconds on the hdd model (package path)',
      'modeled I/O s',
      timeRows,
      [{ name: 'packages (modeled hdd)', y: (r) => r.pkgModeledS }],
    ),
    // MariaDB's wall seconds on this machine's disk are another scale: a panel of their own
    ...(maria === undefined
      ? []
      : [
          configBars(
            'io-time-mariadb',
            "IO-bound Q3, MariaDB: wall seconds of the cold query on this machine's disk",
            'wall s',
            timeRows,
            [{ name: 'MariaDB (wall)', y: (r) => (r.mariaColdMs === null ? null : r.mariaColdMs / 1000) }],
          ),
        ]),
    configBars('pages-read', 'IO-bound Q3: Innodb_pages_read, ours vs MariaDB', 'pages read', timeRows, [
      { name: 'ours (packages)', y: (r) => r.pkgPages },
      { name: 'MariaDB', y: (r) => r.mariaPages, when: maria !== undefined },
    ]),
    {
      id: 'buffer-sweep',
      kind: 'lines',
      title: 'join_buffer_size sweep (BKA, IO-bound): modeled I/O seconds',
      xLabel: 'join_buffer_size KiB (log scale)',
      yLabel: 'modeled s',
      xScale: 'log',
      series: [
        {
          name: 'modeled I/O s',
          points: sweepRows.map((r, i) => ({ x: (sizes[i] as number) / K, y: r.modeledS })),
        },
      ],
    },
    {
      id: 'pool-sweep',
      kind: 'lines',
      title: 'Pool size sweep: modeled I/O seconds, baseline vs BKA',
      xLabel: 'pool, % of the data',
      yLabel: 'modeled s',
      series: [
        {
          name: 'baseline',
          points: poolRows.map((r, i) => ({ x: (fractions[i] as number) * 100, y: r.baseS })),
        },
        {
          name: 'BKA 6M',
          points: poolRows.map((r, i) => ({ x: (fractions[i] as number) * 100, y: r.bkaS })),
        },
      ],
    },
  ];
  return {
    config: {
      sf,
      pageSize: PAGE,
      tablespacePages: trees.pages,
      poolPages,
      poolFraction: 0.08,
      drivingOrders: driving.length,
      configs: BKA_CONFIGS,
      joinBufferSweep: sizes,
      poolSweep: fractions,
      paths: {
        packages:
          'ran: @enginekit/join-algos BKA/BKAH over @enginekit/mrr acts on join_cache_level and the buffers',
        engineSql: engine?.acted
          ? 'ran, and acts on the switches'
          : 'ran; the engine does not act on join_cache_level/BKA yet',
        mariadb: binaries?.version ?? 'not installed',
      },
      query: sqlText,
    },
    claims,
    tables,
    charts,
    data: { answer, packagesCold: cold, packagesWarm: warm, sweep, pools, engine, mariadb: maria },
  };
}

export const bkaQ3: Experiment = {
  name: 'bka-q3',
  title: 'Batched Key Access on TPC-H Q3: BNL/NLJ vs BKA vs BKAH, buffer and pool sweeps',
  post: {
    title: 'Join optimizations in MySQL 5.6 and MariaDB 5.5 (TPC-H Q3 with FORCE INDEX (i_l_orderkey), SF 2)',
    sources: [POSTS.joins],
    claim:
      'IO-bound, BKA batches the lineitem lookups and reads them through MRR in primary-key order: the query falls from 2534 s to under a minute, provided both join_buffer_size and mrr_buffer_size are raised; in memory it changes little, and hash join or key-ordered scan add nothing.',
  },
  options: '--sf N (default 0.1; 0.01 with --quick)',
  run,
};
