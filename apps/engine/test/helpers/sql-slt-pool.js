// Runs sqllogictest files in worker threads under a watchdog. A synchronous engine cannot be
// interrupted, so a record that runs past `timeoutMs` (or exhausts the worker's heap) costs the
// worker: it is terminated, the record is failed as a timeout, and a new worker replays the
// file's earlier statements and carries on after it.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { parseSlt, recordsFor } from './sql-slt-parse.js';

/**
 * @typedef {{ index: number, line: number, sql: string, cause: string, detail: string }} SltFailure
 * @typedef {{ file: string, total: number, passed: number, failures: SltFailure[], seconds: number, timeouts: number }} SltFileResult
 * @typedef {{ engine: string, adapterModule: string, adapterOptions?: unknown, timeoutMs?: number, heapMb?: number, maxRestarts?: number }} SltRunOptions
 */

const WORKER = new URL('./sql-slt-worker.js', import.meta.url);

/**
 * Run one file.
 * @param {string} file
 * @param {SltRunOptions} options
 * @returns {Promise<SltFileResult>}
 */
export function runSltFile(file, options) {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRestarts = options.maxRestarts ?? 1000;
  const runnable = recordsFor(parseSlt(readFileSync(file, 'utf8'), file), options.engine).filter(
    (r) => r.kind === 'statement' || r.kind === 'query',
  );
  /** @type {(Omit<SltFailure, 'index'|'line'|'sql'> | null | undefined)[]} */
  const outcome = new Array(runnable.length);
  /** @type {number[]} */
  const skip = [];
  let timeouts = 0;
  let restarts = 0;

  const finish = () => {
    /** @type {SltFailure[]} */
    const failures = [];
    let passed = 0;
    for (let k = 0; k < runnable.length; k++) {
      const o = outcome[k];
      const r = /** @type {import('./sql-slt-parse.js').SltRecord & { sql: string }} */ (runnable[k]);
      if (o === null) passed++;
      else
        failures.push({
          index: k,
          line: r.line,
          sql: r.sql,
          cause: o?.cause ?? 'not run',
          detail: o?.detail ?? '',
        });
    }
    return {
      file,
      total: runnable.length,
      passed,
      failures,
      seconds: (performance.now() - started) / 1000,
      timeouts,
    };
  };

  return new Promise((resolve) => {
    /** @param {number} startAt */
    const spawn = (startAt) => {
      if (startAt >= runnable.length) {
        resolve(finish());
        return;
      }
      const worker = new Worker(WORKER, {
        workerData: {
          file,
          engine: options.engine,
          adapterModule: options.adapterModule,
          adapterOptions: options.adapterOptions,
          startAt,
          skip,
        },
        resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 1024 },
      });
      let ready = false;
      let settled = false;
      let next = startAt;
      let lastMessage = performance.now();
      // the replay after a restart and the engine's start-up get a longer allowance
      const readyAllowance = Math.max(timeoutMs, 60_000);
      /** @param {string} cause @param {string} detail */
      const giveUp = (cause, detail) => {
        if (settled) return;
        settled = true;
        clearInterval(timer);
        void worker.terminate();
        if (!ready) {
          // the adapter itself failed (or hung while replaying): nothing more can run
          for (let k = next; k < runnable.length; k++) outcome[k] = { cause: `adapter: ${cause}`, detail };
          resolve(finish());
          return;
        }
        outcome[next] = { cause, detail };
        skip.push(next);
        if (cause === 'timeout') timeouts++;
        if (++restarts > maxRestarts) {
          for (let k = next + 1; k < runnable.length; k++)
            outcome[k] = { cause: 'not run: too many timeouts or crashes in this file', detail: '' };
          resolve(finish());
          return;
        }
        spawn(next + 1);
      };
      const timer = setInterval(() => {
        const idle = performance.now() - lastMessage;
        if (idle > (ready ? timeoutMs : readyAllowance))
          giveUp('timeout', `no answer within ${Math.round(idle)} ms`);
      }, 100);
      worker.on('message', (m) => {
        lastMessage = performance.now();
        if (m.t === 'ready') ready = true;
        else if (m.t === 'outcome') {
          outcome[m.index] = m.ok ? null : { cause: m.cause, detail: m.detail ?? '' };
          next = m.index + 1;
        } else if (m.t === 'done') {
          settled = true;
          clearInterval(timer);
          void worker.terminate();
          resolve(finish());
        }
      });
      worker.on('error', (e) => {
        const err = /** @type {{ code?: string, message?: string }} */ (e);
        giveUp(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : 'crash',
          String(err.message ?? e).slice(0, 300),
        );
      });
      worker.on('exit', (code) => {
        if (!settled) giveUp('crash', `worker exited with code ${code}`);
      });
    };
    spawn(0);
  });
}

/**
 * Run files, `concurrency` at a time; results in the order of `files`.
 * @param {readonly string[]} files
 * @param {SltRunOptions & { concurrency?: number, onFile?: (r: SltFileResult) => void }} options
 * @returns {Promise<SltFileResult[]>}
 */
export async function runSltFiles(files, options) {
  /** @type {SltFileResult[]} */
  const results = new Array(files.length);
  let nextFile = 0;
  const lane = async () => {
    while (nextFile < files.length) {
      const k = nextFile++;
      const r = await runSltFile(/** @type {string} */ (files[k]), options);
      results[k] = r;
      options.onFile?.(r);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, lane));
  return results;
}
