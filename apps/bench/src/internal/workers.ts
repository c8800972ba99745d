import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appRoot } from '../results-dir.js';

/**
 * Starts one of the app's worker scripts (`workers/<name>.mjs`, plain ESM that imports the
 * built packages, so the same file serves the CLI and the tests) and resolves with its first
 * message.
 */
export function startWorker<T>(name: string, workerData: unknown): { worker: Worker; result: Promise<T> } {
  const worker = new Worker(pathToFileURL(join(appRoot(), 'workers', `${name}.mjs`)), { workerData });
  const result = new Promise<T>((resolve, reject) => {
    worker.once('message', (m: T) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker ${name} exited with code ${code}`));
    });
  });
  return { worker, result };
}

/** Sleeps without blocking the event loop. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
