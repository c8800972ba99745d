// btree-sampler's CorruptionError and the buffer pool's are one family: either class's
// instanceof catches both, and the tree's error keeps its name, its page and its message.
import { CorruptionError as PoolCorruptionError } from '@enginekit/buffer-pool';
import { describe, expect, it } from 'vitest';
import { BTree, CorruptionError, DuplicateKeyError, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

describe('CorruptionError', () => {
  it('is the buffer pool CorruptionError, and catches it', () => {
    const tree = new CorruptionError('record count mismatch', 17);
    expect(tree).toBeInstanceOf(PoolCorruptionError);
    expect(tree).toBeInstanceOf(CorruptionError);
    expect(tree).toBeInstanceOf(Error);
    expect(tree.name).toBe('CorruptionError');
    expect(tree.message).toBe('page 17: record count mismatch');
    expect(tree.pageNo).toBe(17);
    expect(tree.reason).toBe('record count mismatch');
    expect(new CorruptionError('bad tag').message).toBe('bad tag');
    expect(new CorruptionError('bad tag').pageNo).toBe(-1);

    const pool = new PoolCorruptionError('/tmp/x.ibd', 3, 9, 'checksum');
    expect(pool).toBeInstanceOf(CorruptionError);
    expect(pool).toBeInstanceOf(PoolCorruptionError);
    expect(new DuplicateKeyError('dup')).not.toBeInstanceOf(CorruptionError);
    expect(new Error('x')).not.toBeInstanceOf(CorruptionError);
    expect((null as unknown as object) instanceof CorruptionError).toBe(false);
  });

  it('a broken page found by checkValid() is caught as the pool error, naming the page', () => {
    const store = new MemoryStore(512, 256);
    const t = BTree.create(store);
    const codec = new KeyCodec([{ type: 'int32' }]);
    for (let i = 0; i < 200; i++) t.insert(codec.encode([i]), Uint8Array.of(i));
    // Swap two slots of the root's first child: keys out of order on that page.
    const leaf = t.cursor();
    leaf.first();
    const page = leaf.pageNo;
    const f = store.fix(0, page, 2);
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
    expect(caught).toBeInstanceOf(CorruptionError);
    expect((caught as CorruptionError).message).toMatch(new RegExp(`^page ${page}: `));
  });
});
