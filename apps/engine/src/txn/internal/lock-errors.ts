/** Thrown when no lock record can be had: the table is at its bound (MySQL's ER_LOCK_TABLE_FULL, 1206). */
export class LockTableFullError extends Error {
  override readonly name = 'LockTableFullError';
}
