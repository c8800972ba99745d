import type { Database } from '../storage/database.js';
import type { ReadView } from '../storage/read-view.js';
import { ownerOf } from '../storage/record-locks.js';
import type { Table, TableIndex } from '../storage/table.js';
import { REC_GAP, REC_NOT_GAP, type RecType, type TrxHooks } from '../storage/trx-hooks.js';
import { TrxUndo } from '../storage/trx-undo.js';
import { recordLockText } from './lock-text.js';
import {
  DEADLOCK,
  GRANTED,
  LOCK_INSERT_INTENTION,
  type LockMode,
  type MdlMode,
  type LockTable,
  WAIT_CANCELLED,
  WAIT_GRANTED,
  WAIT_VICTIM,
  WAIT_WAITING,
} from './lock-table.js';

import { quotedName } from '../storage/schema-name.js';

const EMPTY = new Uint8Array(0);

/**
 * Thrown (inside a statement) when a semi-consistent read's row matched and its lock was then
 * granted at once (its holder ended meanwhile): the statement runs again from its savepoint and
 * reads the row's latest version under the lock.
 */
export class StatementRestart extends Error {
  override readonly name = 'StatementRestart';
  constructor() {
    super('read the row again under its lock');
  }
}

/**
 * Thrown (inside a statement) when a lock cannot be granted now: the statement is rolled back
 * to its savepoint by the session, which then waits or fails. `deadlock`: waiting would have
 * closed a cycle and this transaction is the victim (nothing is queued).
 */
export class LockWaitSignal extends Error {
  override readonly name = 'LockWaitSignal';
  readonly deadlock: boolean;
  readonly mdl: boolean;
  /** What was requested, for the deadlock report: table, key text, mode. */
  readonly what: string;

  constructor(deadlock: boolean, mdl: boolean, what: string) {
    super(deadlock ? 'deadlock' : 'lock wait');
    this.deadlock = deadlock;
    this.mdl = mdl;
    this.what = what;
  }
}

/** How a wait ended. */
export type WaitEnd = 'granted' | 'timeout' | 'victim' | 'cancelled' | 'ended';

/**
 * The read mode of the statement running: lock and hold (S, X), only wait for writers (`check`:
 * an autocommit SELECT under SERIALIZABLE), or take no locks (`none`: a consistent read at the
 * transaction's read view, or READ UNCOMMITTED's read of the latest rows when it has none).
 */
const NO_TABLES: ReadonlySet<number> = new Set();

export type ReadMode = LockMode | 'check' | 'none';

/** `transaction_isolation` values. */
export type IsolationLevel = 'READ-UNCOMMITTED' | 'READ-COMMITTED' | 'REPEATABLE-READ' | 'SERIALIZABLE';

/**
 * One session's transaction: its slot in the shared lock table, its slot in the transaction
 * system (trx-sys.ts), its undo logs (trx-undo.ts), its read view, its savepoints. While one of
 * its statements runs it is its database's `running.current`, so the tables it touches lock
 * each record first (two-phase: every lock is held to commit or rollback), log each write's
 * undo and read at its view. The object lives as long as the session; each transaction reuses it.
 */
export class Transaction implements TrxHooks {
  readonly db: Database;
  readonly locks: LockTable;
  readonly connectionId: number;
  /** The undo logs and id of the transaction (its session's transaction-system slot). */
  readonly trxUndo: TrxUndo;
  /**
   * Lock-table slot, taken at the transaction's first lock or write (an autocommit SELECT that
   * meets no writer never takes one), else -1.
   */
  slot = -1;
  #open = false;
  /** Bumped at every begin: a wait that outlives its transaction sees it changed. */
  epoch = 0;
  /** Opened by BEGIN / START TRANSACTION or by a statement under autocommit=0 (ends at COMMIT). */
  explicit = false;
  readOnly = false;
  /** When the transaction began (Date.now()), for SHOW ENGINE INNODB STATUS. */
  startedAt = 0;
  readonly savepoints: Map<string, number> = new Map();
  /** The statement's read mode, and the one table whose reads take X (UPDATE/DELETE's target). */
  readMode: ReadMode = 'S';
  exclusiveTable = -1;
  /** The table an INSERT writes: its reads (duplicate checks) S-lock even when the mode is `none`. */
  sharedTable = -1;
  /**
   * The table whose clustered reads are semi-consistent (a single-table UPDATE's target under
   * READ COMMITTED and below; -1: none), as `ha_innobase::try_semi_consistent_read`.
   */
  semiConsistentTable = -1;
  /**
   * The clustered record the last read of its table locked new under READ COMMITTED (InnoDB's
   * `prebuilt->new_rec_locks`), which {@link unlockRow} may release.
   */
  readonly #fresh = new RememberedRecord();
  /** The clustered record a semi-consistent read of its table passed without its lock. */
  readonly #semi = new RememberedRecord();
  /** The isolation level, fixed when the transaction opens. */
  isolation: IsolationLevel = 'REPEATABLE-READ';
  /** The read view of consistent reads, null while none is open. */
  #view: ReadView | null = null;
  /** Tables whose metadata lock (shared: SR or SW) this transaction holds. */
  readonly #mdl = new Set<number>();
  /** Tables whose metadata lock it holds in SW (it writes their rows). */
  readonly #mdlWrite = new Set<number>();
  /**
   * Tables the session holds by LOCK TABLES (its own lock-table slot, which outlives
   * transactions): their metadata locks are not requested again, which would wait for the
   * session's own table lock.
   */
  tableLocks: ReadonlySet<number> = NO_TABLES;
  /** Tables a read outside a transaction has looked for another session's LOCK TABLES … WRITE. */
  readonly #looked = new Set<number>();
  /** The table whose metadata {@link view} last found settled (-1: none since the last end). */
  #lastLooked = -1;
  /** The request that made the statement wait, for the reports. */
  waitingFor = '';
  waitIsMdl = false;
  waitStarted = 0;
  /** A request is queued and its wait not finished yet (finishWait not called). */
  #waitPending = false;
  /** The LSN the last commit must be durable to before it is acknowledged (0n: none pending). */
  commitLsn = 0n;

  constructor(db: Database, locks: LockTable, connectionId: number) {
    this.db = db;
    this.locks = locks;
    this.connectionId = connectionId;
    this.trxUndo = new TrxUndo(db, db.trxSys.allocateSlot());
    // a transaction that turns read-write after making its view sees its own changes
    this.trxUndo.onAssign = (id) => {
      if (this.#view !== null) this.#view.creator = id;
      // the rows it inserts are locked by this id (implicit locks)
      if (this.slot >= 0) this.locks.setUndoId(this.slot, id);
    };
  }

  /** The read view consistent reads use now (null: none open). */
  get readView(): ReadView | null {
    return this.#view;
  }

  /** Records written so far (a savepoint). */
  get undoNo(): number {
    return this.trxUndo.undoNo;
  }

  /** Makes the transaction's read view if it has none (REPEATABLE READ: at its first consistent read). */
  ensureView(): void {
    if (this.#view === null) this.#view = this.db.trxSys.openView(this.trxUndo.slot, this.trxUndo.trxId);
  }

  /** Closes the read view (READ COMMITTED: at each statement's end), so purge can pass it. */
  closeView(): void {
    if (this.#view === null) return;
    this.#view = null;
    this.db.trxSys.closeView(this.trxUndo.slot);
  }

  get active(): boolean {
    return this.#open;
  }

  /** Opens a transaction if none is open (its lock-table slot comes with its first lock). */
  begin(): void {
    if (this.#open) return;
    this.#open = true;
    this.epoch++;
    this.startedAt = Date.now();
  }

  #slot(): number {
    if (this.slot < 0) {
      this.slot = this.locks.begin(this.connectionId, !this.#gaps());
      if (this.trxUndo.trxId !== 0) this.locks.setUndoId(this.slot, this.trxUndo.trxId);
    }
    return this.slot;
  }

  /** Whether locking reads lock gaps too (REPEATABLE READ, SERIALIZABLE), as InnoDB. */
  #gaps(): boolean {
    return this.isolation === 'REPEATABLE-READ' || this.isolation === 'SERIALIZABLE';
  }

  // ------------------------------------------------------------------ TrxHooks

  read(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    type: RecType,
    past = false,
    owner = 0,
    semi = false,
  ): ReadView | null {
    return this.#read(table, ix, key, off, len, type, past, owner, semi, true);
  }

  readRow(table: Table, pk: Uint8Array, off: number, len: number, owner: number): void {
    this.#read(table, table.primary, pk, off, len, REC_NOT_GAP, false, owner, false, false);
  }

  locksRowPastRange(table: Table): boolean {
    return table.id === this.exclusiveTable;
  }

  locksGaps(table: Table): boolean {
    if (!this.#gaps()) return false;
    const id = table.id;
    if (id === this.exclusiveTable || id === this.sharedTable) return true;
    return this.readMode === 'S' || this.readMode === 'X';
  }

  restartStatement(): never {
    throw new StatementRestart();
  }

  /**
   * `walk`: the entry is one the read walks to in its own index (a clustered one may be unlocked
   * again when the WHERE clause rejects its row); otherwise the clustered record behind another
   * index's entry, which MariaDB 10.11 does not unlock.
   */
  #read(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    type: RecType,
    past: boolean,
    owner: number,
    semi: boolean,
    walk: boolean,
  ): ReadView | null {
    const id = table.id;
    // a new row of the table: the last one's verdict can no longer come
    this.#fresh.forgetTable(id);
    this.#semi.forgetTable(id);
    let mode = this.readMode;
    let t: number = type;
    if (id === this.exclusiveTable) mode = 'X';
    else if (mode === 'none') {
      if (id !== this.sharedTable) return null;
      mode = 'S';
    } else if (mode === 'check') {
      // autocommit SELECT: nothing to hold; wait only for a writer's X lock, if the table has any
      // (an uncommitted insert's implicit lock made explicit first)
      if (key === null || t === REC_GAP) return null;
      if (owner !== 0 && owner !== this.trxUndo.trxId)
        this.locks.convertImplicit(owner, id, ix.id, key, off, len);
      if (!this.locks.hasXLocks(id)) return null;
      mode = 'S';
      t = REC_NOT_GAP;
    }
    if (!this.#gaps()) {
      // READ COMMITTED and below: record locks only (row_search_mvcc's set_also_gap_locks off),
      // none on the clustered entry past a range (seen past it before it is locked); a secondary
      // range's end is seen after its entry is locked, and that lock stays (MariaDB 10.11)
      if (key === null || t === REC_GAP || (past && ix.primary)) return null;
      if (walk && ix.primary && !past)
        return this.#readCommitted(table, ix, key, off, len, mode, owner, semi);
      t = REC_NOT_GAP;
    }
    this.#lock(table, ix, key, off, len, mode, t, owner);
    return null;
  }

  /**
   * A READ COMMITTED locking read walking a clustered index reaches `key[off, off+len)`: lock the
   * record only, and remember it when the lock is new (the WHERE clause may reject the row). A
   * semi-consistent read that would wait takes no lock and reads the last committed version.
   */
  #readCommitted(
    table: Table,
    ix: TableIndex,
    key: Uint8Array,
    off: number,
    len: number,
    mode: LockMode,
    owner: number,
    semi: boolean,
  ): ReadView | null {
    if (semi && table.id === this.semiConsistentTable) {
      const slot = this.#prepare(table, ix, key, off, len, owner, mode === 'X');
      const r = this.locks.lockRecord(slot, table.id, ix.id, key, off, len, mode, REC_NOT_GAP, true);
      if (r !== GRANTED) {
        // row_search_mvcc's DB_LOCK_WAIT under ROW_READ_TRY_SEMI_CONSISTENT: no wait; the WHERE
        // clause judges the version no active transaction wrote
        this.#semi.set(table, ix, mode, key, off, len, owner);
        return this.db.trxSys.committedSnapshot(this.trxUndo.trxId);
      }
    } else this.#lock(table, ix, key, off, len, mode, REC_NOT_GAP, owner);
    if (this.locks.lastGrantNew) {
      this.#fresh.set(table, ix, mode, key, off, len, owner);
    }
    return null;
  }

  unlockRow(table: Table): void {
    const id = table.id;
    // ROW_READ_DID_SEMI_CONSISTENT: the row was read without a lock; nothing to release
    if (this.#semi.take(id) !== null) return;
    const r = this.#fresh.take(id);
    if (r === null) return;
    const key = r.key();
    // a row this transaction changed keeps its lock (row_unlock_for_mysql's DB_TRX_ID check); the
    // record's DB_TRX_ID as it was locked (no one else changes it while the lock is held), so the
    // walk still holding its leaf does not descend the index again
    const mine = this.trxUndo.trxId;
    if (mine !== 0 && r.owner === mine) return;
    this.locks.unlockRecord(this.slot, id, r.ix!.id, key, 0, key.length, r.mode);
  }

  rowMatched(table: Table): void {
    const r = this.#semi.take(table.id);
    if (r === null) return;
    const key = r.key();
    // was_semi_consistent_read: lock the row now, waiting if need be, then read it again
    this.#lock(table, r.ix!, key, 0, key.length, r.mode, REC_NOT_GAP, ownerOf(table, key));
    throw new StatementRestart();
  }

  duplicate(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    type: RecType,
    owner = 0,
  ): void {
    let t: number = type;
    if (!this.#gaps()) {
      if (key === null || t === REC_GAP) return;
      t = REC_NOT_GAP;
    }
    this.#lock(table, ix, key, off, len, 'S', t, owner);
  }

  insert(table: Table, ix: TableIndex, next: Uint8Array | null): void {
    this.#lock(table, ix, next, 0, next === null ? 0 : next.length, 'X', LOCK_INSERT_INTENTION);
  }

  write(table: Table, key: Uint8Array, owner = 0): void {
    this.#lock(table, table.primary, key, 0, key.length, 'X', REC_NOT_GAP, owner);
  }

  view(table: Table): ReadView | null {
    if (this.readMode !== 'none' || this.#view === null) return null;
    if (table.id === this.exclusiveTable || table.id === this.sharedTable) return null;
    // a transaction keeps the tables it reads from changing shape (DDL waits for it); a read
    // outside one waits only for another session's LOCK TABLES … WRITE
    const id = table.id;
    // reads call this for every row: the table looked at last is answered first
    if (id === this.#lastLooked) return this.#view;
    if (this.#mdl.has(id) || this.tableLocks.has(id)) return this.#view;
    if (this.explicit) this.lockTable(table, 'SR');
    else if (!this.#looked.has(id)) {
      // once per table and statement (an autocommit transaction is one statement)
      if (this.locks.lockedForWrite(id, this.slot)) this.lockTable(table, 'SR');
      this.#looked.add(id);
    }
    this.#lastLooked = id;
    return this.#view;
  }

  undo(): TrxUndo {
    // the weight a deadlock's victim choice compares: undo records (this write's included)
    if (this.slot >= 0) this.locks.setWeight(this.slot, this.trxUndo.undoNo + 1);
    return this.trxUndo;
  }

  /**
   * Before a record lock request: the table's metadata lock and the transaction's lock slot, and
   * another active transaction's insert at `key` made an explicit lock of its writer's.
   */
  #prepare(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    owner: number,
    write: boolean,
  ): number {
    if (!this.tableLocks.has(table.id) && !(write ? this.#mdlWrite : this.#mdl).has(table.id))
      this.lockTable(table, write ? 'SW' : 'SR');
    const slot = this.#slot();
    if (owner !== 0 && key !== null && owner !== this.trxUndo.trxId)
      this.locks.convertImplicit(owner, table.id, ix.id, key, off, len);
    return slot;
  }

  #lock(
    table: Table,
    ix: TableIndex,
    key: Uint8Array | null,
    off: number,
    len: number,
    mode: LockMode,
    type: number,
    owner = 0,
  ): void {
    const slot = this.#prepare(table, ix, key, off, len, owner, mode === 'X');
    const r = this.locks.lockRecord(slot, table.id, ix.id, key, off, len, mode, type);
    if (r === GRANTED) return;
    const rec = key === null ? 'supremum pseudo-record' : `key ${hex(key, off, len)}`;
    this.waitingFor = `RECORD LOCKS index ${ix.name} of table ${quotedName(table.name)} trx id ${this.locks.trxId(this.slot)} ${recordLockText(mode, type, true)} ${rec}`;
    this.waitIsMdl = false;
    this.#waitPending = r !== DEADLOCK;
    this.waitStarted = Date.now();
    throw new LockWaitSignal(r === DEADLOCK, false, this.waitingFor);
  }

  /**
   * The table's metadata lock: SR for a transaction that reads it, SW for one that writes it, X
   * for DDL (a table the session holds by LOCK TABLES is not requested again).
   */
  lockTable(table: Table, mode: MdlMode): void {
    if (this.tableLocks.has(table.id)) return;
    const r = this.locks.lockMetadata(this.#slot(), table.id, mode);
    if (r === GRANTED) {
      if (mode === 'SR' || mode === 'SW') this.#mdl.add(table.id);
      if (mode === 'SW') this.#mdlWrite.add(table.id);
      return;
    }
    this.waitingFor = `METADATA LOCK table ${quotedName(table.name)} mode ${mode}`;
    this.waitIsMdl = true;
    this.#waitPending = r !== DEADLOCK;
    this.waitStarted = Date.now();
    throw new LockWaitSignal(r === DEADLOCK, true, this.waitingFor);
  }

  // ------------------------------------------------------------------ ends

  /** Undoes the writes after `savepoint` (an undo number); locks stay (2PL). */
  rollbackTo(savepoint: number): void {
    this.trxUndo.rollbackTo(savepoint);
    if (this.slot >= 0) this.locks.setWeight(this.slot, this.trxUndo.undoNo);
  }

  /**
   * Commit: the undo logs end (the update log joins the history for purge) in the commit's
   * mini-transaction, whose LSN the acknowledgement waits for; the view closes; every lock goes.
   */
  commit(): void {
    const writing = this.trxUndo.writing;
    this.trxUndo.commit();
    const redo = this.db.redo;
    if (writing && redo !== null && !this.db.closed) {
      this.commitLsn = redo.lsn;
      // innodb_flush_log_at_trx_commit=2: the log goes to the OS at every commit
      if (redo.flushLogAtTrxCommit === 2) redo.write();
    }
    this.closeView();
    this.#end();
  }

  /** Roll back everything, release every lock. */
  rollback(): void {
    if (this.slot >= 0 && this.#waitPending) {
      // a wait still pending (the session closes): withdraw it and wake its sleeper, which finds
      // its transaction ended
      this.#waitPending = false;
      this.locks.finishWait(this.slot, Date.now() - this.waitStarted);
      const w = this.locks.waitWord(this.slot);
      Atomics.notify(w.int32, w.index);
    }
    this.trxUndo.rollback();
    this.closeView();
    this.#end();
  }

  /** The session ends: its transaction-system slot goes back. REQUIRES: no transaction open. */
  release(): void {
    this.closeView();
    this.db.trxSys.freeSlot(this.trxUndo.slot);
  }

  #end(): void {
    if (this.slot >= 0) this.locks.end(this.slot);
    this.slot = -1;
    this.#open = false;
    this.explicit = false;
    this.readOnly = false;
    this.sharedTable = -1;
    this.exclusiveTable = -1;
    this.semiConsistentTable = -1;
    this.#fresh.forgetTable(-1);
    this.#semi.forgetTable(-1);
    // (clearing an empty Map or Set still allocates a new table in V8)
    if (this.savepoints.size > 0) this.savepoints.clear();
    if (this.#mdl.size > 0) this.#mdl.clear();
    if (this.#mdlWrite.size > 0) this.#mdlWrite.clear();
    if (this.#looked.size > 0) this.#looked.clear();
    this.#lastLooked = -1;
  }

  // ------------------------------------------------------------------ waits

  /**
   * Sleeps until the queued request is granted, the transaction is chosen as a deadlock victim,
   * the wait is cancelled (KILL QUERY), or `timeoutMs` passes (the request is then withdrawn).
   * Never blocks the thread (Atomics.waitAsync); works the same for a grant made by a session on
   * this thread or on another one attached to the same lock table.
   */
  async waitForGrant(timeoutMs: number): Promise<WaitEnd> {
    const slot = this.slot;
    const epoch = this.epoch;
    const end = await waitForSlot(
      this.locks,
      slot,
      this.waitStarted + timeoutMs,
      () => this.epoch !== epoch || this.slot !== slot,
    );
    if (end === 'ended') return end;
    this.#waitPending = false;
    return finishSlotWait(this.locks, slot, this.waitStarted);
  }

  /** Withdraws a queued request without waiting (the synchronous API cannot wait). */
  abandonWait(): WaitEnd {
    this.#waitPending = false;
    const s = this.locks.finishWait(this.slot, 0);
    if (s === WAIT_GRANTED) return 'granted';
    if (s === WAIT_VICTIM) return 'victim';
    return 'timeout';
  }
}

/**
 * Sleeps until lock-table slot `slot`'s queued request stops waiting (granted, chosen as a
 * deadlock victim, cancelled) or `deadline` (ms) passes, without blocking the thread
 * (Atomics.waitAsync); 'ended' when `gone()` says the waiter went away meanwhile, else 'waited'
 * ({@link finishSlotWait} then says how it ended).
 */
export async function waitForSlot(
  locks: LockTable,
  slot: number,
  deadline: number,
  gone: () => boolean,
): Promise<'ended' | 'waited'> {
  const { int32, index } = locks.waitWord(slot);
  for (;;) {
    const left = deadline - Date.now();
    if (Atomics.load(int32, index) !== WAIT_WAITING || left <= 0) break;
    const r = (
      Atomics as unknown as {
        waitAsync(a: Int32Array, i: number, v: number, t: number): { async: boolean; value: unknown };
      }
    ).waitAsync(int32, index, WAIT_WAITING, left);
    if (r.async) await (r.value as Promise<unknown>);
    if (gone()) return 'ended';
  }
  return gone() ? 'ended' : 'waited';
}

/** Ends slot `slot`'s wait (withdrawing a request still queued: a timeout) and says how it ended. */
export function finishSlotWait(locks: LockTable, slot: number, started: number): WaitEnd {
  const s = locks.finishWait(slot, Date.now() - started);
  if (s === WAIT_GRANTED) return 'granted';
  if (s === WAIT_VICTIM) return 'victim';
  if (s === WAIT_CANCELLED) return 'cancelled';
  return 'timeout';
}

function hex(key: Uint8Array, off: number, len: number): string {
  let s = '';
  const n = Math.min(len, 32);
  for (let i = 0; i < n; i++) s += key[off + i]!.toString(16).padStart(2, '0');
  return len > n ? `${s}…` : s;
}

/** One clustered record a read of a table remembered (its table, index, lock mode and key). */
class RememberedRecord {
  table = -1;
  ix: TableIndex | null = null;
  mode: LockMode = 'X';
  /** The record's DB_TRX_ID when it was read. */
  owner = 0;
  #key = new Uint8Array(64);
  #len = 0;

  set(
    table: Table,
    ix: TableIndex,
    mode: LockMode,
    key: Uint8Array,
    off: number,
    len: number,
    owner: number,
  ): void {
    this.owner = owner;
    if (this.#key.length < len) this.#key = new Uint8Array(len * 2);
    this.#key.set(key.subarray(off, off + len));
    this.#len = len;
    this.table = table.id;
    this.ix = ix;
    this.mode = mode;
  }

  /** Forgets the record if it is of table `id` (-1: whatever its table). */
  forgetTable(id: number): void {
    if (id === -1 || this.table === id) this.table = -1;
  }

  /** The record if it is of table `id`, forgotten as it is given; else null. */
  take(id: number): this | null {
    if (this.table !== id || id === -1) return null;
    this.table = -1;
    return this;
  }

  /** The key (valid until the next {@link set}). */
  key(): Uint8Array {
    return this.#key.subarray(0, this.#len);
  }
}
