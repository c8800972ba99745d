/**
 * Status counters with MySQL's names (SHOW STATUS). A session keeps its own; the database keeps
 * the global sums. Only counters the engine maintains are listed; each is documented in docs/sql.md.
 */
export const STATUS_NAMES = [
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
  'Created_tmp_tables',
  'Created_tmp_disk_tables',
  'Handler_delete',
  'Handler_icp_attempts',
  'Handler_icp_match',
  'Handler_mrr_init',
  'Handler_mrr_key_refills',
  'Handler_mrr_rowid_refills',
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd',
  'Handler_read_rnd_next',
  'Handler_tmp_update',
  'Handler_tmp_write',
  'Handler_update',
  'Handler_write',
  'Innodb_rows_read',
  'Questions',
  'Select_full_join',
  'Select_range',
  'Select_scan',
  'Sort_merge_passes',
  'Sort_range',
  'Sort_rows',
  'Sort_scan',
] as const;

export type StatusName = (typeof STATUS_NAMES)[number];

export class StatusCounters {
  readonly values: Map<string, number> = new Map();
  /** The global counters every change is added to as well (a session's parent). */
  readonly parent: StatusCounters | undefined;

  constructor(parent?: StatusCounters) {
    this.parent = parent;
    for (const n of STATUS_NAMES) this.values.set(n, 0);
  }

  add(name: StatusName, n: number): void {
    this.values.set(name, (this.values.get(name) ?? 0) + n);
    this.parent?.add(name, n);
  }

  get(name: string): number {
    return this.values.get(name) ?? 0;
  }

  reset(): void {
    for (const k of this.values.keys()) this.values.set(k, 0);
  }
}
