import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lib } from './built.js';

const { mutexInit, rwInit, X_LOCK_DECR } = lib;

const script = new URL('./worker-functional.mjs', import.meta.url);

function run(workerData: Record<string, unknown>, n: number): Promise<undefined[]> {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<undefined>((resolve, reject) => {
          const w = new Worker(script, { workerData });
          const timer = setTimeout(() => {
            void w.terminate();
            reject(new Error('worker did not finish within 15 s'));
          }, 15_000);
          w.once('message', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
          w.once('error', (e) => {
            clearTimeout(timer);
            reject(e);
          });
        }),
    ),
  );
}

describe('functional layer with real worker threads', () => {
  it('mutex: 4 workers x 20000 non-atomic increments give the exact total', async () => {
    const buffer = new SharedArrayBuffer(16 * 4);
    const a = new Int32Array(buffer);
    mutexInit(a, 0);
    await run({ buffer, mode: 'mutex', iterations: 20_000 }, 4);
    expect(a[8]).toBe(80_000);
    expect(a[0]).toBe(0);
  });

  it('rw-lock: 4 workers, 1 write in 10: writers exclusive, exact write count', async () => {
    const buffer = new SharedArrayBuffer(16 * 4);
    const a = new Int32Array(buffer);
    rwInit(a, 0);
    await run({ buffer, mode: 'rw', iterations: 20_000, writeEvery: 10 }, 4);
    expect(a[11]).toBe(0);
    expect(a[8]).toBe(4 * 2_000);
    expect(a[0]).toBe(X_LOCK_DECR);
  });
});
