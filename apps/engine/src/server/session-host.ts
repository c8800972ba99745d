import type { Database } from '../storage/database.js';
import type { Account } from '../session/accounts.js';
import { Session } from '../session/session.js';
import { CommandProcessor, type Reply } from './command-processor.js';

/** Who asks for a KILL: the user it logged in as, and whether it administers the server. */
export interface KillRequester {
  readonly user: string;
  readonly admin: boolean;
}

/** What a KILL did: `unknown` is 1094 ER_NO_SUCH_THREAD, `denied` 1095 ER_KILL_DENIED_ERROR. */
export type KillOutcome = 'killed' | 'unknown' | 'denied';

/**
 * Sends bytes to the client: undefined when its socket took them, else a promise that settles
 * once the socket's buffer has drained (or the connection is gone).
 */
export type ClientWrite = (bytes: Buffer) => Promise<void> | undefined;

/**
 * One connection's side of the boundary: payloads in, replies out. A reply is a Promise when
 * the command waits (for a row or metadata lock); the connection sends nothing else meanwhile.
 */
export interface SessionHandle {
  /**
   * The reply, or a promise of it (a session on another thread, a statement that waits). The
   * chunks of a result set go to `write` while the statement runs, before the reply (which holds
   * the rest); without it they come at the head of the reply.
   */
  handle(payload: Buffer, write?: ClientWrite): Reply | Promise<Reply>;
  close(): void;
}

/**
 * Where sessions run. The connection layer (sockets, framing, authentication) talks to sessions
 * only through this interface: it opens a handle per connection and passes it each command's
 * payload. {@link LocalSessionHost} runs every session on the calling thread over one Database;
 * a host that runs them on worker threads (each attached to the shared buffer pool) keeps the
 * same shape, with `handle` posting the payload to the worker that owns the connection.
 */
export interface SessionHost {
  /**
   * A session for an authenticated connection. `kill`: what KILL CONNECTION of this id does
   * beyond closing the session (the connection closes its socket; it then calls `close`).
   * `account`: the account it logged in as, whose privileges every statement is checked against.
   * `database`: the database the handshake named (checked to exist), the session's current one.
   * `address`: the client's address, as the process list shows it (default localhost).
   */
  open(
    connectionId: number,
    kill?: () => void,
    account?: Account,
    database?: string,
    address?: string,
  ): SessionHandle;
  /** Connections open now (Threads_connected). */
  readonly connected: number;
  /** The most connections open at once (Max_used_connections). */
  readonly maxUsed: number;
  /** Closes every open session. */
  closeAll(): void;
  /**
   * KILL [QUERY | CONNECTION] `id` from the connection layer, for a host whose statements run
   * where a KILL statement could not reach them while they run, asked by `by`: a connection of
   * another user needs an administrator (global ALL, which holds MariaDB's CONNECTION ADMIN).
   */
  kill?(id: number, query: boolean, by: KillRequester): KillOutcome;
  /** Brings the accounts a login is checked against up to date (changed on another thread). */
  beforeLogin?(): void;
  /** Runs a dictionary change made on this thread (an account) so that every other thread sees it. */
  changeDictionary?(fn: () => void): void;
}

export class LocalSessionHost implements SessionHost {
  readonly db: Database;
  readonly #open = new Set<CommandProcessor>();
  #maxUsed = 0;

  constructor(db: Database) {
    this.db = db;
  }

  get connected(): number {
    return this.#open.size;
  }

  get maxUsed(): number {
    return this.#maxUsed;
  }

  open(
    connectionId: number,
    kill?: () => void,
    account?: Account,
    database?: string,
    address?: string,
  ): SessionHandle {
    const session = new Session(this.db, { connectionId });
    if (database !== undefined) session.database = database;
    if (account !== undefined) session.txn.entry.user = account.user;
    session.txn.entry.host = address ?? 'localhost';
    // on this thread the dictionary is the server's: grants are read live
    session.account = account === undefined ? undefined : { user: account.user, host: account.host };
    // a server session waits for locks (its reply is a Promise) instead of failing at once
    session.txn.asyncWaits = true;
    const p = new CommandProcessor(session, connectionId);
    this.#open.add(p);
    this.#maxUsed = Math.max(this.#maxUsed, this.#open.size);
    const g = session.globalCounters;
    g.add('Connections', 1);
    g.set('Max_used_connections', this.#maxUsed);
    g.set('Threads_connected', this.#open.size);
    const handle: SessionHandle = {
      handle: (payload, write) => {
        p.threadsConnected = this.#open.size;
        // on this thread the statement cannot wait for the client: chunks queue on the socket
        p.out =
          write === undefined
            ? undefined
            : (bytes) => {
                void write(bytes);
              };
        return p.handle(payload);
      },
      close: () => {
        if (!this.#open.delete(p)) return;
        p.close();
        g.set('Threads_connected', this.#open.size);
      },
    };
    session.txn.onKill = kill ?? handle.close;
    return handle;
  }

  closeAll(): void {
    for (const p of [...this.#open]) p.close();
    this.#open.clear();
  }
}
