// The key columns the estimators see on the engine's trees, as InnoDB counts them
// (dict0dict.c, dict_index_build_internal_non_clust): a non-unique secondary index's n_uniq is its
// own columns plus every primary-key column it carries; a UNIQUE one's is its own columns.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateExact, estimateTransient } from '@enginekit/btree-sampler';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, type TableSchema } from '../../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINEITEM: TableSchema = {
  name: 'li',
  columns: [
    { name: 'l_orderkey', type: { kind: 'int' } },
    { name: 'l_linenumber', type: { kind: 'int' } },
    { name: 'l_shipdate', type: { kind: 'date' } },
    { name: 'l_suppkey', type: { kind: 'int' } },
  ],
  primaryKey: ['l_orderkey', 'l_linenumber'],
  indexes: [
    { name: 'i_l_shipdate', columns: ['l_shipdate'] },
    { name: 'u_l_suppkey', columns: ['l_suppkey'], unique: true },
  ],
};

describe('secondary trees as the estimators see them', () => {
  it("lineitem's secondary has n_uniq 3 (date, orderkey, linenumber); a UNIQUE index n_uniq 1, also after reopening", () => {
    const path = join(dir, 'li.ekdb');
    const db = Database.create(path, {
      innodb_page_size: 4096,
      innodb_buffer_pool_size: 2 << 20,
      innodb_log_file_size: 1 << 20,
    });
    const t = db.createTable(LINEITEM);
    // 600 lines, 4 per order; an order's lines share one ship date; 37 ship dates
    for (let i = 0; i < 600; i++)
      t.insert([Math.floor(i / 4) + 1, (i % 4) + 1, 9000 + (Math.floor(i / 8) % 37), i]);
    const check = (d: Database): void => {
      const ship = d.table('li').index('i_l_shipdate').tree;
      const sk = d.table('li').index('u_l_suppkey').tree;
      expect(ship.unique).toBe(false);
      expect(ship.clustered).toBe(false);
      // prefixes (date), (date, orderkey), (date, orderkey, linenumber): 37 dates, 150 orders, 600 lines
      expect(estimateExact(ship).nDiff).toEqual([37, 150, 600]);
      expect(estimateExact(sk).nDiff).toEqual([600]);
      expect(estimateTransient(ship).nDiff).toHaveLength(3);
      expect(estimateExact(d.table('li').primary.tree).nDiff).toEqual([150, 600]);
    };
    check(db);
    db.close();
    const again = Database.open(path);
    try {
      check(again);
    } finally {
      again.close();
    }
  });
});
