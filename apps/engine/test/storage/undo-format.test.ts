// The formats of multi-versioning with golden bytes (storage/undo-format.ts): the hidden fields
// of a clustered record, the 7-byte roll pointer, undo records of each type; and the pages a
// transaction writes, read back from a real database file.
import { describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import {
  decodeUndoRecord,
  readRollPtr,
  recordRollPtr,
  recordTrxId,
  rollPtr,
  rollPtrIsInsert,
  rollPtrOffset,
  rollPtrPage,
  rollPtrRseg,
  UNDO_DEL_MARK_REC,
  UNDO_INSERT_REC,
  UNDO_UPD_EXIST_REC,
  writeHidden,
  writeRollPtr,
  writeUndoRecord,
} from '../../src/storage/undo-format.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('roll pointers and hidden fields', () => {
  it('a roll pointer is 7 bytes: insert bit and rollback segment, page, offset', () => {
    const p = rollPtr(5, true, 0x01020304, 0x0506);
    expect([rollPtrRseg(p), rollPtrIsInsert(p), rollPtrPage(p), rollPtrOffset(p)]).toEqual([
      5,
      true,
      0x01020304,
      0x0506,
    ]);
    const b = new Uint8Array(7);
    writeRollPtr(b, 0, p);
    expect(hex(b)).toBe('85010203040506');
    expect(readRollPtr(b, 0)).toBe(p);
    const q = rollPtr(15, false, 0xffffffff, 0xffff);
    writeRollPtr(b, 0, q);
    expect(hex(b)).toBe('0fffffffffffff');
    expect(readRollPtr(b, 0)).toBe(q);
  });

  it('a clustered value starts with DB_TRX_ID (6 bytes) and DB_ROLL_PTR (7 bytes)', () => {
    const v = new Uint8Array(13);
    writeHidden(v, 0, 0x0000a1b2c3d4, rollPtr(1, false, 7, 84));
    expect(hex(v)).toBe('0000a1b2c3d4' + '01000000070054');
    expect(recordTrxId(v, 0)).toBe(0xa1b2c3d4);
    expect(recordRollPtr(v, 0)).toBe(rollPtr(1, false, 7, 84));
  });
});

describe('undo records', () => {
  it('an insert record: next, type, undo number, table, key, start', () => {
    const page = new Uint8Array(256);
    const end = writeUndoRecord(
      page,
      100,
      UNDO_INSERT_REC,
      3,
      0x11223344,
      Uint8Array.of(0xaa, 0xbb),
      false,
      0,
      0,
      new Uint8Array(0),
      0,
      0,
      0,
    );
    expect(hex(page.subarray(100, end))).toBe(
      ['0000', '0b', '000000000003', '11223344', '0002', 'aabb', '0064'].join(''),
    );
    const r = decodeUndoRecord(page, 100);
    expect([r.type, r.undoNo, r.tableId, hex(r.key), r.oldRow.length]).toEqual([
      UNDO_INSERT_REC,
      3,
      0x11223344,
      'aabb',
      0,
    ]);
  });

  it('an update record adds the previous version: info bits, DB_TRX_ID, DB_ROLL_PTR, its row', () => {
    const page = new Uint8Array(256);
    const row = Uint8Array.of(9, 8, 7);
    const prev = rollPtr(2, true, 40, 200);
    const end = writeUndoRecord(
      page,
      60,
      UNDO_DEL_MARK_REC,
      1,
      7,
      Uint8Array.of(1),
      true,
      0x123456,
      prev,
      row,
      0,
      3,
      0,
    );
    expect(hex(page.subarray(60, end))).toBe(
      [
        '0000',
        '0e',
        '000000000001',
        '00000007',
        '0001',
        '01',
        '20',
        '000000123456',
        '820000002800c8',
        '0003',
        '090807',
        '003c',
      ].join(''),
    );
    const r = decodeUndoRecord(page, 60);
    expect([r.type, r.oldDeleted, r.oldTrxId, r.oldRollPtr, hex(r.oldRow)]).toEqual([
      UNDO_DEL_MARK_REC,
      true,
      0x123456,
      prev,
      '090807',
    ]);
    const e = writeUndoRecord(
      page,
      0,
      UNDO_UPD_EXIST_REC,
      2,
      7,
      Uint8Array.of(1),
      false,
      5,
      prev,
      row,
      1,
      2,
      0,
    );
    expect(decodeUndoRecord(page, 0).oldRow).toEqual(Uint8Array.of(8, 7));
    expect(e).toBe(31 + 1 + 2 + 2);
  });
});

describe('undo pages in a database file', () => {
  it('an update writes an undo record the new version points to, and the previous version comes back from it', () => {
    const db = Database.temporary({ innodb_page_size: 4096 });
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
      s.query('INSERT INTO t VALUES (1, 10)');
      const t = db.table('t');
      const value = (): Uint8Array =>
        t.primary.tree.getRecord(t.primary.encoder.encode(t.newRow().setAll([1, 0])))!.value;
      // an autocommit INSERT: DB_TRX_ID is its transaction, the roll pointer an insert's
      const v0 = value();
      expect(recordTrxId(v0, 0)).toBeGreaterThan(0);
      expect(rollPtrIsInsert(recordRollPtr(v0, 0))).toBe(true);
      s.query('BEGIN');
      s.query('UPDATE t SET v = 11 WHERE id = 1');
      const v1 = value();
      const roll = recordRollPtr(v1, 0);
      expect(rollPtrIsInsert(roll)).toBe(false);
      const rec = db.undo.readAt(roll, recordTrxId(v1, 0))!;
      expect(rec.type).toBe(UNDO_UPD_EXIST_REC);
      expect(rec.oldTrxId).toBe(recordTrxId(v0, 0));
      expect(hex(rec.oldRow)).toBe(hex(v0.subarray(13)));
      s.query('ROLLBACK');
      expect(hex(value())).toBe(hex(v0));
    } finally {
      db.close();
    }
  });
});
