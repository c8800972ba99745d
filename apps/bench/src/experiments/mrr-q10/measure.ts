import { tpchVariant } from '@enginekit/tpch';
import type { ExperimentContext } from '../../experiment.js';
import { buildDbt3Trees, PAGE } from '../../internal/dbt3-trees.js';
import { COLD_FRACTION, runSqlConfigs, type SqlConfigRuns } from '../../internal/sql-configs.js';
import { TpchFiles } from '../../internal/tpch-files.js';
import { findMariaDb, MARIADB_ABSENT } from '../../peers/mariadb.js';
import { startMariaDbTpch } from '../../peers/mariadb-tpch.js';
import { EngineTarget, MariaDbTarget, type SqlTarget } from '../../peers/sql-target.js';
import { type Q10Config, type Q10Run, q10Cold, q10Warm } from './q10-packages.js';

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

/** SET statements of one configuration (MariaDB's names; the post's switches). */
export function mrrStatements(c: Q10Config): string[] {
  const on = c.mrr_buffer_size !== undefined;
  return [
    `SET SESSION optimizer_switch='index_condition_pushdown=off,mrr=${on ? 'on' : 'off'},mrr_sort_keys=on,mrr_cost_based=off'`,
    ...(on ? [`SET SESSION mrr_buffer_size=${c.mrr_buffer_size}`] : []),
  ];
}

/** How the private MariaDB was loaded: its version, load and index milliseconds, bytes of data and indexes. */
export interface MariaDbLoadFigures {
  readonly version: string;
  readonly loadMs: number;
  readonly indexMs: number;
  readonly bytes: number;
}

/** What `mrr-q10` measures; every field survives JSON (`mariadb` is undefined without MariaDB). */
export interface MrrQ10Measurement {
  readonly settings: {
    readonly sf: number;
    readonly runs: number;
    readonly pageSize: number;
    readonly coldFraction: number;
    readonly configs: readonly Q10Config[];
    /** The statement the engine ran (MariaDB's adds FORCE INDEX, {@link goodPlan}). */
    readonly query: string;
    /** The MariaDB found on this machine, or null. */
    readonly mariadb: string | null;
  };
  /** The SQL path on the engine: every configuration in memory, IO-bound on the model and on the disk. */
  readonly engine: SqlConfigRuns;
  readonly mariadb: SqlConfigRuns | undefined;
  readonly mariadbLoad: MariaDbLoadFigures | null;
  /** The package path (the mechanism), per configuration cold and warm. */
  readonly packages: {
    readonly tablespacePages: number;
    readonly poolPages: number;
    readonly rows: Readonly<Record<'nation' | 'customer' | 'orders' | 'lineitem', number>>;
    readonly cold: readonly Q10Run[];
    readonly warm: readonly Q10Run[];
  };
}

export async function measure(ctx: ExperimentContext): Promise<MrrQ10Measurement> {
  const sf = ctx.sf ?? (ctx.quick ? 0.01 : 1);
  const runs = ctx.quick ? 1 : 3;
  // The SQL path, which the claims are judged on: the post's statements through the engine's
  // Session, and through a private MariaDB when one is installed.
  const files = TpchFiles.shared(sf, ctx.log);
  const sqlText = tpchVariant('q10-date-add').answer;
  const targets: SqlTarget[] = [new EngineTarget(files)];
  const binaries = findMariaDb();
  let mariadbLoad: MariaDbLoadFigures | null = null;
  const sql = new Map<string, SqlConfigRuns>();
  try {
    if (binaries !== undefined) {
      const { server, load } = await startMariaDbTpch(binaries, files, ctx.log);
      targets.push(new MariaDbTarget(server));
      mariadbLoad = {
        version: binaries.version,
        loadMs: load.loadMs,
        indexMs: load.indexMs,
        bytes: load.bytes,
      };
    } else ctx.log(MARIADB_ABSENT);
    for (const t of targets) {
      const dataBytes = t.name === 'enginekit' ? files.dbBytes : await dataBytesOf(t);
      ctx.log(`mrr-q10: ${t.name}, in memory and IO-bound`);
      const text = t.name === 'MariaDB' ? goodPlan(sqlText) : sqlText;
      sql.set(t.name, await runSqlConfigs(t, MRR_CONFIGS, mrrStatements, text, dataBytes, runs));
    }
  } finally {
    for (const t of targets) await t.close();
  }
  const engine = sql.get('enginekit') as SqlConfigRuns;
  const maria = sql.get('MariaDB');

  // The mechanism: @enginekit/mrr over btree-sampler trees on buffer-pool pages, Q10's good plan
  // written out by hand, at the same scale and pool fraction.
  ctx.log(`mrr-q10: package path (mechanism), building the DBT3 trees at SF ${sf}`);
  const trees = buildDbt3Trees(sf);
  const poolPages = Math.max(64, Math.round(trees.pages * COLD_FRACTION));
  const warm = q10Warm(trees);
  const warmRuns = MRR_CONFIGS.map((cfg) => warm.run(cfg));
  const pkg = MRR_CONFIGS.map((cfg) => q10Cold(trees, poolPages, cfg));

  return {
    settings: {
      sf,
      runs,
      pageSize: PAGE,
      coldFraction: COLD_FRACTION,
      configs: MRR_CONFIGS,
      query: sqlText,
      mariadb: binaries?.version ?? null,
    },
    engine,
    mariadb: maria,
    mariadbLoad,
    packages: { tablespacePages: trees.pages, poolPages, rows: trees.rows, cold: pkg, warm: warmRuns },
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
