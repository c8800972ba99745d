// When statistics are recalculated by themselves (row_update_statistics_if_needed, row0mysql.cc):
// persistent with innodb_stats_auto_recalc once the modified-rows counter, as it was before the
// latest change, exceeds n_rows / 10; transient once it exceeds 16 + n_rows / 16. The tables here
// fit one leaf, so every estimate is the exact row count and the thresholds are plain numbers.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/session/session.js';
import { changedTooMuch } from '../../../src/storage/stats/statistics-dictionary.js';
import { Database } from '../../../src/storage/database.js';

let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function setup(rows: number, persistent: boolean): { db: Database; s: Session; insert: (n: number) => void } {
  db = Database.temporary({ innodb_page_size: 65536, innodb_buffer_pool_size: 8 << 20 });
  const s = new Session(db);
  s.query(`SET GLOBAL innodb_stats_persistent = ${persistent ? 'ON' : 'OFF'}`);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, v INT NOT NULL, KEY k_g (g))');
  let next = 0;
  const insert = (n: number): void => {
    const vals: string[] = [];
    for (let k = 0; k < n; k++, next++) vals.push(`(${next}, ${next % 7}, 0)`);
    if (vals.length > 0) s.query(`INSERT INTO t VALUES ${vals.join(',')}`);
  };
  insert(rows);
  s.query('ANALYZE TABLE t');
  return { db, s, insert };
}

const rowsOf = (d: Database): number => d.statistics(d.table('t')).rows;

describe('auto-recalc', () => {
  it('persistent: 1000 rows, recalculated at the 102nd change (counter 101 > 1000 / 10), not at the 101st', () => {
    const { db, insert } = setup(1000, true);
    expect(rowsOf(db)).toBe(1000);
    insert(101);
    expect(rowsOf(db)).toBe(1000);
    insert(1);
    expect(rowsOf(db)).toBe(1102);
    // and saved: what a reopen would load
    expect(db.statisticsDictionary.stored(db.table('t'))!.table.rows).toBe(1102);
  });

  it('persistent with innodb_stats_auto_recalc=OFF: never by itself, ANALYZE still does', () => {
    const { db, s, insert } = setup(1000, true);
    s.query('SET GLOBAL innodb_stats_auto_recalc = OFF');
    insert(500);
    expect(rowsOf(db)).toBe(1000);
    s.query('ANALYZE TABLE t');
    expect(rowsOf(db)).toBe(1500);
  });

  it('transient: 1000 rows, recalculated past 16 + 1000 / 16 = 78 (the 80th change), auto-recalc or not', () => {
    const { db, s, insert } = setup(1000, false);
    s.query('SET GLOBAL innodb_stats_auto_recalc = OFF');
    expect(rowsOf(db)).toBe(1000);
    insert(79);
    expect(rowsOf(db)).toBe(1000);
    insert(1);
    expect(rowsOf(db)).toBe(1080);
  });

  it('counts DELETEs and UPDATEs of an indexed column, not UPDATEs of other columns', () => {
    const { db, s } = setup(1000, true);
    s.query('UPDATE t SET v = 1 WHERE id < 500');
    expect(db.table('t').statModifiedCounter).toBe(0);
    s.query('UPDATE t SET g = g + 1 WHERE id < 50');
    s.query('DELETE FROM t WHERE id >= 950');
    expect(db.table('t').statModifiedCounter).toBe(100);
    expect(
      s.query(
        'SELECT name, stats_initialized, num_rows, modified_counter FROM information_schema.INNODB_SYS_TABLESTATS',
      ).rows,
    ).toEqual([['test/t', 'Initialized', 1000, 100]]);
    expect(rowsOf(db)).toBe(1000);
    s.query('DELETE FROM t WHERE id = 0 OR id = 1');
    expect(rowsOf(db)).toBe(948);
    expect(db.table('t').statModifiedCounter).toBe(0);
  });

  it('the thresholds as functions (5.1 also recalculates past 2,000,000,000 changes)', () => {
    const p = { persistent: true, samplePages: 20, autoRecalc: true };
    const tr = { persistent: false, samplePages: 8, autoRecalc: false };
    expect([changedTooMuch(0, 0, p), changedTooMuch(1, 0, p), changedTooMuch(2, 0, p)]).toEqual([
      false,
      false,
      true,
    ]);
    expect([changedTooMuch(17, 0, tr), changedTooMuch(18, 0, tr)]).toEqual([false, true]);
    expect(changedTooMuch(2_000_000_002, 1e12, tr)).toBe(true);
    expect(changedTooMuch(1_000_000, 0, { ...p, autoRecalc: false })).toBe(false);
  });
});
