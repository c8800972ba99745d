import { randomBytes } from 'node:crypto';
import { checkNativePassword } from './native-password.js';
import { type ProtocolError, serverErrors, writeErr } from './packets/err.js';
import { readHandshakeResponse, writeGreeting } from './packets/handshake.js';
import { writeOk } from './packets/ok.js';
import { DATABASE_NAME } from './protocol.js';
import type { Reply } from './command-processor.js';
import type { SessionHandle, SessionHost } from './session-host.js';
import { MalformedPacketError, PacketWriter } from './wire.js';

/** Who may connect: one user, with `mysql_native_password`'s stored hash (none: empty password). */
export interface Credentials {
  readonly user: string;
  readonly passwordHash: Buffer | undefined;
}

/** The parts of mysql2's server-side connection the server uses. */
export interface WireConnection {
  stream: {
    remoteAddress?: string | undefined;
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

export interface ConnectionOptions {
  readonly connectionId: number;
  readonly credentials: Credentials;
  readonly maxAllowedPacket: () => number;
  /** The global wait_timeout (seconds): how long a new session may idle before its first command. */
  readonly waitTimeout: () => number;
  /** Seconds a client has to complete the handshake (MySQL's connect_timeout, default 10). */
  readonly connectTimeout?: number;
}

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

  constructor(conn: WireConnection, host: SessionHost, opts: ConnectionOptions) {
    this.#conn = conn;
    this.#host = host;
    this.#opts = opts;
    this.#handshakeTimer = setTimeout(
      () => {
        if (this.#state !== 'command') this.#close();
      },
      (opts.connectTimeout ?? 10) * 1000,
    ).unref();
    conn.on('error', () => this.#teardown());
    conn.stream.on('close', () => this.#teardown());
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
    if (payload.length > this.#opts.maxAllowedPacket()) {
      this.#fail(serverErrors.packetTooLarge(), p.sequenceId + 1);
      return;
    }
    if (this.#state === 'auth') {
      this.#authenticate(payload, p.sequenceId);
      return;
    }
    if (p.sequenceId !== 0) {
      this.#fail(serverErrors.outOfOrder(), p.sequenceId + 1);
      return;
    }
    clearTimeout(this.#idleTimer);
    const reply = this.#handle!.handle(payload);
    if (reply instanceof Promise) {
      // a lock wait: read no further command until the statement has its answer
      this.#busy = true;
      reply.then(
        (r) => this.#replied(r),
        () => this.#close(),
      );
    } else this.#replied(reply);
  }

  #closed(): boolean {
    return this.#state === 'closed';
  }

  #replied(reply: Reply): void {
    this.#busy = false;
    if (this.#state === 'closed') return;
    this.#deliver(reply);
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

  /** Replies still waiting for a commit to be durable, in order. */
  #pending: Promise<void> | null = null;

  #finish(reply: Reply): void {
    if (reply.bytes.length > 0) this.#send(reply.bytes);
    if (reply.close) this.#close();
    else this.#idle(reply.waitTimeout);
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
    const { user, passwordHash } = this.#opts.credentials;
    const host = this.#conn.stream.remoteAddress ?? 'localhost';
    const ok = res.user === user && checkNativePassword(res.authResponse, this.#scramble, passwordHash);
    if (!ok) {
      this.#fail(serverErrors.accessDenied(res.user, host, res.authResponse.length > 0), seq + 1);
      return;
    }
    if (res.database !== undefined && res.database !== DATABASE_NAME) {
      this.#fail(serverErrors.badDb(res.database), seq + 1);
      return;
    }
    this.#handle = this.#host.open(this.#opts.connectionId, () => this.#close());
    this.#state = 'command';
    clearTimeout(this.#handshakeTimer);
    this.#w.reset(seq + 1);
    writeOk(this.#w);
    this.#send(this.#w.take());
    this.#idle(this.#opts.waitTimeout());
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
    clearTimeout(this.#handshakeTimer);
    clearTimeout(this.#idleTimer);
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
