// buildIndex into btree-sampler's bulk loader gives the same tree as inserting entry by entry.
import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex, insertEach } from '../src/index.js';
import { key32, makeRecords, type Rec, referenceSort, scratchDir, toPlain } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

function newPool(): BufferPool {
  const pool = new BufferPool({ innodb_buffer_pool_size: 32 << 20 });
  pool.registerSpace(1, new MemoryDevice());
  pool.registerSpace(2, new MemoryDevice());
  return pool;
}

function scan(tree: BTree): Rec[] {
  const out: Rec[] = [];
  const c = tree.cursor();
  for (let ok = c.first(); ok; ok = c.next()) out.push([c.key(), c.value()]);
  return out;
}

/** Secondary-index entries made unique by a 4-byte "primary key" suffix, as InnoDB's. */
function uniqueEntries(records: readonly Rec[]): Rec[] {
  return records.map(([k, v], i) => {
    const key = new Uint8Array(k.length + 4);
    key.set(k);
    key.set(key32(i), k.length);
    return [key, v.subarray(0, 16)];
  });
}

describe.each(['innodb', 'kway'] as const)('%s merge into a btree-sampler tree', (mergeMode) => {
  const options = { sortBufferSize: 65536, mergeBlockSize: 16384, mergeMode, tmpdir: scratch.dir };

  it('bulk load of sorted runs equals insert-each, and both pass checkValid()', () => {
    const entries = uniqueEntries(makeRecords('random', 6000, 77, 40));
    const pool = newPool();
    const bulk = BTree.create(pool, { space: 1, unique: true, clustered: false });
    const { result, rows, stats } = buildIndex(
      entries,
      bulk.bulkLoader({ innodb_fill_factor: 100 }),
      options,
    );
    expect(rows).toBe(entries.length);
    expect(result.records).toBe(entries.length);
    expect(stats.runs).toBeGreaterThan(1);
    const bulkStats = bulk.checkValid();
    const inserted = BTree.create(pool, { space: 2, unique: true, clustered: false });
    expect(insertEach(entries, inserted)).toBe(entries.length);
    const insertedStats = inserted.checkValid();
    expect(toPlain(scan(bulk))).toEqual(toPlain(scan(inserted)));
    expect(toPlain(scan(bulk))).toEqual(toPlain(referenceSort(entries)));
    expect(bulkStats.records).toBe(insertedStats.records);
    // packed bottom-up at fill factor 100: no more leaves than random inserts leave behind
    expect(bulkStats.leafPages).toBeLessThanOrEqual(insertedStats.leafPages);
    expect(scratch.entries()).toEqual([]);
  });

  it('non-unique index with duplicate keys: stable order = (key, primary key) order, property', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 2500 }), (keys) => {
        // value = 4-byte row number, so insertion order is value order and the stable sort
        // yields exactly the (key, value) order the non-unique tree wants
        const entries: Rec[] = keys.map((k, i) => [key32(k), key32(i)]);
        const pool = newPool();
        const bulk = BTree.create(pool, { space: 1, unique: false });
        buildIndex(entries, bulk.bulkLoader(), options);
        bulk.checkValid();
        const inserted = BTree.create(pool, { space: 2, unique: false });
        insertEach(entries, inserted);
        expect(toPlain(scan(bulk))).toEqual(toPlain(scan(inserted)));
      }),
      { numRuns: 10 },
    );
  });
});
