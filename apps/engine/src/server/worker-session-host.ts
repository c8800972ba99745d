import { SqlDictionary } from '../session/dictionary.js';
import type { Account } from '../session/accounts.js';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { shareDatabase } from '../storage/attach.js';
import type { Database } from '../storage/database.js';
import type { Reply } from './command-processor.js';
import type { ClientWrite, KillOutcome, KillRequester, SessionHandle, SessionHost } from './session-host.js';
import { StreamCredit } from './stream-credit.js';
import { instanceOf } from '../session/instance.js';
import { LocalProcessList } from '../txn/process-list.js';
import { serverErrors, writeErr } from './packets/err.js';
import { SharedProcessList } from './shared-process-list.js';
import { KILL_CONNECTION } from '../exec/interrupt.js';
import { PacketWriter } from './wire.js';
import type { FromWorker, SessionWorkerData, ToWorker } from './worker-messages.js';
import { WorkerShared } from './worker-shared.js';

/** Options of {@link WorkerSessionHost.start}. */
export interface WorkerHostOptions {
  /** Worker threads (default: the core count). */
  readonly threads?: number;
  /** The worker script (default: session-worker.js beside this module, in the built package). */
  readonly workerUrl?: URL;
  /**
   * Sessions the shared process list holds (default 1024): past it a connection is refused with
   * 1040, whatever max_connections says.
   */
  readonly processSlots?: number;
}

interface Slot {
  readonly worker: Worker;
  /** Connections assigned to it. */
  conns: number;
  /** Commands in flight, by connection (one at a time per connection). */
  readonly pending: Map<
    number,
    { resolve: (r: Reply) => void; reject: (e: Error) => void; write: ClientWrite | undefined }
  >;
  exited: boolean;
}

/**
 * Sessions on worker threads over one buffer pool. The main thread keeps the sockets, framing
 * and authentication (ClientConnection) and moves bytes: each authenticated connection is given
 * to the worker with the fewest connections, and each command's payload is posted to it; the
 * worker runs the command in that connection's session and posts the reply's bytes back
 * (transferred), a result set's in chunks as its rows are produced, held back by the
 * connection's {@link StreamCredit} while its client does not read. Every worker attaches to the database the main thread opened
 * (storage/attach.ts): its buffer pool, its redo log and its doublewrite batches (one region per
 * worker), with its own handles on the data, log and doublewrite files, so every worker's change
 * is a logged mini-transaction and every page it writes follows the WAL rule. A commit's reply is
 * posted once the commit is durable; the main thread's flusher serves every worker's group commit.
 * What else they share (dictionary version, metadata lock, change latch, row counts, AUTO_INCREMENT
 * counters) is in
 * {@link WorkerShared}.
 *
 * While workers run, the main thread's Database is not used; `stop()` ends the workers, then
 * reloads its dictionary and takes the shared row counts, so closing it flushes the right state.
 */
export class WorkerSessionHost implements SessionHost {
  readonly db: Database;
  readonly shared: WorkerShared;
  readonly threads: number;
  readonly #slots: Slot[];
  readonly #conns = new Map<number, Slot>();
  /** What KILL CONNECTION does to each connection's socket (its `kill` argument of open). */
  readonly #killers = new Map<number, () => void>();
  /** Each connection's backpressure words, shared with its worker. */
  readonly #credits = new Map<number, StreamCredit>();
  /** The process list every thread shares. */
  readonly processList: SharedProcessList;
  #maxUsed = 0;
  #stopping: Promise<void> | undefined;
  /** The dictionary version the main thread's Database was last read at. */
  #seen: number;

  private constructor(db: Database, shared: WorkerShared, slots: Slot[], processList: SharedArrayBuffer) {
    this.db = db;
    this.shared = shared;
    this.processList = new SharedProcessList(processList, -1, (id, query) => this.#kill(id, query));
    instanceOf(db).useProcessList(this.processList);
    instanceOf(db).useAutoIncrement(shared.autoIncrement());
    instanceOf(db).usePreparedStatementCount(shared.preparedStatements());
    // a page change this thread makes (a check, a test's purge) waits for the workers' ones
    db.store.changeLatch = { lock: () => shared.writeLock(), unlock: () => shared.writeUnlock() };
    this.#slots = slots;
    this.threads = slots.length;
    this.#seen = shared.version;
  }

  /**
   * The main thread authenticates against its own Database's dictionary: reread it when a worker
   * changed the dictionary (an account statement, or DDL) since.
   */
  changeDictionary(fn: () => void): void {
    this.shared.mdlX();
    try {
      fn();
      SqlDictionary.forget(this.db);
      this.shared.bumpVersion();
      this.#seen = this.shared.version;
    } finally {
      this.shared.mdlXUnlock();
    }
  }

  /**
   * The main thread's Database as the workers left it: its dictionary reread when they changed
   * it, and every table's row count taken from the shared counts (for checks and tests between
   * statements; the workers keep running).
   */
  current(): Database {
    this.beforeLogin();
    this.shared.writeLock();
    try {
      this.shared.shareRowCounts(this.db, false);
    } finally {
      this.shared.writeUnlock();
    }
    return this.db;
  }

  beforeLogin(): void {
    if (this.shared.version === this.#seen) return;
    this.shared.mdlS();
    try {
      this.#seen = this.shared.version;
      this.db.reloadDictionary();
      SqlDictionary.forget(this.db);
    } finally {
      this.shared.mdlSUnlock();
    }
  }

  /** Starts the workers and waits until each has attached and read the dictionary. */
  static async start(db: Database, options: WorkerHostOptions = {}): Promise<WorkerSessionHost> {
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1 || threads > 256)
      throw new RangeError(`threads must be an integer in [1, 256], got ${String(threads)}`);
    db.flush(); // the header and dictionary on the pages the workers read
    const shared = new WorkerShared(undefined, threads);
    const url = options.workerUrl ?? new URL('./session-worker.js', import.meta.url);
    const attach = shareDatabase(db, threads);
    const slotCount = options.processSlots ?? 1024;
    if (!Number.isInteger(slotCount) || slotCount < 1 || slotCount > 1 << 20)
      throw new RangeError(`processSlots must be an integer in [1, ${1 << 20}], got ${String(slotCount)}`);
    const own = instanceOf(db).processList;
    const processList = SharedProcessList.create(
      slotCount,
      own instanceof LocalProcessList ? own.nextId : own.allocateId(),
    );
    const slots: Slot[] = [];
    const ready: Promise<void>[] = [];
    for (let i = 0; i < threads; i++) {
      const wd: SessionWorkerData = {
        attach: attach(i + 1),
        shared: shared.sab,
        lockTable: instanceOf(db).lockTable.buffer,
        processList,
        worker: i,
        workers: threads,
      };
      const worker = new Worker(url, { workerData: wd });
      const slot: Slot = { worker, conns: 0, pending: new Map(), exited: false };
      slots.push(slot);
      ready.push(
        new Promise<void>((resolve, reject) => {
          const first = (m: FromWorker): void => {
            worker.off('message', first);
            if (m.t === 'ready') resolve();
            else reject(new Error(`session worker ${i}: ${m.t === 'failed' ? m.message : m.t}`));
          };
          worker.on('message', first);
          worker.once('error', reject);
        }),
      );
    }
    const host = new WorkerSessionHost(db, shared, slots, processList);
    for (const s of slots) host.#wire(s);
    // the server's global variables are one set: the main thread's SET GLOBAL (its options, its
    // own sessions) goes to every worker, a worker's to the main thread and the other workers
    const globals = instanceOf(db).vars;
    globals.onGlobalSet = (name, value) => {
      for (const s of slots) host.#post(s, { t: 'global', name, value });
    };
    try {
      await Promise.all(ready);
    } catch (e) {
      await Promise.all(slots.map((s) => s.worker.terminate()));
      throw e;
    }
    return host;
  }

  #wire(s: Slot): void {
    s.worker.on('message', (m: FromWorker) => {
      if (m.t === 'kill') {
        this.#kill(m.conn, m.query);
        return;
      }
      if (m.t === 'chunk') {
        this.#chunk(s, m.conn, m.bytes);
        return;
      }
      if (m.t === 'global') {
        instanceOf(this.db).vars.adopt(m.name, m.value);
        for (const o of this.#slots) if (o !== s) this.#post(o, m);
        return;
      }
      if (m.t !== 'reply') return;
      const p = s.pending.get(m.conn);
      if (p === undefined) return;
      s.pending.delete(m.conn);
      p.resolve({
        bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length),
        close: m.close,
        waitTimeout: m.waitTimeout,
      });
    });
    const fail = (e: Error): void => {
      s.exited = true;
      for (const p of s.pending.values()) p.reject(e);
      s.pending.clear();
    };
    s.worker.on('error', fail);
    s.worker.on('exit', (code) => fail(new Error(`session worker exited (${code})`)));
  }

  /**
   * A chunk of a result from connection `conn`'s worker: written to the client, and its credit
   * given back once the socket has taken it, so the worker produces more.
   */
  #chunk(s: Slot, conn: number, bytes: Uint8Array): void {
    const credit = this.#credits.get(conn);
    const write = s.pending.get(conn)?.write;
    const drained = write?.(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    if (drained === undefined) credit?.release();
    else drained.then(() => credit?.release());
  }

  /** Connections open on each worker now. */
  connectionsPerWorker(): number[] {
    return this.#slots.map((s) => s.conns);
  }

  get connected(): number {
    return this.#conns.size;
  }

  get maxUsed(): number {
    return this.#maxUsed;
  }

  #post(s: Slot, m: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (!s.exited) s.worker.postMessage(m, transfer);
  }

  /**
   * KILL of connection `id` (its interrupt word is raised already): its worker ends a lock wait it
   * is in, and KILL CONNECTION closes the socket once its client has been told (1927).
   */
  #kill(id: number, query: boolean): void {
    const s = this.#conns.get(id);
    if (s === undefined) return;
    // a statement waiting for its client to read looks at its interrupt word now
    this.#credits.get(id)?.wake();
    this.#post(s, { t: 'kill', conn: id, query });
    if (!query) this.#killers.get(id)?.();
  }

  kill(id: number, query: boolean, by: KillRequester): KillOutcome {
    const e = this.processList.get(id);
    if (e === undefined) return 'unknown';
    // as MariaDB: one's own user's connections, or any with CONNECTION ADMIN (here: global ALL)
    if (!by.admin && e.user !== by.user) return 'denied';
    e.kill(query);
    return 'killed';
  }

  open(
    connectionId: number,
    kill?: () => void,
    account?: Account,
    database?: string,
    address?: string,
  ): SessionHandle {
    let s = this.#slots[0]!;
    for (const x of this.#slots) if (!x.exited && (s.exited || x.conns < s.conns)) s = x;
    const worker = this.#slots.indexOf(s);
    if (
      !this.processList.claim(
        connectionId,
        account?.user ?? '',
        address ?? 'localhost',
        worker,
        database ?? null,
      )
    )
      return refused();
    s.conns++;
    this.#conns.set(connectionId, s);
    if (kill !== undefined) this.#killers.set(connectionId, kill);
    const credit = new StreamCredit();
    this.#credits.set(connectionId, credit);
    this.#maxUsed = Math.max(this.#maxUsed, this.#conns.size);
    this.#post(s, {
      t: 'open',
      conn: connectionId,
      credit: credit.sab,
      ...(account === undefined ? {} : { account }),
      ...(database === undefined ? {} : { database }),
    });
    return {
      handle: (payload, write) =>
        new Promise<Reply>((resolve, reject) => {
          if (s.exited) {
            reject(new Error('session worker is gone'));
            return;
          }
          s.pending.set(connectionId, { resolve, reject, write });
          const copy = new Uint8Array(payload);
          this.#post(
            s,
            {
              t: 'cmd',
              conn: connectionId,
              payload: copy,
              connected: this.#conns.size,
              maxUsed: this.#maxUsed,
            },
            [copy.buffer as ArrayBuffer],
          );
        }),
      close: () => {
        if (this.#conns.get(connectionId) !== s) return;
        this.#conns.delete(connectionId);
        this.#killers.delete(connectionId);
        // a statement waiting for this client to read stops
        this.#credits.get(connectionId)?.close();
        this.#credits.delete(connectionId);
        // the worker frees the slot when it closes the session; a gone worker cannot
        if (s.exited) this.processList.release(connectionId);
        s.conns--;
        this.#post(s, { t: 'close', conn: connectionId });
      },
    };
  }

  closeAll(): void {
    for (const [id, s] of this.#conns) {
      // a statement that runs stops at its next poll, so its worker reads the close
      this.processList.get(id)?.raise(KILL_CONNECTION);
      this.#credits.get(id)?.close();
      this.#post(s, { t: 'close', conn: id });
    }
    this.#conns.clear();
    this.#killers.clear();
    this.#credits.clear();
    for (const s of this.#slots) s.conns = 0;
  }

  /**
   * Closes every session, stops the workers (each leaves the pool without flushing), then
   * brings the main thread's Database up to date (dictionary, row counts) so that closing it
   * writes everything. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      instanceOf(this.db).vars.onGlobalSet = null;
      this.closeAll();
      await Promise.all(
        this.#slots.map(
          (s) =>
            new Promise<void>((resolve) => {
              if (s.exited) return resolve();
              s.worker.once('exit', () => resolve());
              this.#post(s, { t: 'stop' });
            }),
        ),
      );
      this.db.reloadDictionary();
      this.shared.shareRowCounts(this.db, false);
    })();
    return this.#stopping;
  }
}

/** The handle of a connection the full process list has no room for: 1040, then close. */
function refused(): SessionHandle {
  return {
    handle: () => {
      const w = new PacketWriter(64).reset(1);
      writeErr(w, serverErrors.tooManyConnections());
      return { bytes: w.take(), close: true, waitTimeout: 0 };
    },
    close: () => undefined,
  };
}
