import { decText } from '../exec/decimal.js';
import { dayText } from '../exec/convert.js';
import { dateTimeText, type Micros, timeText } from '../storage/temporal.js';
import type { SqlType } from '../exec/types.js';
import type { ResultField } from '../exec/result-fields.js';

/** What `Session.query` returns. */
export interface QueryResult {
  readonly columns: string[];
  readonly rows: unknown[][];
  readonly affectedRows: number;
  readonly insertId: number | bigint;
  readonly warnings: number;
  /** For a query: each column's SQL type (for protocol column metadata); absent for other statements. */
  readonly types?: readonly SqlType[];
  /** For a query: where each column comes from (database, table, column, definition). */
  readonly fields?: readonly (ResultField | undefined)[];
  /** The OK packet's message (`Statement prepared`, `Rows matched: 1  Changed: 1  Warnings: 0`). */
  readonly info?: string;
  /** The rows went to the session's {@link RowSink} as they were produced (`rows` is empty). */
  readonly streamed?: boolean;
}

/**
 * Where a SELECT's rows go as the executor produces them, instead of the result's array: the
 * server's wire (text or binary rows, sent in chunks while the statement runs). `begin` comes
 * once before the first row; a row's values are the API's ({@link apiValue}). Either may throw
 * (the client went away, KILL while it waits for the client to read): the statement then fails
 * with that error.
 */
export interface RowSink {
  begin(
    columns: readonly string[],
    types: readonly SqlType[],
    fields?: readonly (ResultField | undefined)[],
  ): void;
  row(values: unknown[]): void;
  /**
   * The statement runs again from its start at once (a locking read found an entry in a gap it
   * had passed): its rows are produced again, the same up to where it stopped, so those already
   * sent are skipped.
   */
  restart?(): void;
}

/**
 * A runtime value as the API returns it: integers as numbers (BigInt beyond 2^53), DECIMAL as an
 * exact string at its result scale, DOUBLE as a number, DATE as 'YYYY-MM-DD', DATETIME and
 * TIMESTAMP as 'YYYY-MM-DD HH:MM:SS[.ffffff]', TIME as '[-]HH:MM:SS[.ffffff]', strings as strings,
 * binary strings (BINARY, VARBINARY, BLOB, UNHEX) as Uint8Array.
 */
export function apiValue(v: unknown, t: SqlType): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'str':
      // a binary string as its bytes
      return t.binary === true ? new Uint8Array(Buffer.from(v as string, 'latin1')) : v;
    case 'dec':
      return decText(v as bigint, t.iscale, t.scale);
    case 'date':
      return dayText(v as number);
    case 'datetime':
      return dateTimeText(v as Micros, t.scale);
    case 'time':
      return timeText(v as number, t.scale);
    case 'int':
      return typeof v === 'bigint' && v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
    default:
      return v;
  }
}

export function okResult(affectedRows = 0, insertId: number | bigint = 0, warnings = 0): QueryResult {
  return { columns: [], rows: [], affectedRows, insertId, warnings };
}
