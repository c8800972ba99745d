import type { Database } from '../storage/database.js';
import { recoveredUndoDefault } from '../storage/recovered-undo.js';
import type { Table } from '../storage/table.js';
import { txnHooks } from './hooks.js';
import { decodeUndoLog, UNDO_DELETE, UNDO_INSERT, UNDO_UPDATE, type UndoRecord } from './undo-log.js';

/**
 * Undoes one record on the database: the row and every secondary index entry return to what
 * they were before the write. Runs with the transaction hooks off (an undo takes no locks and
 * logs nothing). Crash recovery can call it with records read back from the redo log.
 */
export function applyUndo(db: Database, rec: UndoRecord): void {
  const t = tableById(db, rec.tableId);
  const saved = txnHooks.current;
  txnHooks.current = null;
  try {
    switch (rec.op) {
      case UNDO_INSERT:
        if (!t.deleteKey(rec.key)) throw new RangeError(`undo of an insert into ${t.name}: the row is gone`);
        break;
      case UNDO_UPDATE: {
        const row = t.newRow();
        t.codec.decode(rec.before, 0, rec.before.length, row);
        if (!t.updateKey(rec.key, row))
          throw new RangeError(`undo of an update of ${t.name}: the row is gone`);
        break;
      }
      case UNDO_DELETE: {
        const row = t.newRow();
        t.codec.decode(rec.before, 0, rec.before.length, row);
        t.insert(row);
        break;
      }
      default:
        throw new RangeError(`undo record with unknown op ${rec.op}`);
    }
  } finally {
    txnHooks.current = saved;
  }
}

function tableById(db: Database, id: number): Table {
  for (const t of db.tables()) if (t.id === id) return t;
  throw new RangeError(`undo record for table id ${id}, which does not exist`);
}

// Crash recovery rolls back a transaction without a commit record through its logged undo
// records (each one record's bytes, newest first).
recoveredUndoDefault.apply = (_trx, records, db) => {
  for (const bytes of records) for (const rec of decodeUndoLog(bytes)) applyUndo(db, rec);
};
