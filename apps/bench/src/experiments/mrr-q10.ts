import { medianOf, medianRange } from '../internal/runs.js';
import { POSTS } from '../posts.js';
import { tpchVariant } from '@enginekit/tpch';
import type { Experiment, ExperimentContext, ExperimentOutput } from '../experiment.js';
import { buildDbt3Trees, PAGE } from '../internal/dbt3-trees.js';
import { Q10_COUNTERS, runSqlConfigs, type SqlConfigRuns, sqlNote } from '../internal/sql-configs.js';
import { configBars, counterTable } from '../internal/peer-tables.js';
import { type Q10Config, q10Cold, q10Warm } from '../internal/q10-packages.js';
import { TpchFiles } from '../internal/tpch-files.js';
import { round, spread, timeInterleaved } from '../measure.js';
import { findMariaDb, MARIADB_ABSENT } from '../peers/mariadb.js';
import { startMariaDbTpch } from '../peers/mariadb-tpch.js';
import { EngineTarget, MariaDbTarget, type SqlTarget } from '../peers/sql-target.js';
import type { Chart, Claim, Table } from '../result.js';

const KiB = 1024;
/** mrr off, then on at the post's and the sweep's mrr_buffer_size values. */
export const MRR_CONFIGS: readonly Q10Config[] = [
  { label: 'mrr off' },
  { label: 'mrr 8K', mrr_buffer_size: 8 * KiB },
  { label: 'mrr 32K', mrr_buffer_size: 32 * KiB },
  { label: 'mrr 128K', mrr_buffer_size: 128 * KiB },
  { label: 'mrr 256K', mrr_buffer_size: 256 * KiB },
  { label: 'mrr 4M', mrr_buffer_size: 4096 * KiB },
];

/** The post's IO-bound counters (SF 2, 1 GB pool, cold): MySQL 5.5, MariaDB 5.5 at 256K and 4M. */
const POST: Readonly<Record<string, readonly [number, number, number]>> = {
  Handler_mrr_init: [Number.NaN, 1, 1],
  Handler_mrr_rowid_refills: [Number.NaN, 1, 0],
  Handler_read_key: [508833, 508913, 507516],
  Handler_read_next: [574320, 574320, 572889],
  Handler_read_rnd_next: [136077, 136163, 136435],
  Innodb_buffer_pool_read_ahead: [0, 20920, 23734],
  Innodb_buffer_pool_read_requests: [1361851, 1263290, 1235781],
  Innodb_buffer_pool_reads: [120548, 102672, 76832],
  Innodb_data_read: [Math.round(1.84 * 2 ** 30), Math.round(1.89 * 2 ** 30), Math.round(1.53 * 2 ** 30)],
  Innodb_data_reads: [120552, 103011, 77213],
  Innodb_pages_read: [120548, 123592, 100566],
  Innodb_rows_read: [799239, 914146, 912318],
  Select_scan: [1, 1, 1],
  Sort_scan: [1, 1, 1],
};

/** SET statements of one configuration (MariaDB's names; the post's switches). */
export function mrrStatements(c: Q10Config): string[] {
  const on = c.mrr_buffer_size !== undefined;
  return [
    `SET SESSION optimizer_switch='index_condition_pushdown=off,mrr=${on ? 'on' : 'off'},mrr_sort_keys=on,mrr_cost_based=off'`,
    ...(on ? [`SET SESSION mrr_buffer_size=${c.mrr_buffer_size}`] : []),
  ];
}

async function run(ctx: ExperimentContext): Promise<ExperimentOutput> {
  const sf = ctx.sf ?? (ctx.quick ? 0.01 : 0.1);
  const rounds = ctx.quick ? 1 : 5;
  ctx.log(`mrr-q10: building the DBT3 trees at SF ${sf}`);
  const trees = buildDbt3Trees(sf);
  const poolPages = Math.max(64, Math.round(trees.pages * 0.08));

  // The package path: @enginekit/mrr over btree-sampler trees on buffer-pool pages.
  ctx.log('mrr-q10: package path, in memory (warm pool holding every page)');
  const warm = q10Warm(trees);
  const warmRuns = MRR_CONFIGS.map((c) => warm.run(c));
  const cpu = timeInterleaved(
    MRR_CONFIGS.map((c) => () => void warm.run(c)),
    rounds,
  );
  // After the warm runs, so the cold runs' CPU is not the JIT's first pass.
  ctx.log('mrr-q10: package path, IO-bound (cold pool at 8 % of the tablespace, hdd model)');
  const cold = MRR_CONFIGS.map((c) => q10Cold(trees, poolPages, c));
  const answer = cold[0]?.top ?? [];
  const answersAgree = [...cold, ...warmRuns].every((r) => JSON.stringify(r.top) === JSON.stringify(answer));

  // The SQL path: the post's query text through the engine's Session, and MariaDB when installed.
  const files = TpchFiles.shared(sf, ctx.log);
  const sqlText = tpchVariant('q10-date-add').answer;
  const targets: SqlTarget[] = [new EngineTarget(files)];
  const binaries = findMariaDb();
  let mariaNote = MARIADB_ABSENT;
  const sql = new Map<string, SqlConfigRuns>();
  try {
    if (binaries !== undefined) {
      const { server, load } = await startMariaDbTpch(binaries, files, ctx.log);
      targets.push(new MariaDbTarget(server));
      mariaNote = `${binaries.version}; loaded in ${(load.loadMs / 1000).toFixed(1)} s, indexes ${(load.indexMs / 1000).toFixed(1)} s, ${(load.bytes / 2 ** 20).toFixed(1)} MiB of data and indexes`;
    } else ctx.log(MARIADB_ABSENT);
    for (const t of targets) {
      const dataBytes = t.name === 'enginekit' ? files.dbBytes : await dataBytesOf(t);
      ctx.log(`mrr-q10: ${t.name}, in memory and IO-bound`);
      const text = t.name === 'MariaDB' ? goodPlan(sqlText) : sqlText;
      sql.set(
        t.name,
        await runSqlConfigs(t, MRR_CONFIGS, mrrStatements, text, dataBytes, ctx.quick ? 1 : 3, {
          // --quick: the engine's path at mrr off and the largest buffer (it does not act on mrr yet).
          only: (i) => !ctx.quick || t.name !== 'enginekit' || i === 0 || i === MRR_CONFIGS.length - 1,
        }),
      );
    }
  } finally {
    for (const t of targets) await t.close();
  }

  const engine = sql.get('enginekit');
  const maria = sql.get('MariaDB');
  const engineTop = engine?.cold[0]?.answer ?? [];
  const engineAgrees =
    engineTop.length === answer.length &&
    engineTop.every((r, i) => Number(r[0]) === answer[i]?.[0] && r[2] === answer[i]?.[1]);
  const mariaAgrees =
    maria === undefined
      ? null
      : maria.cold.every((r) => r === undefined || JSON.stringify(r.answer) === JSON.stringify(engineTop));

  const timeRows = MRR_CONFIGS.map((c, i) => {
    const ek = cold[i];
    const e = engine?.cold[i];
    const m = maria?.cold[i];
    return {
      config: c.label,
      pkgCpuMs: round(ek?.cpuMs ?? 0, 1),
      pkgModeledS: round((ek?.modeledMs ?? 0) / 1000, 2),
      pkgPages: ek?.counters.Innodb_pages_read ?? 0,
      pkgVsOff: round((cold[0]?.modeledMs ?? 0) / Math.max(1e-9, ek?.modeledMs ?? 0), 2),
      sqlMs: e ? round(e.ms, 1) : null,
      sqlModeledS: e ? round((e.modeledMs ?? 0) / 1000, 2) : null,
      sqlPages: e?.counters.Innodb_pages_read ?? null,
      mariaMs: m ? round(m.ms, 1) : null,
      mariaPages: m?.counters.Innodb_pages_read ?? null,
    };
  });
  const memRows = MRR_CONFIGS.map((c, i) => ({
    config: c.label,
    pkgCpuMs: round(cpu[i]?.median ?? 0, 2),
    pkgMin: round(cpu[i]?.min ?? 0, 2),
    pkgMax: round(cpu[i]?.max ?? 0, 2),
    pkgVsOff: round((cpu[i]?.median ?? 0) / Math.max(1e-9, cpu[0]?.median ?? 0), 2),
    pkgRequests: warmRuns[i]?.counters.Innodb_buffer_pool_read_requests ?? 0,
    sqlMs: engine?.warm[i] ? round(engine.warm[i].ms, 1) : null,
    mariaMs: maria?.warm[i] ? round(maria.warm[i].ms, 1) : null,
  }));

  const refills = (i: number): number => cold[i]?.counters.Handler_mrr_rowid_refills ?? -1;
  const last = MRR_CONFIGS.length - 1;
  const rowids = cold[last]?.counters.Handler_read_rnd ?? 0;
  // DS-MRR fills its buffer, sorts, reads, and refills: ceil(row ids / capacity) fills in all.
  const refillsAsModel = MRR_CONFIGS.every((_, i) => {
    if (i === 0) return refills(0) === 0;
    const cap = cold[i]?.rowIdCapacity ?? 0;
    return cap > 0 && refills(i) === Math.max(0, Math.ceil(rowids / cap) - 1);
  });
  const pagesOff = cold[0]?.counters.Innodb_pages_read ?? 0;
  const pagesOn = cold[last]?.counters.Innodb_pages_read ?? 0;
  const claims: Claim[] = [
    {
      text: 'rowid refills fall to 0 once mrr_buffer_size holds every row id of the range',
      post: 'MariaDB 5.5: Handler_mrr_rowid_refills 1 at 256K, 0 at 4M (SF 2)',
      ours: `${rowids} row ids; refills ${MRR_CONFIGS.slice(1)
        .map((c, j) => `${c.label.slice(4)} ${refills(j + 1)} (holds ${cold[j + 1]?.rowIdCapacity})`)
        .join(', ')}`,
      holds: refillsAsModel && refills(last) === 0,
    },
    {
      text: 'IO-bound, MRR reads the orders rows in primary-key order: fewer pages read and less I/O time',
      post: 'Innodb_pages_read 123,592 → 100,566, read-ahead 0 → 23,734; query ~11 min → under a minute',
      ours: `pages read ${pagesOff} → ${pagesOn}, read-ahead ${cold[0]?.counters.Innodb_buffer_pool_read_ahead} → ${cold[last]?.counters.Innodb_buffer_pool_read_ahead}; modeled ${round((cold[0]?.modeledMs ?? 0) / 1000, 1)} s → ${round((cold[last]?.modeledMs ?? 0) / 1000, 1)} s`,
      holds: pagesOn < pagesOff && (cold[last]?.modeledMs ?? 0) < (cold[0]?.modeledMs ?? 0),
    },
    {
      text: 'in memory MRR does not help: its buffering costs a little CPU',
      post: 'MySQL 5.6: +0.02 s with MRR on a warm 6 GB pool',
      ours: `CPU ${round(cpu[0]?.median ?? 0, 1)} ms off vs ${round(cpu[last]?.median ?? 0, 1)} ms at 4M (×${round((cpu[last]?.median ?? 0) / Math.max(1e-9, cpu[0]?.median ?? 0), 2)})`,
      holds: null,
    },
    {
      text: 'every path gives the same answer (top 20 customers and revenue)',
      post: '—',
      ours: `packages ${answersAgree ? 'agree' : 'DIFFER'} across configurations; engine SQL ${engineAgrees ? 'agrees' : 'DIFFERS'}${mariaAgrees === null ? '' : `; MariaDB ${mariaAgrees ? 'agrees' : 'DIFFERS'}`}`,
      holds: answersAgree && engineAgrees && mariaAgrees !== false,
    },
  ];

  const tables: Table[] = [
    counterTable({
      id: 'counters-io',
      title: `IO-bound counters of Q10 (SF ${sf}, cold pool at 8 % of the data): the post, ours (package path), MariaDB`,
      note: `Ours: i_o_orderdate range → orders by primary key (DS-MRR when on, rowid-ordered) → lineitem, customer, nation by key, over ${trees.pages} pages of 16 KiB, pool ${poolPages} pages, hdd model, deterministic. Select_scan/Sort_scan are the server's, not the plan's: the package path has no server layer (0). MariaDB: ${mariaNote}; run with FORCE INDEX (i_o_orderdate) on orders (the post's good plan: as written, 10.11 takes the bad one and never uses MRR).`,
      postLabels: ['MySQL 5.5', 'MariaDB 5.5 256K', 'MariaDB 5.5 4M'],
      post: POST,
      counters: Q10_COUNTERS,
      configs: MRR_CONFIGS,
      ours: cold.map((r) => r.counters),
      maria,
    }),
    {
      id: 'time-io',
      title:
        'IO-bound query time: package path (CPU measured, I/O modeled), engine SQL path, MariaDB (wall, real disk, O_DIRECT)',
      columns: [
        { key: 'config', label: 'configuration' },
        { key: 'pkgCpuMs', label: 'packages CPU ms', digits: 1 },
        { key: 'pkgModeledS', label: 'packages modeled I/O s', digits: 2 },
        { key: 'pkgPages', label: 'packages pages read' },
        { key: 'pkgVsOff', label: 'I/O vs off (×)', digits: 2 },
        { key: 'sqlMs', label: 'engine SQL ms', digits: 1 },
        { key: 'sqlModeledS', label: 'engine SQL modeled I/O s', digits: 2 },
        { key: 'sqlPages', label: 'engine SQL pages read' },
        { key: 'mariaMs', label: 'MariaDB ms', digits: 1 },
        { key: 'mariaPages', label: 'MariaDB pages read' },
      ],
      rows: timeRows,
      note: sqlNote(engine),
    },
    {
      id: 'time-memory',
      title: `In memory (warm pool holding every page): CPU ms (${medianOf(rounds, 'interleaved round')}), package path; wall ms of the SQL paths`,
      columns: [
        { key: 'config', label: 'configuration' },
        { key: 'pkgCpuMs', label: 'packages CPU ms', digits: 2 },
        { key: 'pkgMin', label: 'min', digits: 2 },
        { key: 'pkgMax', label: 'max', digits: 2 },
        { key: 'pkgVsOff', label: 'vs off (×)', digits: 2 },
        { key: 'pkgRequests', label: 'page requests' },
        { key: 'sqlMs', label: 'engine SQL ms', digits: 1 },
        { key: 'mariaMs', label: 'MariaDB ms', digits: 1 },
      ],
      rows: memRows,
    },
  ];

  const charts: Chart[] = [
    configBars(
      'io-time',
      'IO-bound Q10, ours: modeled I/O seconds on the hdd model per configuration',
      'modeled I/O s',
      timeRows,
      [
        { name: 'packages (modeled hdd)', y: (r) => r.pkgModeledS },
        { name: 'engine SQL (modeled hdd)', y: (r) => r.sqlModeledS, when: engine !== undefined },
      ],
    ),
    // MariaDB's wall seconds on this machine's disk are another scale: a panel of their own
    ...(maria === undefined
      ? []
      : [
          configBars(
            'io-time-mariadb',
            "IO-bound Q10, MariaDB: wall seconds of the cold query on this machine's disk",
            'wall s',
            timeRows,
            [{ name: 'MariaDB (wall)', y: (r) => (r.mariaMs === null ? null : r.mariaMs / 1000) }],
          ),
        ]),
    configBars('pages-read', 'IO-bound Q10: Innodb_pages_read, ours vs MariaDB', 'pages read', timeRows, [
      { name: 'ours (packages)', y: (r) => r.pkgPages },
      { name: 'MariaDB', y: (r) => r.mariaPages, when: maria !== undefined },
    ]),
    {
      id: 'buffer-sweep',
      kind: 'lines',
      title: 'mrr_buffer_size sweep: Handler_mrr_rowid_refills',
      xLabel: 'mrr_buffer_size KiB (log scale)',
      yLabel: 'refills',
      xScale: 'log',
      series: [
        {
          name: 'ours',
          points: MRR_CONFIGS.slice(1).map((c, j) => ({
            x: (c.mrr_buffer_size ?? 0) / KiB,
            y: refills(j + 1),
          })),
        },
        ...(maria
          ? [
              {
                name: 'MariaDB',
                points: MRR_CONFIGS.slice(1).map((c, j) => ({
                  x: (c.mrr_buffer_size ?? 0) / KiB,
                  y: maria.cold[j + 1]?.counters.Handler_mrr_rowid_refills ?? 0,
                })),
              },
            ]
          : []),
      ],
    },
    {
      id: 'memory-cpu',
      kind: 'bars',
      title: `In memory: CPU ms per run (package path), ${medianRange(rounds)}`,
      xLabel: 'configuration',
      yLabel: 'CPU ms',
      series: [
        {
          name: 'packages',
          points: memRows.map((r) => ({ x: r.config, y: r.pkgCpuMs, low: r.pkgMin, high: r.pkgMax })),
        },
      ],
    },
  ];

  return {
    config: {
      sf,
      rounds,
      pageSize: PAGE,
      tablespacePages: trees.pages,
      poolPages,
      poolFraction: 0.08,
      disk: 'hdd model (buffer-pool SimulatedDevice)',
      configs: MRR_CONFIGS,
      paths: {
        packages: 'ran: @enginekit/mrr acts on mrr and mrr_buffer_size',
        engineSql: engine?.acted
          ? 'ran, and the switches changed its counters'
          : 'ran; the engine does not act on mrr yet (same counters for every configuration)',
        mariadb: binaries?.version ?? 'not installed',
      },
      query: sqlText,
    },
    claims,
    tables,
    charts,
    data: {
      rows: trees.rows,
      answer,
      packagesCold: cold,
      packagesWarmCpu: cpu.map((s, i) => ({ config: MRR_CONFIGS[i]?.label, ...spread(s.samples) })),
      engine,
      mariadb: maria,
    },
  };
}

/**
 * The post's good plan for MariaDB: 10.11 picks the bad one (nation → customer → orders by
 * i_o_custkey) for the text as written at these scale factors, which never reaches MRR, so its
 * run gets `FORCE INDEX (i_o_orderdate)` on orders: the range on the quarter, as in the post.
 */
export function goodPlan(sql: string): string {
  return sql.replace(/\borders,/, 'orders FORCE INDEX (i_o_orderdate),');
}

async function dataBytesOf(t: SqlTarget): Promise<number> {
  const rows = await t.query(
    "SELECT SUM(data_length + index_length) FROM information_schema.TABLES WHERE table_schema = 'dbt3'",
  );
  return Number(rows[0]?.[0] ?? 0);
}

export const mrrQ10: Experiment = {
  name: 'mrr-q10',
  title: 'Multi-Range Read on TPC-H Q10: mrr off vs on across mrr_buffer_size, in memory and IO-bound',
  post: {
    title: 'MRR in MySQL 5.6 and MariaDB 5.5 (TPC-H Q10, SF 2)',
    sources: [POSTS.mrr],
    claim:
      'With the pool far smaller than the data and cold, MRR sorts the primary keys of a secondary-index range, so reads become sequential, read-ahead kicks in and the query drops from minutes to under one; a buffer that holds every row id needs no refill. In memory it gains nothing.',
  },
  options: '--sf N (default 0.1; 0.01 with --quick)',
  run,
};
