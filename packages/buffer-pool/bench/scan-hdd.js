// Modeled device time of a full scan of linked 16 KiB pages through the pool, with and without
// linear read-ahead, on each disk profile: alone, interleaved with one random lookup per scanned
// page (another query moving the head), and the same pages fixed in random order.
import { BufferPool, SimulatedDevice } from '../dist/index.js';
import { deviceWithPages } from './pages.js';

const PS = 16384;

export function runScan({ pages = 4096 } = {}) {
  const inner = deviceWithPages(2 * pages, PS, { linked: true });
  const order = Uint32Array.from({ length: pages }, (_, i) => i);
  let x = 88172645;
  for (let i = pages - 1; i > 0; i--) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    const j = x % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const rows = [];
  for (const profile of ['hdd', 'ssd', 'nvme']) {
    for (const [label, ra, pattern] of [
      ['scan, linear read-ahead', true, 'seq'],
      ['scan, no read-ahead', false, 'seq'],
      ['scan + 1 random lookup per page, linear read-ahead', true, 'mixed'],
      ['scan + 1 random lookup per page, no read-ahead', false, 'mixed'],
      ['same pages in random order', false, 'random'],
    ]) {
      const disk = new SimulatedDevice(inner, profile);
      const pool = new BufferPool({
        innodb_page_size: PS,
        innodb_buffer_pool_size: 2048 * PS,
        linearReadAhead: ra,
        device: disk,
      });
      for (let i = 0; i < pages; i++) {
        const p = pattern === 'random' ? order[i] : i;
        pool.unfix(pool.fix(0, p, 1), 1);
        // The lookups hit the other half of the file, in no order.
        if (pattern === 'mixed') pool.unfix(pool.fix(0, pages + order[i], 1), 1);
      }
      const d = disk.stats();
      const s = pool.stats();
      rows.push({
        profile,
        label,
        modeledMs: d.modeledMs,
        requests: d.readRequests,
        positionings: d.positionings,
        readAhead: s.Innodb_buffer_pool_read_ahead,
        reads: s.Innodb_buffer_pool_reads,
      });
    }
  }
  return rows;
}
