import { hostname } from 'node:os';
import { SqlError } from '../sql/errors.js';
import { checkTimeZone, systemZoneName } from '../exec/time-zone.js';
import { collationByName } from '../storage/collation.js';

/**
 * System variables with MySQL/MariaDB names and defaults. Each has a type that checks and
 * normalizes a SET value (error 1231/1232 as MySQL), and a scope. `optimizer_switch` is parsed
 * flag by flag as MySQL's `Sys_var_flagset` does: `flag=on|off|default` items, or `default`.
 */
type Kind = 'int' | 'double' | 'bool' | 'str' | 'enum' | 'flags' | 'trace';

interface VarDef {
  readonly kind: Kind;
  readonly def: string | number;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly string[];
  readonly readOnly?: boolean;
  readonly globalOnly?: boolean;
}

/** MariaDB 10.11's optimizer_switch flags and defaults (the posts' server), plus MySQL 8.0's own. */
export const OPTIMIZER_FLAGS: Readonly<Record<string, 'on' | 'off'>> = {
  index_merge: 'on',
  index_merge_union: 'on',
  index_merge_sort_union: 'on',
  index_merge_intersection: 'on',
  index_merge_sort_intersection: 'off',
  engine_condition_pushdown: 'off',
  index_condition_pushdown: 'on',
  derived_merge: 'on',
  derived_with_keys: 'on',
  firstmatch: 'on',
  loosescan: 'on',
  materialization: 'on',
  in_to_exists: 'on',
  semijoin: 'on',
  partial_match_rowid_merge: 'on',
  partial_match_table_scan: 'on',
  subquery_cache: 'on',
  mrr: 'off',
  mrr_cost_based: 'off',
  mrr_sort_keys: 'off',
  outer_join_with_cache: 'on',
  semijoin_with_cache: 'on',
  join_cache_incremental: 'on',
  join_cache_hashed: 'on',
  join_cache_bka: 'on',
  optimize_join_buffer_size: 'on',
  table_elimination: 'on',
  extended_keys: 'on',
  exists_to_in: 'on',
  orderby_uses_equalities: 'on',
  condition_pushdown_for_derived: 'on',
  split_materialized: 'on',
  condition_pushdown_for_subquery: 'on',
  rowid_filter: 'on',
  condition_pushdown_from_having: 'on',
  block_nested_loop: 'on',
  batched_key_access: 'off',
  hash_join: 'on',
};

const DEFAULT_SWITCH = Object.entries(OPTIMIZER_FLAGS)
  .map(([k, v]) => `${k}=${v}`)
  .join(',');

export const VARIABLES: Readonly<Record<string, VarDef>> = {
  autocommit: { kind: 'bool', def: 1 },
  big_tables: { kind: 'bool', def: 0 },
  character_set_client: { kind: 'str', def: 'utf8mb4' },
  character_set_connection: { kind: 'str', def: 'utf8mb4' },
  character_set_database: { kind: 'str', def: 'utf8mb4' },
  character_set_filesystem: { kind: 'str', def: 'binary' },
  character_set_results: { kind: 'str', def: 'utf8mb4' },
  character_set_server: { kind: 'str', def: 'utf8mb4' },
  character_set_system: { kind: 'str', def: 'utf8mb3', readOnly: true, globalOnly: true },
  collation_connection: { kind: 'str', def: 'utf8mb4_general_ci' },
  collation_database: { kind: 'str', def: 'utf8mb4_general_ci' },
  collation_server: { kind: 'str', def: 'utf8mb4_general_ci' },
  connect_timeout: { kind: 'int', def: 10, min: 2, max: 31536000, globalOnly: true },
  /** MySQL's connection_control plugin (MariaDB has none): see server/host-cache.ts. */
  connection_control_failed_connections_threshold: {
    kind: 'int',
    def: 3,
    min: 0,
    max: 2147483647,
    globalOnly: true,
  },
  connection_control_max_connection_delay: {
    kind: 'int',
    def: 2147483647,
    min: 1000,
    max: 2147483647,
    globalOnly: true,
  },
  connection_control_min_connection_delay: {
    kind: 'int',
    def: 1000,
    min: 1000,
    max: 2147483647,
    globalOnly: true,
  },
  div_precision_increment: { kind: 'int', def: 4, min: 0, max: 30 },
  eq_range_index_dive_limit: { kind: 'int', def: 10, min: 0, max: 4294967295 },
  /**
   * Not a MySQL/MariaDB variable: which algorithm runs a join MariaDB would run by BNLH (its hashed
   * join buffer, `join_cache_level` 3–4 and 7–8 where BKA does not apply). `bnlh` is MariaDB's;
   * `grace_hash` builds a hash table of the inner table instead, spilling both sides to partition
   * files past `join_buffer_size`; `sort_merge` sorts both sides by the join key and merges them.
   */
  enginekit_hash_join_algorithm: { kind: 'enum', def: 'bnlh', values: ['bnlh', 'grace_hash', 'sort_merge'] },
  expand_fast_index_creation: { kind: 'bool', def: 0 },
  innodb_buffer_pool_size: { kind: 'int', def: 134217728, readOnly: true, globalOnly: true },
  innodb_buffer_pool_instances: { kind: 'int', def: 1, readOnly: true, globalOnly: true },
  innodb_page_size: { kind: 'int', def: 16384, readOnly: true, globalOnly: true },
  innodb_sort_buffer_size: { kind: 'int', def: 1048576, readOnly: true, globalOnly: true },
  innodb_stats_auto_recalc: { kind: 'bool', def: 1, globalOnly: true },
  innodb_stats_method: {
    kind: 'enum',
    def: 'nulls_equal',
    values: ['nulls_equal', 'nulls_unequal', 'nulls_ignored'],
    globalOnly: true,
  },
  innodb_stats_persistent: { kind: 'bool', def: 1, globalOnly: true },
  innodb_stats_persistent_sample_pages: {
    kind: 'int',
    def: 20,
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    globalOnly: true,
  },
  innodb_stats_transient_sample_pages: {
    kind: 'int',
    def: 8,
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    globalOnly: true,
  },
  innodb_use_legacy_cardinality_algorithm: { kind: 'bool', def: 1, globalOnly: true },
  innodb_lock_wait_timeout: { kind: 'int', def: 50, min: 1, max: 1073741824 },
  innodb_purge_batch_size: { kind: 'int', def: 300, min: 1, max: 5000, globalOnly: true },
  join_buffer_size: { kind: 'int', def: 262144, min: 128, max: Number.MAX_SAFE_INTEGER },
  join_buffer_space_limit: { kind: 'int', def: 2097152, min: 2048, max: Number.MAX_SAFE_INTEGER },
  join_cache_level: { kind: 'int', def: 2, min: 0, max: 8 },
  lock_wait_timeout: { kind: 'int', def: 31536000, min: 1, max: 31536000 },
  lower_case_table_names: { kind: 'int', def: 0, readOnly: true, globalOnly: true },
  max_allowed_packet: { kind: 'int', def: 16777216, min: 1024, max: 1073741824 },
  max_connect_errors: { kind: 'int', def: 100, min: 1, max: 4294967295, globalOnly: true },
  max_connections: { kind: 'int', def: 151, min: 1, max: 100000, globalOnly: true },
  /** MariaDB's bound on a recursive CTE's iterations: the recursion stops after this many. */
  max_statement_time: { kind: 'double', def: 0, min: 0, max: 31536000 },
  max_recursive_iterations: { kind: 'int', def: 1000, min: 0, max: 4294967295 },
  max_prepared_stmt_count: { kind: 'int', def: 16382, min: 0, max: 4294967295, globalOnly: true },
  max_heap_table_size: { kind: 'int', def: 16777216, min: 16384, max: Number.MAX_SAFE_INTEGER },
  max_sort_length: { kind: 'int', def: 1024, min: 4, max: 8388608 },
  mrr_buffer_size: { kind: 'int', def: 262144, min: 8192, max: 2147483647 },
  net_read_timeout: { kind: 'int', def: 30, min: 1, max: 31536000 },
  /** Seconds a result may wait for its client to read before the connection is dropped. */
  net_write_timeout: { kind: 'int', def: 60, min: 1, max: 31536000 },
  optimizer_prune_level: { kind: 'int', def: 1, min: 0, max: 2 },
  optimizer_trace: { kind: 'trace', def: 'enabled=off,one_line=off' },
  optimizer_search_depth: { kind: 'int', def: 62, min: 0, max: 62 },
  optimizer_switch: { kind: 'flags', def: DEFAULT_SWITCH },
  read_rnd_buffer_size: { kind: 'int', def: 262144, min: 1, max: 2147483647 },
  sort_buffer_size: { kind: 'int', def: 262144, min: 32768, max: Number.MAX_SAFE_INTEGER },
  sql_mode: {
    kind: 'str',
    def: 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
  },
  sql_select_limit: { kind: 'int', def: Number.MAX_SAFE_INTEGER, min: 0, max: Number.MAX_SAFE_INTEGER },
  storage_engine: { kind: 'str', def: 'InnoDB' },
  default_storage_engine: { kind: 'str', def: 'InnoDB' },
  system_time_zone: { kind: 'str', def: systemZoneName(), readOnly: true, globalOnly: true },
  time_zone: { kind: 'str', def: 'SYSTEM' },
  tmp_table_size: { kind: 'int', def: 16777216, min: 1024, max: Number.MAX_SAFE_INTEGER },
  transaction_read_only: { kind: 'bool', def: 0 },
  transaction_isolation: {
    kind: 'enum',
    def: 'REPEATABLE-READ',
    values: ['READ-UNCOMMITTED', 'READ-COMMITTED', 'REPEATABLE-READ', 'SERIALIZABLE'],
  },
  /**
   * Accepted for clients and dump files (mysqldump sets them around its loads): the engine checks
   * unique keys always and has no foreign keys to check; notes are always recorded.
   */
  unique_checks: { kind: 'bool', def: 1 },
  foreign_key_checks: { kind: 'bool', def: 1 },
  sql_notes: { kind: 'bool', def: 1 },
  /** The counters step by 1 from 1, the one step and start the engine has (read only). */
  auto_increment_increment: { kind: 'int', def: 1, readOnly: true },
  auto_increment_offset: { kind: 'int', def: 1, readOnly: true },
  /** InnoDB's lock mode 1 ("consecutive"): a statement of known rows takes its values in one block. */
  innodb_autoinc_lock_mode: { kind: 'int', def: 1, readOnly: true, globalOnly: true },
  innodb_file_per_table: { kind: 'bool', def: 1, readOnly: true, globalOnly: true },
  innodb_strict_mode: { kind: 'bool', def: 1 },
  /** What the database's redo log was opened with (read only). */
  innodb_flush_log_at_trx_commit: { kind: 'int', def: 1, readOnly: true, globalOnly: true },
  /** The longest GROUP_CONCAT result, in bytes: a longer one is cut, with warning 1260. */
  group_concat_max_len: { kind: 'int', def: 1048576, min: 4, max: 4294967295 },
  interactive_timeout: { kind: 'int', def: 28800, min: 1, max: 31536000 },
  net_buffer_length: { kind: 'int', def: 16384, min: 1024, max: 1048576 },
  read_buffer_size: { kind: 'int', def: 131072, min: 8192, max: 2147479552 },
  bulk_insert_buffer_size: { kind: 'int', def: 8388608, min: 0, max: Number.MAX_SAFE_INTEGER },
  max_join_size: { kind: 'int', def: Number.MAX_SAFE_INTEGER, min: 1, max: Number.MAX_SAFE_INTEGER },
  sql_big_selects: { kind: 'bool', def: 1 },
  query_cache_type: { kind: 'enum', def: 'OFF', values: ['OFF'], readOnly: true, globalOnly: true },
  have_query_cache: { kind: 'str', def: 'NO', readOnly: true, globalOnly: true },
  performance_schema: { kind: 'bool', def: 0, readOnly: true, globalOnly: true },
  local_infile: { kind: 'bool', def: 0, readOnly: true, globalOnly: true },
  log_bin: { kind: 'bool', def: 0, readOnly: true, globalOnly: true },
  server_id: { kind: 'int', def: 1, min: 1, max: 4294967295, globalOnly: true },
  read_only: { kind: 'bool', def: 0, readOnly: true, globalOnly: true },
  init_connect: { kind: 'str', def: '', readOnly: true, globalOnly: true },
  hostname: { kind: 'str', def: hostname(), readOnly: true, globalOnly: true },
  version: { kind: 'str', def: '8.0.36-enginekit', readOnly: true, globalOnly: true },
  version_comment: { kind: 'str', def: 'enginekit', readOnly: true, globalOnly: true },
  version_compile_machine: { kind: 'str', def: process.arch, readOnly: true, globalOnly: true },
  version_compile_os: { kind: 'str', def: process.platform, readOnly: true, globalOnly: true },
  protocol_version: { kind: 'int', def: 10, readOnly: true, globalOnly: true },
  wait_timeout: { kind: 'int', def: 28800, min: 1, max: 31536000 },
};

/** Older names that read and set the same variable (MySQL 5.7's `tx_isolation`, `tx_read_only`). */
const ALIASES: Readonly<Record<string, string>> = {
  tx_isolation: 'transaction_isolation',
  tx_read_only: 'transaction_read_only',
};

/** The variables of one scope: name → value (numbers for integer and boolean variables). */
export class Variables {
  readonly values: Map<string, string | number>;

  constructor(from?: Variables, overrides: Record<string, string | number> = {}) {
    this.values =
      from === undefined
        ? new Map(Object.entries(VARIABLES).map(([k, d]) => [k, d.def]))
        : new Map(from.values);
    for (const [k, v] of Object.entries(overrides)) this.values.set(k, v);
  }

  get(name: string): string | number {
    // the engine asks by the canonical name: one lookup
    const direct = this.values.get(name);
    if (direct !== undefined) return direct;
    const lower = name.toLowerCase();
    const v = this.values.get(ALIASES[lower] ?? lower);
    if (v === undefined)
      throw new SqlError('ER_UNKNOWN_SYSTEM_VARIABLE', `Unknown system variable '${name}'`);
    return v;
  }

  /**
   * Told of every SET GLOBAL of these variables, after it is stored, with the variable's name and
   * new value (a server with worker threads passes it to the other threads' globals).
   */
  onGlobalSet: ((name: string, value: string | number) => void) | null = null;

  /**
   * SET: validate and store; `value` is the SQL value (number, bigint, string or null), `def` =
   * DEFAULT. Whether a number out of the variable's range was clamped (the caller warns, 1292).
   */
  set(name: string, value: unknown, scope: 'session' | 'global', defaults: Variables | undefined): boolean {
    const clamped = this.#assign(name, value, scope, defaults);
    if (scope === 'global' && this.onGlobalSet !== null) {
      const lower = name.toLowerCase();
      const key = ALIASES[lower] ?? lower;
      this.onGlobalSet(key, this.values.get(key)!);
    }
    return clamped;
  }

  /** Takes a value another thread's SET GLOBAL stored (already checked there); not passed on. */
  adopt(name: string, value: string | number): void {
    if (VARIABLES[name] === undefined)
      throw new SqlError('ER_UNKNOWN_SYSTEM_VARIABLE', `Unknown system variable '${name}'`);
    this.values.set(name, value);
  }

  #assign(
    name: string,
    value: unknown,
    scope: 'session' | 'global',
    defaults: Variables | undefined,
  ): boolean {
    const lower = name.toLowerCase();
    const key = ALIASES[lower] ?? lower;
    const d = VARIABLES[key];
    if (d === undefined)
      throw new SqlError('ER_UNKNOWN_SYSTEM_VARIABLE', `Unknown system variable '${name}'`);
    if (d.readOnly === true)
      throw new SqlError('ER_INCORRECT_GLOBAL_LOCAL_VAR', `Variable '${key}' is a read only variable`);
    if (d.globalOnly === true && scope === 'session')
      throw new SqlError(
        'ER_GLOBAL_VARIABLE',
        `Variable '${key}' is a GLOBAL variable and should be set with SET GLOBAL`,
      );
    const bad = (): SqlError =>
      new SqlError(
        'ER_WRONG_VALUE_FOR_VAR',
        `Variable '${key}' can't be set to the value of '${value === null ? 'NULL' : String(value)}'`,
      );
    if (value === DEFAULT_VALUE) {
      this.values.set(key, defaults?.values.get(key) ?? d.def);
      return false;
    }
    switch (d.kind) {
      case 'int': {
        if (typeof value === 'string' || value === null)
          throw new SqlError('ER_WRONG_TYPE_FOR_VAR', `Incorrect argument type to variable '${key}'`);
        let n = Number(value);
        if (!Number.isFinite(n)) throw bad();
        n = Math.trunc(n);
        // out of range is clamped with a warning (the caller's), as MySQL
        const given = n;
        if (d.min !== undefined && n < d.min) n = d.min;
        if (d.max !== undefined && n > d.max) n = d.max;
        this.values.set(key, n);
        return n !== given;
      }
      case 'double': {
        // seconds with a fraction (max_statement_time); out of range is clamped, as MariaDB
        if (typeof value === 'string' || value === null)
          throw new SqlError('ER_WRONG_TYPE_FOR_VAR', `Incorrect argument type to variable '${key}'`);
        let n = Number(value);
        if (!Number.isFinite(n)) throw bad();
        if (d.min !== undefined && n < d.min) n = d.min;
        if (d.max !== undefined && n > d.max) n = d.max;
        this.values.set(key, n);
        return false;
      }
      case 'bool': {
        const s = String(value).toLowerCase();
        if (s === '1' || s === 'on' || s === 'true') this.values.set(key, 1);
        else if (s === '0' || s === 'off' || s === 'false') this.values.set(key, 0);
        else throw bad();
        return false;
      }
      case 'enum': {
        // any letter case; stored as the variable spells its values
        const s = String(value).toUpperCase();
        const hit = d.values!.find((x) => x.toUpperCase() === s);
        if (hit === undefined || value === null) throw bad();
        this.values.set(key, hit);
        return false;
      }
      case 'trace': {
        // optimizer_trace: `enabled=on|off,one_line=on|off` items, as MySQL's Sys_var_flagset
        if (value === null || typeof value !== 'string') throw bad();
        const cur = new Map(
          String(this.values.get(key))
            .split(',')
            .map((kv) => kv.split('=') as [string, string]),
        );
        for (const item of value.split(',')) {
          const t = item.trim().toLowerCase();
          if (t === '') continue;
          const m = /^(enabled|one_line)\s*=\s*(on|off|default)$/.exec(t);
          if (m === null) throw bad();
          cur.set(m[1]!, m[2] === 'default' ? 'off' : m[2]!);
        }
        this.values.set(key, [...cur].map(([k, v]) => `${k}=${v}`).join(','));
        return false;
      }
      case 'flags': {
        if (value === null || typeof value !== 'string') throw bad();
        this.values.set(key, applyFlags(String(this.values.get(key)), value, bad));
        return false;
      }
      default:
        if (value === null) throw bad();
        if (key.startsWith('collation_')) {
          // a collation the engine has (error 1273 for another), kept by its utf8mb4 name
          const c = collationByName(String(value));
          if (c === undefined)
            throw new SqlError('ER_UNKNOWN_COLLATION', `Unknown collation: '${String(value)}'`);
          this.values.set(key, c);
          return false;
        }
        this.values.set(key, key === 'time_zone' ? checkTimeZone(String(value)) : String(value));
        return false;
    }
  }
}

/** Marker for `SET x = DEFAULT`. */
export const DEFAULT_VALUE: unique symbol = Symbol('DEFAULT');

/** Apply `flag=on|off|default,…` (or `default`) to a current optimizer_switch string. */
export function applyFlags(current: string, change: string, bad: () => Error): string {
  const cur = new Map(current.split(',').map((kv) => kv.split('=') as [string, string]));
  for (const item of change.split(',')) {
    const t = item.trim().toLowerCase();
    if (t === '') continue;
    if (t === 'default') {
      for (const [k, v] of Object.entries(OPTIMIZER_FLAGS)) cur.set(k, v);
      continue;
    }
    const m = /^([a-z_]+)\s*=\s*(on|off|default)$/.exec(t);
    if (m === null || !(m[1]! in OPTIMIZER_FLAGS)) throw bad();
    cur.set(m[1]!, m[2] === 'default' ? OPTIMIZER_FLAGS[m[1]!]! : (m[2] as 'on' | 'off'));
  }
  return [...cur].map(([k, v]) => `${k}=${v}`).join(',');
}
