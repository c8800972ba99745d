import { mutexLock, mutexUnlock } from '@enginekit/mutex-atomics';
import { RedoLogFullError } from './errors.js';
import type { Checkpoint } from './format.js';
import { GroupCommit } from './group-commit.js';
import { LogBuffer } from './log-buffer.js';
import type { LogFiles } from './log-files.js';
import {
  ABANDONED,
  CHECKPOINT_MUTEX,
  COUNTERS,
  CP_END,
  CP_LSN,
  CP_NO,
  CLOSED,
  FLUSH_SETTING,
  FLUSHED,
  LOG_MUTEX,
  LogShared,
  NEXT_TRX,
  STATE,
  WRITE_MUTEX,
  WRITTEN,
} from './log-shared.js';

/** `innodb_flush_log_at_trx_commit`. */
export type FlushLogAtTrxCommit = 0 | 1 | 2;

/** Counters of the redo log, with MySQL's names (the server's totals, over every thread). */
export interface RedoStats {
  /** Mini-transactions and commit records appended to the log buffer. */
  Innodb_log_write_requests: number;
  /** Writes of the log buffer to the log files. */
  Innodb_log_writes: number;
  /** Bytes written to the log files (whole blocks). */
  Innodb_os_log_written: number;
  /** fsyncs of the log files. */
  Innodb_os_log_fsyncs: number;
  /** Appends that had to write the log buffer out first because it was full. */
  Innodb_log_waits: number;
  /** Checkpoints written. */
  Innodb_checkpoints: number;
  /** Times an mtr found the log nearly full and flushed pages itself (the synchronous flush). */
  Innodb_log_sync_flushes: number;
  /** Pages those synchronous flushes wrote. */
  Innodb_log_sync_flush_pages: number;
  /** Commits whose durability wait joined an fsync already in flight or queued for the next one. */
  Innodb_log_group_commit_joins: number;
}

/** Where a log continues: its end, the last partial block as on disk, and the checkpoint. */
export interface LogState {
  readonly lsn: bigint;
  readonly lastBlock: Uint8Array | null;
  readonly checkpoint: Checkpoint;
}

/** What another thread needs to use the same log (`RedoLog.attach`). */
export interface RedoLogDescriptor {
  readonly buffer: SharedArrayBuffer;
  /** The log files, in group order (each thread opens its own handles). */
  readonly paths: readonly string[];
  readonly fileSize: number;
}

/**
 * The redo log's write side (`log_sys`), one for every thread of a server: the LSNs, the log
 * buffer, the checkpoint and the counters live in a SharedArrayBuffer ({@link LogShared}); each
 * thread has a RedoLog object over it with its own handles on the log files. MySQL 5.6's design:
 *
 * - {@link append} copies a mini-transaction's records into the log buffer under the log mutex
 *   (`log_sys->mutex`) and runs the caller's `onAppended` before releasing it: the mtr marks its
 *   pages dirty there, so the flush list never lacks a page of an mtr below the current LSN when
 *   the checkpoint reads the oldest modification under the same mutex (5.6's
 *   `log_flush_order_mutex`).
 * - {@link write} copies the pending blocks out of the buffer under the write mutex only (not the
 *   log mutex: appenders never wait for I/O) and writes them; {@link flushSync} adds the fsync,
 *   on any thread. {@link waitFlushed} is group commit across threads (group-commit.ts).
 * - Checkpoints run under the checkpoint mutex, from any thread ({@link fuzzyCheckpoint}).
 *
 * Lock order: checkpoint → log → (the pool's instance mutexes) → write; the write mutex's holder
 * takes nothing else, so a page write under an instance mutex may flush the log (the WAL rule).
 */
export class RedoLog {
  readonly files: LogFiles;
  /** Bytes the log may hold past the checkpoint (`log_sys->log_group_capacity` less 10%). */
  readonly capacity: bigint;
  /** Age at which the page cleaner flushes harder (`max_modified_age_async`). */
  readonly maxAgeAsync: bigint;
  /** Age at which an mtr flushes pages itself before appending (`max_modified_age_sync`). */
  readonly maxAgeSync: bigint;
  /**
   * Called when an append would take the age past {@link maxAgeSync}: flush pages (through this
   * thread's devices) and checkpoint until the age is below {@link maxAgeAsync}. Returns the pages
   * written. Set by the database on each thread.
   */
  onLogFull: ((target: bigint) => number) | null = null;

  readonly #s: LogShared;
  readonly #buf: LogBuffer;
  /** This thread's slot (bounds the threads one log serves). */
  readonly #slot: number;
  readonly #group: GroupCommit;
  /** The writer's copy of the blocks it writes. */
  #out: Uint8Array | null = null;
  #freeing = false;
  #closed = false;

  private constructor(files: LogFiles, shared: LogShared, creator: boolean) {
    this.files = files;
    this.#s = shared;
    this.#buf = new LogBuffer(shared);
    this.#slot = shared.claimSlot();
    const margin = files.capacity - files.capacity / 10n;
    this.capacity = margin;
    this.maxAgeAsync = margin - margin / 8n;
    this.maxAgeSync = margin - margin / 16n;
    this.#group = new GroupCommit(shared, creator, {
      write: () => this.write(),
      filesToSync: (from, to) => files.filesBetween(from, to),
      syncAsync: (f) => files.syncFilesAsync(f),
    });
  }

  /** A new log state continuing at `state.lsn`, created by the thread that opens the database. */
  static create(files: LogFiles, state: LogState, bufferSize: number, flush: FlushLogAtTrxCommit): RedoLog {
    const s = LogShared.create(Math.max(8 * 512, bufferSize - (bufferSize % 512)));
    const b = s.b64;
    s.setCheckpoint(state.checkpoint);
    b[NEXT_TRX] = state.checkpoint.nextTrxId;
    b[WRITTEN] = state.lsn;
    b[FLUSHED] = state.lsn;
    s.i32[FLUSH_SETTING] = flush;
    new LogBuffer(s).init(state.lsn, state.lastBlock);
    return new RedoLog(files, s, true);
  }

  /** The same log in another thread, over `files`: this thread's own handles on the log files. */
  static attach(desc: RedoLogDescriptor, files: LogFiles): RedoLog {
    if (!(desc?.buffer instanceof SharedArrayBuffer))
      throw new TypeError('desc must come from RedoLog.descriptor()');
    if (files.devices.length !== desc.paths.length || files.fileSize !== desc.fileSize)
      throw new RangeError(
        `the log files given (${files.devices.length} of ${files.fileSize} bytes) are not the group of the descriptor (${desc.paths.length} of ${desc.fileSize})`,
      );
    return new RedoLog(files, new LogShared(desc.buffer), false);
  }

  /**
   * What {@link attach} needs in another thread. From now on the flusher of this (the creating)
   * thread also serves the fsync requests of other threads.
   */
  descriptor(): RedoLogDescriptor {
    this.#group.listen();
    return {
      buffer: this.#s.sab,
      paths: this.files.devices.map((d) => d.name),
      fileSize: this.files.fileSize,
    };
  }

  /** The current LSN (end of the last mtr appended by any thread). */
  get lsn(): bigint {
    return this.#buf.lsn;
  }

  /** Log written to the files up to here. */
  get writtenLsn(): bigint {
    return Atomics.load(this.#s.b64, WRITTEN);
  }

  /** Log durable (fsynced) up to here. */
  get flushedLsn(): bigint {
    return Atomics.load(this.#s.b64, FLUSHED);
  }

  get checkpoint(): Checkpoint {
    return this.#s.checkpoint;
  }

  /** Bytes of log between the last checkpoint and the current LSN. */
  get age(): bigint {
    return this.lsn - Atomics.load(this.#s.b64, CP_LSN);
  }

  /** The counters, summed over every thread. */
  get stats(): RedoStats {
    const out = {} as Record<string, number>;
    for (const c of COUNTERS) out[c] = this.#s.counter(c);
    return out as unknown as RedoStats;
  }

  /** `innodb_flush_log_at_trx_commit`, shared by every thread; may change at run time. */
  get flushLogAtTrxCommit(): FlushLogAtTrxCommit {
    return Atomics.load(this.#s.i32, FLUSH_SETTING) as FlushLogAtTrxCommit;
  }

  set flushLogAtTrxCommit(v: FlushLogAtTrxCommit) {
    if (v !== 0 && v !== 1 && v !== 2)
      throw new RangeError(`innodb_flush_log_at_trx_commit must be 0, 1 or 2, got ${String(v)}`);
    Atomics.store(this.#s.i32, FLUSH_SETTING, v);
  }

  /**
   * Appends one mini-transaction's records (`n` bytes of `src`, ending with MLOG_MTR_END) and
   * returns its start LSN. `onAppended(start, end)` runs while the log mutex is still held (the
   * mtr marks its pages dirty there); it must take no lock but the pool's instance mutexes. A full
   * log buffer is written out first (`Innodb_log_waits`); an mtr larger than the whole buffer is
   * written out piece by piece while the log mutex is held.
   */
  append(src: Uint8Array, n: number, onAppended?: (start: bigint, end: bigint) => void): bigint {
    this.#makeRoom(n);
    const s = this.#s;
    // The LSN bytes `n` record bytes take at most (headers and trailers), and a block to spare.
    const span = BigInt(Math.ceil((n * 512) / 496)) + 1024n;
    let waited = false;
    for (;;) {
      mutexLock(s.i32, LOG_MUTEX);
      let start: bigint;
      try {
        // Never past the group's capacity from the checkpoint, whatever other threads appended
        // since this thread's check above: that would overwrite log the checkpoint still needs.
        if (this.#buf.lsn + span - Atomics.load(s.b64, CP_LSN) > this.files.capacity) start = -2n;
        else if (this.#buf.fits(n)) start = this.#buf.append(src, 0, n, true);
        else if (n > this.#buf.roomWhenWritten()) start = this.#appendHuge(src, n);
        else start = -1n;
        if (start >= 0n) {
          s.count('Innodb_log_write_requests');
          onAppended?.(start, this.#buf.lsn);
          return start;
        }
      } finally {
        mutexUnlock(s.i32, LOG_MUTEX);
      }
      if (start === -2n) {
        if (this.#freeing || this.onLogFull === null) throw this.#full();
        this.#syncFlush();
        if (this.age + span > this.files.capacity) throw this.#full();
        continue;
      }
      if (!waited) s.count('Innodb_log_waits');
      waited = true;
      this.write();
    }
  }

  /** An mtr larger than the log buffer: written out as it is copied in. REQUIRES: the log mutex. */
  #appendHuge(src: Uint8Array, n: number): bigint {
    const s = this.#s;
    mutexLock(s.i32, WRITE_MUTEX);
    try {
      this.#writeLocked();
      const start = this.#buf.lsn;
      let i = 0;
      while (i < n) {
        const k = Math.min(n - i, this.#buf.room());
        this.#buf.append(src, i, k, i === 0);
        i += k;
        this.#writeLocked();
      }
      return start;
    } finally {
      mutexUnlock(s.i32, WRITE_MUTEX);
    }
  }

  /**
   * `log_free_check`, called before an mtr takes any latch: past the sync margin, flush pages and
   * checkpoint now (the pages every mtr touches, such as tree roots, can be written only while no
   * mtr holds them).
   */
  freeCheck(): void {
    if (this.age + 8192n <= this.maxAgeSync || this.#freeing || this.onLogFull === null) return;
    this.#syncFlush();
  }

  #syncFlush(): void {
    this.#freeing = true;
    try {
      this.#s.count('Innodb_log_sync_flushes');
      this.#s.count('Innodb_log_sync_flush_pages', this.onLogFull!(this.lsn - this.maxAgeAsync));
    } finally {
      this.#freeing = false;
    }
  }

  /** The backstop before an append: the same as {@link freeCheck}, and never past the capacity. */
  #makeRoom(n: number): void {
    const after = this.age + BigInt(n) + 1024n;
    if (after <= this.maxAgeSync || this.#freeing) {
      if (after > this.capacity) throw this.#full();
      return;
    }
    if (this.onLogFull !== null) this.#syncFlush();
    if (this.age + BigInt(n) + 1024n > this.capacity) throw this.#full();
  }

  #full(): RedoLogFullError {
    const cp = Atomics.load(this.#s.b64, CP_LSN);
    return new RedoLogFullError(
      `the redo log is full: ${this.age} bytes since the checkpoint at ${cp}, capacity ${this.capacity}`,
    );
  }

  /** Resolves when a commit at `lsn` may be acknowledged under `innodb_flush_log_at_trx_commit`. */
  waitCommitted(lsn: bigint): Promise<void> {
    return this.flushLogAtTrxCommit === 1 ? this.waitFlushed(lsn) : Promise.resolve();
  }

  /** {@link waitCommitted} for a synchronous caller: with 1 it writes and fsyncs on the spot. */
  commitSync(lsn: bigint): void {
    if (this.flushLogAtTrxCommit === 1) this.flushSync(lsn);
  }

  /** Writes the log buffer to the files (`log_write_up_to` without the flush), from any thread. */
  write(): void {
    const s = this.#s;
    mutexLock(s.i32, WRITE_MUTEX);
    try {
      this.#writeLocked();
    } finally {
      mutexUnlock(s.i32, WRITE_MUTEX);
    }
  }

  /** REQUIRES: the write mutex. */
  #writeLocked(): void {
    const s = this.#s;
    const to = this.#buf.lsn;
    const from = Atomics.load(s.b64, WRITTEN);
    if (from === to) return;
    // The copy grows to what this thread writes at once (up to the whole buffer).
    const need = Number((to - (to % 512n) - (from - (from % 512n))) / 512n + 1n) * 512;
    if (this.#out === null || this.#out.length < need)
      this.#out = new Uint8Array(Math.min(this.#buf.size, Math.max(need, 2 * (this.#out?.length ?? 4096))));
    const count = this.#buf.copyOut(from, to, this.#out);
    this.files.writeBlocks(from - (from % 512n), this.#out, 0, count);
    Atomics.store(s.b64, WRITTEN, to);
    s.count('Innodb_log_writes');
    s.count('Innodb_os_log_written', count * 512);
  }

  /**
   * Makes the log durable up to at least `lsn` now (write + fsync), blocking the thread: the WAL
   * rule of every thread's page writes, checkpoints, synchronous commits. Callers that arrive
   * while another thread's flush runs wait for it and usually find their LSN covered.
   */
  flushSync(lsn: bigint = this.lsn): void {
    const s = this.#s;
    if (Atomics.load(s.b64, FLUSHED) >= lsn) return;
    mutexLock(s.i32, WRITE_MUTEX);
    try {
      const from = Atomics.load(s.b64, FLUSHED);
      if (from >= lsn) return;
      this.#writeLocked();
      const target = Atomics.load(s.b64, WRITTEN);
      this.files.syncFiles(this.files.filesBetween(from, target));
      s.count('Innodb_os_log_fsyncs');
      this.#group.flushed(target);
    } finally {
      mutexUnlock(s.i32, WRITE_MUTEX);
    }
  }

  /**
   * Resolves once the log is durable up to `lsn`, on any thread, without blocking its event loop:
   * group commit (see group-commit.ts). Rejects once the database is abandoned.
   */
  waitFlushed(lsn: bigint): Promise<void> {
    return this.#group.wait(lsn);
  }

  /**
   * A fuzzy checkpoint (`log_checkpoint`) from any thread, under the checkpoint mutex: at the
   * oldest modification of any dirty page (`oldest()`, read under the log mutex, so no mtr below
   * the LSN read there is missing from the flush list), or the current LSN when none. `syncData` makes every page written so
   * far durable (all threads' doublewrite batches, then the data file); then the log is flushed to
   * the LSN read and the slot written.
   */
  fuzzyCheckpoint(oldest: () => bigint, syncData: () => void): void {
    const s = this.#s;
    mutexLock(s.i32, CHECKPOINT_MUTEX);
    try {
      let end: bigint;
      let lsn: bigint;
      mutexLock(s.i32, LOG_MUTEX);
      try {
        end = this.#buf.lsn;
        const o = oldest();
        lsn = o === 0n || o > end ? end : o;
      } finally {
        mutexUnlock(s.i32, LOG_MUTEX);
      }
      const cp = Atomics.load(s.b64, CP_LSN);
      if (lsn < cp) lsn = cp;
      // Nothing new: neither the checkpoint nor the end it records would move.
      if (lsn === cp && end === Atomics.load(s.b64, CP_END)) return;
      syncData();
      this.#writeCheckpoint(lsn, end, false);
    } finally {
      mutexUnlock(s.i32, CHECKPOINT_MUTEX);
    }
  }

  /**
   * Writes a checkpoint at `lsn`, recording the current LSN as its end. REQUIRES: every page
   * change before `lsn` is in the data file and the data file is synced; `lsn` is an mtr boundary
   * ≤ the current LSN. Flushes the whole log first, so the end LSN the checkpoint records is
   * durable (recovery treats a bad block before it as corruption).
   */
  writeCheckpoint(lsn: bigint, clean = false): void {
    const s = this.#s;
    mutexLock(s.i32, CHECKPOINT_MUTEX);
    try {
      this.#writeCheckpoint(lsn, this.lsn, clean);
    } finally {
      mutexUnlock(s.i32, CHECKPOINT_MUTEX);
    }
  }

  /** REQUIRES: the checkpoint mutex. */
  #writeCheckpoint(lsn: bigint, end: bigint, clean: boolean): void {
    const s = this.#s;
    const b = s.b64;
    this.flushSync(end);
    const cp: Checkpoint = {
      no: Atomics.load(b, CP_NO) + 1n,
      lsn,
      endLsn: end,
      nextTrxId: Atomics.load(b, NEXT_TRX),
      clean,
    };
    this.files.writeCheckpoint(cp);
    this.files.sync();
    s.setCheckpoint(cp);
    s.count('Innodb_checkpoints');
  }

  /** Every waiter of every thread is refused (the database is abandoned). */
  abort(reason: Error): void {
    Atomics.or(this.#s.i32, STATE, ABANDONED);
    this.#group.abort(reason);
  }

  /**
   * This thread is done with the log: its slot is given back, its flusher (on the creating
   * thread) stops serving other threads, and its handles on the log files are closed.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#group.creator) Atomics.or(this.#s.i32, STATE, CLOSED);
    this.#group.stop();
    this.#s.releaseSlot(this.#slot);
    this.files.close();
  }
}
