import { KILL_NONE, KILL_QUERY } from '../exec/interrupt.js';

/**
 * The sessions of a database as SHOW PROCESSLIST and information_schema.PROCESSLIST show them,
 * and the way KILL reaches one. Connection ids come from here, so server connections and API
 * sessions never share one.
 */
export interface ProcessEntry {
  readonly id: number;
  user: string;
  host: string;
  /** 'Sleep' between statements, 'Query' while one runs or waits for a lock. */
  command: 'Sleep' | 'Query';
  /** Date.now() when the command (or the idle time) began. */
  since: number;
  state: string;
  /** The statement running or waiting, else null. */
  info: string | null;
  /** The connection's current database (the process list's `db`), null when none is chosen. */
  readonly db: () => string | null;
  /**
   * The connection's interrupt word (exec/interrupt.ts: KILL_NONE, KILL_QUERY, KILL_CONNECTION),
   * which the running statement polls. A KILL raises it; only the session's next statement lowers
   * it, and only from KILL_QUERY.
   */
  readonly interrupt: number;
  /** Raises the interrupt word to `kind` (never lowers it): KILL_QUERY or KILL_CONNECTION. */
  raise(kind: number): void;
  /** Lowers a KILL_QUERY left from before this statement (a KILL_CONNECTION stays). */
  resetQueryKill(): void;
  /**
   * KILL CONNECTION (query = false) or KILL QUERY (query = true), from any session: raises the
   * interrupt word, ends a lock wait and, for a connection, closes it.
   */
  kill(query: boolean): void;
}

/** Where a ProcessEntry's interrupt word lives when it is not shared between threads. */
export class LocalInterruptWord implements InterruptWord {
  value: number = KILL_NONE;

  /** Raises the word to `kind` (never lowers it). */
  raise(kind: number): void {
    if (kind > this.value) this.value = kind;
  }

  resetQuery(): void {
    if (this.value === KILL_QUERY) this.value = KILL_NONE;
  }
}

/** A session's interrupt word as its process entry reads and raises it. */
export interface InterruptWord {
  readonly value: number;
  raise(kind: number): void;
  resetQuery(): void;
}

/**
 * An interrupt word in shared memory (`word[0]`), for a session run on a worker thread whose
 * statements another thread interrupts: `enginekit sql`'s prompt raises it on Ctrl-C while the
 * worker runs the statement.
 */
export class SharedInterruptWord implements InterruptWord {
  readonly #word: Int32Array;

  constructor(word: Int32Array) {
    this.#word = word;
  }

  get value(): number {
    return Atomics.load(this.#word, 0);
  }

  raise(kind: number): void {
    raiseWord(this.#word, kind);
  }

  resetQuery(): void {
    Atomics.compareExchange(this.#word, 0, KILL_QUERY, KILL_NONE);
  }
}

/** Raises the shared interrupt word `word[0]` to `kind` (never lowers it). */
export function raiseWord(word: Int32Array, kind: number): void {
  for (;;) {
    const v = Atomics.load(word, 0);
    if (v >= kind || Atomics.compareExchange(word, 0, v, kind) === v) return;
  }
}

/** The sessions of a database; one per thread, or one every thread of a server shares. */
export interface ProcessList {
  /** A new connection id (MySQL's thread id). */
  allocateId(): number;
  /** Lists a session (its entry is updated in place as it runs). */
  add(e: ProcessEntry): void;
  remove(id: number): void;
  /** The session `id`, on this thread or (a shared list) any other. */
  get(id: number): ProcessEntry | undefined;
  /** Every entry, by id. */
  list(): ProcessEntry[];
  /** Sessions running a statement or waiting in one (Threads_running). */
  running(): number;
}

/** The process list of the sessions of one thread. */
export class LocalProcessList implements ProcessList {
  readonly #entries = new Map<number, ProcessEntry>();
  #nextId = 1;

  allocateId(): number {
    return this.#nextId++;
  }

  /** The id allocateId gives next (a shared list that takes over starts there). */
  get nextId(): number {
    return this.#nextId;
  }

  add(e: ProcessEntry): void {
    if (e.id >= this.#nextId) this.#nextId = e.id + 1;
    this.#entries.set(e.id, e);
  }

  remove(id: number): void {
    this.#entries.delete(id);
  }

  get(id: number): ProcessEntry | undefined {
    return this.#entries.get(id);
  }

  list(): ProcessEntry[] {
    return [...this.#entries.values()].sort((a, b) => a.id - b.id);
  }

  running(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (e.command === 'Query') n++;
    return n;
  }

  /** The entries, for a shared list that takes over this thread's sessions. */
  entries(): ProcessEntry[] {
    return [...this.#entries.values()];
  }
}
