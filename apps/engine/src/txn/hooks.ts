import type { Table } from '../storage/table.js';

/**
 * What a table calls while a statement of a transaction runs on this thread: lock a record
 * before it is read or written, log the undo of every write. `current` is set by the session
 * around each statement (statements are synchronous, one per thread at a time) and null
 * otherwise, so the storage API used directly (loaders, tests) takes no locks and logs nothing.
 */
export interface TxnHooks {
  /** A row of `table` with clustered key `key[off, off+len)` is about to be returned to a reader. */
  read(table: Table, key: Uint8Array, off: number, len: number): void;
  /** The row with clustered key `key` (which may not exist yet) is about to be written. */
  write(table: Table, key: Uint8Array): void;
  /** A write is done: `op` (UNDO_INSERT, UNDO_UPDATE, UNDO_DELETE), the row's key now, its bytes before. */
  logUndo(table: Table, op: number, key: Uint8Array, before: Uint8Array): void;
}

export const txnHooks: { current: TxnHooks | null } = { current: null };
