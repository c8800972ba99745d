import { SqlError } from '../sql/errors.js';

/** Values of a connection's interrupt word (ProcessEntry.interrupt). */
export const KILL_NONE = 0;
/** KILL QUERY: the running statement ends with 1317; the connection stays. */
export const KILL_QUERY = 1;
/** KILL CONNECTION: the running statement ends with 1927 and the connection closes. */
export const KILL_CONNECTION = 2;

/** Loop iterations between two looks at the interrupt word and the deadline (a power of two). */
export const POLL_INTERVAL = 1024;
const MASK = POLL_INTERVAL - 1;

/**
 * How a running statement learns that it must stop: its connection's interrupt word (set by KILL
 * from any thread, or by the REPL's Ctrl-C) and its max_statement_time deadline. Every loop that
 * can run long calls {@link poll} once per row or iteration; one call in {@link POLL_INTERVAL}
 * reads the word (an Atomics.load when the word is shared between threads) and the clock, and
 * throws the statement's error when it must end.
 */
export class Interrupt {
  readonly #word: () => number;
  #ticks = 0;
  /** performance.now() past which the statement ends with 1969 (0: no deadline). */
  deadline = 0;

  /** `word`: reads the connection's interrupt word (KILL_NONE, KILL_QUERY, KILL_CONNECTION). */
  constructor(word: () => number) {
    this.#word = word;
  }

  /** Counts one iteration; every POLL_INTERVAL-th looks at the word and the clock. */
  poll(): void {
    if ((++this.#ticks & MASK) === 0) this.check();
  }

  /** Throws 1317, 1927 or 1969 when the statement must end now. */
  check(): void {
    const w = this.#word();
    if (w === KILL_CONNECTION) throw connectionKilled();
    if (w === KILL_QUERY) throw queryInterrupted();
    if (this.deadline !== 0 && performance.now() >= this.deadline) throw statementTimeout();
  }

  /** A statement starts: `seconds` of max_statement_time (0: none). */
  start(seconds: number): void {
    this.#ticks = 0;
    this.deadline = seconds > 0 ? performance.now() + seconds * 1000 : 0;
  }
}

/** An Interrupt that never fires (planning-time evaluation, describe). */
export const NEVER: Interrupt = new Interrupt(() => KILL_NONE);

export function queryInterrupted(): SqlError {
  return new SqlError('ER_QUERY_INTERRUPTED', 'Query execution was interrupted');
}

export function connectionKilled(): SqlError {
  return new SqlError('ER_CONNECTION_KILLED', 'Connection was killed');
}

export function statementTimeout(): SqlError {
  return new SqlError(
    'ER_STATEMENT_TIMEOUT',
    'Query execution was interrupted (max_statement_time exceeded)',
  );
}
