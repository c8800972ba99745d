import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageDevice } from '../src/index.js';
import {
  DISK_PROFILES,
  FaultDevice,
  FaultPlan,
  FileDevice,
  MemoryDevice,
  openDevice,
  SimulatedDevice,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'bp-dev-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function page(ps: number, v: number): Uint8Array {
  return new Uint8Array(ps).fill(v);
}

/** One property suite for every device. */
const makers: [string, () => PageDevice][] = [
  ['MemoryDevice (growable)', () => new MemoryDevice({ pageSize: 512 })],
  ['MemoryDevice (shared)', () => new MemoryDevice({ pageSize: 512, maxPages: 64 })],
  ['FileDevice', () => new FileDevice(join(dir, `d${Math.random()}.ibd`), { pageSize: 512 })],
  ['SimulatedDevice(hdd, memory)', () => new SimulatedDevice(new MemoryDevice({ pageSize: 512 }), 'hdd')],
  [
    'FaultDevice (no crash, memory)',
    () => new FaultDevice(new MemoryDevice({ pageSize: 512 }), new FaultPlan()),
  ],
];

describe.each(makers)('%s', (_name, make) => {
  it('writes pages, grows, reads runs back', () => {
    const d = make();
    expect(d.size()).toBe(0);
    for (let i = 0; i < 40; i++) d.writePage(i, page(512, i + 1), 0);
    expect(d.size()).toBe(40);
    d.writePage(3, page(512, 99), 0);
    const out = new Uint8Array(512 * 5 + 7);
    d.readPages(2, 5, out, 7);
    expect(out[7]).toBe(3);
    expect(out[7 + 512]).toBe(99);
    expect(out[7 + 4 * 512 + 511]).toBe(7);
    d.sync();
    expect(() => d.readPages(38, 3, out, 0)).toThrow(RangeError);
    d.close();
  });

  it('rejects bad arguments with the argument named', () => {
    const d = make();
    expect(() => d.writePage(-1, page(512, 0), 0)).toThrow(/pageNo/);
    expect(() => d.readPages(0, 0, new Uint8Array(512), 0)).toThrow(/count/);
    d.close();
  });
});

describe('FileDevice.writePages', () => {
  it('writes a run in one request, exactly as page-by-page writes of the same bytes', () => {
    const a = new FileDevice(join(dir, `run${Math.random()}.ibd`), { pageSize: 512 });
    const b = new FileDevice(join(dir, `one${Math.random()}.ibd`), { pageSize: 512 });
    const src = new Uint8Array(9 + 512 * 6);
    for (let i = 0; i < src.length; i++) src[i] = (i * 31) & 255;
    a.writePages(2, 6, src, 9);
    for (let i = 0; i < 6; i++) b.writePage(2 + i, src, 9 + i * 512);
    expect(a.size()).toBe(8);
    expect(b.size()).toBe(8);
    const x = new Uint8Array(512 * 8);
    const y = new Uint8Array(512 * 8);
    a.readPages(0, 8, x, 0);
    b.readPages(0, 8, y, 0);
    expect(Buffer.compare(x, y)).toBe(0);
    // inside the file: the size stays; no pages: nothing changes
    a.writePages(0, 1, src, 0);
    a.writePages(7, 0, src, 0);
    expect(a.size()).toBe(8);
    expect(() => a.writePages(-1, 1, src, 0)).toThrow(/pageNo/);
    expect(() => a.writePages(0, 1.5, src, 0)).toThrow(/count/);
    a.close();
    b.close();
  });
});

describe('descriptors', () => {
  it('a shared memory device opened from its descriptor sees the same pages', () => {
    const a = new MemoryDevice({ pageSize: 512, maxPages: 8, name: 'm' });
    a.writePage(2, page(512, 5), 0);
    const b = openDevice(a.descriptor()!);
    expect(b.size()).toBe(3);
    b.writePage(5, page(512, 6), 0);
    expect(a.size()).toBe(6);
    const out = new Uint8Array(512);
    a.readPages(5, 1, out, 0);
    expect(out[0]).toBe(6);
    expect(() => a.writePage(8, page(512, 1), 0)).toThrow(/capacity/);
    expect(new MemoryDevice().descriptor()).toBeNull();
  });

  it('a file device reopened from its descriptor has its own handle', () => {
    const path = join(dir, 'desc.ibd');
    const a = new FileDevice(path, { pageSize: 512 });
    a.writePage(0, page(512, 1), 0);
    const b = openDevice(a.descriptor());
    b.writePage(1, page(512, 2), 0);
    const out = new Uint8Array(512);
    a.readPages(1, 1, out, 0); // a refreshes its size
    expect(out[0]).toBe(2);
    a.close();
    b.close();
  });
});

describe('SimulatedDevice cost model', () => {
  it('hdd: positioning = 10 ms + half a turn at 5400 rpm; 16 KiB at 100 MB/s', () => {
    const d = new SimulatedDevice(new MemoryDevice({ pageSize: 16384 }), 'hdd');
    for (let i = 0; i < 100; i++) d.writePage(i, page(16384, 0), 0);
    const pageMs = (16384 / 100e6) * 1000; // 0.16384 ms
    const positionMs = 10 + 30000 / 5400; // 15.5556 ms
    // 100 sequential writes: one positioning.
    expect(d.stats().modeledMs).toBeCloseTo(positionMs + 100 * pageMs, 9);
    expect(d.stats().positionings).toBe(1);
    d.resetStats();
    const buf = new Uint8Array(16384 * 64);
    d.readPages(0, 64, buf, 0); // head is at 100: positioning + 64 transfers
    d.readPages(64, 10, buf, 0); // continues where the last ended: transfer only
    d.readPages(10, 1, buf, 0); // random: positioning
    const s = d.stats();
    expect(s.readRequests).toBe(3);
    expect(s.pagesRead).toBe(75);
    expect(s.bytesRead).toBe(75 * 16384);
    expect(s.positionings).toBe(2);
    expect(s.modeledMs).toBeCloseTo(2 * positionMs + 75 * pageMs, 9);
  });

  it('a custom profile may charge a fixed cost per request', () => {
    const d = new SimulatedDevice(new MemoryDevice({ pageSize: 4096 }), {
      name: 'cmd',
      seekMs: 1,
      rpm: 0,
      transferMBps: 4.096,
      requestMs: 0.5,
    });
    for (let i = 0; i < 4; i++) d.writePage(i, page(4096, 1), 0); // 1 positioning, 4 requests
    expect(d.stats().modeledMs).toBeCloseTo(1 + 4 * 0.5 + 4 * 1, 9);
    expect(() => new SimulatedDevice(new MemoryDevice(), { ...DISK_PROFILES.hdd, requestMs: -1 })).toThrow(
      /profile.requestMs/,
    );
  });

  it('flash profiles have no rotation; custom profiles are checked', () => {
    const d = new SimulatedDevice(new MemoryDevice({ pageSize: 4096 }), DISK_PROFILES.nvme);
    d.writePage(7, page(4096, 1), 0);
    expect(d.stats().modeledMs).toBeCloseTo(0.02 + (4096 / 3e9) * 1000, 12);
    expect(
      () => new SimulatedDevice(new MemoryDevice(), { name: 'x', seekMs: -1, rpm: 0, transferMBps: 1 }),
    ).toThrow(/profile.seekMs/);
    expect(() => new SimulatedDevice(new MemoryDevice(), 'floppy' as 'hdd')).toThrow(/profile/);
  });
});
