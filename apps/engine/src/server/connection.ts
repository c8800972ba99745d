import { randomBytes } from 'node:crypto';
import type { Account, AccountName } from '../session/accounts.js';
import { checkNativePassword } from './native-password.js';
import { FrameGuard } from './frame-guard.js';
import type { ConnectionControl, HostCache } from './host-cache.js';
import { type ProtocolError, serverErrors, writeErr } from './packets/err.js';
import { type ChangeUserRequest, readChangeUser } from './packets/change-user.js';
import { readHandshakeResponse, writeGreeting } from './packets/handshake.js';
import { writeOk } from './packets/ok.js';
import { COM_CHANGE_USER, COM_PROCESS_KILL, COM_QUERY, COM_RESET_CONNECTION } from './protocol.js';
import type { Reply } from './command-processor.js';
import type { SessionHandle, SessionHost } from './session-host.js';
import { MalformedPacketError, PacketWriter } from './wire.js';

/** The account a login matched: its name, `mysql_native_password`'s stored hash (none: empty password). */
export interface LoginAccount {
  readonly name: AccountName;
  /** The account's grants now (for a session host whose threads keep their own dictionary). */
  readonly account: Account;
  readonly passwordHash: Buffer | undefined;
  /** Whether it holds any privilege on a database (else connecting to it is 1044). */
  mayUseDatabase(db: string): boolean;
  /** Whether the database exists (else connecting to it is 1049). */
  hasDatabase(db: string): boolean;
  /** Global ALL: FLUSH HOSTS and the like. */
  readonly admin: boolean;
}

/** The parts of mysql2's packet parser the connection wraps. */
interface PacketParser {
  execute(chunk: Buffer): unknown;
}

/** The parts of mysql2's server-side connection the server uses. */
export interface WireConnection {
  packetParser: PacketParser;
  stream: {
    remoteAddress?: string | undefined;
    /** The last write filled the socket's buffer: wait for 'drain' before writing more. */
    readonly writableNeedDrain: boolean;
    once(event: 'drain' | 'close', f: () => void): unknown;
    off(event: 'drain' | 'close', f: () => void): unknown;
    pause(): void;
    end(): void;
    destroy(): void;
    on(event: 'close', f: () => void): unknown;
  };
  sequenceId: number;
  addCommand(cmd: unknown): unknown;
  write(bytes: Buffer): void;
  handlePacket(p: unknown): void;
  on(event: string, f: (...a: unknown[]) => void): unknown;
}

/** What mysql2's packet parser hands over: one whole packet (frames joined). */
interface IncomingPacket {
  readonly sequenceId: number;
  readonly buffer: Buffer;
  readonly offset: number;
  readonly end: number;
}

/** The global system variables a connection reads (each read when it applies). */
export interface ConnectionLimits {
  readonly maxAllowedPacket: () => number;
  /** wait_timeout (seconds): how long a new session may idle before its first command. */
  readonly waitTimeout: () => number;
  /** connect_timeout (seconds): how long a client has to log in. */
  readonly connectTimeout: () => number;
  /** net_read_timeout (seconds): how long a packet that has begun may take to arrive. */
  readonly netReadTimeout: () => number;
  readonly connectionControl: () => ConnectionControl;
}

export interface ConnectionOptions extends ConnectionLimits {
  readonly connectionId: number;
  /** The account `user` logging in from `address` (undefined: the unix socket) matches, if any. */
  readonly login: (user: string, address: string | undefined) => LoginAccount | undefined;
  readonly hosts: HostCache;
}

/**
 * The largest packet a client may send before it has logged in. The only packet then is the
 * handshake response: capabilities, user name, a 20-byte scramble response, a database name, a
 * plugin name and connection attributes — a few hundred bytes from every client. MariaDB reads
 * it before applying max_allowed_packet to anything the client may send.
 */
export const PRE_AUTH_MAX_PACKET = 65536;

/** A scramble of 20 printable bytes (as MySQL's `generate_user_salt`, never NUL). */
function scramble(): Buffer {
  const b = randomBytes(20);
  for (let i = 0; i < 20; i++) b[i] = 0x21 + (b[i]! % 94);
  return b;
}

/**
 * One client connection on mysql2's server-side Connection (which reads the socket and joins
 * frames into packets): greeting, authentication, then each command packet handed to the
 * session host. Any packet it cannot parse, one out of sequence, or one over max_allowed_packet
 * gets an ERR and closes this connection only.
 */
export class ClientConnection {
  readonly #conn: WireConnection;
  readonly #host: SessionHost;
  readonly #opts: ConnectionOptions;
  readonly #w = new PacketWriter(256);
  readonly #scramble = scramble();
  #state: 'greeting' | 'auth' | 'command' | 'closed' = 'greeting';
  #handle: SessionHandle | undefined;
  /** A command's reply is pending (a lock wait): packets that arrive meanwhile wait here. */
  #busy = false;
  readonly #queued: IncomingPacket[] = [];
  readonly #handshakeTimer: NodeJS.Timeout;
  #idleTimer: NodeJS.Timeout | undefined;
  /** Armed while a packet has begun and not ended (net_read_timeout). */
  #readTimer: NodeJS.Timeout | undefined;
  readonly #guard: FrameGuard;
  /** The client's address (undefined over a unix socket). */
  readonly #address: string | undefined;
  /** The login was answered (OK or a refusal): an end now is no handshake error. */
  #answered = false;
  /** The account logged in as. */
  #account: LoginAccount | undefined;
  /** The capabilities the client's handshake response announced (COM_CHANGE_USER's layout). */
  #capabilities = 0;
  /** COM_CHANGE_USER attempts refused on this connection (after three, every one is 1047). */
  #changeUserRefusals = 0;
  /** Bytes handed to the packet parser; for tests of what a connection holds. */
  bytesParsed = 0;

  constructor(conn: WireConnection, host: SessionHost, opts: ConnectionOptions) {
    this.#conn = conn;
    this.#host = host;
    this.#opts = opts;
    this.#address = conn.stream.remoteAddress;
    this.#handshakeTimer = setTimeout(() => {
      if (this.#state !== 'command') this.#close();
    }, opts.connectTimeout() * 1000).unref();
    conn.on('error', () => this.#teardown());
    conn.stream.on('close', () => this.#teardown());
    // Every chunk passes the frame guard before mysql2's parser sees it: a packet longer than
    // allowed is refused from its header, before its payload is buffered.
    this.#guard = new FrameGuard(() =>
      this.#state === 'command'
        ? opts.maxAllowedPacket()
        : Math.min(PRE_AUTH_MAX_PACKET, opts.maxAllowedPacket()),
    );
    const parser = conn.packetParser;
    conn.packetParser = {
      execute: (chunk: Buffer): unknown => {
        if (this.#state === 'closed') return null;
        const v = this.#guard.feed(chunk);
        if (!v.ok) {
          // read no further (TCP holds the sender back), answer, and close
          this.#conn.stream.pause();
          this.#fail(serverErrors.packetTooLarge(), v.sequenceId + 1);
          return null;
        }
        this.#armReadTimer();
        this.bytesParsed += chunk.length;
        return parser.execute(chunk);
      },
    };
    // mysql2 compares each packet's sequence id with its own count and logs a mismatch; the
    // check is made here instead (a command must start at 0), so its count follows the client
    const handlePacket = conn.handlePacket.bind(conn);
    conn.handlePacket = (p: unknown): void => {
      if (p !== undefined && p !== null) conn.sequenceId = (p as IncomingPacket).sequenceId;
      handlePacket(p);
    };
    conn.addCommand({
      execute: (p: IncomingPacket | undefined) => {
        this.#step(p);
        return false;
      },
      on: () => undefined,
      emit: () => false,
    });
  }

  #step(p: IncomingPacket | undefined): void {
    if (this.#state === 'closed') return;
    if (this.#busy && p !== undefined) {
      // one command at a time: keep a copy (mysql2 may reuse the packet's buffer)
      const buffer = Buffer.from(p.buffer.subarray(p.offset, p.end));
      this.#queued.push({ sequenceId: p.sequenceId, buffer, offset: 0, end: buffer.length });
      return;
    }
    if (this.#state === 'greeting') {
      this.#w.reset(0);
      writeGreeting(this.#w, this.#opts.connectionId, this.#scramble);
      this.#send(this.#w.take());
      this.#state = 'auth';
      return;
    }
    if (p === undefined) return;
    const payload = p.buffer.subarray(p.offset, p.end);
    if (this.#state === 'auth') {
      this.#authenticate(payload, p.sequenceId);
      return;
    }
    if (p.sequenceId !== 0) {
      this.#fail(serverErrors.outOfOrder(), p.sequenceId + 1);
      return;
    }
    clearTimeout(this.#idleTimer);
    if (isFlushHosts(payload)) {
      // the host cache is the connection layer's: answered here, wherever sessions run
      this.#w.reset(1);
      if (this.#account?.admin === true) {
        this.#opts.hosts.flush();
        writeOk(this.#w);
      } else writeErr(this.#w, serverErrors.needPrivilege('RELOAD'));
      this.#finish({ bytes: this.#w.take(), close: false, waitTimeout: this.#opts.waitTimeout() });
      return;
    }
    if (payload[0] === COM_CHANGE_USER) {
      this.#changeUser(payload);
      return;
    }
    const kill = this.#host.kill === undefined ? undefined : killCommand(payload);
    if (kill !== undefined) {
      // KILL is answered here, so it reaches a statement that keeps its worker busy (even this
      // connection's worker) at once
      const account = this.#account!;
      const done = this.#host.kill!(kill.id, kill.query, {
        user: account.name.user,
        admin: account.admin,
      });
      if (this.#closed()) return; // KILL CONNECTION of itself
      this.#w.reset(1);
      if (done === 'killed') writeOk(this.#w);
      else if (done === 'denied') writeErr(this.#w, serverErrors.killDenied(kill.id));
      else writeErr(this.#w, serverErrors.noSuchThread(kill.id));
      this.#finish({ bytes: this.#w.take(), close: false, waitTimeout: this.#opts.waitTimeout() });
      return;
    }
    const reply = this.#handle!.handle(payload, (bytes) => this.#chunk(bytes));
    if (reply instanceof Promise) {
      // a lock wait: read no further command until the statement has its answer
      this.#busy = true;
      reply.then(
        (r) => this.#replied(r),
        () => this.#close(),
      );
    } else this.#replied(reply);
  }

  /** KILL CONNECTION came while a command ran: tell the client once its reply is out. */
  #killPending = false;

  /**
   * KILL CONNECTION of this connection: an idle one gets ER_CONNECTION_KILLED (1927), which its
   * client reads as the answer to its next command, and closes, as MariaDB; a busy one does so
   * after the reply of its command (which the kill usually turns into that error, with a close).
   */
  #killed(): void {
    if (this.#state === 'closed') return;
    if (this.#busy) {
      this.#killPending = true;
      return;
    }
    this.#killPending = false;
    this.#w.reset(1);
    writeErr(this.#w, serverErrors.connectionKilled());
    this.#send(this.#w.take());
    this.#close();
  }

  #closed(): boolean {
    return this.#state === 'closed';
  }

  #replied(reply: Reply): void {
    this.#busy = false;
    if (this.#state === 'closed') return;
    this.#deliver(reply);
    if (this.#killPending) {
      // killed while the command ran: its reply first, then the kill
      (this.#pending ?? Promise.resolve()).then(() => this.#killed());
      return;
    }
    while (!this.#busy && this.#queued.length > 0 && !this.#closed()) this.#step(this.#queued.shift());
  }

  /** Sends a reply, or queues it behind a commit that is not durable yet (group commit). */
  #deliver(reply: Reply): void {
    if (reply.durable === undefined && this.#pending === null) {
      this.#finish(reply);
      return;
    }
    // A commit's OK waits until it is durable; later replies keep their order behind it.
    const before = this.#pending ?? Promise.resolve();
    const mine: Promise<void> = before
      .then(() => reply.durable)
      .then(
        () => {
          if (this.#state !== 'closed') this.#finish(reply);
        },
        (e: unknown) => {
          // The commit record could not be made durable (the log could not be written): the
          // client hears so instead of the OK, and the server's log says why.
          process.stderr.write(
            `[ERROR] connection ${this.#opts.connectionId}: the log write of a COMMIT failed: ${e instanceof Error ? e.message : String(e)}\n`,
          );
          if (this.#state === 'closed') return;
          this.#w.reset(1);
          writeErr(this.#w, serverErrors.commitFailed(e instanceof Error ? e.message : String(e)));
          this.#finish({ ...reply, bytes: this.#w.take() });
        },
      )
      .finally(() => {
        if (this.#pending === mine) this.#pending = null;
      });
    this.#pending = mine;
  }

  /**
   * A chunk of a result set, sent while its statement runs (behind a commit's OK that waits to be
   * durable, if any): undefined when the socket took it, else a promise that settles once the
   * socket's buffer has drained, which holds the statement back until its client reads.
   */
  #chunk(bytes: Buffer): Promise<void> | undefined {
    if (this.#state === 'closed') return undefined;
    if (this.#pending === null) {
      this.#conn.write(bytes);
      return this.#drained();
    }
    const mine: Promise<void> = this.#pending
      .then(() => {
        if (this.#state === 'closed') return undefined;
        this.#conn.write(bytes);
        return this.#drained();
      })
      .finally(() => {
        if (this.#pending === mine) this.#pending = null;
      });
    this.#pending = mine;
    return mine;
  }

  /** Undefined when the socket can take more now, else a promise of its 'drain' (or close). */
  #drained(): Promise<void> | undefined {
    const stream = this.#conn.stream;
    if (!stream.writableNeedDrain) return undefined;
    return new Promise((resolve) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.once('drain', done);
      stream.once('close', done);
    });
  }

  /** Replies still waiting for a commit to be durable, in order. */
  #pending: Promise<void> | null = null;

  #finish(reply: Reply): void {
    if (reply.bytes.length > 0) this.#send(reply.bytes);
    if (reply.close) this.#close();
    else this.#idle(reply.waitTimeout);
  }

  /**
   * While a packet has begun and not ended, each chunk gives the rest net_read_timeout seconds
   * to come (as MariaDB's read timeout on the socket); past it the connection is closed without
   * a reply (MariaDB logs "Got timeout reading communication packets").
   */
  #armReadTimer(): void {
    clearTimeout(this.#readTimer);
    this.#readTimer = undefined;
    if (!this.#guard.midPacket) return;
    this.#readTimer = setTimeout(() => this.#close(), this.#opts.netReadTimeout() * 1000).unref();
  }

  /** After `seconds` without a command the server sends ER_CLIENT_INTERACTION_TIMEOUT and closes. */
  #idle(seconds: number): void {
    this.#idleTimer = setTimeout(() => this.#fail(serverErrors.inactive(), 0), seconds * 1000).unref();
  }

  #authenticate(payload: Buffer, seq: number): void {
    let res: ReturnType<typeof readHandshakeResponse>;
    try {
      res = readHandshakeResponse(payload);
    } catch (e) {
      if (!(e instanceof MalformedPacketError)) throw e;
      this.#fail(serverErrors.malformed(), seq + 1);
      return;
    }
    // the handshake is complete: connect_timeout no longer applies, connection_control's delay may
    clearTimeout(this.#handshakeTimer);
    const wait = this.#opts.hosts.delay(this.#address, res.user, this.#opts.connectionControl());
    if (wait === 0) {
      this.#login(res, seq);
      return;
    }
    this.#busy = true;
    setTimeout(() => {
      this.#busy = false;
      if (this.#state === 'closed') return;
      this.#login(res, seq);
      while (!this.#busy && this.#queued.length > 0 && !this.#closed()) this.#step(this.#queued.shift());
    }, wait).unref();
  }

  #login(res: ReturnType<typeof readHandshakeResponse>, seq: number): void {
    const account = this.#opts.login(res.user, this.#address);
    const host = this.#address ?? 'localhost';
    this.#answered = true;
    const ok =
      account !== undefined && checkNativePassword(res.authResponse, this.#scramble, account.passwordHash);
    if (!ok) {
      this.#opts.hosts.loginFailed(this.#address, res.user);
      this.#fail(serverErrors.accessDenied(res.user, host, res.authResponse.length > 0), seq + 1);
      return;
    }
    this.#opts.hosts.loggedIn(this.#address, res.user);
    if (res.database !== undefined && !account.mayUseDatabase(res.database)) {
      this.#fail(serverErrors.dbAccessDenied(account.name, res.database), seq + 1);
      return;
    }
    if (res.database !== undefined && !account.hasDatabase(res.database)) {
      this.#fail(serverErrors.badDb(res.database), seq + 1);
      return;
    }
    this.#account = account;
    this.#capabilities = res.capabilities;
    this.#handle = this.#host.open(
      this.#opts.connectionId,
      () => this.#killed(),
      account.account,
      res.database,
      host,
    );
    this.#state = 'command';
    this.#w.reset(seq + 1);
    writeOk(this.#w);
    this.#send(this.#w.take());
    this.#idle(this.#opts.waitTimeout());
  }

  /**
   * COM_CHANGE_USER: the connection logs in again as the account the packet names, checked with
   * mysql_native_password against the scramble of this connection's greeting, as at login. On
   * success the session ends (its transaction rolls back) and a new one starts for the account in
   * the named database, so its variables, user variables and prepared statements start over. On a
   * refusal (1045; 1044 or 1049 for the database) the connection stays open and logged in as
   * before, in its database, with its session reset as COM_RESET_CONNECTION does. After three
   * refusals every further attempt is 1047 (unknown command) and changes nothing. All as MariaDB
   * 10.11 answers.
   */
  #changeUser(payload: Buffer): void {
    let req: ChangeUserRequest;
    try {
      req = readChangeUser(payload, this.#capabilities);
    } catch (e) {
      if (!(e instanceof MalformedPacketError)) throw e;
      this.#fail(serverErrors.malformed(), 1);
      return;
    }
    if (this.#changeUserRefusals >= MAX_CHANGE_USER_REFUSALS) {
      this.#w.reset(1);
      writeErr(this.#w, serverErrors.unknownCommand());
      this.#finish({ bytes: this.#w.take(), close: false, waitTimeout: this.#opts.waitTimeout() });
      return;
    }
    const host = this.#address ?? 'localhost';
    const account = this.#opts.login(req.user, this.#address);
    const db = req.database;
    const refusal =
      account === undefined || !checkNativePassword(req.authResponse, this.#scramble, account.passwordHash)
        ? serverErrors.accessDenied(req.user, host, req.authResponse.length > 0)
        : db !== undefined && !account.mayUseDatabase(db)
          ? serverErrors.dbAccessDenied(account.name, db)
          : db !== undefined && !account.hasDatabase(db)
            ? serverErrors.badDb(db)
            : undefined;
    if (refusal === undefined) {
      this.#handle!.close();
      this.#account = account!;
      this.#handle = this.#host.open(
        this.#opts.connectionId,
        () => this.#killed(),
        account!.account,
        db,
        host,
      );
      this.#w.reset(1);
      writeOk(this.#w);
      this.#finish({ bytes: this.#w.take(), close: false, waitTimeout: this.#opts.waitTimeout() });
      return;
    }
    this.#changeUserRefusals++;
    const refuse = (r: Reply): void => {
      this.#w.reset(1);
      writeErr(this.#w, refusal);
      this.#replied({ ...r, bytes: this.#w.take() });
    };
    const reset = this.#handle!.handle(Buffer.from([COM_RESET_CONNECTION]));
    if (reset instanceof Promise) {
      this.#busy = true;
      reset.then(refuse, () => this.#close());
    } else refuse(reset);
  }

  #send(bytes: Buffer): void {
    this.#conn.write(bytes);
    this.#conn.sequenceId = 0;
  }

  #fail(e: ProtocolError, seq: number): void {
    this.#w.reset(seq);
    writeErr(this.#w, e);
    this.#send(this.#w.take());
    this.#close();
  }

  #close(): void {
    if (this.#state === 'closed') return;
    this.#teardown();
    const stream = this.#conn.stream;
    stream.end();
    // a peer that never closes its side is cut off after a moment
    setTimeout(() => stream.destroy(), 1000).unref();
  }

  #teardown(): void {
    if (this.#state !== 'closed' && this.#state !== 'command' && !this.#answered)
      this.#opts.hosts.handshakeError(this.#address);
    clearTimeout(this.#handshakeTimer);
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#readTimer);
    this.#state = 'closed';
    const h = this.#handle;
    this.#handle = undefined;
    h?.close();
  }

  /** Ends the connection from the server's side (shutdown). */
  destroy(): void {
    this.#teardown();
    this.#conn.stream.destroy();
  }
}

/** MariaDB's limit of refused COM_CHANGE_USER attempts on one connection. */
const MAX_CHANGE_USER_REFUSALS = 3;

const FLUSH_HOSTS = /^\s*FLUSH\s+(?:(?:NO_WRITE_TO_BINLOG|LOCAL)\s+)?HOSTS\s*;?\s*$/i;

/** COM_QUERY `FLUSH HOSTS` (what `mariadb-admin flush-hosts` sends). */
function isFlushHosts(payload: Buffer): boolean {
  return payload[0] === COM_QUERY && payload.length < 64 && FLUSH_HOSTS.test(payload.toString('utf8', 1));
}

const KILL = /^\s*KILL\s+(?:(QUERY|CONNECTION)\s+)?(\d{1,10})\s*;?\s*$/i;

/**
 * COM_QUERY `KILL [QUERY | CONNECTION] id`, or COM_PROCESS_KILL (a connection id in 4 bytes, the
 * whole connection, as MariaDB): its target, or undefined for any other command.
 */
function killCommand(payload: Buffer): { id: number; query: boolean } | undefined {
  if (payload[0] === COM_PROCESS_KILL && payload.length === 5)
    return { id: payload.readUInt32LE(1), query: false };
  if (payload[0] !== COM_QUERY || payload.length > 64) return undefined;
  const m = KILL.exec(payload.toString('utf8', 1));
  if (m === null) return undefined;
  return { id: Number(m[2]), query: m[1]?.toUpperCase() === 'QUERY' };
}
