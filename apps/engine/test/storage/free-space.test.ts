// Free space is reused: pages of dropped tables and indexes, and undo pages purge frees, go on the
// file-space free list in page 0 and are taken before the file grows. 100 rounds of CREATE /
// INSERT / DROP stay within 3× of the file one round makes; a reopened database keeps its free
// list; a steady update loop does not grow the file without bound once purge runs. An index
// build, a bulk load without redo, takes freed pages too (each in a logged mini-transaction of its
// own): 50 rounds of CREATE INDEX / DROP INDEX stay within the file one round makes, and a crash
// right after a build over reused pages recovers the index whole. `enginekit info` prints the free
// list's length.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatInfo } from '../../src/commands/info.js';
import { Database, Session, type DatabaseOptions } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-free-space-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 512 * 4096,
  innodb_log_file_size: 1 << 20,
};

/** The first line of what `enginekit info` prints for `db`. */
function firstLine(db: Database): string {
  return formatInfo(db).split('\n')[0]!;
}

function round(db: Database, i: number): void {
  const s = new Session(db);
  s.query(`CREATE TABLE t${i} (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200), KEY kk (k))`);
  const rows = Array.from({ length: 300 }, (_, j) => `(${j}, ${j % 17}, '${'p'.repeat(150)}')`);
  s.query(`INSERT INTO t${i} VALUES ${rows.join(', ')}`);
  s.query(`DROP TABLE t${i}`);
  s.close();
}

describe('free space', () => {
  it('100 rounds of CREATE / INSERT / DROP stay within 3× of one round', () => {
    const path = join(dir, 'rounds.ekdb');
    const db = Database.create(path, OPTS);
    try {
      round(db, 0);
      db.flush();
      const one = db.pool.spaceSize(0);
      expect(db.freePages).toBeGreaterThan(10);
      for (let i = 1; i < 100; i++) round(db, i);
      db.flush();
      expect(db.pool.spaceSize(0)).toBeLessThanOrEqual(3 * one);
      expect(statSync(path).size).toBeLessThanOrEqual(3 * Math.max(one * 4096, 1 << 20) + (4 << 20));
    } finally {
      db.close();
    }
    // the free list survives a reopen and is used first
    const again = Database.open(path, OPTS);
    try {
      const free = again.freePages;
      const size = again.pool.spaceSize(0);
      expect(free).toBeGreaterThan(10);
      new Session(again).query('CREATE TABLE after_reopen (id INT PRIMARY KEY)');
      expect(again.freePages).toBeLessThan(free);
      expect(again.pool.spaceSize(0)).toBe(size);
    } finally {
      again.close();
    }
  });

  it('50 rounds of CREATE INDEX / DROP INDEX reuse the dropped index pages; a crash after a build recovers it', () => {
    const path = join(dir, 'index-rounds.ekdb');
    const db = Database.create(path, OPTS);
    let size: number;
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200))');
      const rows = Array.from(
        { length: 2000 },
        (_, j) => `(${j}, ${(j * 7919) % 2000}, '${'p'.repeat(40 + (j % 50))}')`,
      );
      s.query(`INSERT INTO t VALUES ${rows.join(', ')}`);
      s.query('CREATE INDEX kp ON t (k, pad)');
      s.query('DROP INDEX kp ON t');
      db.flush();
      size = db.pool.spaceSize(0);
      const free = db.freePages;
      expect(free).toBeGreaterThan(20);
      for (let i = 0; i < 50; i++) {
        s.query('CREATE INDEX kp ON t (k, pad)');
        // the build took freed pages: the file did not grow
        expect(db.freePages).toBeLessThan(free);
        expect(db.pool.spaceSize(0)).toBe(size);
        s.query('DROP INDEX kp ON t');
      }
      expect(db.freePages).toBe(free);
      // a crash right after a build over reused pages: recovery replays the free-list changes of
      // those pages (no checkpoint since) and must leave what the build wrote
      s.query('CREATE INDEX kp ON t (k, pad)');
      expect(db.pool.spaceSize(0)).toBe(size);
      db.commit();
    } finally {
      db.abandon();
    }
    const again = Database.open(path, OPTS);
    try {
      again.table('t').checkIndexes(true);
      const s = new Session(again);
      expect(s.query('SELECT COUNT(*), SUM(k) FROM t FORCE INDEX (kp) WHERE k >= 0').rows[0]).toEqual([
        2000,
        '1999000',
      ]);
      expect(again.pool.spaceSize(0)).toBe(size);
    } finally {
      again.close();
    }
  });

  it('enginekit info prints the free-page count', () => {
    const path = join(dir, 'info.ekdb');
    const db = Database.create(path, OPTS);
    let free: number;
    try {
      expect(firstLine(db)).toMatch(/, 0 tables, 0 free pages$/);
      round(db, 0);
      free = db.freePages;
      expect(free).toBeGreaterThan(10);
    } finally {
      db.close();
    }
    // as info opens it: read-only
    const ro = Database.open(path, { readOnly: true });
    try {
      expect(ro.freePages).toBe(free);
      expect(firstLine(ro)).toMatch(new RegExp(`, \\d+ tables, ${free} free pages$`));
    } finally {
      ro.close();
    }
  });

  it('a steady update loop keeps the file bounded: purge hands the undo pages back', () => {
    const db = Database.create(join(dir, 'updates.ekdb'), OPTS);
    try {
      const s = new Session(db);
      s.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL, KEY kb (bal))');
      s.query(`INSERT INTO acc VALUES ${Array.from({ length: 100 }, (_, i) => `(${i}, 0)`).join(', ')}`);
      const sizes: number[] = [];
      for (let r = 0; r < 5; r++) {
        for (let i = 0; i < 1000; i++) s.query('UPDATE acc SET bal = bal + 1 WHERE id = ?', [i % 100]);
        while (db.historyLength > 0) db.purge(1000);
        sizes.push(db.pool.spaceSize(0));
      }
      // after the first round the file stops growing (a page or two of tree splits aside)
      expect(sizes[4]! - sizes[1]!).toBeLessThan(8);
      db.table('acc').checkIndexes(true);
    } finally {
      db.close();
    }
  });
});
