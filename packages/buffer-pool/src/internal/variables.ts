import { oldRatioFromPct, pctFromOldRatio } from '../midpoint-lru.js';
import type { BufferPoolVariables } from '../options.js';
import { checkBool, checkInt } from '../options.js';
import * as K from './layout.js';
import type { PoolLayout } from './layout.js';

/** The run-time variables' defaults (MySQL 5.6's). */
export const DEFAULT_VARIABLES: Readonly<BufferPoolVariables> = {
  innodb_old_blocks_pct: 37,
  innodb_old_blocks_time: 1000,
  innodb_read_ahead_threshold: 56,
  innodb_random_read_ahead: false,
  innodb_lru_scan_depth: 1024,
  linearReadAhead: true,
  freeWaitMs: 100,
};

/** Validates and stores run-time variables in the shared header (every thread sees them). */
export function writeVariables(L: PoolLayout, vars: Partial<BufferPoolVariables>): void {
  const H = L.header;
  if (vars.innodb_old_blocks_pct !== undefined) {
    H[K.H_OLD_RATIO] = oldRatioFromPct(checkInt('innodb_old_blocks_pct', vars.innodb_old_blocks_pct, 5, 95));
  }
  if (vars.innodb_old_blocks_time !== undefined) {
    H[K.H_OLD_TIME] = checkInt('innodb_old_blocks_time', vars.innodb_old_blocks_time, 0, 2 ** 31 - 1);
  }
  if (vars.innodb_read_ahead_threshold !== undefined) {
    H[K.H_RA_THRESHOLD] = checkInt('innodb_read_ahead_threshold', vars.innodb_read_ahead_threshold, 0, 64);
  }
  if (vars.innodb_random_read_ahead !== undefined) {
    H[K.H_RANDOM_RA] = checkBool('innodb_random_read_ahead', vars.innodb_random_read_ahead) ? 1 : 0;
  }
  if (vars.innodb_lru_scan_depth !== undefined) {
    H[K.H_SCAN_DEPTH] = checkInt('innodb_lru_scan_depth', vars.innodb_lru_scan_depth, 1, 2 ** 31 - 1);
  }
  if (vars.linearReadAhead !== undefined)
    H[K.H_LINEAR_RA] = checkBool('linearReadAhead', vars.linearReadAhead) ? 1 : 0;
  if (vars.freeWaitMs !== undefined)
    H[K.H_FREE_WAIT] = checkInt('freeWaitMs', vars.freeWaitMs, 0, 2 ** 31 - 1);
}

/** The current run-time variables (innodb_old_blocks_pct as InnoDB reports it back). */
export function readVariables(L: PoolLayout): BufferPoolVariables {
  const H = L.header;
  return {
    innodb_old_blocks_pct: pctFromOldRatio(H[K.H_OLD_RATIO]!),
    innodb_old_blocks_time: H[K.H_OLD_TIME]!,
    innodb_read_ahead_threshold: H[K.H_RA_THRESHOLD]!,
    innodb_random_read_ahead: H[K.H_RANDOM_RA] === 1,
    innodb_lru_scan_depth: H[K.H_SCAN_DEPTH]!,
    linearReadAhead: H[K.H_LINEAR_RA] === 1,
    freeWaitMs: H[K.H_FREE_WAIT]!,
  };
}
