import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { lib } from './built.js';
import { deviceWithPages } from './helpers/pages.js';

// The workers run dist/; so does this side (the global setup rebuilt it from src/).
const { BufferPool, FileDevice } = lib;
type BufferPool = InstanceType<typeof BufferPool>;

const PS = 1024;
const PAGES = 200;
const dir = mkdtempSync(join(tmpdir(), 'bp-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const workerUrl = new URL('./fixtures/pool-worker.mjs', import.meta.url);

interface Result {
  fixes: number;
  updates: number;
  bad: string[];
}

function runWorker(data: unknown): Promise<Result> {
  return new Promise((resolve, reject) => {
    const w = new Worker(workerUrl, { workerData: data });
    const timer = setTimeout(() => {
      void w.terminate();
      reject(new Error('worker did not finish within 40 s'));
    }, 40_000);
    w.once('message', (m: Result) => {
      clearTimeout(timer);
      resolve(m);
    });
    w.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Writes page i with body (i, version 0, pattern) through a pool, then flushes. */
function seed(pool: BufferPool): void {
  for (let i = 0; i < PAGES; i++) {
    const f = pool.allocatePage(0);
    const o = f * PS;
    const dv = new DataView(pool.bytes.buffer, pool.bytes.byteOffset + o, PS);
    dv.setUint32(38, i);
    dv.setUint32(42, 0);
    for (let k = 46; k < PS - 8; k++) pool.bytes[o + k] = (i + k) & 0xff;
    pool.markDirty(f);
    pool.unfix(f, 2);
  }
  expect(pool.flushAll()).toBe(0);
}

describe('real worker threads on one pool', () => {
  for (const [workers, instances, latches] of [
    [2, 1, 'atomic'],
    [4, 3, 'atomic'],
    [3, 2, 'legacy'],
  ] as const) {
    it(`${workers} workers, ${instances} instance(s), ${latches} latches, 24 frames, ${PAGES} pages: no torn or wrong page, no lost update`, async () => {
      const path = join(dir, `w${workers}-${latches}.ibd`);
      const pool = new BufferPool({
        latches,
        innodb_page_size: PS,
        innodb_buffer_pool_size: 24 * PS,
        innodb_buffer_pool_instances: instances,
        freeWaitMs: 5000,
        device: new FileDevice(path, { pageSize: PS, truncate: true }),
      });
      seed(pool);
      pool.resetStats();
      const iterations = 4000;
      const results = await Promise.all(
        Array.from({ length: workers }, (_, i) =>
          runWorker({
            desc: pool.descriptor(),
            seed: 12345 + i * 7919,
            iterations,
            pages: PAGES,
            writeEvery: 4,
          }),
        ),
      );
      for (const r of results) expect(r.bad).toEqual([]);
      const fixes = results.reduce((a, r) => a + r.fixes, 0);
      const updates = results.reduce((a, r) => a + r.updates, 0);
      expect(fixes).toBe(workers * iterations);
      pool.checkValid();
      const s = pool.stats();
      expect(s.Innodb_buffer_pool_read_requests).toBe(fixes);
      expect(s.Innodb_buffer_pool_write_requests).toBe(updates);
      expect(s.Innodb_buffer_pool_reads).toBeGreaterThan(0); // 24 frames for 120 pages: evictions
      expect(s.Innodb_pages_read).toBe(s.Innodb_buffer_pool_reads + s.Innodb_buffer_pool_read_ahead);
      expect(s.Innodb_buffer_pool_pages_data + s.Innodb_buffer_pool_pages_free).toBe(
        s.Innodb_buffer_pool_pages_total,
      );
      for (let i = 0; i < instances; i++)
        expect(pool.instanceStats(i).Innodb_buffer_pool_pages_total).toBe(8 * (3 / instances));
      expect(pool.flushAll()).toBe(0);
      // Reopen the file in a fresh pool: the versions add up to every update made.
      pool.close();
      const again = new BufferPool({
        innodb_page_size: PS,
        innodb_buffer_pool_size: 8 * PS,
        device: new FileDevice(path, { pageSize: PS }),
      });
      let versions = 0;
      for (let i = 0; i < PAGES; i++) {
        const f = again.fix(0, i, 1);
        const dv = new DataView(again.bytes.buffer, again.bytes.byteOffset + f * PS, PS);
        expect(dv.getUint32(38)).toBe(i);
        const v = dv.getUint32(42);
        versions += v;
        expect(again.bytes[f * PS + 100]).toBe((i + v + 100) & 0xff);
        again.unfix(f, 1);
      }
      expect(versions).toBe(updates);
      again.close();
    });
  }

  it('4 workers racing for the same pages of a pool that holds them all: each page is read once', async () => {
    const path = join(dir, 'once.ibd');
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 24 * PS,
      device: new FileDevice(path, { pageSize: PS, truncate: true }),
    });
    seed(pool);
    pool.close();
    const big = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 256 * PS,
      linearReadAhead: false,
      device: new FileDevice(path, { pageSize: PS }),
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        runWorker({
          desc: big.descriptor(),
          seed: 99 + i,
          iterations: 3000,
          pages: PAGES,
          writeEvery: 1 << 30,
        }),
      ),
    );
    for (const r of results) expect(r.bad).toEqual([]);
    const s = big.stats();
    expect(s.Innodb_buffer_pool_read_requests).toBe(4 * 3000);
    // Two workers that miss the same page: one reads, the other waits on the I/O-in-progress word.
    expect(s.Innodb_pages_read).toBe(s.Innodb_buffer_pool_pages_data);
    expect(s.Innodb_buffer_pool_reads).toBe(s.Innodb_buffer_pool_pages_data);
    expect(s.Innodb_buffer_pool_pages_data).toBeGreaterThan(PAGES * 0.9);
    big.checkValid();
    big.close();
  });

  it('4 workers scanning linked pages with linear and random read-ahead on a small shared pool', async () => {
    const pages = 4096;
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 1024 * PS, // 2 instances of 512 frames: read-ahead area 16
      innodb_buffer_pool_instances: 2,
      innodb_random_read_ahead: true,
      freeWaitMs: 5000,
      device: deviceWithPages(pages, PS, { linked: true, shared: true, lib }),
    });
    expect(pool.readAheadArea).toBe(16);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        runWorker({
          desc: pool.descriptor(),
          seed: 7 + i,
          iterations: 3000,
          pages,
          writeEvery: 1 << 30,
          scan: 40,
          pattern: false,
        }),
      ),
    );
    for (const r of results) expect(r.bad).toEqual([]);
    const s = pool.stats();
    expect(s.Innodb_buffer_pool_read_requests).toBe(4 * 3000);
    expect(s.Innodb_buffer_pool_read_ahead).toBeGreaterThan(0);
    expect(s.Innodb_buffer_pool_read_ahead_rnd).toBeGreaterThan(0);
    expect(s.Innodb_pages_read).toBe(s.Innodb_buffer_pool_reads + s.Innodb_buffer_pool_read_ahead);
    pool.checkValid();
  });
});
