import { StatusCounters } from '../exec/status.js';
import type { Database } from '../storage/database.js';
import { LockTable, lockCapacityFor } from '../txn/lock-table.js';
import { LocalProcessList, type ProcessList } from '../txn/process-list.js';
import type { Transaction } from '../txn/transaction.js';
import type { SqlDictionary } from './dictionary.js';
import { Variables } from './variables.js';
import { AutoIncrementCounters } from './auto-increment.js';
import { PreparedStatementCount } from './prepared-count.js';

/**
 * What a server keeps for one open database beyond its file, shared by every session on it in
 * this thread (a MySQL server instance's global state): the global system variables and status,
 * the SQL dictionary read from `#sql_meta`, the lock table, the process list, and the open
 * transactions SHOW ENGINE INNODB STATUS lists. {@link instanceOf} gives a database's instance,
 * made the first time a session, a server or a host asks for it.
 *
 * A host that runs sessions on worker threads creates one LockTable, passes its `buffer` to each
 * worker and calls {@link DatabaseInstance.useLockTable} there with `new LockTable(buffer)` before
 * the worker's first session starts; the lock table's records may grow to 70 % of the database's buffer pool
 * ({@link lockCapacityFor}); the database's tables move locks through it when their indexes change
 * under them (`TrxSys.lockMoves`).
 */
export class DatabaseInstance {
  readonly db: Database;
  /**
   * GLOBAL system variables: a session's variables start from them (SET GLOBAL). The pool's
   * read-only ones say what the database was opened with.
   */
  readonly vars: Variables;
  /** GLOBAL status counters: every session adds its own to them (SHOW GLOBAL STATUS). */
  readonly status: StatusCounters = new StatusCounters();
  /**
   * With sessions on several threads: the other threads' global counts, in `SUMMED_STATUS`
   * order, which SHOW GLOBAL STATUS adds to this thread's own; undefined: this thread is alone.
   */
  otherThreadsStatus: (() => Float64Array) | undefined;
  /** The SQL dictionary (`SqlDictionary.of` reads it first; undefined: read it again). */
  dictionary: SqlDictionary | undefined;
  /** Every session's transaction object, open or not (SHOW ENGINE INNODB STATUS). */
  readonly transactions: Set<Transaction> = new Set();
  #lockTable: LockTable | undefined;
  #processList: ProcessList = new LocalProcessList();
  #autoIncrement: AutoIncrementCounters | undefined;
  #prepared: PreparedStatementCount = new PreparedStatementCount();

  constructor(db: Database) {
    this.db = db;
    const pool = db.pool;
    this.vars = new Variables(undefined, {
      innodb_buffer_pool_size: pool.frames * pool.pageSize,
      innodb_buffer_pool_instances: pool.instances,
      innodb_page_size: pool.pageSize,
      innodb_sort_buffer_size: db.sortBufferSize,
      innodb_flush_log_at_trx_commit: db.redo?.flushLogAtTrxCommit ?? 1,
    });
    // ANALYZE and the statistics read the innodb_stats_* variables from the globals
    db.statisticsDictionary.variables = this.vars;
  }

  /** The lock table (made on first use, sized by the database's buffer pool). */
  get lockTable(): LockTable {
    if (this.#lockTable === undefined) {
      const pool = this.db.pool;
      this.useLockTable(LockTable.create({ maxCapacity: lockCapacityFor(pool.frames * pool.pageSize) }));
    }
    return this.#lockTable!;
  }

  /** Makes the sessions use `table` (one shared by several threads). REQUIRES: no session started yet. */
  useLockTable(table: LockTable): void {
    this.#lockTable = table;
    this.db.trxSys.lockMoves = table;
  }

  /** The tables' AUTO_INCREMENT counters (this thread's own until {@link useAutoIncrement}). */
  get autoIncrement(): AutoIncrementCounters {
    if (this.#autoIncrement === undefined) this.useAutoIncrement(new AutoIncrementCounters());
    return this.#autoIncrement!;
  }

  /** Makes the sessions use `counters` (shared by several threads). REQUIRES: no session started yet. */
  useAutoIncrement(counters: AutoIncrementCounters): void {
    counters.floor = (t) => this.dictionary?.tables.get(t.name)?.autoIncrementStart ?? 1;
    this.#autoIncrement = counters;
  }

  /** Prepared_stmt_count (this thread's own until {@link usePreparedStatementCount}). */
  get preparedStatements(): PreparedStatementCount {
    return this.#prepared;
  }

  /** Makes the sessions count their prepared statements in `count` (shared by several threads). */
  usePreparedStatementCount(count: PreparedStatementCount): void {
    this.#prepared = count;
  }

  /** The process list the sessions list themselves in. */
  get processList(): ProcessList {
    return this.#processList;
  }

  /**
   * Makes the sessions list themselves in `list` (one every thread of a server shares). Sessions
   * listed in the thread's own list so far move to it.
   */
  useProcessList(list: ProcessList): void {
    const old = this.#processList;
    this.#processList = list;
    if (old instanceof LocalProcessList) for (const e of old.entries()) list.add(e);
  }
}

const instances = new WeakMap<Database, DatabaseInstance>();

/** The instance of `db` in this thread, made on first use. */
export function instanceOf(db: Database): DatabaseInstance {
  let i = instances.get(db);
  if (i === undefined) {
    i = new DatabaseInstance(db);
    instances.set(db, i);
  }
  return i;
}
