import { arr, obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { splitName } from '../storage/schema-name.js';
import type { Table } from '../storage/table.js';
import { LockTableFullError } from '../txn/lock-table.js';
import { type InterruptWord, LocalInterruptWord, type ProcessEntry } from '../txn/process-list.js';
import { KILL_CONNECTION, KILL_QUERY } from '../exec/interrupt.js';
import type { StatusName } from '../exec/status.js';
import { instanceOf } from './instance.js';
import {
  type IsolationLevel,
  LockWaitSignal,
  StatementRestart,
  type ReadMode,
  Transaction,
  type WaitEnd,
} from '../txn/transaction.js';
import { recordDeadlock } from './innodb-txn-status.js';
import type { QueryResult } from './result.js';
import type { Session } from './session.js';
import { storageError } from './storage-errors.js';
import { SqlDictionary } from './dictionary.js';
import { deadlockError, interrupted, lockWaitTimeout } from './lock-errors.js';
import { type LockRequest, TableLocks } from './table-locks.js';
import { viewTables } from './view-tables.js';

/**
 * Returned instead of a result (thrown) by a server session's statement that met a conflicting
 * lock: the statement is rolled back (its locks kept) and its request queued. `wait()` resolves
 * when the lock is granted (run the statement again) or rejects with the statement's error
 * (1205 on timeout, 1213 when chosen as a deadlock victim, 1317 when killed).
 */
export class LockWaitPending extends Error {
  override readonly name = 'LockWaitPending';
  readonly wait: () => Promise<void>;

  constructor(wait: () => Promise<void>) {
    super('waiting for a lock');
    this.wait = wait;
  }
}

/** What #failed returns when the statement can run again at once. */
const RETRY: unique symbol = Symbol('retry');

/** Statements that commit the open transaction first, as MySQL's implicit commit. */
const IMPLICIT_COMMIT = new Set([
  'CreateTable',
  'CreateIndex',
  'Drop',
  'AlterTable',
  'CreateView',
  'Truncate',
  'RenameTable',
  'CreateDatabase',
  'CreateSchema',
  'Analyze',
]);

/** Statements that read or write rows under the transaction. */
const ROW_STATEMENTS = new Set(['Query', 'Insert', 'Update', 'Delete']);

/**
 * A session's side of transactions: runs each statement inside the session's transaction
 * (autocommit: one per statement; BEGIN or autocommit=0: until COMMIT/ROLLBACK), with a
 * statement savepoint so a failed statement leaves nothing behind, and decides what a lock
 * conflict does: wait (server sessions, through {@link LockWaitPending}) or fail at once with
 * 1205 (the synchronous API, which cannot wait without blocking the thread that would release).
 */
export class SessionTransactions {
  readonly session: Session;
  readonly trx: Transaction;
  readonly entry: ProcessEntry;
  /** Lock conflicts wait (server) instead of failing at once (API). */
  asyncWaits = false;
  /** The next statement re-runs one that waited: its counters were already counted. */
  rerun = false;
  /** What KILL CONNECTION does (the server closes the socket too); default: close the session. */
  onKill: (() => void) | undefined;
  /** LOCK TABLES' locks, which outlive transactions. */
  readonly tables: TableLocks;
  /** SET TRANSACTION ISOLATION LEVEL / READ ONLY | READ WRITE without a scope: the next transaction's. */
  nextIsolation: IsolationLevel | undefined;
  nextReadOnly: boolean | undefined;

  constructor(session: Session, connectionId: number | undefined, interruptWord?: InterruptWord) {
    this.session = session;
    const plist = instanceOf(session.db).processList;
    const id = connectionId ?? plist.allocateId();
    this.trx = new Transaction(session.db, instanceOf(session.db).lockTable, id);
    const word = interruptWord ?? new LocalInterruptWord();
    this.entry = {
      id,
      user: 'root',
      host: 'localhost',
      command: 'Sleep',
      since: Date.now(),
      state: '',
      info: null,
      get interrupt() {
        return word.value;
      },
      raise: (kind) => word.raise(kind),
      resetQueryKill: () => word.resetQuery(),
      db: () => session.database,
      kill: (query) => this.kill(query),
    };
    plist.add(this.entry);
    const db = session.db;
    const trx = this.trx;
    // biome-ignore lint/complexity/noUselessThisAlias: the host's getter reads the session's flag
    const self = this;
    this.tables = new TableLocks({
      locks: trx.locks,
      connectionId: id,
      get asyncWaits() {
        return self.asyncWaits;
      },
      table: (stored) => (db.hasTable(stored) && !session.hiddenTable(stored) ? db.table(stored) : undefined),
      viewTables: (stored) => viewTables(SqlDictionary.of(db), stored),
      waitTimeout: () => Number(session.vars.get('lock_wait_timeout')),
      waiting: (state) => {
        this.entry.state = state;
        if (state === '') {
          this.entry.command = 'Sleep';
          this.entry.info = null;
        }
      },
      rerun: () => {
        this.rerun = true;
      },
      suspend: (wait) => new LockWaitPending(wait),
      held: (ids) => {
        trx.tableLocks = ids;
      },
    });
  }

  get connectionId(): number {
    return this.entry.id;
  }

  count(name: StatusName): void {
    this.session.counters.add(name, 1);
  }

  #autocommit(): boolean {
    return Number(this.session.vars.get('autocommit')) === 1;
  }

  /** Runs one statement `f` of AST node `st` (text `sql`) under the transaction rules. */
  run(st: unknown, sql: string, f: () => QueryResult): QueryResult {
    const [tag, v] = tagOf(st);
    const e = this.entry;
    e.command = 'Query';
    e.since = Date.now();
    e.state = 'executing';
    e.info = sql;
    try {
      if (IMPLICIT_COMMIT.has(tag)) return this.#ddl(tag, v, f);
      if (!ROW_STATEMENTS.has(tag)) {
        const res = f();
        // SET autocommit = 1 commits an open transaction that autocommit = 0 began
        if (tag === 'Set' && this.trx.active && this.#autocommit() && !this.#begun) this.commit();
        return res;
      }
      return this.#rows(tag, v, f);
    } finally {
      if (e.state !== 'Waiting for row lock' && e.state !== 'Waiting for table metadata lock') {
        e.command = 'Sleep';
        e.since = Date.now();
        e.state = '';
        e.info = null;
      }
    }
  }

  /** True when BEGIN / START TRANSACTION opened the transaction (not autocommit = 0). */
  #begun = false;
  /** A DDL statement waits for its metadata lock. */
  #ddlWaiting = false;

  #rows(tag: string, v: unknown, f: () => QueryResult): QueryResult {
    const trx = this.trx;
    const write = tag !== 'Query';
    this.#open();
    if (write && trx.readOnly) {
      if (!trx.explicit) trx.rollback();
      throw new SqlError(
        'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION',
        'Cannot execute statement in a READ ONLY transaction.',
      );
    }
    const mode = readModeOf(tag, v, trx);
    trx.readMode = mode;
    trx.exclusiveTable = -1;
    trx.sharedTable = -1;
    trx.semiConsistentTable = -1;
    // a consistent read's view: READ COMMITTED one per statement, REPEATABLE READ one per
    // transaction made at its first consistent read (InnoDB's trx_assign_read_view)
    const perStatement = mode === 'none' && trx.isolation === 'READ-COMMITTED';
    if (mode === 'none' && trx.isolation !== 'READ-UNCOMMITTED') {
      if (perStatement) trx.closeView();
      trx.ensureView();
    }
    const sp = trx.undoNo;
    const running = this.session.db.running;
    let res: QueryResult;
    try {
      for (;;) {
        running.current = trx;
        try {
          res = f();
          break;
        } catch (err) {
          running.current = null;
          const out = this.#failed(err, sp);
          if (out !== RETRY) throw out;
          this.session.rowSink?.restart?.();
        } finally {
          running.current = null;
        }
      }
    } finally {
      if (perStatement) trx.closeView();
    }
    if (!trx.explicit) this.#commit();
    return res;
  }

  /**
   * Commits, then — after a transaction that wrote, while purge has work — one purge batch of
   * `innodb_purge_batch_size` undo pages (InnoDB's purge threads run on their own; here the
   * committing writer does the work, under the writers' guard on worker threads).
   */
  #commit(): void {
    const trx = this.trx;
    const wrote = trx.trxUndo.writing;
    trx.commit();
    const db = this.session.db;
    if (wrote && !db.closed && db.historyLength > 0) {
      const batch = Number(this.session.vars.get('innodb_purge_batch_size'));
      if (db.writeGuard === null) db.purge(batch);
      else db.writeGuard(() => db.purge(batch));
    }
  }

  /** A transaction for the statement, if none is open (explicit under autocommit = 0). */
  #open(): void {
    const trx = this.trx;
    if (trx.active) return;
    try {
      trx.begin();
    } catch (e) {
      if (e instanceof LockTableFullError) throw new SqlError('ER_LOCK_TABLE_FULL', e.message);
      throw e;
    }
    trx.explicit = !this.#autocommit();
    trx.readOnly = this.nextReadOnly ?? Number(this.session.vars.get('transaction_read_only')) === 1;
    trx.isolation =
      this.nextIsolation ?? (String(this.session.vars.get('transaction_isolation')) as IsolationLevel);
    this.nextIsolation = undefined;
    this.nextReadOnly = undefined;
    this.#begun = false;
  }

  /**
   * The statement failed with `err` after undo record `sp`: undo the statement; a deadlock
   * rolls back the whole transaction; a lock wait becomes a LockWaitPending (server) or 1205
   * (API); anything else ends an autocommit transaction. Returns what to throw.
   */
  #failed(err: unknown, sp: number): unknown {
    const trx = this.trx;
    trx.rollbackTo(sp);
    if (err instanceof LockTableFullError) {
      if (!trx.explicit) trx.rollback();
      return new SqlError('ER_LOCK_TABLE_FULL', 'The total number of locks exceeds the lock table size');
    }
    if (err instanceof StatementRestart) return RETRY;
    if (!(err instanceof LockWaitSignal)) {
      if (!trx.explicit) trx.rollback();
      return storageError(err);
    }
    if (err.deadlock) return this.#deadlocked(err.what);
    // the request closed a cycle whose victim was another transaction: report it all the same
    recordDeadlock(trx, err.what);
    if (!this.asyncWaits) {
      // granted at once (the deadlock search rolled back the holder): run the statement again
      const end = trx.abandonWait();
      if (end === 'granted') return RETRY;
      return this.#waitFailed(end === 'victim' ? 'victim' : 'timeout');
    }
    this.entry.state = err.mdl ? 'Waiting for table metadata lock' : 'Waiting for row lock';
    const timeoutS = Number(
      this.session.vars.get(err.mdl ? 'lock_wait_timeout' : 'innodb_lock_wait_timeout'),
    );
    return new LockWaitPending(async () => {
      const end = await trx.waitForGrant(timeoutS * 1000);
      this.entry.command = 'Sleep';
      this.entry.state = '';
      this.entry.info = null;
      if (end === 'granted') {
        this.rerun = true;
        return;
      }
      throw this.#waitFailed(end);
    });
  }

  #deadlocked(what: string): SqlError {
    const trx = this.trx;
    recordDeadlock(trx, what);
    trx.rollback();
    return deadlockError();
  }

  #waitFailed(end: WaitEnd): SqlError {
    const trx = this.trx;
    if (end === 'victim') {
      trx.rollback();
      return deadlockError();
    }
    if (end === 'ended') return interrupted();
    // a timeout or KILL QUERY fails the statement only (innodb_rollback_on_timeout = OFF)
    if (!trx.explicit && trx.active) trx.rollback();
    return end === 'cancelled' ? interrupted() : lockWaitTimeout();
  }

  /** DDL: commit first, then hold the table's metadata lock exclusively while the statement runs. */
  #ddl(tag: string, v: unknown, f: () => QueryResult): QueryResult {
    // CREATE / DROP TEMPORARY TABLE change only the session's own tables: no commit, no lock, and
    // allowed in locked-tables mode (as MariaDB)
    if ((tag === 'CreateTable' || tag === 'Drop') && obj(v).temporary === true) return f();
    const trx = this.trx;
    // a DDL statement run again after its metadata lock wait keeps the lock it was granted
    if (trx.active && !this.#ddlWaiting) this.commit();
    this.#ddlWaiting = false;
    const names = ddlTables(tag, v, this.session);
    const locked = this.tables.active;
    if (locked) {
      const o = obj(v);
      if (
        tag === 'CreateDatabase' ||
        tag === 'CreateSchema' ||
        (tag === 'Drop' && o.object_type === 'Database')
      )
        this.tables.refuse();
      // in locked-tables mode DDL may change only tables locked for WRITE (by their own names)
      else if (tag !== 'Analyze' && tag !== 'CreateView')
        this.tables.check(names.map((n) => ({ stored: n, name: splitName(n).table, write: true })));
    }
    const tables = names.filter((n) => this.session.db.hasTable(n)).map((n) => this.session.db.table(n));
    if (tables.length === 0 || tag === 'Analyze') {
      try {
        return f();
      } finally {
        if (locked) this.tables.refresh();
      }
    }
    this.#open();
    trx.explicit = false;
    try {
      for (const t of tables) trx.lockTable(t, 'X');
    } catch (err) {
      const out = this.#failed(err, 0);
      if (out instanceof LockWaitPending) this.#ddlWaiting = true;
      throw out;
    }
    try {
      return f();
    } finally {
      trx.commit();
      if (locked) this.tables.refresh();
    }
  }

  // ------------------------------------------------------------------ statements

  /**
   * BEGIN / START TRANSACTION [READ ONLY | READ WRITE] (undefined: neither, `transaction_read_only`
   * decides): commits an open transaction first.
   */
  start(readOnly: boolean | undefined, consistentSnapshot = false): void {
    if (this.trx.active) this.commit();
    // BEGIN ends locked-tables mode (MariaDB releases LOCK TABLES' locks)
    this.tables.unlock();
    this.#open();
    const trx = this.trx;
    trx.explicit = true;
    if (readOnly !== undefined) trx.readOnly = readOnly;
    this.#begun = true;
    // WITH CONSISTENT SNAPSHOT makes the read view now; only REPEATABLE READ keeps one (as InnoDB)
    if (consistentSnapshot && trx.isolation === 'REPEATABLE-READ') trx.ensureView();
  }

  /** Whether a transaction is open. */
  get active(): boolean {
    return this.trx.active;
  }

  commit(): void {
    this.#commit();
    this.#begun = false;
  }

  rollback(): void {
    this.trx.rollback();
    this.#begun = false;
  }

  savepoint(name: string): void {
    const trx = this.trx;
    // outside a transaction a savepoint is accepted and forgotten at once, as MySQL under autocommit
    if (!trx.active) {
      if (this.#autocommit()) return;
      this.#open();
    }
    const key = name.toLowerCase();
    trx.savepoints.delete(key);
    trx.savepoints.set(key, trx.undoNo);
  }

  rollbackToSavepoint(name: string): void {
    const trx = this.trx;
    const key = name.toLowerCase();
    const sp = trx.savepoints.get(key);
    if (sp === undefined) throw new SqlError('ER_SP_DOES_NOT_EXIST', `SAVEPOINT ${name} does not exist`);
    trx.rollbackTo(sp);
    // savepoints set after this one are gone; this one stays
    let after = false;
    for (const k of [...trx.savepoints.keys()]) {
      if (after) trx.savepoints.delete(k);
      if (k === key) after = true;
    }
  }

  releaseSavepoint(name: string): void {
    const trx = this.trx;
    const key = name.toLowerCase();
    if (!trx.savepoints.has(key))
      throw new SqlError('ER_SP_DOES_NOT_EXIST', `SAVEPOINT ${name} does not exist`);
    let after = false;
    for (const k of [...trx.savepoints.keys()]) {
      if (k === key) after = true;
      if (after) trx.savepoints.delete(k);
    }
  }

  /**
   * LOCK TABLES: commits the open transaction, then holds the tables (see TableLocks); under
   * autocommit = 0 a transaction is open afterwards, as MariaDB's.
   */
  lockTables(requests: readonly LockRequest[], waitSeconds?: number): void {
    if (this.trx.active) this.commit();
    this.tables.lock(requests, waitSeconds);
    if (!this.#autocommit()) this.#open();
  }

  /** UNLOCK TABLES: the table locks go, and with them (if there were any) the open transaction commits. */
  unlockTables(): void {
    const had = this.tables.active;
    this.tables.unlock();
    if (had && this.trx.active) this.commit();
  }

  /** KILL [CONNECTION | QUERY] of this session. */
  kill(query: boolean): void {
    this.entry.raise(query ? KILL_QUERY : KILL_CONNECTION);
    const trx = this.trx;
    if (trx.slot >= 0) trx.locks.cancel(trx.slot);
    if (this.tables.slot >= 0) trx.locks.cancel(this.tables.slot);
    if (query) return;
    if (this.onKill !== undefined) this.onKill();
    else this.session.close();
  }

  /** The session closes (or its client went away): roll back, leave the process list. */
  close(): void {
    if (this.trx.active) this.trx.rollback();
    this.tables.unlock();
    this.trx.release();
    instanceOf(this.session.db).processList.remove(this.entry.id);
  }
}

/** Tables a DDL statement changes, by storage name (DROP DATABASE: every table of the database). */
function ddlTables(tag: string, v: unknown, session: Session): string[] {
  const o = obj(v);
  const last = (n: unknown): string => {
    // a statement without a current database fails with 1046 when it runs, not here
    try {
      return session.tableName(objectName(n));
    } catch {
      return '';
    }
  };
  switch (tag) {
    case 'Drop':
      if (o.object_type === 'Database' || o.object_type === 'Schema')
        return arr(o.names).flatMap((n) =>
          SqlDictionary.of(session.db)
            .userTables(objectName(n).at(-1)!)
            .map((t) => t.name),
        );
      if (o.object_type === 'Table') return arr(o.names).map(last);
      if (o.object_type === 'Index' && o.table !== undefined && o.table !== null) return [last(o.table)];
      return [];
    case 'CreateIndex':
      return [last(o.table_name)];
    case 'CreateTable':
      return [last(o.name)];
    case 'AlterTable':
      return [last(o.name)];
    case 'Truncate':
      return arr(o.table_names).map((t) => last(obj(t).name));
    case 'RenameTable':
      return arr(v).map((r) => last(obj(r).old_name));
    default:
      return [];
  }
}

/** For DML: the statement's target table takes X locks on every row it reads. */
export function lockTargetExclusive(table: Table): void {
  const h = table.runningTrx;
  if (h instanceof Transaction) h.exclusiveTable = table.id;
}

/**
 * For a single-table UPDATE under READ COMMITTED and below: the target's clustered reads are
 * semi-consistent (`try_semi_consistent_read`): a row another transaction holds is judged on its
 * last committed version, and waited for only when that version matches.
 */
export function readSemiConsistent(table: Table): void {
  const h = table.runningTrx;
  if (h instanceof Transaction && (h.isolation === 'READ-COMMITTED' || h.isolation === 'READ-UNCOMMITTED'))
    h.semiConsistentTable = table.id;
}

/** For INSERT: the target table's reads (its duplicate checks) are locking reads (S), as InnoDB. */
export function lockTargetShared(table: Table): void {
  const h = table.runningTrx;
  if (h instanceof Transaction && h.exclusiveTable !== table.id) h.sharedTable = table.id;
}

/**
 * How a statement reads rows, as InnoDB (`row_search_for_mysql`, `ha_innobase::store_lock`):
 * - SELECT … FOR UPDATE / FOR SHARE: locking reads (X / S) of the latest rows, at every level;
 * - plain SELECT: under SERIALIZABLE a locking read (S in a transaction; an autocommit SELECT
 *   waits for writers only), else a consistent read without locks (READ UNCOMMITTED: of the
 *   latest rows, without a view);
 * - INSERT … SELECT, UPDATE, DELETE: the target table's reads lock (dml.ts marks it); the other
 *   tables' reads S-lock under REPEATABLE READ and SERIALIZABLE and are consistent reads under
 *   READ COMMITTED and READ UNCOMMITTED.
 */
function readModeOf(tag: string, v: unknown, trx: Transaction): ReadMode {
  const level = trx.isolation;
  const consistent = level !== 'SERIALIZABLE';
  if (tag === 'Query') {
    const lt = obj(arr(obj(v).locks)[0] ?? {}).lock_type;
    if (lt === 'Update') return 'X';
    if (lt === 'Share') return 'S';
    if (consistent) return 'none';
    return trx.explicit ? 'S' : 'check';
  }
  return consistent && (level === 'READ-COMMITTED' || level === 'READ-UNCOMMITTED') ? 'none' : 'S';
}
