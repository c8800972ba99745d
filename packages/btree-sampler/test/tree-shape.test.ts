// BTree.shape() reads the non-leaf levels only; its counts must equal the full walk of stats().
import { describe, expect, it } from 'vitest';
import { BTree, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const one = new KeyCodec([{ type: 'int32' }]);
const V = Uint8Array.of(1, 2, 3, 4);

function usedPages(t: BTree): number {
  return t.stats().pagesPerLevel.reduce((a, b) => a + b, 0);
}

describe('BTree.shape', () => {
  it('an empty tree and a root leaf: height 1, one leaf, one page', () => {
    const t = BTree.create(new MemoryStore(4096, 16), { tupleKeys: true });
    const root = { height: 1, leafPages: 1, indexPages: 1, freePages: 0, totalPages: 1 };
    expect(t.shape()).toEqual(root);
    t.insert(one.encode([1]), V);
    expect(t.shape()).toEqual(root);
  });

  it('equals the full walk on bulk-loaded and randomly grown trees of 2 and 3 levels', () => {
    for (const n of [743, 20000]) {
      const bulk = BTree.create(new MemoryStore(4096, 512), { clustered: true, tupleKeys: true });
      const l = bulk.bulkLoader();
      for (let i = 0; i < n; i++) l.add(one.encode([i]), V);
      l.finish();
      const grown = BTree.create(new MemoryStore(4096, 512), { tupleKeys: true });
      for (let i = 0; i < n; i++) grown.insert(one.encode([(i * 7919) % n]), V);
      for (const t of [bulk, grown]) {
        const s = t.stats();
        expect(t.shape()).toEqual({
          height: s.height,
          leafPages: s.leafPages,
          indexPages: usedPages(t),
          freePages: s.freePages,
          totalPages: s.totalPages,
        });
      }
    }
  });

  it('counts pages on the free list apart, and its page reads are not counted as fixes', () => {
    const t = BTree.create(new MemoryStore(4096, 512), { tupleKeys: true });
    for (let i = 0; i < 5000; i++) t.insert(one.encode([i]), V);
    for (let i = 0; i < 4000; i++) t.delete(one.encode([i]));
    const s = t.stats();
    expect(s.freePages).toBeGreaterThan(0);
    const fixes = t.pageFixes;
    const shape = t.shape();
    expect([shape.indexPages, shape.freePages, shape.totalPages]).toEqual([
      s.totalPages - s.freePages,
      s.freePages,
      s.totalPages,
    ]);
    expect(t.pageFixes).toBe(fixes);
  });
});
