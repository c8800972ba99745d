import type { TableUse } from '../exec/scope.js';
import { SqlError } from '../sql/errors.js';
import { TEMPORARY_TABLE_PREFIX } from '../storage/database.js';
import { dottedName, splitName } from '../storage/schema-name.js';
import type { Table } from '../storage/table.js';
import { DEADLOCK, GRANTED, type LockTable, type MdlMode } from '../txn/lock-table.js';
import { deadlockError, interrupted, lockWaitTimeout } from './lock-errors.js';
import { finishSlotWait, type WaitEnd, waitForSlot } from '../txn/transaction.js';

/**
 * LOCK TABLES and UNLOCK TABLES: a session's table locks, as MariaDB's locked-tables mode.
 *
 * The locks are metadata locks of the shared lock table (`SRO` for READ, `SNRW` for WRITE), held
 * by a lock-table slot of the session's own that outlives its transactions: an autocommit
 * statement commits and releases its row locks, the table locks stay until UNLOCK TABLES, the
 * next LOCK TABLES, BEGIN or the session's end. Another session's writers of a READ-locked table
 * wait (their SW conflicts with SRO); every other session's use of a WRITE-locked table waits,
 * consistent reads outside a transaction included.
 *
 * While locks are held the session may use only the tables it locked, by the name it locked them
 * under (the alias if it gave one): any other table is error 1100, a write to a READ-locked one
 * 1099. The statement's tables are checked when it runs (a prepared statement each time), from
 * the names its binding recorded ({@link TableUse}). A view locked holds the tables it reads
 * in the same mode, and the session may use them by their own names too, as MariaDB's.
 */

/** One table of a LOCK TABLES list, as the statement names it. */
export interface LockRequest {
  /** The storage name (database and table). */
  readonly stored: string;
  /** The name the session uses for it from now on: the alias, else the table's name. */
  readonly name: string;
  readonly write: boolean;
}

interface Held {
  readonly stored: string;
  readonly name: string;
  readonly write: boolean;
  /** The table locked (undefined: a view, whose base tables are held beside it). */
  table: Table | undefined;
}

/** A LOCK TABLES list names each table (or alias) once in a database: else 1066. */
export function checkLockList(requests: readonly LockRequest[]): void {
  const names = new Set<string>();
  for (const r of requests) {
    const key = `${splitName(r.stored).schema}.${r.name.toLowerCase()}`;
    if (names.has(key)) throw new SqlError('ER_NONUNIQ_TABLE', `Not unique table/alias: '${r.name}'`);
    names.add(key);
  }
}

/** What the locks need of the session. */
export interface TableLockHost {
  readonly locks: LockTable;
  readonly connectionId: number;
  /** Waits for a lock suspend the statement (server) instead of failing at once (API). */
  readonly asyncWaits: boolean;
  /** The table of a storage name, or undefined when none exists. */
  table(stored: string): Table | undefined;
  /**
   * The stored tables a view of that storage name reads, through the views it reads (undefined:
   * no such view).
   */
  viewTables(stored: string): readonly string[] | undefined;
  /** `lock_wait_timeout` in seconds. */
  waitTimeout(): number;
  /** The process list's state while waiting (empty: the wait ended). */
  waiting(state: string): void;
  /** The statement waited and will run again (its counters were counted). */
  rerun(): void;
  /** What a statement that waits throws: the server awaits `wait`, then runs it again. */
  suspend(wait: () => Promise<void>): Error;
  /** The table ids the session's transactions must not request metadata locks for. */
  held(ids: ReadonlySet<number>): void;
}

export class TableLocks {
  readonly #host: TableLockHost;
  #held: Held[] = [];
  #slot = -1;
  /** A LOCK TABLES waits: its run again keeps what it was granted. */
  #pending = false;
  /** Moves on at every wait and every release: a wait that finds it moved has ended (the locks went). */
  #epoch = 0;

  constructor(host: TableLockHost) {
    this.#host = host;
  }

  /** Whether the session is in locked-tables mode. */
  get active(): boolean {
    return this.#held.length > 0;
  }

  /** The lock-table slot holding the locks (-1: none), for KILL to cancel its wait. */
  get slot(): number {
    return this.#slot;
  }

  /**
   * LOCK TABLES: releases the locks held, then takes the new ones (waiting for conflicting
   * holders: 1205 after `waitSeconds`, by default `lock_wait_timeout`; 1213 as a deadlock
   * victim). REQUIRES: the caller committed the open transaction.
   */
  lock(requests: readonly LockRequest[], waitSeconds: number = this.#host.waitTimeout()): void {
    const host = this.#host;
    if (!this.#pending) this.unlock();
    const held: Held[] = [];
    for (const r of requests) {
      const table = host.table(r.stored);
      if (table !== undefined) {
        held.push({ stored: r.stored, name: r.name, write: r.write, table });
        continue;
      }
      const base = host.viewTables(r.stored);
      if (base === undefined)
        this.#fail(new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(r.stored)}' doesn't exist`));
      // a view: its name, and the tables it reads, locked as it is (usable by their own names)
      held.push({ stored: r.stored, name: r.name, write: r.write, table: undefined });
      for (const b of base) {
        const t = host.table(b);
        if (t !== undefined) held.push({ stored: b, name: splitName(b).table, write: r.write, table: t });
      }
    }
    const modes = new Map<Table, MdlMode>();
    for (const h of held)
      if (h.table !== undefined && (h.write || !modes.has(h.table)))
        modes.set(h.table, h.write ? 'SNRW' : 'SRO');
    if (this.#slot < 0) this.#slot = host.locks.begin(host.connectionId);
    const started = Date.now();
    for (const [table, mode] of modes) {
      const r = host.locks.lockMetadata(this.#slot, table.id, mode);
      if (r === GRANTED) continue;
      if (r === DEADLOCK) this.#fail(deadlockError());
      if (!host.asyncWaits || waitSeconds === 0) {
        const end = finishSlotWait(host.locks, this.#slot, started);
        if (end === 'granted') continue;
        this.#fail(waitError(end));
      }
      this.#pending = true;
      const slot = this.#slot;
      const epoch = ++this.#epoch;
      host.waiting('Waiting for table metadata lock');
      throw host.suspend(async () => {
        const gone = (): boolean => this.#epoch !== epoch || this.#slot !== slot;
        const w = await waitForSlot(host.locks, slot, started + waitSeconds * 1000, gone);
        host.waiting('');
        const end: WaitEnd = w === 'ended' ? 'ended' : finishSlotWait(host.locks, slot, started);
        if (end === 'granted') {
          host.rerun();
          return;
        }
        if (w !== 'ended') this.#fail(waitError(end));
        throw waitError(end);
      });
    }
    this.#pending = false;
    this.#held = held;
    host.held(tableIds(held));
  }

  /** UNLOCK TABLES (and BEGIN, the next LOCK TABLES, the session's end): every table lock goes. */
  unlock(): void {
    this.#pending = false;
    this.#epoch++;
    this.#held = [];
    if (this.#slot >= 0) this.#host.locks.end(this.#slot);
    this.#slot = -1;
    this.#host.held(new Set());
  }

  /**
   * The statement's tables against the locks (nothing to check outside locked-tables mode):
   * 1100 for a table not locked under the name used, 1099 for a write to a READ-locked one.
   */
  check(uses: readonly TableUse[]): void {
    if (this.#held.length === 0) return;
    for (const u of uses) {
      // a session's own temporary tables are used freely in locked-tables mode, as MariaDB's
      if (u.stored.startsWith(TEMPORARY_TABLE_PREFIX)) continue;
      let found: Held | undefined;
      for (const h of this.#held)
        if (
          h.stored === u.stored &&
          h.name.toLowerCase() === u.name.toLowerCase() &&
          (found === undefined || h.write)
        )
          found = h;
      if (found === undefined)
        throw new SqlError('ER_TABLE_NOT_LOCKED', `Table '${u.name}' was not locked with LOCK TABLES`);
      if (u.write && !found.write)
        throw new SqlError(
          'ER_TABLE_NOT_LOCKED_FOR_WRITE',
          `Table '${u.name}' was locked with a READ lock and can't be updated`,
        );
    }
  }

  /** Statements that cannot run in locked-tables mode (CREATE / DROP DATABASE): 1192. */
  refuse(): void {
    if (this.#held.length > 0)
      throw new SqlError(
        'ER_LOCK_OR_ACTIVE_TRANSACTION',
        "Can't execute the given command because you have active locked tables or an active transaction",
      );
  }

  /**
   * After DDL on locked tables: a table dropped leaves the list; one rebuilt under a new id (a
   * copying ALTER) is locked again under it (the DDL held it exclusively: nobody waits there).
   */
  refresh(): void {
    if (this.#held.length === 0) return;
    const host = this.#host;
    const kept: Held[] = [];
    for (const h of this.#held) {
      if (h.table === undefined) {
        kept.push(h);
        continue;
      }
      const t = host.table(h.stored);
      if (t === undefined) continue;
      if (t.id !== h.table.id) host.locks.lockMetadata(this.#slot, t.id, h.write ? 'SNRW' : 'SRO', true);
      h.table = t;
      kept.push(h);
    }
    this.#held = kept;
    host.held(tableIds(kept));
  }

  /** A failed LOCK TABLES holds nothing (MariaDB's too). */
  #fail(e: SqlError): never {
    this.unlock();
    throw e;
  }
}

function tableIds(held: readonly Held[]): Set<number> {
  const ids = new Set<number>();
  for (const h of held) if (h.table !== undefined) ids.add(h.table.id);
  return ids;
}

function waitError(end: WaitEnd): SqlError {
  if (end === 'victim') return deadlockError();
  if (end === 'cancelled' || end === 'ended') return interrupted();
  return lockWaitTimeout();
}
