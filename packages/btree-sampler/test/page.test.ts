// Golden bytes: the page layout documented in src/page.ts, pinned so a change is deliberate.
import { describe, expect, it } from 'vitest';
import { BTree, pageFormat } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const hex = (a: Uint8Array): string => Buffer.from(a).toString('hex');
const bytes = (...xs: number[]): Uint8Array => Uint8Array.from(xs);

describe('page format', () => {
  it('an empty root page, then three records', () => {
    const store = new MemoryStore(512, 16);
    const tree = BTree.create(store, { space: 7, indexId: 0x0102030405060708n });
    const page = (): Uint8Array => store.bytes.subarray(0, 512);
    // envelope: page 0, no siblings, type 0x45BF, space 7; B+tree header: level 0, 0 recs, heap top 72
    expect(hex(page().subarray(0, 72))).toBe(
      [
        '00000000',
        '00000000',
        'ffffffff',
        'ffffffff',
        '0000000000000000',
        '45bf',
        '0000000000000000',
        '00000007',
        '0000',
        '0000',
        '0048',
        '0000',
        '0000',
        '00',
        '03',
        '0000',
        '0102030405060708',
        'ffffffff',
        '0000000000000000',
      ].join(''),
    );
    tree.insert(bytes(0x20), bytes(0xaa, 0xbb));
    tree.insert(bytes(0x10), bytes());
    tree.insert(bytes(0x30), bytes(0xcc));
    // records in arrival order in the heap: [klen][vlen][key][value]
    expect(hex(page().subarray(72, 72 + 7 + 5 + 6))).toBe(
      '0001000220aabb' + '0001000010' + '00010001' + '30cc',
    );
    // header: 3 recs, heap top 90, last insert = slot 2 + 1; 0x10 went left of 0x20 (direction 1)
    // but 0x30 did not follow it, so the direction is reset to none
    expect(hex(page().subarray(38, 52))).toBe(
      '0000' + '0003' + '005a' + '0000' + '0003' + '00' + '03' + '0000',
    );
    // slot directory, growing down from byte 504: slot 0 → 0x4f (key 0x10), slot 1 → 0x48, slot 2 → 0x54
    expect(hex(page().subarray(498, 504))).toBe('0054' + '0048' + '004f');
    expect(hex(page().subarray(504, 512))).toBe('0000000000000000');
    tree.delete(bytes(0x20));
    // a deleted record in the middle of the heap becomes garbage; the slots close up
    expect(hex(page().subarray(40, 46))).toBe('0002' + '005a' + '0007');
    expect(hex(page().subarray(500, 504))).toBe('0054' + '004f');
    expect(pageFormat.usedBytes(store.bytes, 0, 512)).toBe(5 + 6 + 4);
    expect(pageFormat.pageCapacity(512)).toBe(512 - 80);
  });

  it('a delete-marked record and PAGE_MAX_TRX_ID', () => {
    const store = new MemoryStore(512, 16);
    const tree = BTree.create(store, { space: 7, indexId: 9n });
    const page = (): Uint8Array => store.bytes.subarray(0, 512);
    tree.insert(bytes(0x10), bytes(0xaa), 0x0102);
    tree.insert(bytes(0x20), bytes());
    // PAGE_MAX_TRX_ID, 8 bytes big-endian at 64, raised by the first insert
    expect(hex(page().subarray(64, 72))).toBe('0000000000000102');
    expect(tree.setDeleteMark(bytes(0x20), undefined, true, 0x123456789abc)).toBe(true);
    // records from 72: [klen][vlen][key][value]; bit 15 of the second record's klen is its delete mark
    expect(hex(page().subarray(72, 72 + 6 + 5))).toBe('00010001' + '10aa' + '80010000' + '20');
    expect(hex(page().subarray(64, 72))).toBe('0000123456789abc');
    expect(pageFormat.pageMaxTrxId(store.bytes, 0)).toBe(0x123456789abc);
    // clearing the mark with a lower id leaves the field alone (it is never lowered)
    expect(tree.setDeleteMark(bytes(0x20), undefined, false, 5)).toBe(true);
    expect(hex(page().subarray(72 + 6, 72 + 6 + 5))).toBe('00010000' + '20');
    expect(hex(page().subarray(64, 72))).toBe('0000123456789abc');
    expect(tree.setDeleteMark(bytes(0x30), undefined, true, 0xffff_ffff_ffff)).toBe(false);
    expect(hex(page().subarray(64, 72))).toBe('0000123456789abc');
    tree.setDeleteMark(bytes(0x10), undefined, true, 0xffff_ffff_ffff);
    expect(hex(page().subarray(64, 80))).toBe('0000ffffffffffff' + '80010001' + '10aa' + '0001');
    expect(tree.checkValid().deletedRecords).toBe(1);
  });

  it('a node pointer carries the child page number after key and value', () => {
    const store = new MemoryStore(512, 64);
    const tree = BTree.create(store);
    for (let i = 0; i < 40; i++) tree.insert(bytes(i), bytes(i, i, i, i, i, i));
    const root = store.bytes.subarray(0, 512);
    expect(pageFormat.pageLevel(root, 0)).toBe(1);
    // slot 0 of the raised root: empty key, empty value, child = the page the old root was copied to
    const r0 = pageFormat.slotRec(root, 0, 512, 0);
    expect(hex(root.subarray(r0, r0 + 8))).toBe('00000000' + '00000001');
    const r1 = pageFormat.slotRec(root, 0, 512, 1);
    // slot 1: 1-byte key (the right page's first key), no value, child page 2
    expect(hex(root.subarray(r1, r1 + 9))).toMatch(/^00010000[0-9a-f]{2}00000002$/);
    tree.checkValid();
  });
});
