/**
 * The status counters the enginekit packages keep under MariaDB's names: the handler read
 * counters (`SHOW STATUS LIKE 'Handler_read%'`) and DS-MRR's three (`Handler_mrr_%`). This file
 * is their one definition; join operators and the engine extend these types instead of
 * repeating the names.
 */

/** Handler read counters, in the order `SHOW STATUS` lists them. */
export const HANDLER_READ_COUNTERS = [
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd',
  'Handler_read_rnd_next',
] as const;

/** DS-MRR counters (MariaDB 10.0 `ha_mrr_init_count`, `ha_mrr_key_refills_count`, `ha_mrr_rowid_refills_count`). */
export const MRR_STATUS_COUNTERS = [
  'Handler_mrr_init',
  'Handler_mrr_key_refills',
  'Handler_mrr_rowid_refills',
] as const;

/** Every counter of {@link MrrCounters}: the MRR ones, then the handler reads. */
export const MRR_COUNTERS = [
  'Handler_mrr_init',
  'Handler_mrr_key_refills',
  'Handler_mrr_rowid_refills',
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd',
  'Handler_read_rnd_next',
] as const;

export type HandlerReadCounterName = (typeof HANDLER_READ_COUNTERS)[number];
export type MrrCounterName = (typeof MRR_COUNTERS)[number];

/** The handler read counters as plain numeric fields. */
export type HandlerReadCounters = { [K in HandlerReadCounterName]: number };

/**
 * Status counters with MariaDB's names and rules. Pass one object to many scans to sum them,
 * as the server's status variables do. An MRR scan counts `Handler_mrr_*`, `Handler_read_key`,
 * `Handler_read_next` and `Handler_read_rnd`; `Handler_read_first` and `Handler_read_rnd_next`
 * belong to the set so that operators above MRR (table scans, joins) count into the same object.
 */
export interface MrrCounters extends HandlerReadCounters {
  /** +1 per scan that really starts DS-MRR (a key-ordered or rowid-ordered stage). */
  Handler_mrr_init: number;
  /** +1 per non-initial key-buffer refill that yields at least one key. */
  Handler_mrr_key_refills: number;
  /** +1 per non-initial rowid-buffer refill that yields at least one row id. */
  Handler_mrr_rowid_refills: number;
}

/** A fresh, zeroed set of MRR and handler read counters. */
export function createMrrCounters(): MrrCounters {
  return {
    Handler_mrr_init: 0,
    Handler_mrr_key_refills: 0,
    Handler_mrr_rowid_refills: 0,
    Handler_read_first: 0,
    Handler_read_key: 0,
    Handler_read_next: 0,
    Handler_read_rnd: 0,
    Handler_read_rnd_next: 0,
  };
}

/**
 * Add every counter of {@link MRR_COUNTERS} from `source` into `target` (which may carry more
 * fields, e.g. a join's statistics). Returns `target`.
 */
export function addMrrCounters<T extends MrrCounters>(target: T, source: Readonly<MrrCounters>): T {
  for (const name of MRR_COUNTERS) target[name] += source[name];
  return target;
}
