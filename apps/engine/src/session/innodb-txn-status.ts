import { T_INT, T_STR } from '../exec/types.js';
import { registerSystemTable } from '../plan/system-tables.js';
import type { Database } from '../storage/database.js';
import { quotedName } from '../storage/schema-name.js';
import type { LockInfo } from '../txn/lock-table.js';
import { lockModeColumn } from '../txn/lock-text.js';
import { instanceOf } from './instance.js';
import type { Transaction } from '../txn/transaction.js';
import { registerInnodbStatusSection } from './innodb-status.js';

/**
 * SHOW ENGINE INNODB STATUS sections of the lock system: LATEST DETECTED DEADLOCK (the report
 * the detecting session wrote into the shared lock table) and TRANSACTIONS (the transaction id
 * counter and every open transaction with its locks, as `lock_print_info_summary` and
 * `lock_print_info_all_transactions` print them, shortened).
 */
function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Writes the LATEST DETECTED DEADLOCK report for the deadlock `trx` (the requester) just met. */
export function recordDeadlock(trx: Transaction, what: string): void {
  const locks = trx.locks;
  const d = locks.takeDeadlock();
  if (d === null) return;
  const plist = instanceOf(trx.db).processList;
  const lines = [stamp(Date.now())];
  d.cycle.forEach((slot, i) => {
    const conn = d.connections[i]!;
    const p = plist.get(conn);
    lines.push(`*** (${i + 1}) TRANSACTION:`);
    lines.push(`TRANSACTION ${d.ids[i]}, ACTIVE, MySQL thread id ${conn}`);
    if (p?.info !== null && p?.info !== undefined) lines.push(p.info);
    if (slot === trx.slot) lines.push(`*** (${i + 1}) WAITING FOR THIS LOCK TO BE GRANTED:`, what);
  });
  const vi = d.cycle.indexOf(d.victim);
  lines.push(`*** WE ROLL BACK TRANSACTION (${vi + 1})`);
  locks.setReport(lines.join('\n'));
}

registerInnodbStatusSection({
  order: 30,
  title: 'LATEST DETECTED DEADLOCK',
  body(db) {
    const r = instanceOf(db).lockTable.report();
    return r === '' ? [] : r.split('\n');
  },
});

registerInnodbStatusSection({
  order: 40,
  title: 'TRANSACTIONS',
  body(db) {
    const locks = instanceOf(db).lockTable;
    const active = locks.activeTransactions();
    const out = [
      `Trx id counter ${db.trxSys.nextId}`,
      `Purge done for trx's n:o < ${db.trxSys.purgeLimit()} undo n:o < 0 state: running`,
      // committed transactions' update undo logs purge has not removed yet
      `History list length ${db.historyLength}`,
      `Lock records in use ${locks.inUse}`,
      'LIST OF TRANSACTIONS FOR EACH SESSION:',
    ];
    const mine = new Map<number, Transaction>();
    for (const t of instanceOf(db).transactions) if (t.slot >= 0) mine.set(t.slot, t);
    const plist = instanceOf(db).processList;
    const now = Date.now();
    for (const slot of active) {
      const d = locks.describeTrx(slot);
      const t = mine.get(slot);
      const secs = t === undefined ? 0 : Math.floor((now - t.startedAt) / 1000);
      out.push(`---TRANSACTION ${d.id}, ACTIVE ${secs} sec${d.waiting ? ' LOCK WAIT' : ''}`);
      out.push(`${d.locks} lock struct(s), undo log entries ${t?.undoNo ?? 0}`);
      const view = t?.readView ?? null;
      if (view !== null)
        out.push(`Trx read view will not see trx with id >= ${view.lowLimitId}, sees < ${view.upLimitId}`);
      const p = plist.get(d.connection);
      out.push(
        `MySQL thread id ${d.connection}, ${p?.host ?? 'localhost'} ${p?.user ?? 'root'}${p?.state ? ` ${p.state}` : ''}`,
      );
      if (p?.info !== null && p?.info !== undefined) out.push(p.info);
      if (d.waiting && t !== undefined) {
        out.push(
          `------- TRX HAS BEEN WAITING ${Math.floor((now - t.waitStarted) / 1000)} SEC FOR THIS LOCK TO BE GRANTED:`,
        );
        out.push(t.waitingFor, '------------------');
      }
    }
    return out;
  },
});

/** A lock's row of INFORMATION_SCHEMA.INNODB_LOCKS (MariaDB 10.x's columns). */
function lockRow(db: Database, l: LockInfo): unknown[] {
  const table = db.tableById(l.tableId);
  const index =
    table === undefined ? undefined : [table.primary, ...table.secondary].find((i) => i.id === l.indexId);
  return [
    // lock_id: trx id, then where the lock is (InnoDB: trx:space:page:heap)
    `${l.trxId}:${l.tableId}:${l.indexId}:${l.supremum ? 'supremum' : l.record}`,
    String(l.trxId),
    l.metadata ? l.mode : lockModeColumn(l.mode, l.type),
    l.metadata ? 'TABLE' : 'RECORD',
    table === undefined ? `\`test\`.\`${l.tableId}\`` : quotedName(table.name),
    l.metadata ? null : (index?.name ?? null),
    null,
    null,
    null,
    // the lock table keeps key hashes, not key values: only the supremum can be named
    l.supremum ? 'supremum pseudo-record' : null,
  ];
}

// the locks a transaction waits for and the locks that make it wait, as MariaDB 10.x lists them
registerSystemTable('information_schema', 'INNODB_LOCKS', {
  columns: [
    'lock_id',
    'lock_trx_id',
    'lock_mode',
    'lock_type',
    'lock_table',
    'lock_index',
    'lock_space',
    'lock_page',
    'lock_rec',
    'lock_data',
  ],
  types: [T_STR, T_STR, T_STR, T_STR, T_STR, T_STR, T_INT, T_INT, T_INT, T_STR],
  rows: (env) =>
    instanceOf(env.db)
      .lockTable.lockInfos(-1, true)
      .map((l) => lockRow(env.db, l)),
});

registerSystemTable('information_schema', 'INNODB_LOCK_WAITS', {
  columns: ['requesting_trx_id', 'requested_lock_id', 'blocking_trx_id', 'blocking_lock_id'],
  types: [T_STR, T_STR, T_STR, T_STR],
  rows: (env) => {
    const locks = instanceOf(env.db).lockTable.lockInfos(-1, true);
    const out: unknown[][] = [];
    for (const w of locks) {
      if (!w.waiting) continue;
      const wid = lockRow(env.db, w)[0];
      for (const b of locks)
        if (!b.waiting && b.record === w.record && b.indexId === w.indexId && b.tableId === w.tableId)
          out.push([String(w.trxId), wid, String(b.trxId), lockRow(env.db, b)[0]]);
    }
    return out;
  },
});
