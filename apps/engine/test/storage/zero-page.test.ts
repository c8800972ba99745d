// A page that is not what its tree says (here: a leaf overwritten with zeros, which passes the
// page checksum as a never-written page) fails the statement that meets it with 1030 naming the
// page — through a scan's sibling move, a point lookup's descent and the statistics' level scan —
// instead of decoding zeros as records or searching again forever; the database still closes.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session, type DatabaseOptions } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-zero-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const OPTS: DatabaseOptions = { innodb_page_size: 4096, innodb_log_file_size: 1 << 20 };

/** A table of 500 rows over 16 leaves, its statistics stored; returns a middle leaf's page number. */
function build(path: string): number {
  const db = Database.create(path, OPTS);
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, pad VARCHAR(100))');
  s.query(
    `INSERT INTO t VALUES ${Array.from({ length: 500 }, (_, i) => `(${i}, '${'x'.repeat(90)}')`).join(',')}`,
  );
  s.query('ANALYZE TABLE t');
  const tree = db.table('t').primary.tree;
  const pages = [...tree.pages()].filter((p) => p !== tree.rootPage);
  const leaf = pages[Math.floor(pages.length / 2)]!;
  db.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, new Uint8Array(4096), 0, 4096, leaf * 4096);
  closeSync(fd);
  return leaf;
}

describe('an all-zero page inside a tree', () => {
  it('fails each statement that meets it with 1030 naming the page, and the database closes', () => {
    const path = join(dir, 'zero.ekdb');
    const leaf = build(path);
    const db = Database.open(path, OPTS);
    try {
      const s = new Session(db);
      const named = expect.objectContaining({
        errno: 1030,
        message: expect.stringContaining(`corrupt page ${leaf} `),
      });
      expect(() => s.query('SELECT COUNT(*) FROM t')).toThrow(named);
      expect(() => s.query('SELECT MAX(pad) FROM t')).toThrow(named);
      // ANALYZE TABLE reports it in its result, as MariaDB's does
      const analyzed = s.query('ANALYZE TABLE t').rows.map((r) => r.slice(2).join(': '));
      expect(analyzed[0]).toContain(`Error: Got error "corrupt page ${leaf} `);
      expect(analyzed[1]).toBe('status: Operation failed');
      // a point lookup descends into it only for its own keys: those fail, the others answer
      let failed = 0;
      for (let id = 0; id < 500; id++) {
        try {
          expect(s.query('SELECT id FROM t WHERE id = ?', [id]).rows).toEqual([[id]]);
        } catch (e) {
          expect(e).toMatchObject({ errno: 1030, message: expect.stringContaining(`corrupt page ${leaf} `) });
          failed++;
        }
      }
      expect(failed).toBeGreaterThan(10);
      expect(failed).toBeLessThan(60);
    } finally {
      db.close();
    }
  });
});
