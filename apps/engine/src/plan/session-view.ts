import type { SqlType } from '../exec/types.js';

/**
 * What expressions read from (and write to) the session they run in: user variables, the
 * connection's identity, and the results of earlier statements that MySQL's information
 * functions return (LAST_INSERT_ID, ROW_COUNT, FOUND_ROWS). The session implements it; the
 * binder sees only this.
 */
export interface SessionView {
  /** A user variable's value and type (undefined: never set, which reads as NULL). */
  userVar(name: string): { readonly t: SqlType; readonly v: unknown } | undefined;
  setUserVar(name: string, t: SqlType, v: unknown): void;
  /** DATABASE(): the current database, or null when none is chosen. */
  readonly database: string | null;
  /** USER(): `user@host` of the client. */
  readonly user: string;
  /** CURRENT_USER(): the account the server matched, `user@host pattern`. */
  readonly currentUser: string;
  readonly connectionId: number;
  /** LAST_INSERT_ID(): the first AUTO_INCREMENT value the last INSERT generated. */
  lastInsertId: number | bigint;
  /** ROW_COUNT(): rows the previous statement changed (-1 after a statement returning rows). */
  readonly rowCount: number;
  /** FOUND_ROWS(): rows the previous SELECT returned, or found without its LIMIT (SQL_CALC_FOUND_ROWS). */
  readonly foundRows: number;
  /** When the running statement started: microseconds since the epoch, UTC (NOW()). */
  readonly statementTime: number;
  /** The session's `time_zone` (exec/time-zone.ts). */
  readonly timeZone: string;
}
