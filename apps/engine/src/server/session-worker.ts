import { parentPort, workerData } from 'node:worker_threads';
import { SqlDictionary } from '../session/dictionary.js';
import { Session } from '../session/session.js';
import { attachDatabase } from '../storage/attach.js';
import { LockTable } from '../txn/lock-table.js';
import { instanceOf } from '../session/instance.js';
import { KILL_CONNECTION } from '../exec/interrupt.js';
import { SharedProcessList } from './shared-process-list.js';
import type { Database } from '../storage/database.js';
import { CommandProcessor, type Reply } from './command-processor.js';
import { commandKind } from './statement-kind.js';
import type { FromWorker, SessionWorkerData, ToWorker } from './worker-messages.js';
import { WorkerShared } from './worker-shared.js';
import { WorkerStatus } from './worker-status.js';
import { StreamCredit } from './stream-credit.js';

// A session worker (see worker-session-host.ts): one Database attached to the server's buffer
// pool, serving the connections the main thread assigns to it, one command at a time.
if (parentPort === null) throw new Error('session-worker.js runs as a worker thread of enginekit serve');
const port = parentPort;
const data = workerData as SessionWorkerData;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

interface Conn {
  readonly p: CommandProcessor;
  /** The text of this connection's prepared statement `id`. */
  readonly prepared: (id: number) => string | undefined;
}

let db: Database;
const shared = new WorkerShared(data.shared);
const status = new WorkerStatus(data.shared, WorkerShared.STATUS_OFFSET, data.workers, data.worker);
let seen = -1;
const conns = new Map<number, Conn>();

/** Brings the dictionary up to date. REQUIRES: the metadata lock (S or X). */
function refresh(): void {
  const v = shared.version;
  if (v === seen) return;
  db.reloadDictionary();
  SqlDictionary.forget(db);
  shared.writeLock();
  try {
    shared.shareRowCounts(db, false);
  } finally {
    shared.writeUnlock();
  }
  seen = v;
}

/** Runs `fn`, which changes the dictionary, under the metadata lock X; the other threads reload after. */
function asDdl<T>(fn: () => T): T {
  shared.mdlX();
  try {
    refresh();
    const out = fn();
    // The DDL's own tables (new objects, counts it set) seed the shared counts; then the others
    // reload at their next statement.
    shared.shareRowCounts(db, true);
    // the counter of an id no table has any more is forgotten: a later table given that id
    // again (after a failed DDL) starts from its own rows
    instanceOf(db).autoIncrement.retainOnly(db.tables().map((t) => t.id));
    SqlDictionary.forget(db);
    shared.bumpVersion();
    seen = shared.version;
    return out;
  } finally {
    shared.mdlXUnlock();
  }
}

/** Closes a connection's session; one with temporary tables drops them, which is DDL. */
function closeConn(c: Conn): void {
  if (c.p.session.temporaryTables.size === 0) c.p.close();
  else asDdl(() => c.p.close());
}

function run(c: Conn, payload: Buffer): Reply | Promise<Reply> {
  const kind = commandKind(
    payload,
    c.prepared,
    (sql) => c.p.session.statementKind(sql),
    c.p.session.temporaryTables.size > 0,
  );
  if (kind === 'none') return c.p.handle(payload);
  if (kind === 'ddl') return asDdl(() => c.p.handle(payload));
  shared.mdlS();
  try {
    refresh();
    // writers run at once: each row operation takes the change latch for its page changes
    // (MtrStore.hold), row locks keep them apart
    return c.p.handle(payload);
  } finally {
    shared.mdlSUnlock();
  }
}

/** Posts a command's reply to the main thread; a commit's once it is durable (group commit). */
function answer(conn: number, c: Conn, reply: Reply): void {
  status.publish(c.p.session.globalCounters);
  const send = (r: Reply): void => {
    const bytes = new Uint8Array(r.bytes);
    post({ t: 'reply', conn, bytes, close: r.close, waitTimeout: r.waitTimeout }, [
      bytes.buffer as ArrayBuffer,
    ]);
  };
  if (reply.durable === undefined) send(reply);
  else
    reply.durable.then(
      () => send(reply),
      () => send({ bytes: Buffer.alloc(0), close: true, waitTimeout: 0 }),
    );
}

function onMessage(m: ToWorker): void {
  switch (m.t) {
    case 'open': {
      const session = new Session(db, { connectionId: m.conn });
      if (m.database !== undefined) session.database = m.database;
      // grants are read from this worker's dictionary, brought up to date before each statement
      session.account = m.account === undefined ? undefined : { user: m.account.user, host: m.account.host };
      // a lock wait answers later (the reply is a Promise) instead of failing at once with 1205
      session.txn.asyncWaits = true;
      // KILL CONNECTION from this worker: the main thread owns the socket
      session.txn.onKill = () => post({ t: 'kill', conn: m.conn, query: false });
      const p = new CommandProcessor(session, m.conn);
      // summed over the workers for SHOW GLOBAL STATUS
      session.globalCounters.add('Connections', 1);
      const credit = new StreamCredit(m.credit);
      const entry = session.txn.entry;
      // each chunk of a result goes to the main thread at once; past MAX_IN_FLIGHT chunks the
      // client has not read, the statement waits here (the worker's other connections too)
      p.out = (bytes) => {
        credit.acquire(
          Number(session.vars.get('net_write_timeout')) * 1000,
          () => session.interrupt.check(),
          (waiting) => {
            entry.state = waiting ? 'Writing to net' : 'Sending data';
          },
        );
        // transfer the chunk's memory when it is its own (a pooled small buffer is copied)
        const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length;
        const out = own ? new Uint8Array(bytes.buffer, 0, bytes.length) : new Uint8Array(bytes);
        post({ t: 'chunk', conn: m.conn, bytes: out }, [out.buffer as ArrayBuffer]);
      };
      const c: Conn = { p, prepared: (id) => p.preparedText(id) };
      // a statement that waited for a row lock runs again under the metadata lock as a first run
      // (it holds none while it waits)
      c.p.rerun = (payload) => run(c, payload);
      conns.set(m.conn, c);
      return;
    }
    case 'cmd': {
      const c = conns.get(m.conn);
      if (c === undefined) return;
      c.p.threadsConnected = m.connected;
      c.p.session.globalCounters.set('Max_used_connections', m.maxUsed);
      const payload = Buffer.from(m.payload.buffer, m.payload.byteOffset, m.payload.length);
      const reply = run(c, payload);
      if (reply instanceof Promise) {
        // a lock wait: the worker serves its other connections meanwhile
        reply.then(
          (r) => answer(m.conn, c, r),
          () => answer(m.conn, c, { bytes: Buffer.alloc(0), close: true, waitTimeout: 0 }),
        );
      } else answer(m.conn, c, reply);
      return;
    }
    case 'kill': {
      // the word is raised already (a statement running then has stopped): end a lock wait
      const txn = conns.get(m.conn)?.p.session.txn;
      if (txn === undefined) return;
      if (!m.query) txn.entry.raise(KILL_CONNECTION);
      txn.kill(true);
      return;
    }
    case 'global':
      instanceOf(db).vars.adopt(m.name, m.value);
      return;
    case 'close': {
      const c = conns.get(m.conn);
      conns.delete(m.conn);
      if (c !== undefined) closeConn(c);
      return;
    }
    case 'stop': {
      for (const c of conns.values()) closeConn(c);
      conns.clear();
      db.detachFromPool();
      post({ t: 'stopped' });
      port.close();
      return;
    }
  }
}

try {
  db = attachDatabase(data.attach);
  instanceOf(db).useLockTable(new LockTable(data.lockTable));
  instanceOf(db).useAutoIncrement(shared.autoIncrement());
  instanceOf(db).usePreparedStatementCount(shared.preparedStatements());
  // a KILL of a connection of another worker goes through the main thread
  instanceOf(db).useProcessList(
    new SharedProcessList(data.processList, data.worker, (conn, query) => post({ t: 'kill', conn, query })),
  );
  // SHOW GLOBAL STATUS adds the other workers' published counts to this one's
  instanceOf(db).otherThreadsStatus = () => status.othersSums();
  // one set of global variables for the server: this worker's SET GLOBAL goes to every thread
  instanceOf(db).vars.onGlobalSet = (name, value) => post({ t: 'global', name, value });
  // every page change of this thread runs under the change latch the threads share
  db.store.changeLatch = { lock: () => shared.writeLock(), unlock: () => shared.writeUnlock() };
  // statistics a read statement saves on first use, and purge, as row operations
  db.writeGuard = <T>(fn: () => T): T => db.store.hold(fn);
  shared.mdlS();
  try {
    refresh();
  } finally {
    shared.mdlSUnlock();
  }
  port.on('message', onMessage);
  post({ t: 'ready' });
} catch (e) {
  post({ t: 'failed', message: e instanceof Error ? e.message : String(e) });
}
