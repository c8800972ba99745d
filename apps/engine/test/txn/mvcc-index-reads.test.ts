// Consistent reads through the optimizer's index reads: index condition pushdown, covering
// (index-only) reads, IN-list and multi-part ranges, and DS-MRR's rowid stage. A REPEATABLE READ
// transaction reads the same rows before and after another session changes, deletes and inserts
// rows under those indexes and commits; the answers equal a fresh read once the reader's
// transaction ends. Each statement's EXPLAIN is checked, so the index read it names really ran.
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const READS: readonly { sql: string; extra: string }[] = [
  { sql: 'SELECT id, m FROM t WHERE k = 5 AND m > 1 ORDER BY id', extra: 'Using index' },
  {
    sql: 'SELECT id, k, m, note FROM t FORCE INDEX (k_m) WHERE k BETWEEN 3 AND 7 AND m % 2 = 0 ORDER BY id',
    extra: 'Using index condition',
  },
  { sql: 'SELECT COUNT(*) FROM t WHERE k IN (3, 5, 7)', extra: 'Using index' },
  {
    sql: 'SELECT id, note FROM t FORCE INDEX (k_m) WHERE k IN (2, 4, 6) AND m < 5 ORDER BY id',
    extra: 'Using index condition',
  },
];

function setup(): {
  db: Database;
  reader: Session;
  writer: Session;
} {
  const db = Database.temporary();
  open.push(db);
  const s = new Session(db);
  s.query(
    'CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, m INT NOT NULL, note VARCHAR(20) NOT NULL, KEY k_m (k, m))',
  );
  const values: string[] = [];
  for (let id = 1; id <= 400; id++) values.push(`(${id}, ${id % 9}, ${(id * 7) % 11}, 'n${id}')`);
  s.query(`INSERT INTO t VALUES ${values.join(', ')}`);
  s.query('ANALYZE TABLE t');
  return { db, reader: new Session(db), writer: new Session(db) };
}

const answer = (s: Session, sql: string): unknown[][] => s.query(sql).rows;

describe('consistent reads through index reads', () => {
  for (const mrr of ['off', 'on']) {
    it(`ICP, covering, IN-list and multi-part ranges see the snapshot (mrr=${mrr})`, () => {
      const { db, reader, writer } = setup();
      reader.query(`SET optimizer_switch = 'mrr=${mrr},mrr_cost_based=off,index_condition_pushdown=on'`);
      for (const r of READS) {
        const plan = reader.query(`EXPLAIN ${r.sql}`).rows.map((row) => String(row[10]));
        expect(plan.join(' | '), r.sql).toContain(r.extra);
      }
      reader.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      const before = READS.map((r) => answer(reader, r.sql));
      writer.query('BEGIN');
      writer.query('UPDATE t SET k = 5, m = 3 WHERE id BETWEEN 1 AND 40');
      writer.query('UPDATE t SET m = m + 1 WHERE k IN (3, 7)');
      writer.query('DELETE FROM t WHERE k = 4 OR id > 380');
      writer.query("INSERT INTO t VALUES (1001, 5, 8, 'new'), (1002, 3, 2, 'new'), (1003, 6, 0, 'new')");
      // uncommitted, then committed: the reader's snapshot stays
      expect(READS.map((r) => answer(reader, r.sql))).toEqual(before);
      writer.query('COMMIT');
      expect(READS.map((r) => answer(reader, r.sql))).toEqual(before);
      reader.query('COMMIT');
      // a new snapshot sees the writer's rows: the same as a read with ICP and covering reads off
      const after = READS.map((r) => answer(reader, r.sql));
      expect(after).not.toEqual(before);
      reader.query("SET optimizer_switch = 'index_condition_pushdown=off'");
      const plain = READS.map((r) =>
        answer(reader, r.sql.replace(/FROM t( FORCE INDEX \(k_m\))?/, 'FROM t IGNORE INDEX (k_m)')),
      );
      expect(after).toEqual(plain);
      db.table('t').checkIndexes();
    });
  }
});
