import { MUTEX_SLOTS, mutexInit } from '@enginekit/mutex-atomics';
import type { Checkpoint } from './format.js';

/**
 * The redo log's state shared by every thread (`log_sys`), one SharedArrayBuffer. Integers are
 * native-endian typed-array slots (this memory never goes to disk).
 *
 * | byte offset | type | field |
 * |---|---|---|
 * | 0 | Int32 × 4 | log mutex (`log_sys->mutex`): appending, and the checkpoint's read of the oldest modification |
 * | 16 | Int32 × 4 | write mutex: one thread at a time copies the log buffer out and writes (and fsyncs) it |
 * | 32 | Int32 × 4 | checkpoint mutex: one checkpoint at a time |
 * | 48 | Int32 | request sequence: bumped (and notified) by a thread that wants the flusher to fsync |
 * | 52 | Int32 | flushed sequence: bumped (and notified) whenever the flushed LSN moves or a flush fails |
 * | 56 | Int32 | `innodb_flush_log_at_trx_commit` |
 * | 60 | Int32 | low 32 bits of the checkpoint number, stamped on new log blocks |
 * | 64 | Int32 | 1 while the flusher (the creating thread) has an fsync in flight |
 * | 68 | Int32 | state bits: 1 abandoned, 2 closed |
 * | 72 | Int32 | bytes of the log buffer |
 * | 76 | Int32 | flushes that failed so far |
 * | 80 | BigInt64 | current LSN (end of the last mini-transaction appended) |
 * | 88 | BigInt64 | written LSN: the log files hold every byte before it |
 * | 96 | BigInt64 | flushed LSN: fsynced up to here |
 * | 104 | BigInt64 | requested LSN: the largest LSN a thread asked the flusher to make durable |
 * | 112 | BigInt64 | next transaction id |
 * | 120 | BigInt64 | checkpoint number |
 * | 128 | BigInt64 | checkpoint LSN |
 * | 136 | BigInt64 | checkpoint end LSN |
 * | 144 | BigInt64 | checkpoint next transaction id |
 * | 152 | BigInt64 | checkpoint written by a clean close (0/1) |
 * | 160 | BigInt64 × 9 | the counters of {@link COUNTERS}, in that order |
 * | 256 | Int32 × 512 | thread slots: 1 while a thread's RedoLog object uses the slot |
 * | 8192 | bytes | the log buffer: a ring of 512-byte blocks, block `b` at `(b / 512 mod blocks) × 512` |
 */
export const LOG_MUTEX = 0;
export const WRITE_MUTEX = 4;
export const CHECKPOINT_MUTEX = 8;
export const REQ_SEQ = 12;
export const FLUSHED_SEQ = 13;
export const FLUSH_SETTING = 14;
export const CP_NO_LOW = 15;
export const IN_FLIGHT = 16;
export const STATE = 17;
export const BUF_BYTES = 18;
export const FAILURES = 19;
/** {@link STATE} bits. */
export const ABANDONED = 1;
export const CLOSED = 2;

/** BigInt64 indexes (byte offset / 8). */
export const LSN = 10;
export const WRITTEN = 11;
export const FLUSHED = 12;
export const REQUESTED = 13;
export const NEXT_TRX = 14;
export const CP_NO = 15;
export const CP_LSN = 16;
export const CP_END = 17;
export const CP_NEXT_TRX = 18;
export const CP_CLEAN = 19;
export const COUNTER_BASE = 20;

/** The counters, with MySQL's names, in their slot order. */
export const COUNTERS = [
  'Innodb_log_write_requests',
  'Innodb_log_writes',
  'Innodb_os_log_written',
  'Innodb_os_log_fsyncs',
  'Innodb_log_waits',
  'Innodb_checkpoints',
  'Innodb_log_sync_flushes',
  'Innodb_log_sync_flush_pages',
  'Innodb_log_group_commit_joins',
] as const;
export type RedoCounter = (typeof COUNTERS)[number];

/** Threads (RedoLog objects) that can use one log at once. */
export const MAX_SLOTS = 512;
const SLOTS_AT = 256;
/** Where the log buffer starts. */
export const BUFFER_AT = 8192;

if (
  MUTEX_SLOTS !== 4 ||
  COUNTER_BASE * 8 + COUNTERS.length * 8 > SLOTS_AT ||
  SLOTS_AT + 4 * MAX_SLOTS > BUFFER_AT
)
  throw new Error('redo log: shared layout out of date');

/** Typed views of the shared state. */
export class LogShared {
  readonly sab: SharedArrayBuffer;
  readonly i32: Int32Array;
  readonly b64: BigInt64Array;
  /** Slot in use flags. */
  readonly slots: Int32Array;
  /** The log buffer. */
  readonly ring: Uint8Array;

  constructor(sab: SharedArrayBuffer) {
    this.sab = sab;
    this.i32 = new Int32Array(sab, 0, SLOTS_AT / 4);
    this.b64 = new BigInt64Array(sab, 0, SLOTS_AT / 8);
    this.slots = new Int32Array(sab, SLOTS_AT, MAX_SLOTS);
    this.ring = new Uint8Array(sab, BUFFER_AT, sab.byteLength - BUFFER_AT);
  }

  /** A fresh state with a log buffer of `bufferBytes` (a multiple of 512), its mutexes free. */
  static create(bufferBytes: number): LogShared {
    const s = new LogShared(new SharedArrayBuffer(BUFFER_AT + bufferBytes));
    mutexInit(s.i32, LOG_MUTEX);
    mutexInit(s.i32, WRITE_MUTEX);
    mutexInit(s.i32, CHECKPOINT_MUTEX);
    s.i32[BUF_BYTES] = bufferBytes;
    return s;
  }

  /** Takes a free thread slot; RangeError when all are in use. */
  claimSlot(): number {
    for (let i = 0; i < MAX_SLOTS; i++) if (Atomics.compareExchange(this.slots, i, 0, 1) === 0) return i;
    throw new RangeError(`more than ${MAX_SLOTS} threads use one redo log`);
  }

  releaseSlot(slot: number): void {
    Atomics.store(this.slots, slot, 0);
  }

  /** Adds `by` to a counter (any thread). */
  count(name: RedoCounter, by = 1): void {
    Atomics.add(this.b64, COUNTER_BASE + COUNTERS.indexOf(name), BigInt(by));
  }

  counter(name: RedoCounter): number {
    return Number(Atomics.load(this.b64, COUNTER_BASE + COUNTERS.indexOf(name)));
  }

  /** Moves a BigInt64 slot forward to at least `v` (never backwards). */
  raise(index: number, v: bigint): void {
    for (;;) {
      const cur = Atomics.load(this.b64, index);
      if (cur >= v || Atomics.compareExchange(this.b64, index, cur, v) === cur) return;
    }
  }

  get state(): number {
    return Atomics.load(this.i32, STATE);
  }

  /** The last checkpoint written (fields read one by one: a snapshot for status and messages). */
  get checkpoint(): Checkpoint {
    const b = this.b64;
    return {
      no: Atomics.load(b, CP_NO),
      lsn: Atomics.load(b, CP_LSN),
      endLsn: Atomics.load(b, CP_END),
      nextTrxId: Atomics.load(b, CP_NEXT_TRX),
      clean: Atomics.load(b, CP_CLEAN) === 1n,
    };
  }

  /** Records `cp` as the last checkpoint; new log blocks carry its number from now on. */
  setCheckpoint(cp: Checkpoint): void {
    const b = this.b64;
    Atomics.store(b, CP_LSN, cp.lsn);
    Atomics.store(b, CP_END, cp.endLsn);
    Atomics.store(b, CP_NEXT_TRX, cp.nextTrxId);
    Atomics.store(b, CP_CLEAN, cp.clean ? 1n : 0n);
    Atomics.store(this.i32, CP_NO_LOW, Number(cp.no & 0xffffffffn) | 0);
    Atomics.store(b, CP_NO, cp.no);
  }
}
