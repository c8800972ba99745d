// Worker side of the sqllogictest pool: parses one file, creates the adapter from its module,
// replays the statements before `startAt` silently (after a restart), then runs every record
// from `startAt` on, posting one outcome per record. The pool watches for records that never
// finish and restarts this worker past them.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { recordsFor, parseSlt } from './sql-slt-parse.js';
import { runRecord } from './sql-slt-run.js';

/** @type {{ file: string, engine: string, adapterModule: string, adapterOptions: unknown, startAt: number, skip: number[] }} */
const job = workerData;
const port = parentPort;
if (port === null) throw new Error('sql-slt-worker.js runs only as a worker thread');

const runnable = recordsFor(parseSlt(readFileSync(job.file, 'utf8'), job.file), job.engine).filter(
  (r) => r.kind === 'statement' || r.kind === 'query',
);
const { createAdapter } = await import(job.adapterModule);
const adapter = await createAdapter(job.adapterOptions);
const skip = new Set(job.skip);
const labels = new Map();
for (let k = 0; k < job.startAt; k++) {
  const r = runnable[k];
  if (r === undefined || skip.has(k)) continue;
  if (r.kind === 'statement') {
    try {
      adapter.exec(r.sql);
    } catch {
      // replayed for its effect only; its outcome was reported by the worker before
    }
  }
}
port.postMessage({ t: 'ready', total: runnable.length });
for (let k = job.startAt; k < runnable.length; k++) {
  const r = /** @type {import('./sql-slt-parse.js').SltRecord} */ (runnable[k]);
  const o = runRecord(adapter, r, labels);
  port.postMessage({ t: 'outcome', index: k, ok: o.ok, cause: o.cause, detail: o.detail });
}
adapter.close?.();
port.postMessage({ t: 'done' });
