// Hit path: fix + unfix of cached pages vs lru-cache get / set, with benny. LOOP ops per call.
import b from 'benny';
import { LRUCache } from 'lru-cache';
import { BufferPool } from '../dist/index.js';
import { deviceWithPages } from './pages.js';

const LOOP = 1000;
const PAGES = 1000;

export async function runHitPath() {
  const pool = new BufferPool({
    innodb_page_size: 4096,
    innodb_buffer_pool_size: 2048 * 4096,
    device: deviceWithPages(PAGES, 4096),
  });
  const pool8 = new BufferPool({
    innodb_page_size: 4096,
    innodb_buffer_pool_size: 2048 * 4096,
    innodb_buffer_pool_instances: 8,
    device: deviceWithPages(PAGES, 4096),
  });
  // Shared: once descriptor() is taken, fix counts and latches use atomics.
  const shared = new BufferPool({
    innodb_page_size: 4096,
    innodb_buffer_pool_size: 2048 * 4096,
    device: deviceWithPages(PAGES, 4096),
  });
  shared.descriptor();
  const cache = new LRUCache({ max: 2048 });
  const keys = new Uint32Array(4096);
  let x = 2463534242;
  for (let i = 0; i < keys.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    keys[i] = x % PAGES;
  }
  for (let p = 0; p < PAGES; p++) {
    pool.unfix(pool.fix(0, p, 0), 0);
    pool8.unfix(pool8.fix(0, p, 0), 0);
    shared.unfix(shared.fix(0, p, 0), 0);
    cache.set(p, p);
  }
  let k = 0;
  let sink = 0;
  const rows = [];
  await b.suite(
    'hit path',
    b.add('BufferPool fix + unfix, no latch', () => {
      for (let i = 0; i < LOOP; i++) {
        const f = pool.fix(0, keys[k++ & 4095], 0);
        pool.unfix(f, 0);
      }
    }),
    b.add('BufferPool fix + unfix, S latch', () => {
      for (let i = 0; i < LOOP; i++) {
        const f = pool.fix(0, keys[k++ & 4095], 1);
        pool.unfix(f, 1);
      }
    }),
    b.add('BufferPool (8 instances) fix + unfix, S latch', () => {
      for (let i = 0; i < LOOP; i++) {
        const f = pool8.fix(0, keys[k++ & 4095], 1);
        pool8.unfix(f, 1);
      }
    }),
    b.add('BufferPool shared (atomics) fix + unfix, S latch', () => {
      for (let i = 0; i < LOOP; i++) {
        const f = shared.fix(0, keys[k++ & 4095], 1);
        shared.unfix(f, 1);
      }
    }),
    b.add('BufferPool fix + read a byte of the page + unfix, S latch', () => {
      for (let i = 0; i < LOOP; i++) {
        const f = pool.fix(0, keys[k++ & 4095], 1);
        sink += pool.bytes[f * 4096 + 41];
        pool.unfix(f, 1);
      }
    }),
    b.add('lru-cache get (hit)', () => {
      for (let i = 0; i < LOOP; i++) sink += cache.get(keys[k++ & 4095]);
    }),
    b.add('lru-cache set (update)', () => {
      for (let i = 0; i < LOOP; i++) cache.set(keys[k++ & 4095], i);
    }),
    b.cycle(() => {}),
    b.complete((summary) => {
      for (const r of summary.results) rows.push({ name: r.name, opsPerSec: r.ops * LOOP, margin: r.margin });
    }),
  );
  if (sink === -1) console.log(sink);
  if (pool.stats().Innodb_buffer_pool_reads !== PAGES) throw new Error('hit path bench saw misses');
  return rows;
}
