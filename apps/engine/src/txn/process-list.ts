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
  /** KILL CONNECTION (query = false) or KILL QUERY (query = true). */
  kill(query: boolean): void;
}

export class ProcessList {
  readonly #entries = new Map<number, ProcessEntry>();
  #nextId = 1;

  /** A new connection id (MySQL's thread id). */
  allocateId(): number {
    return this.#nextId++;
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

  /** Every entry, by id. */
  list(): ProcessEntry[] {
    return [...this.#entries.values()].sort((a, b) => a.id - b.id);
  }

  /** Sessions running a statement or waiting in one (Threads_running). */
  running(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (e.command === 'Query') n++;
    return n;
  }
}
