/**
 * What the server remembers per client address, as MySQL's host cache and its
 * connection_control plugin do:
 *
 * - **Handshake errors** (`max_connect_errors`): a connection from an address that ends before
 *   logging in — it sent no handshake response within `connect_timeout`, a malformed or oversized
 *   one, or closed — counts one error for that address; a successful login sets the count back to
 *   0. An address with `max_connect_errors` errors in a row is blocked: its next connections get
 *   1129 instead of the greeting until FLUSH HOSTS. Wrong passwords do not count here (as in
 *   MySQL and MariaDB, whose host cache counts handshake errors only).
 * - **Failed logins** (connection_control): consecutive wrong passwords per user and address. From
 *   the `connection_control_failed_connections_threshold`-th failure on, every further attempt of
 *   that user from that address waits before its answer: `min_delay` for the first attempt past
 *   the threshold, growing by a second per further failure, at most `max_delay` (MySQL's
 *   `connection_control_min_connection_delay` and `…_max_connection_delay`, in milliseconds). A
 *   successful login clears it. MariaDB has no such delay; MySQL's plugin is followed because it
 *   slows a password search from one address without locking the account out.
 *
 * Loopback addresses (127.0.0.0/8, ::1) and unix-socket connections are never counted, as in
 * MySQL and MariaDB, whose host cache skips them: a local process that misbehaves cannot lock
 * out the local clients. `countLoopback` counts them anyway (a server behind a local proxy).
 */
export class HostCache {
  readonly #errors = new Map<string, number>();
  readonly #failures = new Map<string, number>();
  readonly #countLoopback: boolean;
  /** Entries kept at most (MySQL's host_cache_size default); the oldest goes first. */
  static readonly SIZE = 628;

  constructor(countLoopback = false) {
    this.#countLoopback = countLoopback;
  }

  #counted(address: string | undefined): address is string {
    return address !== undefined && (this.#countLoopback || !isLoopback(address));
  }

  /** Whether connections from `address` are refused (1129). */
  blocked(address: string | undefined, maxConnectErrors: number): boolean {
    if (!this.#counted(address)) return false;
    return (this.#errors.get(address) ?? 0) >= maxConnectErrors;
  }

  /** A connection from `address` ended before logging in. */
  handshakeError(address: string | undefined): void {
    if (!this.#counted(address)) return;
    bump(this.#errors, address);
  }

  /** A login succeeded: the address's and the account's counts start over. */
  loggedIn(address: string | undefined, user: string): void {
    if (address === undefined) return;
    this.#errors.delete(address);
    this.#failures.delete(`${user}@${address}`);
  }

  /** A wrong password for `user` from `address`. */
  loginFailed(address: string | undefined, user: string): void {
    if (!this.#counted(address)) return;
    bump(this.#failures, `${user}@${address}`);
  }

  /** How long (ms) the next login answer for `user` from `address` waits. */
  delay(address: string | undefined, user: string, c: ConnectionControl): number {
    if (!this.#counted(address)) return 0;
    const failed = this.#failures.get(`${user}@${address}`) ?? 0;
    if (failed < c.threshold || c.threshold === 0) return 0;
    const grown = (failed - c.threshold + 1) * 1000;
    return Math.min(Math.max(grown, c.minDelay), c.maxDelay);
  }

  /** FLUSH HOSTS: every address unblocked and every count dropped. */
  flush(): void {
    this.#errors.clear();
    this.#failures.clear();
  }

  /** Handshake errors counted for `address` (0 when none). */
  errorsOf(address: string): number {
    return this.#errors.get(address) ?? 0;
  }
}

/** The connection_control settings, read from the global variables. */
export interface ConnectionControl {
  readonly threshold: number;
  readonly minDelay: number;
  readonly maxDelay: number;
}

function bump(m: Map<string, number>, key: string): void {
  const n = (m.get(key) ?? 0) + 1;
  m.delete(key);
  m.set(key, n);
  if (m.size > HostCache.SIZE) m.delete(m.keys().next().value as string);
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms. */
export function isLoopback(address: string): boolean {
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || a.startsWith('127.') || a === 'localhost';
}
