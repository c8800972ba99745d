// Directed cases for delete marks, PAGE_MAX_TRX_ID and the page list; the model test
// (mvcc-model.test.ts) covers random sequences.
import { describe, expect, it } from 'vitest';
import { BTree, CorruptionError, KeyCodec, pageBaseOf, pageFormat, pageMaxTrxId } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const k = (i: number): Uint8Array => codec.encode([i]);
const v = (i: number, len = 4): Uint8Array => Uint8Array.from({ length: len }, (_, j) => (i + j) & 255);

/** Keys on the leaf holding `key`, via a cursor. */
function keysOnLeafOf(t: BTree, key: Uint8Array): number[] {
  const c = t.cursor();
  c.seek(key, 'eq');
  const out: number[] = [];
  const cur = t.cursor();
  for (let ok = cur.first(); ok; ok = cur.next())
    if (cur.pageNo === c.pageNo) out.push(codec.decode(cur.key())[0] as number);
  return out;
}

describe('delete marks', () => {
  it('reads return marked entries with their flag; update keeps the flag; delete removes them', () => {
    const t = BTree.create(new MemoryStore(512, 256));
    for (let i = 0; i < 200; i++) t.insert(k(i), v(i));
    expect(t.setDeleteMark(k(7), undefined, true)).toBe(true);
    expect(t.setDeleteMark(k(500), undefined, true)).toBe(false);
    expect(t.get(k(7))).toEqual(v(7));
    expect(t.has(k(7))).toBe(true);
    expect(t.getRecord(k(7))).toEqual({ value: v(7), deleted: true });
    expect(t.getRecord(k(8))).toEqual({ value: v(8), deleted: false });
    expect(t.getRecord(k(500))).toBeUndefined();
    const c = t.cursor();
    expect(c.seek(k(7), 'eq')).toBe(true);
    expect(c.deleted()).toBe(true);
    expect(c.next()).toBe(true);
    expect(c.deleted()).toBe(false);
    // same length: in place; another length: delete and re-insert — the mark stays either way
    expect(t.update(k(7), v(70))).toBe(true);
    expect(t.getRecord(k(7))).toEqual({ value: v(70), deleted: true });
    expect(t.update(k(7), v(71, 30))).toBe(true);
    expect(t.getRecord(k(7))).toEqual({ value: v(71, 30), deleted: true });
    expect(t.checkValid().deletedRecords).toBe(1);
    expect(t.delete(k(7))).toBe(true);
    expect(t.stats().deletedRecords).toBe(0);
    t.checkValid();
  });

  it('a non-unique tree marks the exact (key, value), and needs the value', () => {
    const t = BTree.create(new MemoryStore(512, 256), { unique: false });
    for (let i = 0; i < 5; i++) t.insert(k(1), v(i));
    expect(t.setDeleteMark(k(1), v(3), true)).toBe(true);
    expect(t.setDeleteMark(k(1), v(9), true)).toBe(false);
    expect([...t.entries()].map(([, x]) => x[0])).toEqual([0, 1, 2, 3, 4]);
    const flags: boolean[] = [];
    const c = t.cursor();
    for (let ok = c.first(); ok; ok = c.next()) flags.push(c.deleted());
    expect(flags).toEqual([false, false, false, true, false]);
    expect(t.getRecord(k(1))).toEqual({ value: v(0), deleted: false });
    expect(t.update(k(1), v(7), v(3))).toBe(true);
    expect(t.setDeleteMark(k(1), v(7), false)).toBe(true);
    expect(t.checkValid().deletedRecords).toBe(0);
    expect(() => t.setDeleteMark(k(1), undefined, true)).toThrow(/value is required/);
  });

  it('rejects bad arguments, naming them', () => {
    const t = BTree.create(new MemoryStore(512, 64));
    t.insert(k(1), v(1));
    expect(() => t.setDeleteMark(k(1), undefined, 1 as never)).toThrow(/marked must be a boolean, got 1/);
    expect(() => t.setDeleteMark('x' as never, undefined, true)).toThrow(/key must be a Uint8Array/);
    expect(() => t.insert(k(2), v(2), -1)).toThrow(/maxTrxId must be in \[0, 2\^48\), got -1/);
    expect(() => t.insert(k(2), v(2), 2 ** 48)).toThrow(RangeError);
    expect(() => t.delete(k(1), undefined, 1.5)).toThrow(/maxTrxId must be an integer, got 1.5/);
    expect(() => t.setDeleteMark(k(1), undefined, true, Number.NaN)).toThrow(TypeError);
    expect(() => t.bulkLoader({ maxTrxId: -2 })).toThrow(/maxTrxId/);
    expect(t.has(k(2))).toBe(false);
    t.checkValid();
  });

  it('checkValid() refuses a node pointer that carries the delete mark', () => {
    const store = new MemoryStore(512, 256);
    const t = BTree.create(store);
    for (let i = 0; i < 100; i++) t.insert(k(i), v(i));
    expect(pageFormat.pageLevel(store.bytes, 0)).toBe(1);
    const rec = pageFormat.slotRec(store.bytes, 0, 512, 1);
    pageFormat.setRecDeleted(store.bytes, 0, rec, true);
    expect(() => t.checkValid()).toThrow(CorruptionError);
    expect(() => t.checkValid()).toThrow(/node pointer 1 carries the delete mark/);
    pageFormat.setRecDeleted(store.bytes, 0, rec, false);
    t.checkValid();
    pageFormat.setPageMaxTrxId(store.bytes, 0, 5);
    expect(() => t.checkValid()).toThrow(/non-leaf page has a PAGE_MAX_TRX_ID/);
  });
});

describe('PAGE_MAX_TRX_ID', () => {
  it('splits copy it to the new page, a root raise copies it down, the root keeps 0', () => {
    const store = new MemoryStore(512, 256);
    const t = BTree.create(store);
    t.insert(k(0), v(0), 77);
    for (let i = 1; i < 200; i++) t.insert(k(i), v(i));
    const st = t.checkValid();
    expect(st.height).toBe(2);
    expect(pageMaxTrxId(store.bytes, 0)).toBe(0);
    // Every leaf descends from the first one by splits, so every leaf has 77.
    const seen = new Set<number>();
    t.forEachRangeRaw(null, null, (b, ko) => {
      seen.add(pageMaxTrxId(b, pageBaseOf(ko, 512)));
      return undefined;
    });
    expect([...seen]).toEqual([77]);
    // A later insert raises only its own leaf; lower ids never lower it.
    t.insert(k(1000), v(1), 90);
    t.insert(k(1001), v(1), 3);
    const c = t.cursor();
    c.seek(k(1000), 'eq');
    expect(c.pageMaxTrxId()).toBe(90);
    c.seek(k(0), 'eq');
    expect(c.pageMaxTrxId()).toBe(77);
  });

  it('an update that empties its page carries the old leaf field to the leaf it lands on', () => {
    // MERGE_THRESHOLD 1: a page of a single record does not merge, so deleting around it leaves one.
    const t = BTree.create(new MemoryStore(512, 256), { mergeThreshold: 1 });
    for (let i = 0; i < 100; i++) t.insert(k(i), v(i));
    const mates = keysOnLeafOf(t, k(50));
    expect(mates.length).toBeGreaterThan(5);
    for (const m of mates) if (m !== 50) t.delete(k(m));
    expect(keysOnLeafOf(t, k(50))).toEqual([50]);
    expect(t.setDeleteMark(k(50), undefined, true, 1234)).toBe(true);
    // A longer value: delete (the page is emptied and discarded) and re-insert on a neighbour
    // (which splits: ascending inserts left it full) whose field is 0.
    expect(t.update(k(50), v(50, 40))).toBe(true);
    t.checkValid();
    const c = t.cursor();
    expect(c.seek(k(50), 'eq')).toBe(true);
    expect(c.deleted()).toBe(true);
    expect(c.pageMaxTrxId()).toBeGreaterThanOrEqual(1234);
  });

  it('the bulk loader stamps every leaf with maxTrxId, and the non-leaf pages keep 0', () => {
    const store = new MemoryStore(512, 512);
    const t = BTree.create(store);
    const l = t.bulkLoader({ maxTrxId: 2 ** 40 + 3 });
    for (let i = 0; i < 2000; i++) l.add(k(i), v(i));
    l.finish();
    const st = t.checkValid(); // checks the non-leaf pages hold 0
    expect(st.height).toBe(3);
    let leaves = 0;
    let last = -1;
    t.forEachRangeRaw(null, null, (b, ko) => {
      const base = pageBaseOf(ko, 512);
      if (base !== last) {
        leaves++;
        last = base;
        expect(pageMaxTrxId(b, base)).toBe(2 ** 40 + 3);
      }
      return undefined;
    });
    expect(leaves).toBe(st.leafPages);
  });
});

describe('pages()', () => {
  it('lists every page of the tree and its free list, once', () => {
    const store = new MemoryStore(512, 2048);
    const t = BTree.create(store, { space: 3 });
    expect(t.pages()).toEqual([t.rootPage]);
    const n = 3000;
    for (let i = 0; i < n; i++) t.insert(k((i * 7919) % n), v(i));
    for (let i = 0; i < n; i++) if (i % 3 !== 0) t.delete(k(i));
    const st = t.checkValid();
    expect(st.freePages).toBeGreaterThan(0);
    expect(st.height).toBeGreaterThanOrEqual(3);
    const fixes = t.pageFixes;
    const pages = t.pages();
    expect(t.pageFixes).toBe(fixes);
    expect(pages[0]).toBe(t.rootPage);
    expect(pages.length).toBe(st.totalPages);
    // the tree is the only user of space 3, whose pages the store numbers 0, 1, 2, …
    expect([...pages].sort((a, b) => a - b)).toEqual(Array.from({ length: st.totalPages }, (_, i) => i));
    expect(t.shape().totalPages).toBe(pages.length);
  });
});
