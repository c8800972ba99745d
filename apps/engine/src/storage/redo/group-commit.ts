import {
  ABANDONED,
  CLOSED,
  FAILURES,
  FLUSHED,
  FLUSHED_SEQ,
  IN_FLIGHT,
  type LogShared,
  REQ_SEQ,
  REQUESTED,
  WRITTEN,
} from './log-shared.js';

interface Waiter {
  readonly lsn: bigint;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
  /** Failed flushes counted when it started waiting: a later failure rejects it. */
  readonly failures: number;
}

/** What the flusher needs from the log. */
export interface FlusherIo {
  /** Writes the log buffer to the files (takes the write mutex). */
  write(): void;
  /** The log files holding the blocks between two LSNs. */
  filesToSync(from: bigint, to: bigint): number[];
  /** fsync of those files on libuv's thread pool. */
  syncAsync(files: number[]): Promise<void>;
}

type WaitAsync = (
  i: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/**
 * Group commit across threads. One flusher, on the thread that created the log: when commits
 * wait, it lets the current turn of its event loop finish (`setImmediate`, so every session that
 * is ready appends first), writes the log and fsyncs it on libuv's thread pool; at most one such
 * fsync is in flight, and the next one covers every commit appended before it starts. Another
 * thread that waits raises the requested LSN and bumps the request word (`Atomics.notify`); the
 * flusher listens on that word with `Atomics.waitAsync`. Every thread waits for the flushed LSN on
 * the flushed-sequence word, again with `Atomics.waitAsync`, so no event loop is blocked.
 * A synchronous flush on any thread (`flushSync`) moves the flushed LSN too and wakes them all.
 */
export class GroupCommit {
  readonly creator: boolean;
  readonly #s: LogShared;
  readonly #io: FlusherIo;
  readonly #waiters: Waiter[] = [];
  /** Creator: its flusher has a write + fsync under way. */
  #inFlight = false;
  #listening = false;
  #watching = false;
  #stopped = false;
  #abortReason: Error | null = null;

  constructor(shared: LogShared, creator: boolean, io: FlusherIo) {
    this.#s = shared;
    this.creator = creator;
    this.#io = io;
  }

  /** Resolves once the log is durable up to `lsn`. */
  wait(lsn: bigint): Promise<void> {
    const s = this.#s;
    if (Atomics.load(s.b64, FLUSHED) >= lsn) return Promise.resolve();
    const refused = this.#refusal();
    if (refused !== null) return Promise.reject(refused);
    return new Promise<void>((resolve, reject) => {
      const joined =
        Atomics.load(s.i32, IN_FLIGHT) === 1 ||
        this.#waiters.length > 0 ||
        Atomics.load(s.b64, REQUESTED) > Atomics.load(s.b64, FLUSHED);
      this.#waiters.push({ lsn, resolve, reject, failures: Atomics.load(s.i32, FAILURES) });
      if (joined) s.count('Innodb_log_group_commit_joins');
      if (this.creator) {
        this.#kick();
        return;
      }
      s.raise(REQUESTED, lsn);
      Atomics.add(s.i32, REQ_SEQ, 1);
      Atomics.notify(s.i32, REQ_SEQ);
      this.#watch();
    });
  }

  /** Why a wait cannot be served any more, or null. */
  #refusal(): Error | null {
    const st = this.#s.state;
    if ((st & ABANDONED) !== 0)
      return (
        this.#abortReason ?? new Error('the redo log was abandoned by the thread that opened the database')
      );
    if ((st & CLOSED) !== 0 || this.#stopped) return new Error('the redo log is closed');
    return null;
  }

  /** Notes that the log is durable up to `lsn` (any thread, after its fsync) and wakes the waiters. */
  flushed(lsn: bigint): void {
    const s = this.#s;
    s.raise(FLUSHED, lsn);
    Atomics.add(s.i32, FLUSHED_SEQ, 1);
    Atomics.notify(s.i32, FLUSHED_SEQ);
    this.#settle();
  }

  /** Resolves the waiters the flushed LSN covers; rejects all after a failure or an abort. */
  #settle(): void {
    if (this.#waiters.length === 0) return;
    const s = this.#s;
    const flushed = Atomics.load(s.b64, FLUSHED);
    const failures = Atomics.load(s.i32, FAILURES);
    const refused = this.#refusal();
    let keep = 0;
    for (const w of this.#waiters) {
      if (w.lsn <= flushed) w.resolve();
      else if (refused !== null) w.reject(refused);
      else if (w.failures !== failures) w.reject(new Error('the redo log could not be flushed'));
      else this.#waiters[keep++] = w;
    }
    this.#waiters.length = keep;
  }

  // ------------------------------------------------------------ the flusher (creating thread)

  /** Starts serving other threads' requests (called when the log is shared). */
  listen(): void {
    if (!this.creator || this.#listening) return;
    this.#listening = true;
    const s = this.#s;
    const loop = (): void => {
      if (this.#stopped || this.#refusal() !== null) {
        this.#listening = false;
        return;
      }
      const seq = Atomics.load(s.i32, REQ_SEQ);
      this.#kick();
      const r = waitAsync(s.i32, REQ_SEQ, seq);
      if (r.async) void r.value.then(loop);
      else setImmediate(loop);
    };
    loop();
  }

  #kick(): void {
    if (this.#inFlight || this.#refusal() !== null) return;
    const s = this.#s;
    if (this.#waiters.length === 0 && Atomics.load(s.b64, REQUESTED) <= Atomics.load(s.b64, FLUSHED)) return;
    this.#inFlight = true;
    Atomics.store(s.i32, IN_FLIGHT, 1);
    // Let every session that is ready append first: the write and fsync start after this turn.
    setImmediate(() => this.#flushOnce());
  }

  #flushOnce(): void {
    const s = this.#s;
    if (this.#refusal() !== null) {
      this.#idle();
      this.#settle();
      return;
    }
    let from: bigint;
    let target: bigint;
    try {
      this.#io.write();
      target = Atomics.load(s.b64, WRITTEN);
      from = Atomics.load(s.b64, FLUSHED);
    } catch {
      this.#fail();
      return;
    }
    if (from >= target) {
      this.#idle();
      this.flushed(target);
      this.#kick();
      return;
    }
    this.#io.syncAsync(this.#io.filesToSync(from, target)).then(
      () => {
        s.count('Innodb_os_log_fsyncs');
        this.#idle();
        this.flushed(target);
        this.#kick();
      },
      () => this.#fail(),
    );
  }

  #idle(): void {
    this.#inFlight = false;
    Atomics.store(this.#s.i32, IN_FLIGHT, 0);
  }

  #fail(): void {
    const s = this.#s;
    this.#idle();
    Atomics.add(s.i32, FAILURES, 1);
    Atomics.add(s.i32, FLUSHED_SEQ, 1);
    Atomics.notify(s.i32, FLUSHED_SEQ);
    this.#settle();
  }

  // ------------------------------------------------------------ waiting on another thread

  /** Waits on the flushed-sequence word while this thread has waiters. */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const s = this.#s;
    const loop = (): void => {
      const seq = Atomics.load(s.i32, FLUSHED_SEQ);
      this.#settle();
      if (this.#waiters.length === 0) {
        this.#watching = false;
        return;
      }
      const r = waitAsync(s.i32, FLUSHED_SEQ, seq);
      if (r.async) void r.value.then(loop);
      else queueMicrotask(loop);
    };
    loop();
  }

  // ------------------------------------------------------------ the end

  /** Refuses every waiter of every thread (the database was abandoned). */
  abort(reason: Error): void {
    this.#abortReason = reason;
    this.#wakeAll();
  }

  /** This thread stops: its flusher stops listening; its waiters are refused. */
  stop(): void {
    this.#stopped = true;
    this.#wakeAll();
  }

  #wakeAll(): void {
    const s = this.#s;
    Atomics.add(s.i32, FLUSHED_SEQ, 1);
    Atomics.notify(s.i32, FLUSHED_SEQ);
    Atomics.add(s.i32, REQ_SEQ, 1);
    Atomics.notify(s.i32, REQ_SEQ);
    this.#settle();
  }
}
