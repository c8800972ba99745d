// Page latches, atomics rw-lock vs MySQL 5.1's (latches: 'atomic' | 'legacy'), with N workers
// fixing random pages of a small hot set: every 8th fix takes an X latch, the rest S, so readers
// and writers meet on the same latches. Throughput and the pool's rw-lock spin / OS waits.
import { BufferPool } from '../dist/index.js';
import { runFixWorkers } from './fix-workers.js';
import { deviceWithPages } from './pages.js';

const PS = 4096;
const FRAMES = 256;

async function once(latches, workers, durationMs, device, pages) {
  const pool = new BufferPool({
    latches,
    innodb_page_size: PS,
    innodb_buffer_pool_size: FRAMES * PS,
    device,
  });
  for (let p = 0; p < pages; p++) pool.unfix(pool.fix(0, p, 0), 0);
  pool.resetStats();
  const before = pool.latchStats();
  const results = await runFixWorkers(pool, {
    workers,
    pages,
    durationMs,
    seed: 11,
    exclusiveEvery: 8,
    settleMs: 300,
  });
  const ops = results.reduce((a, r) => a + r.ops, 0);
  const l = pool.latchStats();
  pool.checkValid();
  return {
    latches,
    workers,
    mops: ops / durationMs / 1000,
    sSpins: l.rwShared.spinWaits - before.rwShared.spinWaits,
    xSpins: l.rwExcl.spinWaits - before.rwExcl.spinWaits,
    osWaits: l.rwShared.osWaits + l.rwExcl.osWaits - before.rwShared.osWaits - before.rwExcl.osWaits,
    mutexSpins: l.mutex.spinWaits - before.mutex.spinWaits,
  };
}

/** 16 hot pages, 1–32 workers, each kind of latch in turn. */
export async function runLatches({
  durationMs = 1000,
  workerCounts = [1, 2, 4, 8, 16, 32],
  pages = 16,
} = {}) {
  const device = deviceWithPages(pages, PS, { shared: true });
  const rows = [];
  for (const workers of workerCounts) {
    for (const latches of ['atomic', 'legacy'])
      rows.push(await once(latches, workers, durationMs, device, pages));
  }
  return rows;
}
