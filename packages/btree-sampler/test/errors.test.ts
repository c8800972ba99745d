// One CorruptionError class for the whole stack: the tree throws the buffer pool's own class, and
// it names the page and what was broken.
import { CorruptionError as PoolCorruptionError } from '@enginekit/buffer-pool';
import { DuplicateKeyError as CommonDuplicateKeyError } from '@enginekit/common';
import { describe, expect, it } from 'vitest';
import { BTree, CorruptionError, DuplicateKeyError, fieldEnd, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

describe('error classes', () => {
  it('CorruptionError and DuplicateKeyError are the classes of buffer-pool and common, not copies', () => {
    expect(CorruptionError).toBe(PoolCorruptionError);
    expect(DuplicateKeyError).toBe(CommonDuplicateKeyError);
    expect(Object.hasOwn(CorruptionError, Symbol.hasInstance)).toBe(false);
  });

  it('a malformed key is a CorruptionError naming the byte', () => {
    let caught: unknown;
    try {
      fieldEnd(Uint8Array.of(0x77), 0, 1);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PoolCorruptionError);
    expect((caught as PoolCorruptionError).pageNo).toBe(-1);
    expect((caught as Error).message).toBe('corrupt key: unknown key field tag 0x77 at byte 0');
  });

  it('a broken page found by checkValid() is a CorruptionError naming the page and the space', () => {
    const store = new MemoryStore(512, 256);
    const t = BTree.create(store, { space: 3 });
    const codec = new KeyCodec([{ type: 'int32' }]);
    for (let i = 0; i < 200; i++) t.insert(codec.encode([i]), Uint8Array.of(i));
    // Swap two slots of the first leaf: keys out of order on that page.
    const leaf = t.cursor();
    leaf.first();
    const page = leaf.pageNo;
    const f = store.fix(3, page, 2);
    const dir = f * 512 + 512 - 8 - 2;
    const a = store.bytes.slice(dir, dir + 2);
    store.bytes.copyWithin(dir, dir - 2, dir);
    store.bytes.set(a, dir - 2);
    store.unfix(f, 2);
    let caught: unknown;
    try {
      t.checkValid();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PoolCorruptionError);
    const e = caught as PoolCorruptionError;
    expect(e.pageNo).toBe(page);
    expect(e.space).toBe(3);
    expect(e.reason).toBe('records 0 and 1 out of order');
    expect(e.message).toBe(`corrupt page ${page} of space 3: records 0 and 1 out of order`);
  });
});
