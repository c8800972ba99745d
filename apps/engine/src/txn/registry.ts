import type { Database } from '../storage/database.js';
import { lockMoves } from '../storage/trx-hooks.js';
import { LockTable, lockCapacityFor } from './lock-table.js';
import { LocalProcessList, type ProcessList } from './process-list.js';

/**
 * The lock table and process list of a database. Sessions on one thread share them through the
 * Database; a host that runs sessions on worker threads creates one LockTable, passes its
 * `buffer` to each worker and calls {@link useLockTable} there with `new LockTable(buffer)`
 * before the worker's first session starts. The lock table's records may grow to 70 % of the
 * database's buffer pool ({@link lockCapacityFor}); its tables move locks through it when their
 * indexes change under them (`lockMoves`).
 */
const lockTables = new WeakMap<Database, LockTable>();
const processLists = new WeakMap<Database, ProcessList>();

export function lockTableOf(db: Database): LockTable {
  let t = lockTables.get(db);
  if (t === undefined) {
    const pool = db.pool;
    t = LockTable.create({ maxCapacity: lockCapacityFor(pool.frames * pool.pageSize) });
    useLockTable(db, t);
  }
  return t;
}

/** Makes `db`'s sessions use `table` (one shared by several threads). REQUIRES: no session started yet. */
export function useLockTable(db: Database, table: LockTable): void {
  lockTables.set(db, table);
  lockMoves.set(db.trxSys, table);
}

export function processListOf(db: Database): ProcessList {
  let p = processLists.get(db);
  if (p === undefined) {
    p = new LocalProcessList();
    processLists.set(db, p);
  }
  return p;
}

/**
 * Makes `db`'s sessions list themselves in `list` (one every thread of a server shares). Sessions
 * listed in the thread's own list so far move to it.
 */
export function useProcessList(db: Database, list: ProcessList): void {
  const old = processLists.get(db);
  processLists.set(db, list);
  if (old instanceof LocalProcessList) for (const e of old.entries()) list.add(e);
}
