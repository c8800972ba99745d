import type { BufferPoolStats } from '@enginekit/buffer-pool';
import { HANDLER_COUNTERS, type HandlerCounter } from '../storage/counters.js';
import { COUNTERS as REDO_COUNTERS, type RedoCounter } from '../storage/redo/log-shared.js';

/**
 * Who keeps a status counter's value:
 * - `statement`: counted as statements run, into the session's map and the global one;
 * - `server`: counted by the protocol layer (COM_STMT_*, COM_FIELD_LIST), into the same maps;
 * - `host`: the session host's connection figures, in the global map only;
 * - `buffer-pool`, `redo`, `lock-system`, `purge`, `processlist`, `prepared-statements`: read
 *   live from that part when SHOW STATUS runs (the redo log's only with a redo log; the prepared
 *   statements' count is the server's, over every thread).
 */
export type StatusOwner =
  | 'statement'
  | 'server'
  | 'host'
  | 'buffer-pool'
  | 'redo'
  | 'lock-system'
  | 'purge'
  | 'processlist'
  | 'prepared-statements';

export interface StatusSpec {
  /**
   * `session`: each session has its own value (SHOW SESSION STATUS, FLUSH STATUS resets it) and
   * the global value sums them; `global`: one value, which SHOW SESSION STATUS shows too, as
   * MySQL does for its global-only counters.
   */
  readonly scope: 'session' | 'global';
  readonly owner: StatusOwner;
  /** A level (connections open now, pages dirty now), not a count: never summed over threads. */
  readonly level?: true;
}

const statement: StatusSpec = { scope: 'session', owner: 'statement' };
const pool: StatusSpec = { scope: 'global', owner: 'buffer-pool' };
const poolLevel: StatusSpec = { scope: 'global', owner: 'buffer-pool', level: true };
const redo: StatusSpec = { scope: 'global', owner: 'redo' };
const redoLevel: StatusSpec = { scope: 'global', owner: 'redo', level: true };
const locks: StatusSpec = { scope: 'global', owner: 'lock-system' };
const locksLevel: StatusSpec = { scope: 'global', owner: 'lock-system', level: true };

/** Counted as statements run, besides the handler counters (a session's own, summed globally). */
const BY_STATEMENTS = [
  'Com_select',
  'Com_insert',
  'Com_update',
  'Com_delete',
  'Com_create_table',
  'Com_drop_table',
  'Com_create_index',
  'Com_drop_index',
  'Com_set_option',
  'Com_show_status',
  'Com_show_variables',
  'Com_prepare_sql',
  'Com_execute_sql',
  'Com_dealloc_sql',
  'Com_change_db',
  'Com_show_databases',
  'Com_create_db',
  'Com_drop_db',
  'Com_begin',
  'Com_commit',
  'Com_rollback',
  'Com_savepoint',
  'Com_rollback_to_savepoint',
  'Com_release_savepoint',
  'Com_kill',
  'Com_lock_tables',
  'Com_unlock_tables',
  'Com_show_processlist',
  'Questions',
  'Created_tmp_tables',
  'Created_tmp_disk_tables',
  'Handler_icp_attempts',
  'Handler_icp_match',
  'Handler_mrr_init',
  'Handler_mrr_key_refills',
  'Handler_mrr_rowid_refills',
  'Handler_tmp_update',
  'Handler_tmp_write',
  'Select_full_join',
  'Select_range',
  'Select_scan',
  'Sort_merge_passes',
  'Sort_range',
  'Sort_rows',
  'Sort_scan',
] as const;

/** Counted as statements run into the global map only: SHOW SESSION STATUS shows the global value, as MariaDB does. */
const BY_STATEMENTS_GLOBAL = ['Subquery_cache_hit', 'Subquery_cache_miss'] as const;

/** Counted by the protocol layer (COM_STMT_*, COM_FIELD_LIST): a session's own, summed globally. */
const BY_SERVER = [
  'Com_stmt_prepare',
  'Com_stmt_execute',
  'Com_stmt_close',
  'Com_stmt_reset',
  'Com_show_fields',
] as const;

/** Global-only counters and levels kept outside the statements' maps. */
const GLOBAL_ONLY = [
  'Connections',
  'Max_used_connections',
  'Threads_connected',
  'Prepared_stmt_count',
  'Threads_running',
  'Innodb_lsn_current',
  'Innodb_lsn_flushed',
  'Innodb_lsn_last_checkpoint',
  'Innodb_checkpoint_age',
  'Innodb_dblwr_pages_written',
  'Innodb_dblwr_writes',
  'Innodb_row_lock_current_waits',
  'Innodb_row_lock_time',
  'Innodb_row_lock_time_avg',
  'Innodb_row_lock_time_max',
  'Innodb_row_lock_waits',
  'Innodb_deadlocks',
  'Innodb_history_list_length',
] as const;

/** Every status counter's MySQL name. */
export type StatusName =
  | HandlerCounter
  | (typeof BY_STATEMENTS)[number]
  | (typeof BY_STATEMENTS_GLOBAL)[number]
  | (typeof BY_SERVER)[number]
  | (typeof GLOBAL_ONLY)[number]
  | keyof BufferPoolStats
  | RedoCounter;

const GLOBAL_SPECS: Record<(typeof GLOBAL_ONLY)[number], StatusSpec> = {
  Connections: { scope: 'global', owner: 'host' },
  Max_used_connections: { scope: 'global', owner: 'host', level: true },
  Threads_connected: { scope: 'global', owner: 'host', level: true },
  Prepared_stmt_count: { scope: 'global', owner: 'prepared-statements', level: true },
  Threads_running: { scope: 'global', owner: 'processlist', level: true },
  Innodb_lsn_current: redoLevel,
  Innodb_lsn_flushed: redoLevel,
  Innodb_lsn_last_checkpoint: redoLevel,
  Innodb_checkpoint_age: redoLevel,
  Innodb_dblwr_pages_written: redo,
  Innodb_dblwr_writes: redo,
  Innodb_row_lock_current_waits: locksLevel,
  Innodb_row_lock_time: locks,
  Innodb_row_lock_time_avg: locksLevel,
  Innodb_row_lock_time_max: locksLevel,
  Innodb_row_lock_waits: locks,
  Innodb_deadlocks: locks,
  Innodb_history_list_length: { scope: 'global', owner: 'purge', level: true },
};

/** The buffer pool's counters: every field of its `stats()`, under the same names. */
const POOL_SPECS: Record<keyof BufferPoolStats, StatusSpec> = {
  Innodb_buffer_pool_read_requests: pool,
  Innodb_buffer_pool_reads: pool,
  Innodb_buffer_pool_read_ahead: pool,
  Innodb_buffer_pool_read_ahead_rnd: pool,
  Innodb_buffer_pool_read_ahead_evicted: pool,
  Innodb_buffer_pool_pages_made_young: pool,
  Innodb_buffer_pool_pages_not_made_young: pool,
  Innodb_buffer_pool_wait_free: pool,
  Innodb_buffer_pool_write_requests: pool,
  Innodb_buffer_pool_pages_flushed: pool,
  Innodb_pages_created: pool,
  Innodb_pages_read: pool,
  Innodb_pages_written: pool,
  Innodb_data_read: pool,
  Innodb_data_reads: pool,
  Innodb_data_written: pool,
  Innodb_data_writes: pool,
  Innodb_buffer_pool_pages_data: poolLevel,
  Innodb_buffer_pool_pages_dirty: poolLevel,
  Innodb_buffer_pool_pages_free: poolLevel,
  Innodb_buffer_pool_pages_old: poolLevel,
  Innodb_buffer_pool_pages_total: poolLevel,
};

const each = <N extends string>(names: readonly N[], spec: StatusSpec): Record<N, StatusSpec> =>
  Object.fromEntries(names.map((n) => [n, spec])) as Record<N, StatusSpec>;

/**
 * Every status counter, by its MySQL name, with its scope and owner: the one list that SHOW
 * STATUS, `Session.status()`, the worker threads' sums and the docs check read. Each is
 * documented in docs/sql.md, docs/server.md or docs/durability.md.
 */
export const STATUS: Readonly<Record<StatusName, StatusSpec>> = {
  ...each(BY_STATEMENTS, statement),
  ...each(BY_STATEMENTS_GLOBAL, { scope: 'global', owner: 'statement' }),
  ...each(HANDLER_COUNTERS, statement),
  ...each(BY_SERVER, { scope: 'session', owner: 'server' }),
  ...GLOBAL_SPECS,
  ...POOL_SPECS,
  ...each(REDO_COUNTERS, redo),
};

const names = (keep: (s: StatusSpec) => boolean): StatusName[] =>
  (Object.keys(STATUS) as StatusName[]).filter((n) => keep(STATUS[n]));

/**
 * The counts each worker thread keeps in its own global map, summed over the threads for SHOW
 * GLOBAL STATUS: the sessions' counters and the connections the thread's host took.
 */
export const SUMMED_STATUS: readonly StatusName[] = names(
  (s) => s.level !== true && (s.owner === 'statement' || s.owner === 'server' || s.owner === 'host'),
);

/** Each summed counter's position in {@link SUMMED_STATUS}. */
export const SUMMED_INDEX: ReadonlyMap<StatusName, number> = new Map(SUMMED_STATUS.map((n, i) => [n, i]));

/**
 * Each counter's slot in a {@link StatusCounters} array: the summed counters first, in
 * {@link SUMMED_STATUS} order (a worker publishes them as one copy), then the rest of the registry.
 */
const SLOT: ReadonlyMap<string, number> = new Map(
  [...SUMMED_STATUS, ...(Object.keys(STATUS) as StatusName[]).filter((n) => !SUMMED_INDEX.has(n))].map(
    (n, i) => [n, i],
  ),
);

/** A set of status counters (a session's, or the global sums its changes are added to as well). */
export class StatusCounters {
  readonly #v = new Float64Array(SLOT.size);
  /** The global counters every change is added to as well (a session's parent). */
  readonly parent: StatusCounters | undefined;

  constructor(parent?: StatusCounters) {
    this.parent = parent;
  }

  add(name: StatusName, n: number): void {
    const i = SLOT.get(name)!;
    this.#v[i]! += n;
    if (this.parent !== undefined) this.parent.#v[i]! += n;
  }

  get(name: string): number {
    const i = SLOT.get(name);
    return i === undefined ? 0 : this.#v[i]!;
  }

  set(name: StatusName, value: number): void {
    this.#v[SLOT.get(name)!] = value;
  }

  /** The {@link SUMMED_STATUS} counters, in that order (a view: valid until the next change). */
  summed(): Float64Array {
    return this.#v.subarray(0, SUMMED_STATUS.length);
  }

  reset(): void {
    this.#v.fill(0);
  }
}
