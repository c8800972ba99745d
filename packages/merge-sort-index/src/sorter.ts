import { compareBytes } from './compare.js';
import { DuplicateKeyError, SortAbortedError, SorterStateError, SourceError } from './errors.js';
import type { Counter, RecordCursor } from './internal/cursor.js';
import { LoserTreeMerge, TwoWayMerge } from './internal/merge.js';
import { copyRun, RunReader, RunWriter } from './internal/run-io.js';
import { SortBuffer } from './internal/sort-buffer.js';
import { MAX_FIELD_LENGTH, recordSize } from './internal/varint.js';
import { type ResolvedOptions, resolveOptions, type SorterOptions } from './options.js';
import { TempFiles } from './temp-files.js';
import type { KeyComparator, RecordSource, SortPhase, SortStats } from './types.js';

const EMPTY = new Uint8Array(0);
/** Records between two abort checks. */
const CHECK_EVERY = 1024;
/** Output records between two progress reports. */
const PROGRESS_EVERY = 65536;

/** One output record: views into the sorter's buffers, valid until the next record. */
export interface SortedRecord {
  key: Uint8Array;
  value: Uint8Array;
}

const EMPTY_CURSOR: RecordCursor = {
  buf: Buffer.alloc(0),
  recordStart: 0,
  keyStart: 0,
  keyEnd: 0,
  valueStart: 0,
  valueEnd: 0,
  next: () => false,
};

/**
 * A plain `Uint8Array` view (not a `Buffer`, whose `slice()` would not copy) of `buf[start, end)`.
 */
function view(buf: Buffer, start: number, end: number): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset + start, end - start);
}

/** A fresh `Uint8Array` holding a copy of `buf[start, end)`. */
function copyOut(buf: Buffer, start: number, end: number): Uint8Array {
  const n = end - start;
  const out = new Uint8Array(n);
  if (n < 64) for (let i = 0; i < n; i++) out[i] = buf[start + i]!;
  else out.set(view(buf, start, end));
  return out;
}

/** The first bytes of a key in hex, for messages. */
function hexKey(buf: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end && i < start + 32; i++) out += buf[i]!.toString(16).padStart(2, '0');
  return end - start > 32 ? `${out}…` : out;
}

type State = 'adding' | 'output' | 'done' | 'closed';

/**
 * External merge sort of (key, value) byte records in bounded memory, after InnoDB's
 * `row0merge` (fast index creation): records fill a sort buffer of `innodb_sort_buffer_size`
 * bytes; a full buffer is sorted (stable merge sort of an offset array, no object per record)
 * and written as a run to a temp file in blocks; the runs are then merged, 2 at a time in
 * ⌈log2 runs⌉ passes ('innodb') or many at a time through a loser tree ('kway'). When all
 * records fit in the buffer nothing touches the disk. The last merge pass streams straight to
 * the consumer. Equal keys come out in the order they were added.
 *
 * Temp files live in a private directory under `tmpdir` and are removed when the output is
 * consumed, on any error and on abort; `close()` removes them early.
 *
 * @example
 * ```ts
 * const sorter = new ExternalSorter({ sortBufferSize: 1 << 20, mergeMode: 'kway' });
 * for (const [k, v] of rows) sorter.add(k, v);
 * for (const { key, value } of sorter.entries()) use(key, value); // copies, safe to keep
 * sorter.stats; // { runs, passes, bytesWritten, bytesRead, comparisons, peakMemory, ... }
 * ```
 */
export class ExternalSorter {
  readonly #opt: ResolvedOptions;
  readonly #compare: KeyComparator;
  readonly #files: TempFiles;
  readonly #maxRecord: number;
  readonly #stats: SortStats;
  readonly #counter: Counter;
  #state: State = 'adding';
  #buffer: SortBuffer | undefined;
  #writer: RunWriter | undefined;
  /** File holding the current runs, and the other one (InnoDB's `file` and `tmpfile`). */
  #fdRuns = -1;
  #fdOther = -1;
  /** Byte ranges of the current runs in #fdRuns: run i is [#starts[i], #ends[i]). */
  #starts: number[] = [];
  #ends: number[] = [];
  #liveMemory = 0;
  #readers: RunReader[] = [];
  /** The sort buffer's memory, lent to the merge's read buffers after the last run is written. */
  #arena: ArrayBuffer | undefined;
  #arenaUsed = 0;
  /** `unique`: the previous output key. */
  #prevKey: Uint8Array = new Uint8Array(64);
  #prevKeyLen = 0;
  #outputRows = 0;
  #outputBytes = 0;

  constructor(options: SorterOptions = {}) {
    this.#opt = resolveOptions(options);
    this.#compare = this.#opt.compare ?? compareBytes;
    this.#files = new TempFiles(this.#opt.tmpdir, this.#opt.fs);
    const readSize = this.#opt.mergeMode === 'innodb' ? this.#opt.mergeBlockSize : this.#opt.kwayReadSize;
    this.#maxRecord = Math.min(readSize, SortBuffer.capacityFor(this.#opt.sortBufferSize));
    const fanIn =
      this.#opt.mergeMode === 'innodb'
        ? 2
        : Math.max(2, Math.floor(this.#opt.sortBufferSize / this.#opt.kwayReadSize));
    this.#stats = {
      mode: this.#opt.mergeMode,
      records: 0,
      recordBytes: 0,
      runs: 0,
      passes: 0,
      fanIn,
      bytesWritten: 0,
      bytesRead: 0,
      comparisons: 0,
      peakMemory: 0,
      tempFiles: 0,
    };
    this.#counter = this.#stats;
  }

  /** Largest encoded record (key + value + 2–8 header bytes) this configuration accepts. */
  get maxRecordSize(): number {
    return this.#maxRecord;
  }

  /** Counters so far (a snapshot copy). */
  get stats(): SortStats {
    this.#stats.bytesWritten = this.#files.bytesWritten;
    this.#stats.bytesRead = this.#files.bytesRead;
    this.#stats.tempFiles = this.#files.created;
    return { ...this.#stats };
  }

  /** The private temp directory while one exists (for inspection), else undefined. */
  get tempDirectory(): string | undefined {
    return this.#files.directory;
  }

  #alloc(bytes: number): void {
    this.#liveMemory += bytes;
    if (this.#liveMemory > this.#stats.peakMemory) this.#stats.peakMemory = this.#liveMemory;
  }

  #checkState(what: string, expected: State): void {
    if (this.#state !== expected) {
      throw new SorterStateError(
        `${what}: the sorter is ${this.#state === 'adding' ? 'still taking records' : this.#state}`,
      );
    }
  }

  #checkAbort(): void {
    const signal = this.#opt.signal;
    if (signal?.aborted) {
      throw new SortAbortedError('sort aborted', { cause: signal.reason });
    }
  }

  #progress(phase: SortPhase, rows: number, bytes: number): void {
    const cb = this.#opt.onProgress;
    if (cb === undefined) return;
    cb({
      phase,
      rows,
      bytes,
      totalRows: this.#stats.records,
      runs: this.#starts.length,
      pass: this.#stats.passes,
    });
  }

  /** Run `fn`; on any error remove the temp files, mark the sorter closed and rethrow. */
  #guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      this.close();
      throw err;
    }
  }

  /**
   * Add one record. The bytes are copied at once; `key` and `value` may be reused by the caller.
   * REQUIRES: the encoded record (see `maxRecordSize`) fits a merge read buffer.
   */
  add(key: Uint8Array, value: Uint8Array = EMPTY): void {
    this.#checkState('add()', 'adding');
    if (!(key instanceof Uint8Array)) throw new TypeError(`key must be a Uint8Array, got ${String(key)}`);
    if (!(value instanceof Uint8Array))
      throw new TypeError(`value must be a Uint8Array, got ${String(value)}`);
    const kl = key.length;
    const vl = value.length;
    const size =
      kl > MAX_FIELD_LENGTH || vl > MAX_FIELD_LENGTH ? Number.POSITIVE_INFINITY : recordSize(kl, vl);
    if (size > this.#maxRecord) {
      throw new RangeError(
        `record of ${kl} key + ${vl} value bytes (${size} encoded) exceeds maxRecordSize ${this.#maxRecord}; raise mergeBlockSize / kwayReadSize`,
      );
    }
    let buf = this.#buffer;
    if (buf === undefined) {
      buf = this.#buffer = new SortBuffer(this.#opt.sortBufferSize, this.#opt.compare === undefined);
      this.#alloc(buf.size);
    }
    if (!buf.tryAdd(key, value, size)) {
      this.#guard(() => this.#spill());
      buf.tryAdd(key, value, size);
    }
    const n = ++this.#stats.records;
    this.#stats.recordBytes += size;
    if (n % CHECK_EVERY === 0) this.#guard(() => this.#checkAbort());
  }

  /**
   * Add every record of `source`. An exception from the source becomes a `SourceError` (its
   * `cause` the original); either way the temp files are gone before this throws.
   */
  addAll(source: RecordSource): this {
    this.#checkState('addAll()', 'adding');
    if (typeof source === 'function') {
      let own: unknown;
      const emit = (key: Uint8Array, value: Uint8Array): void => {
        try {
          this.add(key, value);
        } catch (err) {
          own = err;
          throw err;
        }
      };
      try {
        source(emit);
      } catch (err) {
        this.close();
        if (err === own) throw err;
        throw new SourceError(`record source failed: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
      return this;
    }
    if (
      source === null ||
      typeof source !== 'object' ||
      typeof (source as Iterable<unknown>)[Symbol.iterator] !== 'function'
    ) {
      throw new TypeError(
        `source must be an iterable of [key, value] pairs or a scan function, got ${String(source)}`,
      );
    }
    let it: Iterator<readonly [Uint8Array, Uint8Array]>;
    try {
      it = source[Symbol.iterator]();
    } catch (err) {
      this.close();
      throw new SourceError(`record source failed: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
    for (;;) {
      let r: IteratorResult<readonly [Uint8Array, Uint8Array]>;
      try {
        r = it.next();
      } catch (err) {
        this.close();
        throw new SourceError(`record source failed: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
      if (r.done) break;
      try {
        const pair = r.value;
        this.add(pair[0], pair[1]);
      } catch (err) {
        this.close();
        try {
          it.return?.();
        } catch {
          // the original error is the one to report
        }
        throw err;
      }
    }
    return this;
  }

  /** Sort the buffer and write it as one run at the end of the runs file. */
  #spill(): void {
    this.#checkAbort();
    const buf = this.#buffer!;
    if (buf.count === 0) return;
    buf.sort(this.#opt.compare, this.#counter);
    if (this.#writer === undefined) {
      this.#fdRuns = this.#files.open();
      this.#writer = new RunWriter(Buffer.allocUnsafeSlow(this.#opt.mergeBlockSize), this.#files);
      this.#alloc(this.#opt.mergeBlockSize);
      this.#writer.open(this.#fdRuns, 0);
    }
    const w = this.#writer;
    const start = w.position;
    const c = buf.cursor();
    while (c.next()) w.append(c.buf, c.recordStart, c.valueEnd - c.recordStart);
    w.flush();
    this.#starts.push(start);
    this.#ends.push(w.position);
    this.#stats.runs++;
    buf.reset();
    this.#progress('scan', this.#stats.records, this.#stats.recordBytes);
  }

  /**
   * The read buffer of merge input `i`. Carved out of the old sort buffer while it has room
   * (the sort buffer is idle once the runs are written), allocated beyond that: in 'kway' mode
   * `fanIn · kwayReadSize ≤ sortBufferSize`, so the merge needs no new memory at all.
   */
  #reader(i: number, size: number): RunReader {
    let r = this.#readers[i];
    if (r === undefined) {
      const arena = this.#arena;
      let buf: Buffer;
      if (arena !== undefined && this.#arenaUsed + size <= arena.byteLength) {
        buf = Buffer.from(arena, this.#arenaUsed, size);
        this.#arenaUsed += size;
      } else {
        buf = Buffer.allocUnsafeSlow(size);
        this.#alloc(size);
      }
      r = new RunReader(buf, this.#files);
      this.#readers[i] = r;
    }
    return r;
  }

  #openRun(slot: number, run: number, size: number): RunReader {
    const r = this.#reader(slot, size);
    r.open(this.#fdRuns, this.#starts[run]!, this.#ends[run]!);
    return r;
  }

  /** Merge groups of `fanIn` consecutive runs into the other file; swap the files. */
  #mergePass(fanIn: number, readSize: number): void {
    if (this.#fdOther < 0) this.#fdOther = this.#files.open();
    const w = this.#writer!;
    w.open(this.#fdOther, 0);
    const starts: number[] = [];
    const ends: number[] = [];
    const runs = this.#starts.length;
    let rows = 0;
    let bytes = 0;
    for (let g = 0; g < runs; g += fanIn) {
      const n = Math.min(fanIn, runs - g);
      const start = w.position;
      if (n === 1) {
        rows += copyRun(this.#openRun(0, g, readSize), w);
      } else {
        const inputs: RunReader[] = [];
        for (let i = 0; i < n; i++) inputs.push(this.#openRun(i, g + i, readSize));
        const m = this.#merger(inputs);
        while (m.next()) {
          w.append(m.buf, m.recordStart, m.valueEnd - m.recordStart);
          if (++rows % CHECK_EVERY === 0) this.#checkAbort();
        }
      }
      w.flush();
      starts.push(start);
      ends.push(w.position);
      bytes += w.position - start;
    }
    this.#stats.passes++;
    const t = this.#fdRuns;
    this.#fdRuns = this.#fdOther;
    this.#fdOther = t;
    this.#starts = starts;
    this.#ends = ends;
    this.#progress('merge', rows, bytes);
  }

  #merger(inputs: RecordCursor[]): RecordCursor {
    if (inputs.length === 1) return inputs[0]!;
    if (inputs.length === 2 && this.#opt.mergeMode === 'innodb') {
      return new TwoWayMerge(inputs[0]!, inputs[1]!, this.#compare, this.#counter);
    }
    return new LoserTreeMerge(inputs, this.#compare, this.#counter);
  }

  /** End the input; do every merge pass but the last; return a cursor over the final order. */
  #finishInput(): RecordCursor {
    this.#checkState('output', 'adding');
    this.#state = 'output';
    this.#checkAbort();
    const buf = this.#buffer;
    if (this.#starts.length === 0) {
      // everything fit: sort in memory, no temp file (5.7's in-memory path of row_merge_insert_index_tuples)
      if (buf === undefined) return EMPTY_CURSOR;
      buf.sort(this.#opt.compare, this.#counter);
      return buf.cursor();
    }
    this.#spill();
    // the sort buffer's memory becomes the merge's read buffers (see #reader)
    this.#arena = buf!.bytes.buffer as ArrayBuffer;
    this.#arenaUsed = 0;
    this.#buffer = undefined;
    const innodb = this.#opt.mergeMode === 'innodb';
    const fanIn = this.#stats.fanIn;
    const readSize = innodb ? this.#opt.mergeBlockSize : this.#opt.kwayReadSize;
    while (this.#starts.length > fanIn) this.#mergePass(fanIn, readSize);
    const runs = this.#starts.length;
    const inputs: RunReader[] = [];
    for (let i = 0; i < runs; i++) inputs.push(this.#openRun(i, i, readSize));
    if (runs > 1) this.#stats.passes++;
    // the output block is no longer needed: the last pass hands records to the consumer
    return this.#merger(inputs);
  }

  #done(): void {
    this.#state = 'done';
    this.#release();
    this.#progress('done', this.#outputRows, this.#outputBytes);
  }

  #release(): void {
    this.#files.remove();
    this.#stats.bytesWritten = this.#files.bytesWritten;
    this.#stats.bytesRead = this.#files.bytesRead;
    this.#stats.tempFiles = this.#files.created;
    this.#buffer = undefined;
    this.#writer = undefined;
    this.#readers = [];
    this.#arena = undefined;
    this.#liveMemory = 0;
  }

  /**
   * End the input and yield the records in key order (stable). Breaking out of the loop
   * removes the temp files.
   *
   * By default each record is a fresh object holding copies of the bytes, safe to keep
   * (`[...sorter.entries()]` works). With `{ copy: false }` one object is reused and its
   * `key`/`value` are views into the sorter's buffers, overwritten by the next step: no copy,
   * for consumers that use each record at once.
   */
  *entries(options: { copy?: boolean } = {}): Generator<SortedRecord, void, undefined> {
    const copy = options.copy ?? true;
    if (typeof copy !== 'boolean') throw new TypeError(`options.copy must be a boolean, got ${String(copy)}`);
    const cursor = this.#guard(() => this.#finishInput());
    const shared: SortedRecord = { key: EMPTY, value: EMPTY };
    let completed = false;
    try {
      let n = 0;
      for (;;) {
        const more = this.#step(cursor, n);
        if (!more) break;
        n++;
        const b = cursor.buf;
        if (copy) {
          yield {
            key: copyOut(b, cursor.keyStart, cursor.keyEnd),
            value: copyOut(b, cursor.valueStart, cursor.valueEnd),
          };
        } else {
          shared.key = view(b, cursor.keyStart, cursor.keyEnd);
          shared.value = view(b, cursor.valueStart, cursor.valueEnd);
          yield shared;
        }
      }
      completed = true;
    } finally {
      if (completed) this.#done();
      else this.close();
    }
  }

  /** Advance the final cursor, with abort checks, progress and cleanup on error. */
  #step(cursor: RecordCursor, n: number): boolean {
    if (this.#state !== 'output') throw new SorterStateError('the sorter was closed during its output');
    try {
      if (n % CHECK_EVERY === 0 && n > 0) {
        this.#checkAbort();
        if (n % PROGRESS_EVERY === 0) this.#progress('output', n, this.#outputBytes);
      }
      if (!cursor.next()) return false;
      if (this.#opt.unique) this.#checkUnique(cursor, n);
      this.#outputRows = n + 1;
      this.#outputBytes += cursor.valueEnd - cursor.recordStart;
      return true;
    } catch (err) {
      this.close();
      throw err;
    }
  }

  /**
   * `unique`: the output is in key order, so a duplicate is always next to its twin; keep a
   * copy of the previous key and compare (InnoDB checks while sorting, `row_merge_buf_sort` and
   * `row_merge_blocks`, and fails the build with a duplicate-key error).
   */
  #checkUnique(c: RecordCursor, n: number): void {
    const len = c.keyEnd - c.keyStart;
    let prev = this.#prevKey;
    if (n > 0 && this.#compare(prev, 0, this.#prevKeyLen, c.buf, c.keyStart, c.keyEnd) === 0) {
      throw new DuplicateKeyError(
        `duplicate key ${hexKey(c.buf, c.keyStart, c.keyEnd)} in a unique sort (records ${n} and ${n + 1} in key order)`,
        copyOut(c.buf, c.keyStart, c.keyEnd),
      );
    }
    if (prev.length < len) prev = this.#prevKey = new Uint8Array(Math.max(len, 2 * prev.length));
    for (let i = 0; i < len; i++) prev[i] = c.buf[c.keyStart + i]!;
    this.#prevKeyLen = len;
  }

  /** Same as `entries()`: records with copied bytes. */
  [Symbol.iterator](): Generator<SortedRecord, void, undefined> {
    return this.entries();
  }

  /**
   * End the input and call `emit(key, value)` for every record in key order; returns the
   * number of records. The views are valid during the call only. An exception from `emit`
   * propagates (temp files removed).
   */
  drain(emit: (key: Uint8Array, value: Uint8Array) => void): number {
    if (typeof emit !== 'function') throw new TypeError(`emit must be a function, got ${String(emit)}`);
    const cursor = this.#guard(() => this.#finishInput());
    let n = 0;
    for (;;) {
      if (!this.#step(cursor, n)) break;
      n++;
      try {
        emit(
          view(cursor.buf, cursor.keyStart, cursor.keyEnd),
          view(cursor.buf, cursor.valueStart, cursor.valueEnd),
        );
      } catch (err) {
        this.close();
        throw err;
      }
    }
    this.#done();
    return n;
  }

  /** Remove the temp files and drop the buffers; the sorter can no longer be used. Idempotent. */
  close(): void {
    if (this.#state === 'closed' || this.#state === 'done') {
      this.#release();
      return;
    }
    this.#state = 'closed';
    this.#release();
  }
}
