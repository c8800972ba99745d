// Concurrency model test of the two write descents: four writer threads insert, delete and update
// random keys of one shared tree (1 KiB pages, a pool smaller than the tree, so leaves split and
// merge many times and pages are evicted under the writers) while a fifth thread only scans. Each
// writer owns the keys k ≡ id (mod 5) and keeps a model of them; the keys k ≡ 4 (mod 5) are
// loaded first and never written. Every thread checks its scans as it goes (test/fixtures/
// writer-worker.mjs); afterwards the tree must be valid and hold exactly the stable keys plus
// each writer's model, with the values last written. Seeded: each thread's operations are the
// same every run (their interleaving is not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteStats } from '../src/index.js';
import { buildTreeModule, runWorker, type TreeModule } from './support/tree-module.js';

const workerUrl = new URL('./fixtures/writer-worker.mjs', import.meta.url);
let m: TreeModule;
let moduleUrl = '';
let removeModule = (): void => {};

beforeAll(async () => {
  const built = await buildTreeModule('writers-test');
  m = built.module;
  moduleUrl = built.url;
  removeModule = built.remove;
});
afterAll(() => removeModule());

interface Result {
  role: 'writer' | 'reader';
  id: number;
  bad: string[];
  scans: number;
  writes: number;
  entries: [number, number[]][];
  stats: WriteStats;
}

const WRITERS = 4;
const STRIDE = WRITERS + 1;
const PER_WORKER = 1500;
const ITERATIONS = Number(process.env.WRITER_ITERATIONS ?? 12_000);

describe('writers in parallel on one tree', () => {
  it('4 writers (optimistic under the index latch S, pessimistic under X) and a scanner: the tree equals the model', async () => {
    const { BTree, BufferPool, KeyCodec, MemoryDevice, RWLock } = m;
    const codec = new KeyCodec([{ type: 'int32' }]);
    const PS = 1024;
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 120 * PS,
      freeWaitMs: 5000,
      device: new MemoryDevice({ pageSize: PS, maxPages: 4096 }),
    });
    const latch = new RWLock();
    const tree = BTree.create(pool, { indexLatch: latch });
    const stable = new Map<number, Uint8Array>();
    const loader = tree.bulkLoader({ innodb_fill_factor: 70 });
    for (let k = STRIDE - 1; k < STRIDE * PER_WORKER; k += STRIDE) {
      const v = Uint8Array.of(k & 255, (k >> 8) & 255, (k >> 16) & 255, 0);
      stable.set(k, v);
      loader.add(codec.encode([k]), v);
    }
    loader.finish();
    const common = {
      moduleUrl,
      pool: pool.descriptor(),
      latch: latch.descriptor(),
      rootPage: tree.rootPage,
      stride: STRIDE,
      perWorker: PER_WORKER,
      seed: 20261202,
    };
    const results = await Promise.all([
      ...Array.from({ length: WRITERS }, (_, id) =>
        runWorker<Result>(workerUrl, { ...common, role: 'writer', id, iterations: ITERATIONS }, 120_000),
      ),
      runWorker<Result>(workerUrl, { ...common, role: 'reader', id: 0, iterations: ITERATIONS / 8 }, 120_000),
    ]);
    for (const r of results) expect(r.bad).toEqual([]);
    tree.checkValid();

    const expected = new Map(stable);
    for (const r of results) for (const [k, v] of r.entries) expected.set(k, Uint8Array.from(v));
    const actual = new Map<number, Uint8Array>();
    for (const [k, v] of tree.entries()) actual.set(codec.decode(k)[0] as number, v);
    expect(actual.size).toBe(expected.size);
    expect([...actual.keys()]).toEqual([...expected.keys()].sort((a, b) => a - b));
    for (const [k, v] of expected) expect(actual.get(k), `key ${k}`).toEqual(v);

    // Both descents ran many times: most writes stayed on their leaf, and enough of them had to
    // split or merge to restart pessimistically hundreds of times.
    const writers = results.filter((r) => r.role === 'writer');
    const sum = (f: (s: WriteStats) => number): number => writers.reduce((a, r) => a + f(r.stats), 0);
    const optimistic = sum((s) => s.optimistic);
    const restarts = sum((s) => s.restarts);
    const pessimistic = sum((s) => s.pessimistic);
    // Every write that changed the tree went one of the two ways (a delete of an absent key
    // changes nothing and counts in neither).
    expect(optimistic + pessimistic - restarts).toBeLessThanOrEqual(
      writers.reduce((a, r) => a + r.writes, 0),
    );
    expect(pessimistic).toBeGreaterThanOrEqual(restarts);
    expect(optimistic).toBeGreaterThan(restarts);
    expect(restarts).toBeGreaterThan(200);
    for (const r of results) expect(r.scans).toBeGreaterThan(0);
    console.log(
      `writes ${writers.reduce((a, r) => a + r.writes, 0)}: optimistic ${optimistic}, restarted ${restarts}, pessimistic ${pessimistic}; ` +
        `scans ${results.reduce((a, r) => a + r.scans, 0)}; pool reads ${pool.stats().Innodb_buffer_pool_reads}`,
    );
    pool.close();
  });
});
