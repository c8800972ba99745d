import { KILL_CONNECTION, KILL_NONE, KILL_QUERY } from '../exec/interrupt.js';
import type { ProcessEntry, ProcessList } from '../txn/process-list.js';

/**
 * The process list of a server whose sessions run on several threads, in one SharedArrayBuffer
 * every thread reads and writes: SHOW PROCESSLIST on any thread lists every connection, and KILL
 * on any thread reaches any of them.
 *
 * After a 64-byte header (Int32 0: the next connection id, 1: the slot count) come fixed slots of
 * {@link SLOT_BYTES}, one per session:
 *
 * | bytes | meaning |
 * |---|---|
 * | 0 | connection id (0: the slot is free; taken by compare-and-swap) |
 * | 4 | sequence: odd while the owner rewrites the slot, so a reader retries |
 * | 8 | the worker that runs the session (-1: the main thread) |
 * | 12 | command: 0 Sleep, 1 Query |
 * | 16 | the interrupt word (exec/interrupt.ts), raised by KILL from any thread |
 * | 20 … 39 | byte lengths of user, host, state, info and db (-1: NULL) |
 * | 40 | since (Float64, Date.now()) |
 * | 64, 192, 320, 384, 512 | user (128 bytes), host (128), state (64), db (128), info (the rest, {@link INFO_BYTES}) |
 *
 * Only the thread that owns a session writes its slot (bar the interrupt word); longer text is cut
 * at a character boundary.
 */
const HEADER = 64;
export const SLOT_BYTES = 1536;
const ID = 0;
const SEQ = 1;
const WORKER = 2;
const COMMAND = 3;
const WORD = 4;
const LENS = 5; // user, host, state, info, db
const SINCE = 40;
const TEXT = [64, 192, 320, 512, 384] as const;
const CAP = [128, 128, 64, SLOT_BYTES - 512, 128] as const;
/** The most bytes of a statement's text the list keeps (SHOW FULL PROCESSLIST shows no more). */
export const INFO_BYTES: number = CAP[3];

type TextField = 0 | 1 | 2 | 3 | 4;

interface Bound {
  readonly entry: ProcessEntry;
  readonly slot: number;
}

export class SharedProcessList implements ProcessList {
  readonly sab: SharedArrayBuffer;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #u8: Uint8Array;
  readonly #slots: number;
  readonly #worker: number;
  readonly #route: (id: number, query: boolean) => void;
  /** Sessions of this thread, by id. */
  readonly #own = new Map<number, Bound>();

  /** A new list of `slots` sessions whose first connection id is `firstId`. */
  static create(slots: number, firstId: number): SharedArrayBuffer {
    const sab = new SharedArrayBuffer(HEADER + slots * SLOT_BYTES);
    const h = new Int32Array(sab, 0, 2);
    h[0] = firstId;
    h[1] = slots;
    return sab;
  }

  /**
   * This thread's view. `worker`: the thread (-1: the main thread). `route`: asks the thread that
   * owns session `id` to finish a KILL this thread raised (end its lock wait, close its connection).
   */
  constructor(sab: SharedArrayBuffer, worker: number, route: (id: number, query: boolean) => void) {
    this.sab = sab;
    this.#i32 = new Int32Array(sab);
    this.#f64 = new Float64Array(sab);
    this.#u8 = new Uint8Array(sab);
    this.#slots = this.#i32[1]!;
    this.#worker = worker;
    this.#route = route;
  }

  allocateId(): number {
    return Atomics.add(this.#i32, 0, 1);
  }

  #base(slot: number): number {
    return (HEADER + slot * SLOT_BYTES) / 4;
  }

  #find(id: number): number {
    for (let s = 0; s < this.#slots; s++) if (Atomics.load(this.#i32, this.#base(s) + ID) === id) return s;
    return -1;
  }

  /**
   * Takes a slot for connection `id` of `user`@`host`, run by `worker`, before its session starts
   * (the main thread, when it gives the connection to a worker). False when every slot is taken.
   */
  claim(id: number, user: string, host: string, worker: number, db: string | null = null): boolean {
    for (let s = 0; s < this.#slots; s++) {
      const b = this.#base(s);
      if (Atomics.compareExchange(this.#i32, b + ID, 0, id) !== 0) continue;
      this.#write(s, () => {
        this.#i32[b + WORKER] = worker;
        this.#i32[b + COMMAND] = 0;
        Atomics.store(this.#i32, b + WORD, KILL_NONE);
        this.#f64[(b * 4 + SINCE) / 8] = Date.now();
        this.#text(s, 0, user);
        this.#text(s, 1, host);
        this.#text(s, 2, '');
        this.#text(s, 3, null);
        this.#text(s, 4, db);
      });
      return true;
    }
    return false;
  }

  /** Frees the slot of a connection whose session never started (its worker is gone). */
  release(id: number): void {
    if (this.#own.has(id)) return;
    const s = this.#find(id);
    if (s >= 0) Atomics.store(this.#i32, this.#base(s) + ID, 0);
  }

  add(e: ProcessEntry): void {
    let s = this.#find(e.id);
    if (s < 0) {
      if (!this.claim(e.id, e.user, e.host, this.#worker, e.db()))
        throw new Error(`the process list is full: ${this.#slots} sessions`);
      s = this.#find(e.id);
    }
    this.#bind(e, s);
    this.#own.set(e.id, { entry: e, slot: s });
  }

  /** Makes `e`'s fields write through to slot `s`, and its interrupt word the shared one. */
  #bind(e: ProcessEntry, s: number): void {
    const b = this.#base(s);
    const i32 = this.#i32;
    const f64 = this.#f64;
    const snap = this.#read(s);
    const shadow = {
      user: snap?.user ?? e.user,
      host: snap?.host ?? e.host,
      command: e.command,
      since: e.since,
      state: e.state,
      info: e.info,
    };
    this.#write(s, () => {
      i32[b + WORKER] = this.#worker;
      i32[b + COMMAND] = shadow.command === 'Query' ? 1 : 0;
      f64[(b * 4 + SINCE) / 8] = shadow.since;
      this.#text(s, 2, shadow.state);
      this.#text(s, 3, shadow.info);
    });
    const field = <K extends keyof typeof shadow>(name: K, put: (v: (typeof shadow)[K]) => void): void => {
      Object.defineProperty(e, name, {
        configurable: true,
        enumerable: true,
        get: () => shadow[name],
        set: (v: (typeof shadow)[K]) => {
          shadow[name] = v;
          this.#write(s, () => put(v));
        },
      });
    };
    field('user', (v) => this.#text(s, 0, v));
    field('host', (v) => this.#text(s, 1, v));
    // a statement starts or ends: the database it leaves the session in (USE) is shown too
    field('command', (v) => {
      i32[b + COMMAND] = v === 'Query' ? 1 : 0;
      this.#text(s, 4, e.db());
    });
    field('since', (v) => {
      f64[(b * 4 + SINCE) / 8] = v;
    });
    field('state', (v) => this.#text(s, 2, v));
    field('info', (v) => this.#text(s, 3, v));
    Object.defineProperty(e, 'interrupt', {
      configurable: true,
      enumerable: true,
      get: () => Atomics.load(i32, b + WORD),
    });
    Object.defineProperty(e, 'raise', { configurable: true, value: (kind: number) => this.#raise(s, kind) });
    Object.defineProperty(e, 'resetQueryKill', {
      configurable: true,
      value: () => Atomics.compareExchange(i32, b + WORD, KILL_QUERY, KILL_NONE),
    });
  }

  #raise(s: number, kind: number): void {
    const at = this.#base(s) + WORD;
    for (;;) {
      const cur = Atomics.load(this.#i32, at);
      if (cur >= kind) return;
      if (Atomics.compareExchange(this.#i32, at, cur, kind) === cur) return;
    }
  }

  remove(id: number): void {
    const own = this.#own.get(id);
    if (own === undefined) return;
    this.#own.delete(id);
    Atomics.store(this.#i32, this.#base(own.slot) + ID, 0);
  }

  get(id: number): ProcessEntry | undefined {
    const own = this.#own.get(id);
    if (own !== undefined) return own.entry;
    const s = this.#find(id);
    return s < 0 ? undefined : this.#remote(s);
  }

  list(): ProcessEntry[] {
    const out: ProcessEntry[] = [];
    for (let s = 0; s < this.#slots; s++) {
      const e = this.#remote(s);
      if (e !== undefined) out.push(e);
    }
    return out.sort((a, b) => a.id - b.id);
  }

  running(): number {
    let n = 0;
    for (let s = 0; s < this.#slots; s++) {
      const b = this.#base(s);
      if (Atomics.load(this.#i32, b + ID) !== 0 && Atomics.load(this.#i32, b + COMMAND) === 1) n++;
    }
    return n;
  }

  /** The worker that runs session `id` (-1: the main thread; undefined: no such session). */
  workerOf(id: number): number | undefined {
    const s = this.#find(id);
    return s < 0 ? undefined : Atomics.load(this.#i32, this.#base(s) + WORKER);
  }

  /** Session `id` as it is now, as an entry whose KILL raises its word and asks its owner to finish. */
  #remote(s: number): ProcessEntry | undefined {
    const r = this.#read(s);
    if (r === undefined) return undefined;
    const id = r.id;
    const raise = (kind: number): void => {
      if (Atomics.load(this.#i32, this.#base(s) + ID) === id) this.#raise(s, kind);
    };
    return {
      id,
      user: r.user,
      host: r.host,
      command: r.command,
      since: r.since,
      state: r.state,
      info: r.info,
      db: () => r.db,
      interrupt: r.interrupt,
      raise,
      resetQueryKill: () => undefined,
      kill: (query) => {
        raise(query ? KILL_QUERY : KILL_CONNECTION);
        this.#route(id, query);
      },
    };
  }

  /** A consistent copy of slot `s` (undefined: free). */
  #read(s: number):
    | {
        id: number;
        user: string;
        host: string;
        command: 'Sleep' | 'Query';
        since: number;
        state: string;
        info: string | null;
        db: string | null;
        interrupt: number;
      }
    | undefined {
    const b = this.#base(s);
    const i32 = this.#i32;
    for (;;) {
      const seq = Atomics.load(i32, b + SEQ);
      if ((seq & 1) === 1) continue;
      const id = Atomics.load(i32, b + ID);
      if (id === 0) return undefined;
      const r = {
        id,
        user: this.#textOf(s, 0) ?? '',
        host: this.#textOf(s, 1) ?? '',
        command: (i32[b + COMMAND] === 1 ? 'Query' : 'Sleep') as 'Sleep' | 'Query',
        since: this.#f64[(b * 4 + SINCE) / 8]!,
        state: this.#textOf(s, 2) ?? '',
        info: this.#textOf(s, 3),
        db: this.#textOf(s, 4),
        interrupt: Atomics.load(i32, b + WORD),
      };
      if (Atomics.load(i32, b + SEQ) === seq) return r;
    }
  }

  #write(s: number, f: () => void): void {
    const at = this.#base(s) + SEQ;
    Atomics.add(this.#i32, at, 1);
    try {
      f();
    } finally {
      Atomics.add(this.#i32, at, 1);
    }
  }

  #text(s: number, field: TextField, v: string | null): void {
    const lenAt = this.#base(s) + LENS + field;
    if (v === null) {
      this.#i32[lenAt] = -1;
      return;
    }
    const bytes = Buffer.from(v, 'utf8');
    let n = Math.min(bytes.length, CAP[field]);
    // cut at a character boundary
    if (n < bytes.length) while (n > 0 && (bytes[n]! & 0xc0) === 0x80) n--;
    const at = HEADER + s * SLOT_BYTES + TEXT[field];
    this.#u8.set(bytes.subarray(0, n), at);
    this.#i32[lenAt] = n;
  }

  #textOf(s: number, field: TextField): string | null {
    const n = this.#i32[this.#base(s) + LENS + field]!;
    if (n < 0) return null;
    const at = HEADER + s * SLOT_BYTES + TEXT[field];
    return Buffer.from(this.#u8.slice(at, at + Math.min(n, CAP[field]))).toString('utf8');
  }
}
