/** MySQL's handler status counters (SHOW STATUS LIKE 'Handler%'), as they count in InnoDB. */
export const HANDLER_COUNTERS = [
  'Handler_delete',
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd_next',
  'Handler_update',
  'Handler_write',
  'Innodb_rows_read',
] as const;

export type HandlerCounter = (typeof HANDLER_COUNTERS)[number];

export const H_DELETE = 0;
export const H_READ_FIRST = 1;
export const H_READ_KEY = 2;
export const H_READ_NEXT = 3;
export const H_READ_RND_NEXT = 4;
export const H_UPDATE = 5;
export const H_WRITE = 6;
/** Rows read from a table (scan, lookup, range), as InnoDB's `srv_stats.n_rows_read`. */
export const H_ROWS_READ = 7;

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
