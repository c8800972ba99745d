// A pool past 2 GiB: its frames are one Uint8Array longer than any signed 32-bit length, so every
// view over it must be sized without 32-bit shifts. The frames' memory is only reserved; the test
// touches a few pages of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-large-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('innodb_buffer_pool_size above 2 GiB', () => {
  it('a database opens, writes and reads back through a 3 GiB pool', () => {
    const path = join(dir, 'big.ekdb');
    const size = 3 * 2 ** 30;
    let db = Database.create(path, { innodb_buffer_pool_size: size });
    let s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))');
    s.query("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
    // the read-only variables say what the database was opened with (8 instances from 1 GiB up)
    expect(
      s.query('SELECT @@innodb_buffer_pool_size, @@innodb_buffer_pool_instances, @@innodb_page_size').rows,
    ).toEqual([[size, 8, 16384]]);
    db.close();
    db = Database.open(path, { innodb_buffer_pool_size: size });
    s = new Session(db);
    expect(s.query('SELECT v FROM t ORDER BY id').rows).toEqual([['one'], ['two']]);
    db.close();
  });
});
