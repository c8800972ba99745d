import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BTree, DuplicateKeyError, KeyCodec, OutOfOrderError } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const k = (i: number): Uint8Array => codec.encode([i]);
const v = (i: number): Uint8Array => Uint8Array.of(i & 255, (i >> 8) & 255, 7, 7);
const dir = mkdtempSync(join(tmpdir(), 'btree-sampler-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BTree structure', () => {
  it('random inserts then deletes: pages merge, the root lifts, freed pages are reused', () => {
    const store = new MemoryStore(512, 8192);
    const t = BTree.create(store);
    const n = 4000;
    for (let i = 0; i < n; i++) t.insert(k((i * 7919) % n), v(i));
    const full = t.checkValid();
    expect(full.height).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < n; i++) if (i % 50 !== 0) t.delete(k(i));
    const thin = t.checkValid();
    expect(thin.records).toBe(n / 50);
    expect(thin.freePages).toBeGreaterThan(full.leafPages / 2);
    expect(thin.height).toBeLessThan(full.height);
    for (let i = 0; i < n; i++) expect(t.get(k(i)) !== undefined).toBe(i % 50 === 0);
    // Re-inserting takes pages from the free list before the store.
    for (let i = 0; i < n; i++) if (i % 50 !== 0) t.insert(k(i), v(i));
    const again = t.checkValid();
    expect(again.freePages).toBe(0);
    // The ascending re-inserts fill their leaves to about 55 % (219 pages full, 277 again on these
    // 512-byte pages), the random ones to about 67 %.
    expect(again.totalPages).toBeLessThan(full.totalPages * 1.3);
    expect(store.pinned()).toBe(0);
  });

  it('ascending inserts split at the insert point (leaves nearly full), random ones near half', () => {
    const asc = BTree.create(new MemoryStore(1024, 4096));
    for (let i = 0; i < 6000; i++) asc.insert(k(i), v(i));
    expect(asc.checkValid().leafFill).toBeGreaterThan(0.95);
    const desc = BTree.create(new MemoryStore(1024, 4096));
    for (let i = 6000; i > 0; i--) desc.insert(k(i), v(i));
    expect(desc.checkValid().leafFill).toBeGreaterThan(0.9);
    const rnd = BTree.create(new MemoryStore(1024, 4096));
    for (let i = 0; i < 6000; i++) rnd.insert(k((i * 7919) % 6000), v(i));
    const f = rnd.checkValid().leafFill;
    expect(f).toBeGreaterThan(0.55);
    expect(f).toBeLessThan(0.8);
  });

  it('unique trees refuse duplicates; non-unique trees order by (key, value)', () => {
    const u = BTree.create(new MemoryStore(512, 64));
    u.insert(k(1), v(1));
    expect(() => u.insert(k(1), v(2))).toThrow(DuplicateKeyError);
    const nu = BTree.create(new MemoryStore(512, 256), { unique: false });
    for (let i = 9; i >= 0; i--) nu.insert(k(5), Uint8Array.of(i));
    nu.insert(k(4), Uint8Array.of(0));
    expect(() => nu.insert(k(5), Uint8Array.of(3))).toThrow(DuplicateKeyError);
    expect([...nu.entries(k(5), k(6))].map(([, x]) => x[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(nu.get(k(5))).toEqual(Uint8Array.of(0));
    expect(nu.has(k(5), Uint8Array.of(7))).toBe(true);
    expect(nu.delete(k(5), Uint8Array.of(7))).toBe(true);
    expect(nu.has(k(5), Uint8Array.of(7))).toBe(false);
    expect(nu.update(k(5), Uint8Array.of(70), Uint8Array.of(8))).toBe(true);
    expect([...nu.entries(k(5), k(6))].map(([, x]) => x[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 9, 70]);
    nu.checkValid();
  });

  it('cursor seek modes and restore after writes', () => {
    const t = BTree.create(new MemoryStore(512, 1024));
    for (let i = 0; i < 300; i += 3) t.insert(k(i), v(i));
    const c = t.cursor();
    expect(c.seek(k(10), 'ge')).toBe(true);
    expect(codec.decode(c.key())).toEqual([12]);
    expect(c.seek(k(12), 'gt')).toBe(true);
    expect(codec.decode(c.key())).toEqual([15]);
    expect(c.seek(k(13), 'eq')).toBe(false);
    expect(c.seek(k(15), 'eq')).toBe(true);
    // writes between steps: the cursor re-seeks past its remembered entry
    t.delete(k(18));
    t.insert(k(16), v(16));
    expect(c.next()).toBe(true);
    expect(codec.decode(c.key())).toEqual([16]);
    expect(c.next()).toBe(true);
    expect(codec.decode(c.key())).toEqual([21]);
    t.insert(k(20), v(20));
    expect(c.prev()).toBe(true);
    expect(codec.decode(c.key())).toEqual([20]);
    expect(c.seek(k(1000), 'ge')).toBe(false);
    expect(c.last()).toBe(true);
    expect(codec.decode(c.key())).toEqual([297]);
    expect(c.first()).toBe(true);
    expect(codec.decode(c.key())).toEqual([0]);
    expect(c.prev()).toBe(false);
  });

  it('the bulk loader follows innodb_fill_factor and the 1/16 clustered reserve', () => {
    const fills: Record<string, number> = {};
    for (const [name, clustered, ff] of [
      ['clustered@100', true, 100],
      ['secondary@100', false, 100],
      ['any@70', true, 70],
    ] as const) {
      const store = new MemoryStore(4096, 4096);
      const t = BTree.create(store, { clustered });
      const l = t.bulkLoader({ innodb_fill_factor: ff });
      for (let i = 0; i < 20000; i++) l.add(k(i), v(i));
      const r = l.finish();
      const st = t.checkValid();
      expect(st.records).toBe(20000);
      expect(st.pagesPerLevel).toEqual(r.pagesPerLevel);
      fills[name] = st.leafFill;
    }
    const cap = 4096 - 72;
    // 13-byte records + 2-byte slots: a page stops when the next one would cut into the reserve
    expect(fills['clustered@100']!).toBeCloseTo((cap - 256) / cap, 1);
    expect(fills['secondary@100']!).toBeGreaterThan(0.99);
    expect(fills['any@70']!).toBeCloseTo((cap - Math.floor(4096 * 0.3)) / cap, 1);
    const t = BTree.create(new MemoryStore(512, 64));
    const l = t.bulkLoader();
    l.add(k(2), v(2));
    expect(() => l.add(k(1), v(1))).toThrow(OutOfOrderError);
    expect(() => l.add(k(2), v(1))).toThrow(DuplicateKeyError);
    expect(() => t.bulkLoader({ innodb_fill_factor: 5 })).toThrow(RangeError);
  });

  it('abort() lets go of every page even when noting a change fails', () => {
    // a store whose markDirty fails, as a full redo log makes it fail
    const store = new MemoryStore(512, 64);
    const t = BTree.create(store);
    const l = t.bulkLoader();
    for (let i = 0; i < 200; i++) l.add(k(i), v(i));
    expect(store.xLatches.some((n) => n > 0)).toBe(true);
    store.markDirty = () => {
      throw new Error('the redo log is full');
    };
    expect(() => l.abort()).toThrow(/redo log is full/);
    expect(store.xLatches.every((n) => n === 0)).toBe(true);
  });

  it('reopens from a file after close', () => {
    const path = join(dir, 'tree.ibd');
    const store = new MemoryStore(512, 4096);
    const t = BTree.create(store, { space: 0, unique: false, tupleKeys: true, indexId: 42 });
    for (let i = 0; i < 3000; i++) t.insert(k(i % 700), v(i));
    for (let i = 0; i < 3000; i += 3) t.delete(k(i % 700), v(i));
    const before = t.checkValid();
    store.save(path);
    const again = BTree.open(MemoryStore.load(path, 512), { rootPage: t.rootPage });
    expect(again.unique).toBe(false);
    expect(again.tupleKeys).toBe(true);
    expect(again.indexId).toBe(42n);
    expect(again.checkValid()).toEqual(before);
    expect([...again.entries()]).toEqual([...t.entries()]);
  });

  it('rejects bad arguments, naming them', () => {
    const t = BTree.create(new MemoryStore(512, 64));
    expect(() => t.insert('x' as never, v(1))).toThrow(/key must be a Uint8Array/);
    // 512-byte pages: at most ⌊432 / 4⌋ − 2 − 4 − 4 − 8 = 90 bytes of key and value
    expect(t.maxEntryBytes).toBe(90);
    expect(() => t.insert(new Uint8Array(90), v(1))).toThrow(/at most 90/);
    expect(() => BTree.create(new MemoryStore(512, 4), { mergeThreshold: 80 })).toThrow(/mergeThreshold/);
    expect(() => BTree.open(new MemoryStore(512, 4), { rootPage: -1 })).toThrow(RangeError);
    expect(() => BTree.create(new MemoryStore(256, 4))).toThrow(
      /store.pageSize must be a power of two in \[512, 65536\]/,
    );
    expect(() => BTree.create(new MemoryStore(512, 4), { uniqueFields: 1 })).toThrow(/secondary/);
    expect(() => BTree.create(new MemoryStore(512, 4), { unique: false, uniqueFields: 0 })).toThrow(
      /uniqueFields/,
    );
    expect(() => BTree.create(new MemoryStore(512, 4), { tupleValues: true })).toThrow(/tupleValues/);
    expect(() => t.bulkLoader({ innodb_fill_factor: 101 })).toThrow(/innodb_fill_factor/);
  });
});

describe('public surface', () => {
  it('a BTree offers the tree operations only: no page access, no writable counters', () => {
    const methods = Object.getOwnPropertyNames(BTree.prototype).sort();
    expect(methods).toEqual(
      [
        'bulkLoader',
        'checkValid',
        'constructor',
        'cursor',
        'delete',
        'entries',
        'forEachRange',
        'forEachRangeRaw',
        'forEachRangeRawBackward',
        'get',
        'getRecord',
        'has',
        'insert',
        'pageFixes',
        'pages',
        'setDeleteMark',
        'shape',
        'stats',
        'update',
        'writeStats',
      ].sort(),
    );
    const t = BTree.create(new MemoryStore(512, 8));
    expect(Object.keys(t).sort()).toEqual(
      [
        'clustered',
        'indexId',
        'maxEntryBytes',
        'mergeThreshold',
        'pageSize',
        'rootPage',
        'space',
        'tupleKeys',
        'tupleValues',
        'unique',
        'uniqueFields',
      ].sort(),
    );
    expect(() => {
      (t as unknown as { pageFixes: number }).pageFixes = 5;
    }).toThrow(TypeError);
  });
});
