import { parentPort, workerData } from 'node:worker_threads';
import { failure } from './internal/failure.js';
import { Session } from '../session/session.js';
import { Database } from '../storage/database.js';
import { SharedInterruptWord } from '../txn/process-list.js';
import { type OutputFormat, runStatement } from '../sql-cli/format.js';

/** What `enginekit sql`'s prompt gives the worker that runs its session. */
export interface SqlWorkerData {
  readonly path: string;
  readonly create: boolean;
  readonly format: OutputFormat;
  /** The session's interrupt word (one Int32), raised by the prompt's Ctrl-C. */
  readonly word: SharedArrayBuffer;
}

/** Prompt → worker. */
export type ToSqlWorker =
  | { readonly t: 'run'; readonly sql: string; readonly vertical: boolean }
  | { readonly t: 'close' };

/** Worker → prompt. */
export type FromSqlWorker =
  | { readonly t: 'ready' }
  | { readonly t: 'done'; readonly out: string; readonly err: string }
  | { readonly t: 'fatal'; readonly status: number; readonly line: string; readonly stack?: string }
  | { readonly t: 'closed' };

// The session of `enginekit sql`'s prompt runs here, so that the prompt's thread keeps reading
// keys while a statement runs and its Ctrl-C reaches the statement (through the shared word the
// executor's loops poll).
const port = parentPort;
if (port === null) throw new Error('sql-worker.js runs as a worker thread of enginekit sql');
const data = workerData as SqlWorkerData;
const post = (m: FromSqlWorker): void => port.postMessage(m);
const fatal = (e: unknown): void => {
  const f = failure(e);
  post({ t: 'fatal', status: f.status, line: f.line, ...(f.stack === undefined ? {} : { stack: f.stack }) });
};

let db: Database | null = null;
let session: Session | null = null;
try {
  db = data.create ? Database.create(data.path) : Database.open(data.path);
  session = new Session(db, { interruptWord: new SharedInterruptWord(new Int32Array(data.word)) });
  post({ t: 'ready' });
} catch (e) {
  fatal(e);
}

port.on('message', (m: ToSqlWorker) => {
  if (db === null || session === null) return;
  try {
    if (m.t === 'run') {
      const p = runStatement(session, m.sql, data.format, m.vertical, false);
      post({ t: 'done', out: p.out, err: p.err });
    } else {
      db.close();
      db = null;
      post({ t: 'closed' });
      port.close();
    }
  } catch (e) {
    fatal(e);
  }
});
