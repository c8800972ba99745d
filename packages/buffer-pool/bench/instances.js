// 1 vs 8 buffer-pool instances with N workers fixing random cached pages: throughput and the
// instance mutexes' spin / OS waits (from the pool's shared latch counters).
import { BufferPool } from '../dist/index.js';
import { runFixWorkers } from './fix-workers.js';
import { deviceWithPages } from './pages.js';

const PS = 4096;
const FRAMES = 2048;

async function once(instances, workers, durationMs, device, PAGES) {
  const pool = new BufferPool({
    innodb_page_size: PS,
    innodb_buffer_pool_size: FRAMES * PS,
    innodb_buffer_pool_instances: instances,
    device,
  });
  for (let p = 0; p < Math.min(PAGES, FRAMES); p++) pool.unfix(pool.fix(0, p, 0), 0);
  pool.resetStats();
  const results = await runFixWorkers(pool, { workers, pages: PAGES, durationMs, seed: 7 });
  const ops = results.reduce((a, r) => a + r.ops, 0);
  const latch = pool.latchStats();
  const s = pool.stats();
  return {
    pages: PAGES,
    hitRatio: 1 - s.Innodb_buffer_pool_reads / s.Innodb_buffer_pool_read_requests,
    instances,
    workers,
    mops: ops / durationMs / 1000,
    spinWaits: latch.mutex.spinWaits,
    osWaits: latch.mutex.osWaits,
    rwSpinWaits: latch.rwShared.spinWaits,
  };
}

/** Two working sets: 1,024 pages (all hits) and 8,192 pages on 2,048 frames (mostly misses). */
export async function runInstances({ durationMs = 1000, workerCounts = [2, 4] } = {}) {
  const device = deviceWithPages(8192, PS, { shared: true });
  const rows = [];
  for (const pages of [1024, 8192]) {
    for (const workers of workerCounts) {
      for (const instances of [1, 8]) rows.push(await once(instances, workers, durationMs, device, pages));
    }
  }
  return rows;
}
