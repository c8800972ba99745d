// Free space is reused: pages of dropped tables and indexes, and undo pages purge frees, go on the
// file-space free list in page 0 and are taken before the file grows. 100 rounds of CREATE /
// INSERT / DROP stay within 3× of the file one round makes; a reopened database keeps its free
// list; a steady update loop does not grow the file without bound once purge runs. (An index
// build is a bulk load without redo: it takes new pages at the end of the file, not freed ones.)
// `enginekit info` prints the free list's length.
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
