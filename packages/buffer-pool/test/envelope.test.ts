import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BufferPool,
  CorruptionError,
  FIL_NULL,
  FIL_PAGE_DATA,
  FileDevice,
  getNextPage,
  getPageLsn,
  getPageNo,
  getPageType,
  getPrevPage,
  getSpaceId,
  initPage,
  MemoryDevice,
  sealPage,
  setNextPage,
  setPageType,
  setPrevPage,
  verifyPage,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'bp-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('page envelope', () => {
  it('golden bytes of a sealed 512-byte page', () => {
    const p = new Uint8Array(512);
    initPage(p, 0, 512, 7, 3);
    setPrevPage(p, 0, 2);
    setNextPage(p, 0, 4);
    setPageType(p, 0, 17855); // InnoDB's FIL_PAGE_INDEX
    p[FIL_PAGE_DATA] = 0xab;
    sealPage(p, 0, 512, 7, 3, 0x0102030405060708n);
    const hex = Buffer.from(p.subarray(4, 38)).toString('hex');
    expect(hex).toBe(
      '00000003' + '00000002' + '00000004' + '0102030405060708' + '45bf' + '0000000000000000' + '00000007',
    );
    const sum = crc32(p.subarray(4, 504)) >>> 0;
    expect(Buffer.from(p.subarray(0, 4)).readUInt32BE(0)).toBe(sum);
    expect(Buffer.from(p.subarray(504, 508)).readUInt32BE(0)).toBe(sum);
    expect(Buffer.from(p.subarray(508, 512)).toString('hex')).toBe('05060708');
    expect(getPageNo(p, 0)).toBe(3);
    expect(getPrevPage(p, 0)).toBe(2);
    expect(getNextPage(p, 0)).toBe(4);
    expect(getPageType(p, 0)).toBe(17855);
    expect(getSpaceId(p, 0)).toBe(7);
    expect(getPageLsn(p, 0)).toBe(0x0102030405060708n);
    expect(verifyPage(p, 0, 512, 7, 3)).toBeNull();
  });

  it('a fresh page links to FIL_NULL', () => {
    const p = new Uint8Array(512);
    initPage(p, 0, 512, 0, 9);
    expect(getPrevPage(p, 0)).toBe(FIL_NULL);
    expect(getNextPage(p, 0)).toBe(FIL_NULL);
  });

  it('verifyPage names the first field that differs; an all-zero page is sound', () => {
    const p = new Uint8Array(1024);
    expect(verifyPage(p, 0, 1024, 0, 5)).toBeNull();
    initPage(p, 0, 1024, 1, 5);
    sealPage(p, 0, 1024, 1, 5, 9n);
    expect(verifyPage(p, 0, 1024, 1, 6)).toBe('page number');
    expect(verifyPage(p, 0, 1024, 2, 5)).toBe('space id');
    p[100]! ^= 1;
    expect(verifyPage(p, 0, 1024, 1, 5)).toBe('checksum');
    p[100]! ^= 1;
    p[1020]! ^= 1;
    expect(verifyPage(p, 0, 1024, 1, 5)).toBe('trailer lsn');
    p[1020]! ^= 1;
    p[1016]! ^= 1;
    expect(verifyPage(p, 0, 1024, 1, 5)).toBe('trailer checksum');
  });
});

describe('corruption detection', () => {
  it('a flipped byte in the file is a CorruptionError naming the file and page, never data', () => {
    const path = join(dir, 'flip.ibd');
    const pool = new BufferPool({
      innodb_page_size: 1024,
      innodb_buffer_pool_size: 8 * 1024,
      device: new FileDevice(path, { pageSize: 1024, truncate: true }),
    });
    for (let i = 0; i < 4; i++) {
      const f = pool.allocatePage(0);
      pool.bytes[f * 1024 + FIL_PAGE_DATA] = i + 1;
      pool.unfix(f, 2);
    }
    pool.close();
    const raw = readFileSync(path);
    expect(raw.length).toBe(4096);
    const fd = openSync(path, 'r+');
    writeSync(fd, new Uint8Array([raw[2 * 1024 + 500]! ^ 0x10]), 0, 1, 2 * 1024 + 500);
    closeSync(fd);
    const again = new BufferPool({
      innodb_page_size: 1024,
      innodb_buffer_pool_size: 8 * 1024,
      device: new FileDevice(path, { pageSize: 1024 }),
    });
    const f1 = again.fix(0, 1, 1);
    expect(again.bytes[f1 * 1024 + FIL_PAGE_DATA]).toBe(2);
    again.unfix(f1, 1);
    let err: unknown;
    try {
      again.fix(0, 2, 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CorruptionError);
    const ce = err as CorruptionError;
    expect(ce.file).toBe(path);
    expect(ce.pageNo).toBe(2);
    expect(ce.reason).toBe('checksum');
    expect(ce.message).toContain(path);
    expect(ce.message).toContain('page 2');
    // The frame went back to the free list: nothing half-read stays in the pool.
    expect(again.peek(0, 2)).toBe(-1);
    again.checkValid();
    expect(() => again.fix(0, 2, 0)).toThrow(CorruptionError);
    again.close();
  });

  it('a page written under another number is detected', () => {
    const dev = new MemoryDevice({ pageSize: 512 });
    const p = new Uint8Array(512);
    initPage(p, 0, 512, 0, 0);
    sealPage(p, 0, 512, 0, 0, 1n);
    dev.writePage(0, p, 0);
    dev.writePage(1, p, 0); // page 0's image at position 1
    const pool = new BufferPool({ innodb_page_size: 512, innodb_buffer_pool_size: 4096, device: dev });
    pool.unfix(pool.fix(0, 0, 0), 0);
    expect(() => pool.fix(0, 1, 0)).toThrow(/page number mismatch/);
  });
});
