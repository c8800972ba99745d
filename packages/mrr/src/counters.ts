import type { MrrCounters } from './types.js';

/** A fresh, zeroed set of MRR and Handler_read_* counters. */
export function createMrrCounters(): MrrCounters {
  return {
    Handler_mrr_init: 0,
    Handler_mrr_key_refills: 0,
    Handler_mrr_rowid_refills: 0,
    Handler_read_key: 0,
    Handler_read_next: 0,
    Handler_read_rnd: 0,
  };
}
