// merge-sort-index's buildIndex into real btree-sampler trees: the sorted build (bulk loader, or
// row by row with MySQL 5.6's mechanics) gives the same tree as inserting each entry, and every
// tree passes checkValid().
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import { buildIndex, insertEach, insertSink, type SorterOptions } from '@enginekit/merge-sort-index';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

type Rec = [Uint8Array, Uint8Array];

const scratch = mkdtempSync(join(tmpdir(), 'index-build-sort-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function key32(n: number): Uint8Array {
  const k = new Uint8Array(4);
  new DataView(k.buffer).setUint32(0, n >>> 0);
  return k;
}

/** `n` entries with random 0–11 byte keys made unique by a 4-byte row-number suffix, as InnoDB's. */
function uniqueEntries(n: number, seed: number): Rec[] {
  let s = seed >>> 0 || 1;
  const rnd = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    const len = rnd() % 12;
    const key = new Uint8Array(len + 4);
    for (let j = 0; j < len; j++) key[j] = rnd() & 0xff;
    key.set(key32(i), len);
    const value = new Uint8Array(16).fill(i & 0xff);
    out.push([key, value]);
  }
  return out;
}

function newPool(): BufferPool {
  const pool = new BufferPool({ innodb_buffer_pool_size: 32 << 20 });
  pool.registerSpace(1, new MemoryDevice());
  pool.registerSpace(2, new MemoryDevice());
  return pool;
}

function scan(tree: BTree): string[] {
  const out: string[] = [];
  const c = tree.cursor();
  for (let ok = c.first(); ok; ok = c.next())
    out.push(`${Buffer.from(c.key()).toString('hex')}:${Buffer.from(c.value()).toString('hex')}`);
  return out;
}

function plainSorted(records: readonly Rec[]): string[] {
  return [...records]
    .sort((a, b) => Buffer.compare(a[0], b[0]))
    .map(([k, v]) => `${Buffer.from(k).toString('hex')}:${Buffer.from(v).toString('hex')}`);
}

const configs: [string, SorterOptions][] = [
  ['fast, innodb merge', { mergeMode: 'innodb', mergeBlockSize: 16384 }],
  ['fast, kway merge', { mergeMode: 'kway', mergeBlockSize: 16384 }],
  ['mysql56 mechanics', { mechanics: 'mysql56' }],
];

describe.each(configs)('buildIndex into a btree-sampler tree, %s', (_name, config) => {
  const options: SorterOptions = { innodb_sort_buffer_size: 65536, tmpdir: scratch, ...config };

  it('bulk load of sorted runs equals insert-each, and both pass checkValid()', () => {
    const entries = uniqueEntries(6000, 77);
    const pool = newPool();
    const bulk = BTree.create(pool, { space: 1, unique: true, clustered: false });
    const { result, rows, stats } = buildIndex(entries, bulk.bulkLoader(), options);
    expect(rows).toBe(entries.length);
    expect(result.records).toBe(entries.length);
    expect(stats.runs).toBeGreaterThan(1);
    const bulkStats = bulk.checkValid();
    const inserted = BTree.create(pool, { space: 2, unique: true, clustered: false });
    expect(insertEach(entries, inserted)).toBe(entries.length);
    const insertedStats = inserted.checkValid();
    expect(scan(bulk)).toEqual(scan(inserted));
    expect(scan(bulk)).toEqual(plainSorted(entries));
    expect(bulkStats.records).toBe(insertedStats.records);
    // packed bottom-up at fill factor 100: no more leaves than random inserts leave behind
    expect(bulkStats.leafPages).toBeLessThanOrEqual(insertedStats.leafPages);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('row-by-row insertion of the sorted entries (insertSink) builds the same tree', () => {
    const entries = uniqueEntries(4000, 5);
    const pool = newPool();
    const rowByRow = BTree.create(pool, { space: 1, unique: true, clustered: false });
    const { result, rows } = buildIndex(entries, insertSink(rowByRow), options);
    expect(result).toBe(rowByRow);
    expect(rows).toBe(entries.length);
    expect(rowByRow.checkValid().records).toBe(entries.length);
    expect(scan(rowByRow)).toEqual(plainSorted(entries));
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('non-unique index with duplicate keys: stable order = (key, row) order, property', () => {
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
        expect(scan(bulk)).toEqual(scan(inserted));
      }),
      { numRuns: 10 },
    );
  });
});
