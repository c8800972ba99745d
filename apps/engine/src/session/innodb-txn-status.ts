import type { Database } from '../storage/database.js';
import { lockTableOf, processListOf } from '../txn/registry.js';
import type { Transaction } from '../txn/transaction.js';
import { registerInnodbStatusSection } from './innodb-status.js';

/**
 * SHOW ENGINE INNODB STATUS sections of the lock system: LATEST DETECTED DEADLOCK (the report
 * the detecting session wrote into the shared lock table) and TRANSACTIONS (the transaction id
 * counter and every open transaction with its locks, as `lock_print_info_summary` and
 * `lock_print_info_all_transactions` print them, shortened).
 */
const transactions = new WeakMap<Database, Set<Transaction>>();

/** Makes a session's transaction visible to the TRANSACTIONS section. */
export function trackTransaction(trx: Transaction): void {
  let s = transactions.get(trx.db);
  if (s === undefined) {
    s = new Set();
    transactions.set(trx.db, s);
  }
  s.add(trx);
}

export function untrackTransaction(trx: Transaction): void {
  transactions.get(trx.db)?.delete(trx);
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Writes the LATEST DETECTED DEADLOCK report for the deadlock `trx` (the requester) just met. */
export function recordDeadlock(trx: Transaction, what: string): void {
  const locks = trx.locks;
  const d = locks.takeDeadlock();
  if (d === null) return;
  const plist = processListOf(trx.db);
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
    const r = lockTableOf(db).report();
    return r === '' ? [] : r.split('\n');
  },
});

registerInnodbStatusSection({
  order: 40,
  title: 'TRANSACTIONS',
  body(db) {
    const locks = lockTableOf(db);
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
    for (const t of transactions.get(db) ?? []) if (t.slot >= 0) mine.set(t.slot, t);
    const plist = processListOf(db);
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
