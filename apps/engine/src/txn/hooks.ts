import type { RowBuffer } from '../storage/row.js';
import type { Table, TableIndex } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';

/** A reader's per-row callback: return false to stop. */
export type RowFn = (row: RowBuffer) => boolean | undefined;

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
  /**
   * Asked once at the start of each read of `table`: null when the read is the table's own
   * (a locking read, or a consistent read of a table no other writer has versions of: the fast
   * path), else the reader that answers it at the statement's read view.
   */
  consistent(table: Table): ConsistentRead | null;
}

/**
 * The table's read methods as a consistent read at a read view (see consistent-read.ts). Keys
 * are encoded as the table encodes them; counters are counted as the table counts them.
 */
export interface ConsistentRead {
  get(t: Table, pk: Uint8Array): FieldValue[] | undefined;
  scan(t: Table, fn: RowFn): number;
  /** Rows whose `ix` key starts with `lo`; `fullPk`: `lo` is a whole primary key. */
  lookup(t: Table, ix: TableIndex, lo: Uint8Array, fullPk: boolean, fn: RowFn): number;
  range(
    t: Table,
    ix: TableIndex,
    loKey: Uint8Array,
    skipEqual: boolean,
    hiKey: Uint8Array | null,
    hiInclusive: boolean,
    fn: RowFn,
  ): number;
  prefixRowids(t: Table, ix: TableIndex, lo: Uint8Array, fn: (pk: Uint8Array) => void): number;
  fetchRowid(t: Table, pk: Uint8Array, fn: RowFn): boolean | undefined;
}

export const txnHooks: { current: TxnHooks | null } = { current: null };
