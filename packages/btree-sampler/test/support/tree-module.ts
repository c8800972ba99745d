// The module worker-thread tests load in every thread: the tree and the codec built from src/ by
// esbuild for this run, with the buffer pool and the lock from their packages, so a test never
// runs a stale dist/ and the main thread and the workers run the same code. A failed build fails
// the test. Also a helper that runs one worker and waits for its one message.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import type * as Sampler from '../../src/index.js';

type BufferPoolModule = typeof import('@enginekit/buffer-pool');
type LockModule = typeof import('@enginekit/mutex-atomics');

export interface TreeModule {
  BTree: typeof Sampler.BTree;
  KeyCodec: typeof Sampler.KeyCodec;
  BufferPool: BufferPoolModule['BufferPool'];
  FileDevice: BufferPoolModule['FileDevice'];
  MemoryDevice: BufferPoolModule['MemoryDevice'];
  RWLock: LockModule['RWLock'];
}

const pkg = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Build the module into the package's node_modules cache (inside the package, so its imports of
 * @enginekit/* resolve to the same packages) under `name`, load it, and return it with its URL
 * (for the workers) and a cleanup function.
 */
export async function buildTreeModule(
  name: string,
): Promise<{ module: TreeModule; url: string; remove: () => void }> {
  const dir = join(pkg, 'node_modules', '.cache', `${name}-${process.pid}`);
  const file = join(dir, 'tree.mjs');
  mkdirSync(dir, { recursive: true });
  await build({
    stdin: {
      contents: [
        "export { BTree, KeyCodec } from './src/index.ts';",
        "export { BufferPool, FileDevice, MemoryDevice } from '@enginekit/buffer-pool';",
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
    outfile: file,
    logLevel: 'silent',
  });
  const url = pathToFileURL(file).href;
  const module = (await import(url)) as TreeModule;
  return { module, url, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Run the worker script at `script` with `data`; resolves with its one message. */
export function runWorker<T>(script: URL, data: unknown, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: data });
    const timer = setTimeout(() => {
      void w.terminate();
      reject(new Error(`worker did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    w.once('message', (m: T) => {
      clearTimeout(timer);
      resolve(m);
    });
    w.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
