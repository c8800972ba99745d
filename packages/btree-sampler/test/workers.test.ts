// Worker threads share one BufferPool and one index latch: writers take it (S for a change that
// fits the leaf, X for a split or merge), readers use page latches only (no index latch), pages are
// evicted and re-read underneath them. The tree must come out valid and hold exactly
// the shared keys plus each worker's surviving inserts.
//
// Both threads run one module built from src/ for this run (test/support/tree-module.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTreeModule, runWorker as run, type TreeModule } from './support/tree-module.js';

const dir = mkdtempSync(join(tmpdir(), 'btree-workers-'));
const workerUrl = new URL('./fixtures/tree-worker.mjs', import.meta.url);
let m: TreeModule;
let moduleUrl = '';
let removeModule = (): void => {};

beforeAll(async () => {
  const built = await buildTreeModule('workers-test');
  m = built.module;
  moduleUrl = built.url;
  removeModule = built.remove;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeModule();
});

interface Result {
  mine: number[];
  bad: string[];
  reads: number;
}

const runWorker = (data: unknown): Promise<Result> => run<Result>(workerUrl, data, 40_000);

describe('worker threads on one tree', () => {
  it('3 workers: writers under the index latch, gets, scans and backward cursors with page latches only, 40-frame pool', async () => {
    const { BTree, BufferPool, FileDevice, KeyCodec, RWLock } = m;
    const codec = new KeyCodec([{ type: 'int32' }]);
    const PS = 1024;
    const path = join(dir, 'tree.ibd');
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 40 * PS,
      freeWaitMs: 5000,
      device: new FileDevice(path, { pageSize: PS, truncate: true }),
    });
    const latch = new RWLock();
    const tree = BTree.create(pool, { indexLatch: latch });
    const shared = 3000;
    const loader = tree.bulkLoader({ innodb_fill_factor: 80 });
    for (let k = 0; k < shared; k++)
      loader.add(codec.encode([k]), Uint8Array.of(k & 255, (k >> 8) & 255, (k >> 16) & 255, 7));
    loader.finish();
    pool.flushAll();
    const workers = 3;
    const results = await Promise.all(
      Array.from({ length: workers }, (_, id) =>
        runWorker({
          moduleUrl,
          pool: pool.descriptor(),
          latch: latch.descriptor(),
          rootPage: tree.rootPage,
          id,
          workers,
          iterations: Number(process.env.WORKER_ITERATIONS ?? 1500),
          shared,
        }),
      ),
    );
    for (const r of results) expect(r.bad).toEqual([]);
    const st = tree.checkValid();
    const expected = shared + results.reduce((a, r) => a + r.mine.length, 0);
    expect(st.records).toBe(expected);
    for (const r of results) for (const k of r.mine) expect(tree.has(codec.encode([k]))).toBe(true);
    expect(pool.stats().Innodb_buffer_pool_reads).toBeGreaterThan(0);
    pool.close();
  });
});
