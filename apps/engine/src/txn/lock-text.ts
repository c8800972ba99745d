import { LOCK_GAP, LOCK_INSERT_INTENTION, LOCK_REC_NOT_GAP, type LockMode } from './lock-table.js';

/**
 * A record lock's mode and type as InnoDB's `lock_rec_print` writes them in SHOW ENGINE INNODB
 * STATUS: "lock mode S" / "lock_mode X" (InnoDB spells the two differently), then "locks gap
 * before rec", "locks rec but not gap", "insert intention", "waiting"; an ordinary (next-key)
 * lock has no suffix.
 */
export function recordLockText(mode: LockMode, type: number, waiting: boolean): string {
  let s = mode === 'S' ? 'lock mode S' : 'lock_mode X';
  if ((type & LOCK_GAP) !== 0) s += ' locks gap before rec';
  if ((type & LOCK_REC_NOT_GAP) !== 0) s += ' locks rec but not gap';
  if ((type & LOCK_INSERT_INTENTION) === LOCK_INSERT_INTENTION) s += ' insert intention';
  if (waiting) s += ' waiting';
  return s;
}

/**
 * The `lock_mode` column of INFORMATION_SCHEMA.INNODB_LOCKS (`lock_get_mode_str`): S or X, with
 * ",GAP" for a gap lock (an insert intention carries the gap bit too); a not-gap or ordinary lock
 * is the bare mode.
 */
export function lockModeColumn(mode: LockMode, type: number): string {
  return (type & LOCK_GAP) !== 0 ? `${mode},GAP` : mode;
}
