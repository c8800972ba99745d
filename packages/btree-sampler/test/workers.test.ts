// Worker threads share one BufferPool and one index latch: writers run under X, readers with page
// latches only (no index latch), pages are evicted and re-read underneath them. The tree must come out valid and hold exactly
// the shared keys plus each worker's surviving inserts.
//
// Both threads run one module built from src/ for this run by esbuild (the tree, the codec, and
// the buffer pool and lock from their packages), so the test never runs a stale dist/ and the
// main thread and the workers run the same code. A failed build fails the test.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Sampler from '../src/index.js';

type BufferPoolModule = typeof import('@enginekit/buffer-pool');
type LockModule = typeof import('@enginekit/mutex-atomics');
interface Built {
  BTree: typeof Sampler.BTree;
  KeyCodec: typeof Sampler.KeyCodec;
  BufferPool: BufferPoolModule['BufferPool'];
  FileDevice: BufferPoolModule['FileDevice'];
  RWLock: LockModule['RWLock'];
}

const pkg = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'btree-workers-'));
// Inside the package, so the module's imports of @enginekit/* resolve to the same packages.
const buildDir = join(pkg, 'node_modules', '.cache', `workers-test-${process.pid}`);
const moduleFile = join(buildDir, 'tree.mjs');
const moduleUrl = pathToFileURL(moduleFile).href;
const workerUrl = new URL('./fixtures/tree-worker.mjs', import.meta.url);
let m: Built;

beforeAll(async () => {
  mkdirSync(buildDir, { recursive: true });
  await build({
    stdin: {
      contents: [
        "export { BTree, KeyCodec } from './src/index.ts';",
        "export { BufferPool, FileDevice } from '@enginekit/buffer-pool';",
        "export { RWLock } from '@enginekit/mutex-atomics';",
      ].join('\n'),
      resolveDir: pkg,
      loader: 'ts',
    },
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: moduleFile,
    logLevel: 'silent',
  });
  m = (await import(moduleUrl)) as Built;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(buildDir, { recursive: true, force: true });
});

interface Result {
  mine: number[];
  bad: string[];
  reads: number;
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

describe('worker threads on one tree', () => {
  it('3 workers: writers under the index latch X, gets, scans and backward cursors with page latches only, 40-frame pool', async () => {
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
