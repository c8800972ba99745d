import type { Account } from '../session/accounts.js';
import type { AttachDescriptor } from '../storage/attach.js';

/** What a session worker starts from (its `workerData`). */
export interface SessionWorkerData {
  /** The database file, buffer pool, redo log and doublewrite region to attach to. */
  readonly attach: AttachDescriptor;
  /** WorkerShared's buffer. */
  readonly shared: SharedArrayBuffer;
  /** The row and metadata lock table every session of the server shares (txn/lock-table.ts). */
  readonly lockTable: SharedArrayBuffer;
  /** The process list every thread of the server shares (shared-process-list.ts). */
  readonly processList: SharedArrayBuffer;
  /** This worker's number, from 0. */
  readonly worker: number;
  /** How many workers the host started. */
  readonly workers: number;
}

/** Main thread → worker. */
export type ToWorker =
  | {
      readonly t: 'open';
      readonly conn: number;
      readonly account?: Account;
      readonly database?: string;
      /** The connection's StreamCredit words (stream-credit.ts). */
      readonly credit: SharedArrayBuffer;
    }
  | {
      readonly t: 'cmd';
      readonly conn: number;
      readonly payload: Uint8Array;
      /** Threads_connected and Max_used_connections, as the main thread counts them. */
      readonly connected: number;
      readonly maxUsed: number;
    }
  | { readonly t: 'close'; readonly conn: number }
  /** KILL of a connection of this worker from elsewhere: end its lock wait (the word is raised). */
  | { readonly t: 'kill'; readonly conn: number; readonly query: boolean }
  /** A SET GLOBAL made on another thread: this worker's globals take the value. */
  | { readonly t: 'global'; readonly name: string; readonly value: string | number }
  | { readonly t: 'stop' };

/** Worker → main thread. */
export type FromWorker =
  | { readonly t: 'ready' }
  | {
      readonly t: 'reply';
      readonly conn: number;
      readonly bytes: Uint8Array;
      readonly close: boolean;
      readonly waitTimeout: number;
    }
  /**
   * Part of a result set, sent while its statement runs (the reply carries the rest); the worker
   * counted it in the connection's StreamCredit and the main thread releases it once written.
   */
  | { readonly t: 'chunk'; readonly conn: number; readonly bytes: Uint8Array }
  /** KILL of connection `conn` (of any worker): close it (query = false), end its lock wait. */
  | { readonly t: 'kill'; readonly conn: number; readonly query: boolean }
  /** A SET GLOBAL a session of this worker made: every other thread's globals take it. */
  | { readonly t: 'global'; readonly name: string; readonly value: string | number }
  | { readonly t: 'stopped' }
  | { readonly t: 'failed'; readonly message: string };
