// The tree on the real BufferPool: a pool far smaller than the tree (so pages are evicted,
// written back with checksums and read again), and a FileDevice for reopening after close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferPool, FileDevice, MemoryDevice } from '@enginekit/buffer-pool';
import { createGenerator } from '@enginekit/prng';
import { afterAll, describe, expect, it } from 'vitest';
import { BTree, compareKeys, KeyCodec } from '../src/index.js';

const codec = new KeyCodec([{ type: 'int64' }]);
const k = (i: number): Uint8Array => codec.encode([i]);
const v = (i: number, n: number): Uint8Array => Uint8Array.from({ length: n }, (_, j) => (i + j) & 255);
const dir = mkdtempSync(join(tmpdir(), 'btree-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BTree on BufferPool', () => {
  it('random inserts, deletes and updates through a 48-frame pool match a Map model', () => {
    const pool = new BufferPool({
      innodb_page_size: 1024,
      innodb_buffer_pool_size: 48 * 1024,
      device: new MemoryDevice({ pageSize: 1024 }),
    });
    const tree = BTree.create(pool);
    const model = new Map<number, Uint8Array>();
    const rng = createGenerator('xoshiro128**', { seed: 7 });
    for (let step = 0; step < 6000; step++) {
      const x = rng.nextBelow(3000);
      const op = rng.nextBelow(10);
      if (op < 6) {
        const val = v(step, rng.nextBelow(40));
        if (model.has(x)) expect(tree.update(k(x), val)).toBe(true);
        else tree.insert(k(x), val);
        model.set(x, val);
      } else if (op < 9) {
        expect(tree.delete(k(x))).toBe(model.delete(x));
      } else {
        expect(tree.get(k(x))).toEqual(model.get(x));
      }
      if (step % 1000 === 999) tree.checkValid();
    }
    const st = tree.checkValid();
    expect(st.records).toBe(model.size);
    expect(st.totalPages).toBeGreaterThan(48);
    const want = [...model.entries()].sort((a, b) => a[0] - b[0]).map(([x, val]) => [k(x), val]);
    expect([...tree.entries()]).toEqual(want);
    expect(pool.stats().Innodb_buffer_pool_reads).toBeGreaterThan(0);
  });

  it('bulk loads, closes, and reopens from a FileDevice', () => {
    const path = join(dir, 'bulk.ibd');
    const make = (): BufferPool =>
      new BufferPool({
        innodb_page_size: 4096,
        innodb_buffer_pool_size: 64 * 4096,
        device: new FileDevice(path, { pageSize: 4096 }),
      });
    const pool = make();
    const tree = BTree.create(pool, { unique: false, clustered: false });
    const loader = tree.bulkLoader({ innodb_fill_factor: 90 });
    for (let i = 0; i < 20000; i++) loader.add(k(i >> 2), v(i, 3));
    const res = loader.finish();
    const before = tree.checkValid();
    expect(before.records).toBe(20000);
    expect(before.height).toBe(res.height);
    pool.close();
    const again = make();
    const reopened = BTree.open(again, { rootPage: tree.rootPage });
    expect(reopened.checkValid()).toEqual(before);
    let n = 0;
    let prev: Uint8Array | null = null;
    reopened.forEachRange(null, null, (key) => {
      if (prev !== null) expect(compareKeys(prev, key)).toBeLessThanOrEqual(0);
      prev = key.slice();
      n++;
      return undefined;
    });
    expect(n).toBe(20000);
    expect(reopened.get(k(1234))).toEqual(v(1234 * 4, 3));
    again.close();
  });
});
