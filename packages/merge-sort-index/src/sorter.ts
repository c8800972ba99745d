import { compareBytes, SpillDirectory } from '@enginekit/common';
import { SortAbortedError, SorterStateError } from './errors.js';
import { copyOut, view } from './internal/bytes.js';
import type { Counter, RecordCursor } from './internal/cursor.js';
import { LoserTreeMerge, TwoWayMerge } from './internal/merge.js';
import { CHECK_EVERY, RunStore } from './internal/merge-passes.js';
import { feed } from './internal/record-source.js';
import { SortBuffer } from './internal/sort-buffer.js';
import { UniqueCheck } from './internal/unique-check.js';
import { MAX_FIELD_LENGTH, recordSize } from './internal/varint.js';
import { type ResolvedOptions, resolveOptions, type SorterOptions } from './options.js';
import type { KeyComparator, RecordSource, SortPhase, SortStats } from './types.js';

const EMPTY = new Uint8Array(0);
/** Output records between two progress reports. */
const PROGRESS_EVERY = 65536;
/** Name prefix of the private temp directory (what a signal handler's cleanup looks for). */
const SPILL_PREFIX = 'enginekit-sort-';

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

type State = 'adding' | 'output' | 'done' | 'closed';

/**
 * External merge sort of (key, value) byte records in bounded memory, after InnoDB's
 * `row0merge` (fast index creation): records fill a sort buffer of `innodb_sort_buffer_size`
 * bytes; a full buffer is sorted (stable, an entry array, no object per record) and written
 * as a run to a temp file in blocks; the runs are then merged, 2 at a time in ⌈log2 runs⌉
 * passes ('innodb') or many at a time through a loser tree ('kway'). Equal keys come out in the
 * order they were added.
 *
 * With the default `mechanics: 'fast'` nothing touches the disk when all records fit in the
 * buffer, and the last merge pass streams straight to the consumer. With `'mysql56'` the sort
 * follows MySQL 5.5/5.6: record-only buffer accounting, every run and pass written in whole
 * blocks, the output read back from the final run.
 *
 * Temp files live in a private `enginekit-sort-<pid>-XXXXXX` directory under `tmpdir` (a
 * `SpillDirectory` of `@enginekit/common`, so `removeAllSpillDirectories()` in a signal handler
 * removes them) and are removed when the output is consumed, on any error and on abort;
 * `close()` removes them early.
 *
 * @example
 * ```ts
 * const sorter = new ExternalSorter({ innodb_sort_buffer_size: 65536 });
 * for (const word of ['pear', 'fig', 'apple']) sorter.add(new TextEncoder().encode(word));
 * for (const { key } of sorter.entries()) console.log(new TextDecoder().decode(key)); // apple, fig, pear
 * ```
 */
export class ExternalSorter {
  readonly #opt: ResolvedOptions;
  readonly #compare: KeyComparator;
  readonly #files: SpillDirectory;
  readonly #runs: RunStore;
  readonly #mysql56: boolean;
  readonly #maxRecord: number;
  readonly #stats: SortStats;
  readonly #counter: Counter;
  readonly #unique: UniqueCheck | undefined;
  #state: State = 'adding';
  #buffer: SortBuffer | undefined;
  /** Bytes of the sort buffer's entry array held outside it ('mysql56'), as accounted so far. */
  #outside = 0;
  #liveMemory = 0;
  #outputRows = 0;
  #outputBytes = 0;

  constructor(options: SorterOptions = {}) {
    const opt = (this.#opt = resolveOptions(options));
    this.#compare = opt.compare ?? compareBytes;
    this.#mysql56 = opt.mechanics === 'mysql56';
    this.#files = new SpillDirectory({
      parent: opt.tmpdir,
      prefix: SPILL_PREFIX,
      ...(opt.fs === undefined ? {} : { fs: opt.fs }),
    });
    this.#runs = new RunStore(this.#files, opt.mergeBlockSize, this.#mysql56, {
      alloc: (bytes) => this.#alloc(bytes),
      checkAbort: () => this.#checkAbort(),
      merger: (inputs) => this.#merger(inputs),
    });
    const readSize = opt.mergeMode === 'innodb' ? opt.mergeBlockSize : opt.kwayReadSize;
    this.#maxRecord = Math.min(readSize, SortBuffer.capacityFor(opt.sortBufferSize, this.#mysql56));
    const fanIn =
      opt.mergeMode === 'innodb' ? 2 : Math.max(2, Math.floor(opt.sortBufferSize / opt.kwayReadSize));
    this.#stats = {
      mode: opt.mergeMode,
      mechanics: opt.mechanics,
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
    this.#unique = opt.unique ? new UniqueCheck(this.#compare) : undefined;
  }

  /** Largest encoded record (key + value + 2–8 header bytes) this configuration accepts. */
  get maxRecordSize(): number {
    return this.#maxRecord;
  }

  /** Counters so far (a snapshot copy). */
  get stats(): SortStats {
    this.#syncFileStats();
    return { ...this.#stats };
  }

  /** The private temp directory while one exists (for inspection), else undefined. */
  get tempDirectory(): string | undefined {
    return this.#files.directory;
  }

  #syncFileStats(): void {
    this.#stats.bytesWritten = this.#files.bytesWritten;
    this.#stats.bytesRead = this.#files.bytesRead;
    this.#stats.tempFiles = this.#files.created;
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
    if (signal?.aborted) throw new SortAbortedError('sort aborted', { cause: signal.reason });
  }

  #progress(phase: SortPhase, rows: number, bytes: number): void {
    const cb = this.#opt.onProgress;
    if (cb === undefined) return;
    cb({
      phase,
      rows,
      bytes,
      totalRows: this.#stats.records,
      runs: this.#runs.runs,
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
      buf = this.#buffer = new SortBuffer(
        this.#opt.sortBufferSize,
        this.#opt.compare === undefined,
        this.#mysql56,
      );
      this.#alloc(buf.size);
    }
    if (!buf.tryAdd(key, value, size)) {
      this.#guard(() => this.#spill());
      buf.tryAdd(key, value, size);
    }
    if (this.#mysql56 && buf.outsideBytes !== this.#outside) {
      this.#alloc(buf.outsideBytes - this.#outside);
      this.#outside = buf.outsideBytes;
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
    feed(
      source,
      (key, value) => this.add(key, value),
      () => this.close(),
    );
    return this;
  }

  /** Sort the buffer and write it as one run at the end of the runs file. */
  #spill(): void {
    this.#checkAbort();
    const buf = this.#buffer!;
    if (buf.count === 0) return;
    buf.sort(this.#opt.compare, this.#counter);
    this.#runs.writeRun(buf.cursor());
    this.#stats.runs++;
    buf.reset();
    this.#progress('scan', this.#stats.records, this.#stats.recordBytes);
  }

  #merger(inputs: RecordCursor[]): RecordCursor {
    if (inputs.length === 1) return inputs[0]!;
    if (inputs.length === 2 && this.#opt.mergeMode === 'innodb') {
      return new TwoWayMerge(inputs[0]!, inputs[1]!, this.#opt.compare, this.#counter);
    }
    return new LoserTreeMerge(inputs, this.#opt.compare, this.#counter);
  }

  #mergePass(fanIn: number, readSize: number): void {
    const { rows, bytes } = this.#runs.mergePass(fanIn, readSize);
    this.#stats.passes++;
    this.#progress('merge', rows, bytes);
  }

  /** End the input; do the merge passes; return a cursor over the final order. */
  #finishInput(): RecordCursor {
    this.#checkState('output', 'adding');
    this.#state = 'output';
    this.#checkAbort();
    const buf = this.#buffer;
    if (buf === undefined) return EMPTY_CURSOR;
    if (this.#stats.runs === 0 && !this.#mysql56) {
      // everything fit: sort in memory, no temp file (5.7's in-memory path of row_merge_insert_index_tuples)
      buf.sort(this.#opt.compare, this.#counter);
      return buf.cursor();
    }
    // 5.6 writes even a single buffer as a run (row_merge_read_clustered_index)
    this.#spill();
    // the sort buffer's memory becomes the merge's read buffers
    this.#runs.lend(buf.bytes.buffer as ArrayBuffer);
    this.#buffer = undefined;
    this.#liveMemory -= this.#outside;
    this.#outside = 0;
    const opt = this.#opt;
    const fanIn = this.#stats.fanIn;
    const readSize = opt.mergeMode === 'innodb' ? opt.mergeBlockSize : opt.kwayReadSize;
    if (this.#mysql56) {
      // row_merge_sort: every pass is written, down to one run, which
      // row_merge_insert_index_tuples then reads back block by block
      while (this.#runs.runs > 1) this.#mergePass(2, readSize);
      return this.#runs.open(0, 0, readSize);
    }
    while (this.#runs.runs > fanIn) this.#mergePass(fanIn, readSize);
    const runs = this.#runs.runs;
    const inputs: RecordCursor[] = [];
    for (let i = 0; i < runs; i++) inputs.push(this.#runs.open(i, i, readSize));
    if (runs > 1) this.#stats.passes++;
    // the last pass hands records to the consumer: no output block
    return this.#merger(inputs);
  }

  #done(): void {
    this.#state = 'done';
    this.#release();
    this.#progress('done', this.#outputRows, this.#outputBytes);
  }

  #release(): void {
    this.#files.remove();
    this.#syncFileStats();
    this.#runs.release();
    this.#buffer = undefined;
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
      this.#unique?.check(cursor, n);
      this.#outputRows = n + 1;
      this.#outputBytes += cursor.valueEnd - cursor.recordStart;
      return true;
    } catch (err) {
      this.close();
      throw err;
    }
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
    if (this.#state !== 'done') this.#state = 'closed';
    this.#release();
  }
}
