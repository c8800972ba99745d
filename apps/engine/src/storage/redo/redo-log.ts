import { RedoLogFullError } from './errors.js';
import { type Checkpoint, MLOG_MTR_END, MLOG_TRX_COMMIT, writeU64 } from './format.js';
import { LogBuffer } from './log-buffer.js';
import type { LogFiles } from './log-files.js';

/** `innodb_flush_log_at_trx_commit`. */
export type FlushLogAtTrxCommit = 0 | 1 | 2;

/** Counters of the redo log, with MySQL's names. */
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

interface Waiter {
  readonly lsn: bigint;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

/** Where a log continues: its end, the last partial block as on disk, and the checkpoint. */
export interface LogState {
  readonly lsn: bigint;
  readonly lastBlock: Uint8Array | null;
  readonly checkpoint: Checkpoint;
}

/**
 * The redo log's write side (`log_sys`): the log buffer, writing it to the files, fsync with group
 * commit, commit records, checkpoints, and the margins of `log_calc_max_ages`. One per database,
 * used from the thread that owns the database.
 */
export class RedoLog {
  readonly files: LogFiles;
  readonly stats: RedoStats = {
    Innodb_log_write_requests: 0,
    Innodb_log_writes: 0,
    Innodb_os_log_written: 0,
    Innodb_os_log_fsyncs: 0,
    Innodb_log_waits: 0,
    Innodb_checkpoints: 0,
    Innodb_log_sync_flushes: 0,
    Innodb_log_sync_flush_pages: 0,
    Innodb_log_group_commit_joins: 0,
  };
  /** `innodb_flush_log_at_trx_commit`; may change at run time. */
  flushLogAtTrxCommit: FlushLogAtTrxCommit;
  /** Bytes the log may hold past the checkpoint (`log_sys->log_group_capacity` less 10%). */
  readonly capacity: bigint;
  /** Age at which the page cleaner flushes harder (`max_modified_age_async`). */
  readonly maxAgeAsync: bigint;
  /** Age at which an mtr flushes pages itself before appending (`max_modified_age_sync`). */
  readonly maxAgeSync: bigint;
  /**
   * Called when an append would take the age past {@link maxAgeSync}: flush pages and checkpoint
   * until the age is below {@link maxAgeAsync}. Returns the pages written. Set by the database.
   */
  onLogFull: ((target: bigint) => number) | null = null;

  readonly #buf: LogBuffer;
  #written: bigint;
  #flushed: bigint;
  #cp: Checkpoint;
  #nextTrx: bigint;
  /** Transactions with undo records and no commit yet → LSN of their first undo record. */
  readonly #open = new Map<bigint, bigint>();
  #inFlight = false;
  /** Set by {@link abort}: the files are closing, nothing more is written. */
  #aborted = false;
  readonly #waiters: Waiter[] = [];
  readonly #commitRec = new Uint8Array(10);
  #freeing = false;

  constructor(files: LogFiles, state: LogState, bufferSize: number, flush: FlushLogAtTrxCommit) {
    this.files = files;
    this.flushLogAtTrxCommit = flush;
    this.#buf = new LogBuffer(bufferSize, state.lsn, state.lastBlock);
    this.#buf.checkpointNo = Number(state.checkpoint.no & 0xffffffffn);
    this.#written = state.lsn;
    this.#flushed = state.lsn;
    this.#cp = state.checkpoint;
    this.#nextTrx = state.checkpoint.nextTrxId;
    const margin = files.capacity - files.capacity / 10n;
    this.capacity = margin;
    this.maxAgeAsync = margin - margin / 8n;
    this.maxAgeSync = margin - margin / 16n;
  }

  /** The current LSN (end of the last mtr appended). */
  get lsn(): bigint {
    return this.#buf.lsn;
  }

  /** Log written to the files up to here. */
  get writtenLsn(): bigint {
    return this.#written;
  }

  /** Log durable (fsynced) up to here. */
  get flushedLsn(): bigint {
    return this.#flushed;
  }

  get checkpoint(): Checkpoint {
    return this.#cp;
  }

  /** Bytes of log between the last checkpoint and the current LSN. */
  get age(): bigint {
    return this.lsn - this.#cp.lsn;
  }

  /** A new transaction id, unique across restarts (the checkpoint carries the next one). */
  newTrxId(): bigint {
    return this.#nextTrx++;
  }

  /** Notes an id handed out elsewhere (recovery saw it in the log). */
  noteTrxId(id: bigint): void {
    if (id >= this.#nextTrx) this.#nextTrx = id + 1n;
  }

  /**
   * Appends one mini-transaction's records (`n` bytes of `src`, ending with MLOG_MTR_END) and
   * returns its start LSN; {@link lsn} is then its end.
   */
  append(src: Uint8Array, n: number): bigint {
    this.#makeRoom(n);
    if (!this.#buf.fits(n)) {
      this.stats.Innodb_log_waits++;
      this.write();
      if (!this.#buf.fits(n)) this.#buf.grow(n);
    }
    this.stats.Innodb_log_write_requests++;
    return this.#buf.append(src, n);
  }

  /**
   * `log_free_check`, called before an mtr takes any latch: past the sync margin, flush pages and
   * checkpoint now (the pages every mtr touches, such as tree roots, can be written only while no
   * mtr holds them).
   */
  freeCheck(): void {
    if (this.age + 8192n <= this.maxAgeSync || this.#freeing || this.onLogFull === null) return;
    this.#freeing = true;
    try {
      this.stats.Innodb_log_sync_flushes++;
      this.stats.Innodb_log_sync_flush_pages += this.onLogFull(this.lsn - this.maxAgeAsync);
    } finally {
      this.#freeing = false;
    }
  }

  /** The backstop inside an append: the same as {@link freeCheck}, and never past the capacity. */
  #makeRoom(n: number): void {
    const after = this.age + BigInt(n) + 1024n;
    if (after <= this.maxAgeSync || this.#freeing) {
      if (after > this.capacity) throw this.#full();
      return;
    }
    if (this.onLogFull !== null) {
      this.#freeing = true;
      try {
        this.stats.Innodb_log_sync_flushes++;
        this.stats.Innodb_log_sync_flush_pages += this.onLogFull(this.lsn - this.maxAgeAsync);
      } finally {
        this.#freeing = false;
      }
    }
    if (this.age + BigInt(n) + 1024n > this.capacity) throw this.#full();
  }

  #full(): RedoLogFullError {
    return new RedoLogFullError(
      `the redo log is full: ${this.age} bytes since the checkpoint at ${this.#cp.lsn}, capacity ${this.capacity}` +
        (this.#open.size > 0
          ? `; ${this.#open.size} uncommitted transaction(s) hold the checkpoint back`
          : ''),
    );
  }

  /** Notes the first undo record of `trxId` at `lsn` (the checkpoint stays at or before it). */
  noteUndo(trxId: bigint, lsn: bigint): void {
    if (!this.#open.has(trxId)) this.#open.set(trxId, lsn);
    this.noteTrxId(trxId);
  }

  /** The LSN of the first undo record of the oldest open transaction, or null. */
  oldestOpenUndo(): bigint | null {
    let min: bigint | null = null;
    for (const l of this.#open.values()) if (min === null || l < min) min = l;
    return min;
  }

  /**
   * Appends `trxId`'s commit record (its own mini-transaction) and returns its end LSN: the
   * transaction is durable once the log is flushed there. With `innodb_flush_log_at_trx_commit=2`
   * the log is written to the files (not synced) here. Then wait with {@link waitCommitted} (or
   * {@link commitSync} on a synchronous path).
   */
  commit(trxId: bigint): bigint {
    const r = this.#commitRec;
    r[0] = MLOG_TRX_COMMIT;
    writeU64(r, 1, trxId);
    r[9] = MLOG_MTR_END;
    this.append(r, 10);
    this.#open.delete(trxId);
    this.noteTrxId(trxId);
    if (this.flushLogAtTrxCommit === 2) this.write();
    return this.lsn;
  }

  /** Resolves when a commit at `lsn` may be acknowledged under `innodb_flush_log_at_trx_commit`. */
  waitCommitted(lsn: bigint): Promise<void> {
    return this.flushLogAtTrxCommit === 1 ? this.waitFlushed(lsn) : Promise.resolve();
  }

  /** {@link waitCommitted} for a synchronous caller: with 1 it writes and fsyncs on the spot. */
  commitSync(lsn: bigint): void {
    if (this.flushLogAtTrxCommit === 1) this.flushSync(lsn);
  }

  /** Writes the log buffer to the files (`log_write_up_to` without the flush). */
  write(): void {
    if (this.#written === this.lsn) return;
    const t = this.#buf.take(this.#written);
    this.files.writeBlocks(t.blockLsn, t.bytes, t.offset, t.count);
    this.#buf.compact();
    this.stats.Innodb_log_writes++;
    this.stats.Innodb_os_log_written += t.count * 512;
    this.#written = this.lsn;
  }

  /** Makes the log durable up to at least `lsn` now (write + fsync), blocking the thread. */
  flushSync(lsn: bigint = this.lsn): void {
    if (this.#flushed >= lsn) return;
    this.write();
    const target = this.#written;
    this.files.sync(this.#inFlight);
    this.stats.Innodb_os_log_fsyncs++;
    this.#setFlushed(target);
  }

  /**
   * Resolves once the log is durable up to `lsn`: group commit. At most one fsync runs at a time
   * (on libuv's thread pool); a commit that arrives while one runs waits for the next, which
   * covers every commit appended before it starts.
   */
  waitFlushed(lsn: bigint): Promise<void> {
    if (this.#flushed >= lsn) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ lsn, resolve, reject });
      if (this.#inFlight || this.#waiters.length > 1) this.stats.Innodb_log_group_commit_joins++;
      this.#kick();
    });
  }

  #kick(): void {
    if (this.#inFlight || this.#waiters.length === 0) return;
    // Let every session that is ready append first: the fsync starts after this turn.
    this.#inFlight = true;
    setImmediate(() => {
      if (this.#aborted) {
        this.#inFlight = false;
        return;
      }
      let target: bigint;
      try {
        this.write();
        target = this.#written;
      } catch (e) {
        this.#inFlight = false;
        for (const w of this.#waiters.splice(0)) w.reject(e);
        return;
      }
      this.files.syncAsync().then(
        () => {
          this.stats.Innodb_os_log_fsyncs++;
          this.#inFlight = false;
          this.#setFlushed(target);
          this.#kick();
        },
        (e: unknown) => {
          this.#inFlight = false;
          for (const w of this.#waiters.splice(0)) w.reject(e);
        },
      );
    });
  }

  #setFlushed(lsn: bigint): void {
    if (lsn > this.#flushed) this.#flushed = lsn;
    if (this.#waiters.length === 0) return;
    let keep = 0;
    for (const w of this.#waiters) {
      if (w.lsn <= this.#flushed) w.resolve();
      else this.#waiters[keep++] = w;
    }
    this.#waiters.length = keep;
  }

  /**
   * Writes a checkpoint at `lsn` (`log_checkpoint`). REQUIRES: every page change before `lsn` is
   * in the data file and the data file is synced; `lsn` is an mtr boundary ≤ the current LSN.
   * Flushes the whole log first, so the end LSN the checkpoint records is durable (recovery treats
   * a bad block before it as corruption).
   */
  writeCheckpoint(lsn: bigint, clean = false): void {
    this.flushSync(this.lsn);
    const cp: Checkpoint = { no: this.#cp.no + 1n, lsn, endLsn: this.lsn, nextTrxId: this.#nextTrx, clean };
    this.files.writeCheckpoint(cp);
    this.files.sync(this.#inFlight);
    this.#cp = cp;
    this.#buf.checkpointNo = Number(cp.no & 0xffffffffn);
    this.stats.Innodb_checkpoints++;
  }

  /** Every waiter is refused (the database is closing or abandoned). */
  abort(reason: Error): void {
    this.#aborted = true;
    for (const w of this.#waiters.splice(0)) w.reject(reason);
  }
}
