import { existsSync, lstatSync, unlinkSync } from 'node:fs';
import { createConnection, type Server as NetServer } from 'node:net';
import mysql from 'mysql2';
import type { Database } from '../storage/database.js';
import {
  type ConnectionLimits,
  type LoginAccount,
  ClientConnection,
  type WireConnection,
} from './connection.js';
import { HostCache } from './host-cache.js';
import { type AccountName, Accounts, hashBytes, passwordHash } from '../session/accounts.js';
import { isAdmin, mayUseDatabase } from '../session/privileges.js';
import { Session } from '../session/session.js';
import { serverErrors, writeErr } from './packets/err.js';
import { LocalSessionHost, type SessionHost } from './session-host.js';
import { PacketWriter } from './wire.js';
import { instanceOf } from '../session/instance.js';

export interface ServeOptions {
  /** TCP port (default 3306; 0 picks a free one). Ignored with `socket`. */
  readonly port?: number;
  /** Address to bind (default 127.0.0.1: loopback only). */
  readonly bind?: string;
  /** A unix socket path instead of TCP. */
  readonly socket?: string;
  /**
   * The administrator account `user`@localhost (default root), created with global ALL when the
   * database has none of that name. With `password`, its password is set to it; without, an
   * account that does not exist yet gets an empty password (for embedding and tests:
   * `enginekit serve` always passes one).
   */
  readonly user?: string;
  readonly password?: string;
  /** The system variable: connections accepted at once (default: the variable's value, 151). */
  readonly max_connections?: number;
  /** The system variable: the largest packet accepted (default: the variable's value, 16 MiB). */
  readonly max_allowed_packet?: number;
  /** The system variable: seconds a connection may idle before the server closes it (default 28800). */
  readonly wait_timeout?: number;
  /** The system variable: seconds a client has to log in (default 10). */
  readonly connect_timeout?: number;
  /** The system variable: seconds a packet that has begun may take to arrive (default 30). */
  readonly net_read_timeout?: number;
  /** The system variable: handshake errors in a row after which an address is blocked (default 100). */
  readonly max_connect_errors?: number;
  /** The system variable: prepared statements open at once (default 16382). */
  readonly max_prepared_stmt_count?: number;
  /** Count loopback addresses in the host cache (MySQL and MariaDB never do; default false). */
  readonly countLoopbackHosts?: boolean;
  /** The sessions' default `transaction_isolation` (GLOBAL); default REPEATABLE-READ. */
  readonly transaction_isolation?: string;
  /** Where sessions run (default: a LocalSessionHost over `db`, every session on this thread). */
  readonly host?: SessionHost;
}

import { isSystemSchema } from '../plan/system-tables.js';
import { SqlDictionary } from '../session/dictionary.js';
/** The ServeOptions that set a global system variable of the same name. */
const GLOBAL_OPTIONS = [
  'max_connections',
  'max_allowed_packet',
  'wait_timeout',
  'connect_timeout',
  'net_read_timeout',
  'max_connect_errors',
  'max_prepared_stmt_count',
  'transaction_isolation',
] as const;

/** mysql2's Server: its net.Server is `_server`. */
interface Mysql2Server {
  readonly _server: NetServer;
}

/** Where a server listens: `host:port` or a socket path. */
export type ListenAddress = { readonly host: string; readonly port: number } | { readonly socket: string };

/**
 * A MySQL-protocol server over one Database: mysql2's server side accepts sockets, each
 * connection authenticates with `mysql_native_password` and gets its own session. Past
 * `max_connections` a client gets error 1040 instead of the greeting.
 */
export class MysqlServer {
  readonly db: Database;
  readonly host: SessionHost;
  readonly #opts: ServeOptions;
  readonly #server: Mysql2Server;
  readonly #clients = new Set<ClientConnection>();
  /** Handshake errors and failed logins per client address (FLUSH HOSTS clears it). */
  readonly hosts: HostCache;
  #address: ListenAddress | undefined;
  #closing: Promise<void> | undefined;

  constructor(db: Database, options: ServeOptions = {}) {
    this.db = db;
    this.#opts = options;
    this.host = options.host ?? new LocalSessionHost(db);
    const admin = (): void =>
      ensureAccount(db, { user: options.user ?? 'root', host: 'localhost' }, options.password);
    if (this.host.changeDictionary === undefined) admin();
    else this.host.changeDictionary(admin);
    const probe = new Session(db);
    for (const name of GLOBAL_OPTIONS) {
      const v = options[name];
      if (v !== undefined) probe.globalVars.set(name, v, 'global', undefined);
    }
    const globals = probe.globalVars;
    probe.close();
    const num = (name: string) => (): number => Number(globals.get(name));
    const maxConnections = num('max_connections');
    const maxConnectErrors = num('max_connect_errors');
    const limits: ConnectionLimits = {
      maxAllowedPacket: num('max_allowed_packet'),
      waitTimeout: num('wait_timeout'),
      connectTimeout: num('connect_timeout'),
      netReadTimeout: num('net_read_timeout'),
      connectionControl: () => ({
        threshold: Number(globals.get('connection_control_failed_connections_threshold')),
        minDelay: Number(globals.get('connection_control_min_connection_delay')),
        maxDelay: Number(globals.get('connection_control_max_connection_delay')),
      }),
    };
    this.hosts = new HostCache(options.countLoopbackHosts === true);
    this.#server = mysql.createServer((c) => {
      const conn = c as unknown as WireConnection;
      // connection ids come from the process list, shared with API sessions (KILL's argument)
      const id = instanceOf(db).processList.allocateId();
      const address = conn.stream.remoteAddress;
      const refusal =
        this.#closing !== undefined || this.#clients.size >= maxConnections()
          ? serverErrors.tooManyConnections()
          : this.hosts.blocked(address, maxConnectErrors())
            ? serverErrors.hostBlocked(address ?? 'localhost')
            : undefined;
      if (refusal !== undefined) {
        // the greeting's place: ERR with sequence id 0, then close
        const w = new PacketWriter(64).reset(0);
        writeErr(w, refusal);
        conn.on('error', () => undefined);
        conn.write(w.take());
        conn.stream.end();
        return;
      }
      const client = new ClientConnection(conn, this.host, {
        connectionId: id,
        login: (user, address) => {
          this.host.beforeLogin?.();
          return loginAccount(db, user, address);
        },
        hosts: this.hosts,
        ...limits,
      });
      this.#clients.add(client);
      conn.stream.on('close', () => this.#clients.delete(client));
    }) as unknown as Mysql2Server;
  }

  /** Starts listening; resolves with the address. */
  listen(): Promise<ListenAddress> {
    const net = this.#server._server;
    return new Promise((resolve, reject) => {
      const onError = (e: Error): void => reject(e);
      net.once('error', onError);
      const done = (): void => {
        net.off('error', onError);
        const a = net.address();
        this.#address =
          this.#opts.socket !== undefined
            ? { socket: this.#opts.socket }
            : {
                host: typeof a === 'object' && a !== null ? a.address : (this.#opts.bind ?? '127.0.0.1'),
                port: typeof a === 'object' && a !== null ? a.port : 0,
              };
        resolve(this.#address);
      };
      if (this.#opts.socket !== undefined) {
        const path = this.#opts.socket;
        if (!existsSync(path)) {
          net.listen(path, done);
          return;
        }
        // A socket file left by a server that crashed answers no connection: replace it, as
        // mariadbd does; one that answers belongs to a running server.
        socketInUse(path).then((inUse) => {
          if (inUse) {
            net.off('error', onError);
            reject(new Error(`socket ${path} is in use by another server`));
            return;
          }
          try {
            if (!lstatSync(path).isSocket()) {
              net.off('error', onError);
              reject(new Error(`${path} exists and is not a socket: refusing to replace it`));
              return;
            }
            unlinkSync(path);
          } catch (e) {
            net.off('error', onError);
            reject(e);
            return;
          }
          net.listen(path, done);
        });
      } else net.listen(this.#opts.port ?? 3306, this.#opts.bind ?? '127.0.0.1', done);
    });
  }

  get address(): ListenAddress | undefined {
    return this.#address;
  }

  /** Connections open now. */
  get connections(): number {
    return this.#clients.size;
  }

  /**
   * Stops accepting, ends every connection and closes its session (with worker threads a running
   * statement is killed at its next poll; on this thread none runs now), then stops listening. The Database stays open: its
   * owner flushes and closes it.
   */
  close(): Promise<void> {
    this.#closing ??= new Promise((resolve) => {
      const net = this.#server._server;
      for (const c of this.#clients) c.destroy();
      this.#clients.clear();
      this.host.closeAll();
      if (!net.listening) {
        resolve();
        return;
      }
      net.close(() => resolve());
    });
    return this.#closing;
  }
}

/** The startup line: where the server listens. */
export function describeAddress(a: ListenAddress): string {
  return 'socket' in a
    ? `unix socket ${a.socket}`
    : `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}

/** Makes sure the administrator account exists (see {@link ServeOptions.user}). */
export function ensureAccount(db: Database, name: AccountName, password: string | undefined): void {
  const accounts = Accounts.of(db);
  if (accounts.get(name) === undefined) {
    accounts.create(name, password ?? '');
    accounts.grant(name, ['ALL'], undefined, undefined);
  } else if (password !== undefined && accounts.get(name)!.hash !== passwordHash(password))
    accounts.setPassword(name, password);
}

function loginAccount(db: Database, user: string, address: string | undefined): LoginAccount | undefined {
  const a = Accounts.of(db).find(user, address);
  if (a === undefined) return undefined;
  return {
    name: { user: a.user, host: a.host },
    account: a,
    passwordHash: hashBytes(a),
    mayUseDatabase: (name) => mayUseDatabase(a, name),
    hasDatabase: (name) => isSystemSchema(name) || SqlDictionary.of(db).databases.has(name),
    admin: isAdmin(a),
  };
}

/** Whether a server answers on the unix socket `path` (a stale file left by a crash does not). */
function socketInUse(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    const end = (inUse: boolean): void => {
      probe.destroy();
      resolve(inUse);
    };
    probe.once('connect', () => end(true));
    probe.once('error', () => end(false));
    probe.setTimeout(2000, () => end(true));
  });
}
