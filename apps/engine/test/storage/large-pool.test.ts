// A pool past 2 GiB: its frames are one Uint8Array longer than any signed 32-bit length, so every
// offset into it (a page's base, a field's start inside a page) must be kept without 32-bit
// shifts or Int32Arrays. With 8 instances (the default from 1 GiB up) pages are spread over every
// instance's frames, so a table of a few hundred pages lands past 2 GiB at once. The frames'
// memory is only reserved; the test touches a few MiB of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-large-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LARGE = 3 * 2 ** 30;
const QUERIES = [
  // a secondary range, each row fetched by primary key, text columns decoded
  'SELECT COUNT(*), SUM(LENGTH(v)), MIN(v), MAX(v), SUM(id) FROM t FORCE INDEX (k) WHERE k BETWEEN 100 AND 9000',
  // the same rows in primary key order, and a point lookup
  'SELECT COUNT(*), SUM(LENGTH(v)), MAX(v) FROM t WHERE id > 500',
  'SELECT v FROM t WHERE id = 4321',
];

describe('innodb_buffer_pool_size above 2 GiB', () => {
  it('reads, writes and recovers what a small pool does, pages spread past 2 GiB', () => {
    const path = join(dir, 'big.ekdb');
    let db = Database.create(path, { innodb_buffer_pool_size: LARGE });
    let s = new Session(db);
    // the read-only variables say what the database was opened with (8 instances from 1 GiB up)
    expect(
      s.query('SELECT @@innodb_buffer_pool_size, @@innodb_buffer_pool_instances, @@innodb_page_size').rows,
    ).toEqual([[LARGE, 8, 16384]]);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, v VARCHAR(2000), KEY k (k))');
    for (let b = 0; b < 10; b++)
      s.query(
        `INSERT INTO t VALUES ${Array.from({ length: 1000 }, (_, j) => {
          const id = b * 1000 + j;
          return `(${id}, ${(id * 7919) % 10007}, '${`row ${id} `.repeat(1 + (id % 150))}')`;
        }).join(',')}`,
      );
    const frames = db.pool.frames;
    const high = [...db.table('t').primary.tree.pages()].filter((p) => {
      const f = db.pool.peek(0, p);
      return f >= 0 && f * 16384 >= 2 ** 31;
    });
    expect(high.length, 'pages of t in frames past 2 GiB').toBeGreaterThan(10);
    expect(frames * 16384).toBe(LARGE);
    const large = QUERIES.map((q) => s.query(q).rows);
    db.close();
    // the same answers from a small pool, and from the large one reopened (redo written from it)
    db = Database.open(path, { innodb_buffer_pool_size: 64 * 2 ** 20 });
    s = new Session(db);
    expect(QUERIES.map((q) => s.query(q).rows)).toEqual(large);
    db.table('t').checkIndexes();
    db.close();
    expect(large[0]![0]![0]).toBeGreaterThan(7000);
  });
});
