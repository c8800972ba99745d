import { Worker } from 'node:worker_threads';

const script = new URL('./worker-locks.mjs', import.meta.url);

/** Start one worker on a scenario; resolves with its message, rejects on error or after `boundMs`. */
export function spawn(
  workerData: Record<string, unknown>,
  boundMs = 20_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData });
    const timer = setTimeout(() => {
      void w.terminate();
      reject(new Error(`worker ${String(workerData.scenario)} did not finish within ${boundMs} ms`));
    }, boundMs);
    w.once('message', (m: Record<string, unknown>) => {
      clearTimeout(timer);
      resolve(m);
    });
    w.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** `n` workers on the same data. */
export function spawnMany(
  n: number,
  workerData: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  return Promise.all(Array.from({ length: n }, () => spawn(workerData)));
}
