import { describe, expect, it } from 'vitest';
import { BufferPool, SimulatedDevice } from '../src/index.js';
import { deviceWithPages } from './helpers/pages.js';

const PS = 512;

function scan(pool: BufferPool, from: number, to: number, step = 1): void {
  for (let p = from; p !== to; p += step) {
    const f = pool.fix(0, p, 1);
    expect(new DataView(pool.bytes.buffer, pool.bytes.byteOffset + f * PS + 38, 4).getUint32(0)).toBe(p);
    pool.unfix(f, 1);
  }
}

describe('read-ahead area', () => {
  it('is min(64, the power of two ≥ curr_size/32) per instance', () => {
    const area = (frames: number, instances = 1): number =>
      new BufferPool({
        innodb_page_size: PS,
        innodb_buffer_pool_size: frames * PS,
        innodb_buffer_pool_instances: instances,
      }).readAheadArea;
    expect(area(2048)).toBe(64);
    expect(area(100000)).toBe(64);
    expect(area(1000)).toBe(32); // 1000/32 = 31 → 32
    expect(area(256)).toBe(8);
    expect(area(16)).toBe(1);
    expect(area(4096, 4)).toBe(32);
  });
});

describe('linear read-ahead', () => {
  it('an ascending scan of linked pages reads every area after the first ahead', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      device: deviceWithPages(640, PS, { linked: true }),
    });
    scan(pool, 0, 640);
    const s = pool.stats();
    // Area 0 is read page by page; its last page (63) triggers reading area 1, and so on; the
    // last area's successor lies past the end of the space.
    expect(s.Innodb_buffer_pool_read_requests).toBe(640);
    expect(s.Innodb_buffer_pool_reads).toBe(64);
    expect(s.Innodb_buffer_pool_read_ahead).toBe(9 * 64);
    expect(s.Innodb_pages_read).toBe(640);
    expect(s.Innodb_data_reads).toBe(64 + 9); // one request per read-ahead area
    expect(s.Innodb_buffer_pool_read_ahead_evicted).toBe(0);
    pool.checkValid();
  });

  it('a descending scan reads the previous areas', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      device: deviceWithPages(640, PS, { linked: true }),
    });
    scan(pool, 639, -1, -1);
    const s = pool.stats();
    expect(s.Innodb_buffer_pool_reads).toBe(64);
    expect(s.Innodb_buffer_pool_read_ahead).toBe(9 * 64);
  });

  it('does nothing without prev/next links, when switched off, or when the area was accessed out of order', () => {
    const unlinked = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      device: deviceWithPages(256),
    });
    scan(unlinked, 0, 256);
    expect(unlinked.stats().Innodb_buffer_pool_read_ahead).toBe(0);
    const off = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      linearReadAhead: false,
      device: deviceWithPages(256, PS, { linked: true }),
    });
    scan(off, 0, 256);
    expect(off.stats().Innodb_buffer_pool_read_ahead).toBe(0);
    // Pages 0..62 of area 0 only every other one, then 63: 32 missing > 8 tolerated failures.
    const sparse = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      device: deviceWithPages(256, PS, { linked: true }),
    });
    scan(sparse, 0, 64, 2);
    scan(sparse, 63, 64);
    expect(sparse.stats().Innodb_buffer_pool_read_ahead).toBe(0);
    // innodb_read_ahead_threshold 0 tolerates 64 failures: the same pattern reads ahead.
    const loose = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      innodb_read_ahead_threshold: 0,
      device: deviceWithPages(256, PS, { linked: true }),
    });
    scan(loose, 0, 64, 2);
    scan(loose, 63, 64);
    expect(loose.stats().Innodb_buffer_pool_read_ahead).toBe(64);
  });

  it('read-ahead pages that are never accessed count as evicted when they leave', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      device: deviceWithPages(8192, PS, { linked: true }),
    });
    scan(pool, 0, 64); // reads area 1 ahead, never touched
    expect(pool.stats().Innodb_buffer_pool_read_ahead).toBe(64);
    scan(pool, 2048, 8192, 3); // 2,048 pages in no linear order push everything out
    expect(pool.peek(0, 64)).toBe(-1);
    expect(pool.stats().Innodb_buffer_pool_read_ahead_evicted).toBe(64);
  });

  it('turns a scan on the simulated HDD into few long requests', () => {
    const model = (ra: boolean): number => {
      const disk = new SimulatedDevice(deviceWithPages(1024, PS, { linked: true }), 'hdd');
      const pool = new BufferPool({
        innodb_page_size: PS,
        innodb_buffer_pool_size: 2048 * PS,
        linearReadAhead: ra,
        device: disk,
      });
      disk.resetStats();
      scan(pool, 0, 1024);
      return disk.stats().readRequests;
    };
    expect(model(false)).toBe(1024);
    expect(model(true)).toBe(64 + 15);
  });
});

describe('random read-ahead', () => {
  it('after a miss, reads the rest of the area if 5 + area/8 = 13 of its pages are recently accessed', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 2048 * PS,
      innodb_random_read_ahead: true,
      device: deviceWithPages(256),
    });
    for (const p of [5, 9, 2, 30, 17, 40, 22, 11, 50, 33, 7, 60, 44]) pool.unfix(pool.fix(0, p, 0), 0);
    // The page just read is not accessed yet when buf_read_ahead_random counts (it runs right after
    // the synchronous read), so the 13th miss sees 12 and the 14th sees 13.
    expect(pool.stats().Innodb_buffer_pool_read_ahead_rnd).toBe(0);
    pool.unfix(pool.fix(0, 63, 0), 0);
    const s = pool.stats();
    expect(s.Innodb_buffer_pool_read_ahead_rnd).toBe(64 - 14);
    expect(s.Innodb_buffer_pool_reads).toBe(64); // random read-ahead adds to _reads, as in InnoDB
    expect(s.Innodb_buffer_pool_read_ahead).toBe(0);
    for (let p = 0; p < 64; p++) expect(pool.peek(0, p)).toBeGreaterThanOrEqual(0);
    pool.checkValid();
  });
});
