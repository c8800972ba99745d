import type { ReadView } from './read-view.js';
import type { Table, TableIndex } from './table.js';
import type { TrxUndo } from './trx-undo.js';

/** Record lock types a table asks for, as InnoDB names them (the lock table's flag bits). */
export const REC_ORDINARY = 0;
/** LOCK_GAP: the gap before the entry only. */
export const REC_GAP = 4;
/** LOCK_REC_NOT_GAP: the entry only. */
export const REC_NOT_GAP = 8;
export type RecType = typeof REC_ORDINARY | typeof REC_GAP | typeof REC_NOT_GAP;

/**
 * What a table asks of the transaction whose statement is running on this thread (InnoDB's
 * `trx_t` as `row_ins`, `row_upd` and `row_search_mvcc` see it): lock an index entry before it
 * is read or written, the read view a read uses, and the undo writer that logs each change and
 * gives the new version its DB_TRX_ID and DB_ROLL_PTR. The transaction layer implements it and
 * sets its database's {@link TrxContext} around each statement; null otherwise, so the storage API used
 * directly (loads, the dictionary, tests) reads the latest versions, takes no locks and writes
 * versions every transaction sees (DB_TRX_ID 0).
 *
 * The table chooses each lock's type as `row_search_mvcc` and `row_ins` do; the transaction
 * chooses its mode (S, X: the statement's read mode) and drops what its isolation level does
 * not take (gap locks below REPEATABLE READ, every lock of a consistent read).
 */
export interface TrxHooks {
  /**
   * A locking read reaches entry `key[off, off+len)` of index `ix` (null: the index's supremum,
   * the end of the index): lock it with `type` before using it. `past`: the entry is the first
   * one past the read's range (READ COMMITTED keeps no lock on a clustered one). `owner`: the
   * DB_TRX_ID of the clustered record being locked (0: not known, or not a clustered record),
   * whose writer, while active, holds the record implicitly. `semi`: the read may be
   * semi-consistent here (a clustered entry that is not a unique search's).
   *
   * Returns null once the entry is locked. A semi-consistent read (UPDATE under READ COMMITTED,
   * InnoDB's ROW_READ_TRY_SEMI_CONSISTENT) that would wait takes no lock and returns instead the
   * view under which to read the record: its last committed version, for the WHERE clause to
   * judge ({@link rowMatched} then waits for the lock).
   */
  read(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    type: RecType,
    past?: boolean,
    owner?: number,
    semi?: boolean,
  ): ReadView | null;
  /**
   * A locking read reaches the clustered record `pk[off, off+len)` through an entry of another
   * index (`row_sel_get_clust_rec_for_mysql`): lock the record only. `owner` as in {@link read}.
   */
  readRow(table: Table, pk: Uint8Array, off: number, len: number, owner: number): void;
  /**
   * Whether a locking read of `table` through a secondary range also reads, and locks, the row
   * behind the first entry past the range: the target of UPDATE and DELETE, which push no index
   * condition, so the range's end is found on the row (MariaDB 10.11 locks it).
   */
  locksRowPastRange(table: Table): boolean;
  /**
   * Whether a locking read of `table` locks gaps (REPEATABLE READ and SERIALIZABLE, a read that
   * locks at all): it then makes sure no entry went into a gap it walked past before locking it.
   */
  locksGaps(table: Table): boolean;
  /**
   * The statement runs again from its savepoint, keeping its locks (throws): a locking read found
   * an entry in a gap it had walked past before it locked the gap (another thread's insert landed
   * there meanwhile), or a walk of an index began inside a latched walk of the same index (which
   * runs detached from then on).
   */
  restartStatement(): never;
  /**
   * The SQL layer rejected the row the last read of `table` returned (`handler::unlock_row`):
   * under READ COMMITTED the record lock that read took on a clustered index entry goes, unless
   * the transaction held it before or changed the row (`row_unlock_for_mysql`).
   */
  unlockRow(table: Table): void;
  /**
   * The row the last read of `table` returned passed the WHERE clause. After a semi-consistent
   * read of it (`was_semi_consistent_read`), the lock is taken now, waiting, and the statement
   * reads the row again.
   */
  rowMatched(table: Table): void;
  /**
   * The duplicate check of an insert meets entry `key[off, off+len)` of unique index `ix` (null:
   * its supremum): a shared lock of `type` on it (`row_ins_set_shared_rec_lock`); `owner` as in
   * {@link read}.
   */
  duplicate(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    type: RecType,
    owner?: number,
  ): void;
  /**
   * A new entry is about to go into `ix` just before `next` (null: the supremum): InnoDB's insert
   * intention, which waits while another transaction holds a gap or next-key lock on `next`.
   */
  insert(table: Table, ix: TableIndex, next: Uint8Array | null): void;
  /**
   * The existing row with clustered key `key` is about to be changed: X on the record (`owner`
   * as in {@link read}). A row an insert creates takes no lock: it is locked implicitly by its
   * DB_TRX_ID while its transaction is active (InnoDB's implicit lock).
   */
  write(table: Table, key: Uint8Array, owner?: number): void;
  /**
   * Asked once at the start of each read of `table`: the read view of a consistent read, or null
   * for a read of the latest versions (a locking read, READ UNCOMMITTED, the target of a write).
   */
  view(table: Table): ReadView | null;
  /** The writer of this transaction's undo logs (it takes its id at the first write). */
  undo(): TrxUndo;
}

/**
 * Where a database's tables find the hooks of the statement running on this thread against it
 * (see {@link TrxHooks}): one per open `Database` (a worker thread opens its own), set by the
 * session around each statement; null between statements.
 */
export interface TrxContext {
  current: TrxHooks | null;
}

/**
 * What the lock system does when an index changes under its locks, whoever holds them
 * (InnoDB's `lock_update_insert` and `lock_update_delete`).
 */
export interface LockMoves {
  /** A new entry of index `indexId` now sits before `next` (null: the supremum): it inherits the gap locks on `next`. */
  inheritFromNext(tableId: number, indexId: number, entry: Uint8Array, next: Uint8Array | null): void;
  /**
   * Entry `gone` of index `indexId` was removed for good: its locks move to the entry after it
   * (`heir()`, asked only when there is something to move; null: the supremum) as gap locks.
   */
  inheritToGap(tableId: number, indexId: number, gone: Uint8Array, heir: () => Uint8Array | null): void;
}
