// Undo in pages, at size: a rollback of 20,000 changes restores every row and entry byte for
// byte; a transaction far larger than the redo log commits (the checkpoint is never held back
// by an open transaction: its undo is in pages the checkpoint covers); a statement that fails
// half-way is rolled back whatever the log's size; a REPEATABLE READ reader keeps its snapshot
// through 4,000 updates of the rows it reads, and purge frees the undo afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeleteMarked } from '@enginekit/btree-sampler';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session, type DatabaseOptions, TableLoader } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-undo-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `u${n++}.ekdb`);

/** A small log (2 × 1 MiB): a transaction of many rows writes many times its size. */
const SMALL_LOG: DatabaseOptions = {
  innodb_page_size: 16384,
  innodb_buffer_pool_size: 32 << 20,
  innodb_log_file_size: 1 << 20,
};

/** Every entry of every tree of the table (key, value, delete mark), as hex. */
function treeBytes(db: Database, name: string): string {
  const t = db.table(name);
  const out: string[] = [];
  for (const ix of [t.primary, ...t.secondary]) {
    ix.tree.forEachRangeRaw(null, null, (b, ko, kl, vo, vl) => {
      out.push(
        `${isDeleteMarked(b, ko) ? 'D' : ''}${Buffer.from(b.subarray(ko, ko + kl)).toString('hex')}=${Buffer.from(b.subarray(vo, vo + vl)).toString('hex')}`,
      );
      return true;
    });
  }
  return out.join('\n');
}

/** A new database at `path` with table t of `rows` rows, bulk-loaded (without redo), then opened with the log. */
function load(path: string, rows: number): Database {
  const db = Database.create(path, { ...SMALL_LOG, redo: false });
  new Session(db).query(
    'CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, s VARCHAR(40) NOT NULL, KEY kk (k), KEY ks (s))',
  );
  const l = new TableLoader(db.table('t'));
  const row = db.table('t').newRow();
  for (let i = 0; i < rows; i++) l.add(row.setAll([i * 2, i % 1000, `s${i % 777}`]));
  l.finish();
  db.close();
  return Database.open(path, SMALL_LOG);
}

describe('undo pages at size', () => {
  it('rolling back 20,000 changes restores every row and every secondary entry byte for byte', () => {
    const db = load(fresh(), 12000);
    try {
      const before = treeBytes(db, 't');
      const s = new Session(db);
      s.query('BEGIN');
      // 12,000 updates (both secondary keys change), 4,000 deletes, 4,000 inserts
      expect(s.query("UPDATE t SET k = k + 1, s = CONCAT(s, 'x')").affectedRows).toBe(12000);
      expect(s.query('DELETE FROM t WHERE id < 8000').affectedRows).toBe(4000);
      s.query('INSERT INTO t SELECT id + 1, k, s FROM t WHERE id < 16000 AND id >= 8000 ORDER BY id');
      expect(s.query('SELECT COUNT(*) FROM t').rows[0]![0]).toBe(12000);
      expect(db.trxSys.activeIds().length).toBe(1);
      s.query('ROLLBACK');
      expect(treeBytes(db, 't')).toBe(before);
      db.table('t').checkIndexes(true);
      expect(s.query('SELECT COUNT(*), SUM(k) FROM t').rows[0]).toEqual([12000, '5994000']);
    } finally {
      db.close();
    }
  });

  it('a transaction many times the redo log commits, and survives a crash', () => {
    const path = fresh();
    const db = Database.create(path, SMALL_LOG);
    const s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, s VARCHAR(40) NOT NULL, KEY kk (k))');
    s.query('BEGIN');
    for (let i = 0; i < 40; i++) {
      const values = Array.from({ length: 500 }, (_, j) => `(${i * 500 + j}, ${j}, 'row ${i * 500 + j}')`);
      s.query(`INSERT INTO t VALUES ${values.join(', ')}`);
    }
    s.query('COMMIT');
    // 20,000 rows: more than the log's 2 MiB went by, checkpoints passed the transaction
    expect(db.redo!.stats.Innodb_checkpoints).toBeGreaterThan(1);
    db.abandon();
    const again = Database.open(path, SMALL_LOG);
    try {
      expect(new Session(again).query('SELECT COUNT(*) FROM t').rows[0]![0]).toBe(20000);
      again.table('t').checkIndexes();
    } finally {
      again.close();
    }
  });

  it('a statement that fails after 1,000 rows is rolled back whatever the log size; nothing of it commits', () => {
    const db = Database.create(fresh(), { ...SMALL_LOG, innodb_log_file_size: 65536 });
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (id INT PRIMARY KEY, pad VARCHAR(300))');
      s.query('INSERT INTO t VALUES (999, NULL)');
      s.query('BEGIN');
      const values = Array.from({ length: 1000 }, (_, j) => `(${j}, '${'p'.repeat(300)}')`);
      // the last row's key is taken: 1062 after 999 rows went in
      expect(() => s.query(`INSERT INTO t VALUES ${values.join(', ')}`)).toThrow(
        expect.objectContaining({ errno: 1062 }),
      );
      s.query('COMMIT');
      expect(s.query('SELECT COUNT(*) FROM t').rows[0]![0]).toBe(1);
      db.table('t').checkIndexes();
    } finally {
      db.close();
    }
  });

  it('a REPEATABLE READ snapshot holds through 4,000 updates of its rows; purge then frees the undo', () => {
    // each update's undo log takes a page until purge: small pages keep the file small
    const db = Database.create(fresh(), {
      ...SMALL_LOG,
      innodb_page_size: 4096,
      innodb_buffer_pool_size: 8 << 20,
    });
    try {
      const w = new Session(db);
      w.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL, KEY kb (bal))');
      w.query('INSERT INTO acc VALUES (1, 100), (2, 100), (3, 100), (4, 100)');
      const r = new Session(db);
      r.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      const snap = r.query('SELECT id, bal FROM acc ORDER BY id').rows;
      const pagesBefore = db.pool.spaceSize(0);
      for (let i = 0; i < 4000; i++) {
        w.query('UPDATE acc SET bal = bal + 1 WHERE id = ?', [1 + (i % 4)]);
        if (i % 500 === 0) {
          expect(r.query('SELECT id, bal FROM acc ORDER BY id').rows).toEqual(snap);
          expect(r.query('SELECT id FROM acc WHERE bal = 100 ORDER BY id').rows).toEqual([
            [1],
            [2],
            [3],
            [4],
          ]);
        }
      }
      expect(r.query('SELECT SUM(bal) FROM acc FORCE INDEX (kb) WHERE bal >= 0').rows[0]![0]).toBe('400');
      // every update's undo log waits for the snapshot
      expect(db.historyLength).toBe(4000);
      const grown = db.pool.spaceSize(0);
      r.query('COMMIT');
      w.query('UPDATE acc SET bal = bal - 1000');
      while (db.historyLength > 0) db.purge(5000);
      db.table('acc').checkIndexes(true);
      expect(w.query('SELECT SUM(bal) FROM acc').rows[0]![0]).toBe('400');
      // a second round of the same updates reuses the undo pages purge freed: the file stays put
      for (let i = 0; i < 4000; i++) w.query('UPDATE acc SET bal = bal + 1 WHERE id = ?', [1 + (i % 4)]);
      while (db.historyLength > 0) db.purge(5000);
      // (a few pages may still come from the trees: the secondary index splits differently)
      expect(grown - pagesBefore).toBeGreaterThan(3000);
      expect(db.pool.spaceSize(0) - grown).toBeLessThan(16);
    } finally {
      db.close();
    }
  });
});
