import { HANDLER_READ_COUNTERS } from '@enginekit/mrr';

/**
 * MySQL's handler status counters (SHOW STATUS LIKE 'Handler%'), as they count in InnoDB. The
 * forward `Handler_read_*` names are @enginekit/mrr's set (the one the MRR scans and join
 * operators count into), so a table's reads and an MRR scan's add up under the same names; the
 * backward reads' `Handler_read_last` and `Handler_read_prev` are the engine's own.
 */
export const HANDLER_COUNTERS: readonly [
  'Handler_delete',
  ...typeof HANDLER_READ_COUNTERS,
  'Handler_read_last',
  'Handler_read_prev',
  'Handler_update',
  'Handler_write',
  'Innodb_rows_read',
] = [
  'Handler_delete',
  ...HANDLER_READ_COUNTERS,
  'Handler_read_last',
  'Handler_read_prev',
  'Handler_update',
  'Handler_write',
  'Innodb_rows_read',
];

export type HandlerCounter = (typeof HANDLER_COUNTERS)[number];

const at = (name: HandlerCounter): number => HANDLER_COUNTERS.indexOf(name);

export const H_DELETE: number = at('Handler_delete');
export const H_READ_FIRST: number = at('Handler_read_first');
export const H_READ_KEY: number = at('Handler_read_key');
export const H_READ_LAST: number = at('Handler_read_last');
export const H_READ_PREV: number = at('Handler_read_prev');
export const H_READ_NEXT: number = at('Handler_read_next');
export const H_READ_RND: number = at('Handler_read_rnd');
export const H_READ_RND_NEXT: number = at('Handler_read_rnd_next');
export const H_UPDATE: number = at('Handler_update');
export const H_WRITE: number = at('Handler_write');
/** Rows read from a table (scan, lookup, range), as InnoDB's `srv_stats.n_rows_read`. */
export const H_ROWS_READ: number = at('Innodb_rows_read');

/** Handler counters in one Float64Array, indexed by the H_* constants. */
export class HandlerStats {
  readonly counts: Float64Array = new Float64Array(HANDLER_COUNTERS.length);

  snapshot(): Record<HandlerCounter, number> {
    const out = {} as Record<HandlerCounter, number>;
    for (const [i, name] of HANDLER_COUNTERS.entries()) out[name] = this.counts[i]!;
    return out;
  }

  reset(): void {
    this.counts.fill(0);
  }
}
