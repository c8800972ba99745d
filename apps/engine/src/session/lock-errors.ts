import { SqlError } from '../sql/errors.js';

/** The errors a lock wait ends in: MariaDB's 1205, 1213 and 1317. */
export const lockWaitTimeout = (): SqlError =>
  new SqlError('ER_LOCK_WAIT_TIMEOUT', 'Lock wait timeout exceeded; try restarting transaction');
export const deadlockError = (): SqlError =>
  new SqlError('ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock; try restarting transaction');
export const interrupted = (): SqlError =>
  new SqlError('ER_QUERY_INTERRUPTED', 'Query execution was interrupted');
