// A page that is not what its tree says (zeroed here: the store hands back zeros, as a file's
// never-written page reads): every reader that meets it throws CorruptionError naming the page —
// a scan's sibling move and a point lookup's descent (the engine's tests add ANALYZE's level scan) —
// instead of decoding zeros as records or searching again forever.
import { describe, expect, it } from 'vitest';
import { BTree, CorruptionError, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const k = (i: number): Uint8Array => codec.encode([i]);

/** A tree of 600 keys on 512-byte pages with one middle leaf overwritten with zeros. */
function damaged(): { t: BTree; leaf: number } {
  const store = new MemoryStore(512, 1024);
  const t = BTree.create(store);
  for (let i = 0; i < 600; i++) t.insert(k(i), new Uint8Array(8));
  const leaves = [...t.pages()].filter((p) => p !== t.rootPage);
  const leaf = leaves[Math.floor(leaves.length / 2)]!;
  const f = store.fix(0, leaf, 2);
  store.bytes.fill(0, f * 512, (f + 1) * 512);
  store.unfix(f, 2);
  return { t, leaf };
}

describe('a damaged page inside a tree', () => {
  it('a full scan throws CorruptionError naming it, without looping', () => {
    const { t, leaf } = damaged();
    let seen = 0;
    expect(() =>
      t.forEachRangeRaw(null, null, () => {
        seen++;
        return true;
      }),
    ).toThrow(new RegExp(`corrupt page ${leaf} of space 0: not a B\\+tree page`));
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(600);
  });

  it('point lookups into it throw; the others answer', () => {
    const { t, leaf } = damaged();
    let failed = 0;
    for (let i = 0; i < 600; i++) {
      try {
        expect(t.get(k(i))).toBeDefined();
      } catch (e) {
        expect(e).toBeInstanceOf(CorruptionError);
        expect((e as CorruptionError).pageNo).toBe(leaf);
        failed++;
      }
    }
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(600);
  });
});
