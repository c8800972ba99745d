import type { ReadView } from './read-view.js';
import type { Table } from './table.js';
import type { TrxUndo } from './trx-undo.js';

/**
 * What a table asks of the transaction whose statement is running on this thread (InnoDB's
 * `trx_t` as `row_ins`, `row_upd` and `row_search_mvcc` see it): lock a record before it is read
 * or written, the read view a read uses, and the undo writer that logs each change and gives the
 * new version its DB_TRX_ID and DB_ROLL_PTR. The transaction layer implements it and sets
 * {@link trxHooks}`.current` around each statement; null otherwise, so the storage API used
 * directly (loads, the dictionary, tests) reads the latest versions, takes no locks and writes
 * versions every transaction sees (DB_TRX_ID 0).
 */
export interface TrxHooks {
  /** A row of `table` with clustered key `key[off, off+len)` is about to be returned to a reader. */
  read(table: Table, key: Uint8Array, off: number, len: number): void;
  /** The row with clustered key `key` (which may not exist yet) is about to be written. */
  write(table: Table, key: Uint8Array): void;
  /**
   * Asked once at the start of each read of `table`: the read view of a consistent read, or null
   * for a read of the latest versions (a locking read, READ UNCOMMITTED, the target of a write).
   */
  view(table: Table): ReadView | null;
  /** The writer of this transaction's undo logs (it takes its id at the first write). */
  undo(): TrxUndo;
}

/** The hooks of the statement running on this thread, if any (see {@link TrxHooks}). */
export const trxHooks: { current: TrxHooks | null } = { current: null };
