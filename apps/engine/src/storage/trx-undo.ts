import type { TrxContext } from './trx-hooks.js';
import type { Table } from './table.js';
import type { TrxSys } from './trx-sys.js';
import { rollPtr, UNDO_INSERT, UNDO_INSERT_REC, UNDO_UPDATE } from './undo-format.js';
import type { LogToFree, UndoLogRef, UndoPosition, UndoSpace } from './undo-log.js';

/** What a transaction's undo needs of its database. */
export interface UndoHost {
  readonly undo: UndoSpace;
  readonly trxSys: TrxSys;
  /** The hooks of the statement running on this thread (a rollback runs without them). */
  readonly running: TrxContext;
  /** The table with id `id` (undo records name tables by id), undefined once it was dropped. */
  tableById(id: number): Table | undefined;
  /** A table dropped while this host was open whose old versions may still hold off-page values. */
  droppedTable(id: number): Table | undefined;
}

/**
 * One transaction's undo logs (InnoDB's `trx_undo_t` pair of a `trx_t`, with trx0roll's rollback):
 * an insert undo log and an update undo log in a rollback segment, created at the first record
 * of each kind. The transaction takes its id (and joins the active list) at its first write.
 * Records are numbered in the transaction (undo numbers); a savepoint is an undo number, and
 * rolling back to it applies the newer records, newest first, across both logs, removing each.
 *
 * REQUIRES: one thread uses an object at a time (a session's transaction).
 */
export class TrxUndo {
  readonly host: UndoHost;
  /** The session's transaction-system slot. */
  readonly slot: number;
  /** The transaction's id, 0 while it has written nothing. */
  trxId = 0;
  #insert: UndoLogRef | null = null;
  #update: UndoLogRef | null = null;
  #undoNo = 0;

  constructor(host: UndoHost, slot: number) {
    this.host = host;
    this.slot = slot;
  }

  /** Records written so far (the undo number of the next one): a savepoint. */
  get undoNo(): number {
    return this.#undoNo;
  }

  /** Whether the transaction has written anything (has an id). */
  get writing(): boolean {
    return this.trxId !== 0;
  }

  /** Called when the transaction takes its id (its read view's creator becomes it). */
  onAssign: ((id: number) => void) | null = null;

  /** The transaction's id, assigned now if it has none (`trx_set_rw_mode`). */
  id(): number {
    if (this.trxId === 0) {
      this.trxId = this.host.trxSys.assignId(this.slot);
      this.onAssign?.(this.trxId);
    }
    return this.trxId;
  }

  #log(type: number): UndoLogRef {
    const have = type === UNDO_INSERT ? this.#insert : this.#update;
    if (have !== null) return have;
    const id = this.id();
    const sp = this.host.undo;
    const log = sp.createLog(id % sp.rsegPages.length, type, id);
    if (type === UNDO_INSERT) this.#insert = log;
    else this.#update = log;
    return log;
  }

  /** Logs the insert of the row with clustered key `pk` into `table`; returns its roll pointer. */
  logInsert(table: Table, pk: Uint8Array): number {
    const log = this.#log(UNDO_INSERT);
    const roll = this.host.undo.append(
      log,
      UNDO_INSERT_REC,
      this.#undoNo,
      table.id,
      pk,
      false,
      0,
      0,
      EMPTY,
      0,
      0,
    );
    this.#undoNo++;
    return roll;
  }

  /**
   * Logs a change of the clustered record `pk` of `table` (`type`: UNDO_UPD_EXIST_REC,
   * UNDO_UPD_DEL_REC or UNDO_DEL_MARK_REC) whose previous version is `row[off, off + len)` with
   * DB_TRX_ID `oldTrxId`, DB_ROLL_PTR `oldRoll` and delete mark `oldDeleted`; returns the roll
   * pointer the new version carries.
   */
  logModify(
    table: Table,
    type: number,
    pk: Uint8Array,
    oldDeleted: boolean,
    oldTrxId: number,
    oldRoll: number,
    row: Uint8Array,
    off: number,
    len: number,
  ): number {
    const log = this.#log(UNDO_UPDATE);
    const roll = this.host.undo.append(
      log,
      type,
      this.#undoNo,
      table.id,
      pk,
      oldDeleted,
      oldTrxId,
      oldRoll,
      row,
      off,
      len,
    );
    this.#undoNo++;
    return roll;
  }

  /**
   * Undoes the records numbered `savepoint` and above, newest first (`trx_rollback_to_savepoint`):
   * each is applied to its table, then removed from its log. The statement rollback of a failed
   * statement and ROLLBACK TO SAVEPOINT both come here.
   */
  rollbackTo(savepoint: number): void {
    if (this.#undoNo <= savepoint) return;
    const sp = this.host.undo;
    const running = this.host.running;
    const saved = running.current;
    running.current = null;
    try {
      let ins = this.#insert === null ? null : sp.lastRecord(this.#insert);
      let upd = this.#update === null ? null : sp.lastRecord(this.#update);
      let insNo = ins === null ? -1 : sp.recordNo(ins);
      let updNo = upd === null ? -1 : sp.recordNo(upd);
      while (Math.max(insNo, updNo) >= savepoint) {
        const fromInsert = insNo > updNo;
        const log = (fromInsert ? this.#insert : this.#update)!;
        const pos = (fromInsert ? ins : upd)!;
        this.#apply(log, pos);
        const prev = sp.previous(pos, log.first);
        sp.removeLast(log, pos);
        if (fromInsert) {
          ins = prev;
          insNo = prev === null ? -1 : sp.recordNo(prev);
        } else {
          upd = prev;
          updNo = prev === null ? -1 : sp.recordNo(prev);
        }
      }
    } finally {
      running.current = saved;
    }
    this.#undoNo = savepoint;
  }

  #apply(log: UndoLogRef, pos: UndoPosition): void {
    const rec = this.host.undo.record(pos);
    const roll = rollPtr(log.rseg, rec.type === UNDO_INSERT_REC, pos.page, pos.offset);
    this.host.tableById(rec.tableId)?.undoChange(rec, roll, log.trxId);
  }

  /**
   * Commits (`trx_commit`): in one mini-transaction, the insert undo log leaves its slot (nobody
   * needs it once the inserts are committed) and the update undo log goes to its rollback
   * segment's history list for purge under the transaction's serialisation number. That
   * mini-transaction is the commit: once it is durable, so is the whole transaction, and a crash
   * before it rolls back both logs. Then the insert log's pages are freed and the transaction
   * leaves the active list. Returns the serialisation number (0 without update undo).
   */
  commit(): number {
    let no = 0;
    const sp = this.host.undo;
    const store = sp.store;
    let toFree: LogToFree | null = null;
    store.begin();
    try {
      if (this.#insert !== null) toFree = sp.releaseLog(this.#insert);
      if (this.#update !== null) {
        const sys = this.host.trxSys;
        no = sp.commitUpdate(this.#update, () => sys.assignNo(this.slot));
      }
    } catch (e) {
      store.rollback();
      throw e;
    }
    store.commit();
    if (this.#update !== null) this.host.trxSys.historyAdd(1);
    if (toFree !== null) sp.finishFree(toFree);
    this.#end();
    return no;
  }

  /** Rolls back every record and frees both logs. */
  rollback(): void {
    this.rollbackTo(0);
    const sp = this.host.undo;
    if (this.#insert !== null) sp.freeLog(this.#insert);
    if (this.#update !== null) sp.freeLog(this.#update);
    this.#end();
  }

  #end(): void {
    if (this.trxId !== 0) this.host.trxSys.remove(this.slot);
    this.trxId = 0;
    this.#insert = null;
    this.#update = null;
    this.#undoNo = 0;
  }

  /**
   * Adopts the logs of a transaction found active at recovery (`trx_rollback_recovered`): the
   * caller then rolls it back with {@link rollback}.
   */
  adopt(trxId: number, logs: readonly UndoLogRef[]): void {
    this.trxId = trxId;
    const sp = this.host.undo;
    let max = -1;
    for (const l of logs) {
      if (l.type === UNDO_INSERT) this.#insert = l;
      else this.#update = l;
      const last = sp.lastRecord(l);
      if (last !== null) max = Math.max(max, sp.recordNo(last));
    }
    this.#undoNo = max + 1;
  }
}

const EMPTY = new Uint8Array(0);
