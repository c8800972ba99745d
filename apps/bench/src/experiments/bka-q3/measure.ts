import { tpchVariant } from '@enginekit/tpch';
import type { ExperimentContext } from '../../experiment.js';
import { buildDbt3Trees, PAGE } from '../../internal/dbt3-trees.js';
import { COLD_FRACTION, runSqlConfigs, type SqlConfigRuns } from '../../internal/sql-configs.js';
import { TpchFiles } from '../../internal/tpch-files.js';
import { findMariaDb, MARIADB_ABSENT } from '../../peers/mariadb.js';
import { startMariaDbTpch } from '../../peers/mariadb-tpch.js';
import { EngineTarget, MariaDbTarget, type SqlTarget } from '../../peers/sql-target.js';
import { BKA_CONFIGS, K, M } from './configs.js';
import { type BkaConfig, type Q3Run, q3Driving, runQ3 } from './q3-packages.js';

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

/** A size as MariaDB's EXPLAIN FORMAT=JSON writes it ("512KiB", "6MiB", "2Mb") or a number of bytes. */
export function sizeBytes(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|Kb|K|MiB|Mb|M|GiB|Gb|G)?\s*$/i.exec(v);
  if (m === null) return null;
  const unit = (m[2] ?? 'B').toUpperCase()[0];
  return Math.round(Number(m[1]) * (unit === 'K' ? K : unit === 'M' ? M : unit === 'G' ? 1024 * M : 1));
}

/** A table's join buffer in a plan: its size and the join algorithm that fills it. */
export interface JoinBuffer {
  readonly bytes: number;
  /** BNL, BNLH, BKA or BKAH. */
  readonly join: string;
}

/**
 * The join buffer each table of a plan was given, from EXPLAIN FORMAT=JSON: enginekit writes
 * `join_buffer_size` (bytes) and `using_join_buffer` ("…, BKA join") beside the table, MariaDB
 * `buffer_size` ("1536KiB") and `join_type` in the `block-nl-join` around it.
 */
export function joinBuffers(explain: string): Record<string, JoinBuffer> {
  const out: Record<string, JoinBuffer> = {};
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const x of node) walk(x);
    else if (node !== null && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      const table = o.table as Record<string, unknown> | undefined;
      const name = table?.table_name;
      const bytes = sizeBytes(o.buffer_size ?? table?.join_buffer_size);
      const join =
        typeof o.join_type === 'string'
          ? o.join_type
          : (/(\w+) join\)/.exec(String(table?.using_join_buffer ?? ''))?.[1] ?? '?');
      if (typeof name === 'string' && bytes !== null) out[name] = { bytes, join };
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(JSON.parse(explain));
  return out;
}

/** One pool size of the pool sweep: the baseline and BKA 6M, each cold on the hdd model. */
export interface PoolSweepPoint {
  readonly fraction: number;
  readonly base: SqlConfigRuns;
  readonly bka: SqlConfigRuns;
}

/** What `bka-q3` measures; every field survives JSON (`mariadb` is undefined without MariaDB). */
export interface BkaQ3Measurement {
  readonly settings: {
    readonly sf: number;
    readonly runs: number;
    /** join_buffer_size (and mrr_buffer_size) of each point of the buffer sweep. */
    readonly joinBufferSweep: readonly number[];
    /** Pool sizes of the pool sweep, as fractions of the data. */
    readonly poolSweep: readonly number[];
    readonly pageSize: number;
    readonly coldFraction: number;
    readonly configs: readonly BkaConfig[];
    readonly query: string;
    /** The MariaDB found on this machine, or null. */
    readonly mariadb: string | null;
  };
  /** The SQL path on the engine: every configuration in memory, IO-bound on the model and on the disk. */
  readonly engine: SqlConfigRuns;
  readonly mariadb: SqlConfigRuns | undefined;
  /** The private MariaDB's version and bytes of data and indexes, or null without it. */
  readonly mariadbLoad: { readonly version: string; readonly bytes: number } | null;
  /** The buffer sweep per system (`enginekit`, `MariaDB`). */
  readonly sweep: Readonly<Record<string, SqlConfigRuns>>;
  /** Per system, the join buffers EXPLAIN FORMAT=JSON granted under each configuration. */
  readonly granted: Readonly<Record<string, readonly Record<string, JoinBuffer>[]>>;
  /** The pool sweep (the engine only: it needs the hdd model). */
  readonly pools: readonly PoolSweepPoint[];
  /** The package path (the mechanism), per configuration cold and warm. */
  readonly packages: {
    readonly tablespacePages: number;
    readonly poolPages: number;
    readonly drivingOrders: number;
    readonly cold: readonly Q3Run[];
    readonly warm: readonly Q3Run[];
  };
}

async function grantedBuffers(t: SqlTarget, c: BkaConfig, sql: string): Promise<Record<string, JoinBuffer>> {
  for (const s of bkaStatements(c)) await t.exec(s);
  const rows = await t.query(`EXPLAIN FORMAT=JSON ${sql}`);
  return joinBuffers(rows[0]?.[0] ?? '{}');
}

export async function measure(ctx: ExperimentContext): Promise<BkaQ3Measurement> {
  const sf = ctx.sf ?? (ctx.quick ? 0.01 : 1);
  const runs = ctx.quick ? 1 : 3;
  const sizes = ctx.quick ? [32 * K, 256 * K, 4 * M] : [256 * K, 1 * M, 4 * M, 16 * M, 64 * M];
  const fractions = ctx.quick ? [0.08, 1] : [0.08, 0.2, 0.5, 1];
  const bka6 = BKA_CONFIGS[3] as BkaConfig;
  const base = BKA_CONFIGS[0] as BkaConfig;
  const sweepConfigs = sizes.map((size) => ({
    ...bka6,
    label: `BKA ${size / K}K`,
    join_buffer_size: size,
    mrr_buffer_size: size,
  }));

  // The SQL path, which the claims are judged on.
  const files = TpchFiles.shared(sf, ctx.log);
  const sqlText = tpchVariant('q3-force-index').answer;
  const targets: SqlTarget[] = [new EngineTarget(files)];
  const binaries = findMariaDb();
  let mariadbLoad: { readonly version: string; readonly bytes: number } | null = null;
  const sql = new Map<string, SqlConfigRuns>();
  const sweep = new Map<string, SqlConfigRuns>();
  const granted = new Map<string, Record<string, JoinBuffer>[]>();
  const pools: PoolSweepPoint[] = [];
  try {
    if (binaries !== undefined) {
      const { server, load } = await startMariaDbTpch(binaries, files, ctx.log);
      targets.push(new MariaDbTarget(server));
      mariadbLoad = { version: binaries.version, bytes: load.bytes };
    } else ctx.log(MARIADB_ABSENT);
    for (const t of targets) {
      const rows = await t
        .query(
          "SELECT SUM(data_length + index_length) FROM information_schema.TABLES WHERE table_schema = 'dbt3'",
        )
        .catch(() => [] as string[][]);
      const dataBytes = t.name === 'enginekit' ? files.dbBytes : Number(rows[0]?.[0] ?? files.dbBytes);
      ctx.log(`bka-q3: ${t.name}, in memory and IO-bound`);
      sql.set(t.name, await runSqlConfigs(t, BKA_CONFIGS, bkaStatements, sqlText, dataBytes, runs));
      granted.set(t.name, []);
      for (const c of BKA_CONFIGS) granted.get(t.name)?.push(await grantedBuffers(t, c, sqlText));
      ctx.log(`bka-q3: ${t.name}, join_buffer_size sweep`);
      sweep.set(
        t.name,
        await runSqlConfigs(t, sweepConfigs, bkaStatements, sqlText, dataBytes, 1, {
          warm: false,
          disk: false,
        }),
      );
      if (t.models) {
        ctx.log(`bka-q3: ${t.name}, pool sweep on the hdd model`);
        for (const fraction of fractions) {
          const one = (c: BkaConfig): Promise<SqlConfigRuns> =>
            runSqlConfigs(t, [c], bkaStatements, sqlText, dataBytes, 1, {
              warm: false,
              disk: false,
              coldFraction: fraction,
            });
          pools.push({ fraction, base: await one(base), bka: await one(bka6) });
        }
      }
    }
  } finally {
    for (const t of targets) await t.close();
  }

  // The mechanism: join-algos' BKA/BKAH over @enginekit/mrr on btree-sampler trees, the join
  // written out by hand from the qualifying orders, at the same scale and pool fraction.
  ctx.log(`bka-q3: package path (mechanism), building the DBT3 trees at SF ${sf}`);
  const trees = buildDbt3Trees(sf);
  const driving = q3Driving(trees);
  const poolPages = Math.max(64, Math.round(trees.pages * COLD_FRACTION));
  const allPages = trees.pages + 64;
  for (const c of BKA_CONFIGS) runQ3(trees, driving, c, allPages, false); // the JIT's first pass
  const pkg = BKA_CONFIGS.map((c) => runQ3(trees, driving, c, poolPages, true));
  const pkgWarm = BKA_CONFIGS.map((c) => runQ3(trees, driving, c, allPages, false));

  return {
    settings: {
      sf,
      runs,
      joinBufferSweep: sizes,
      poolSweep: fractions,
      pageSize: PAGE,
      coldFraction: COLD_FRACTION,
      configs: BKA_CONFIGS,
      query: sqlText,
      mariadb: binaries?.version ?? null,
    },
    engine: sql.get('enginekit') as SqlConfigRuns,
    mariadb: sql.get('MariaDB'),
    mariadbLoad,
    sweep: Object.fromEntries(sweep),
    granted: Object.fromEntries(granted),
    pools,
    packages: {
      tablespacePages: trees.pages,
      poolPages,
      drivingOrders: driving.length,
      cold: pkg,
      warm: pkgWarm,
    },
  };
}
