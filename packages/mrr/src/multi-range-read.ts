import {
  ASSOCIATION_BYTES,
  minimumSharedBufferSize,
  setupBufferSharing,
  sharedBufferFits,
} from './buffer-sharing.js';
import { createMrrCounters, type MrrCounters } from './counters.js';
import { BufferTooSmallError } from './errors.js';
import { explainMrr } from './explain.js';
import {
  type IndexStage,
  KeyOrderedIndexStage,
  PULL_END,
  PULL_ENTRY,
  PULL_SAME_ENTRY,
  SimpleIndexStage,
} from './internal/index-stage.js';
import { RowIdBuffer } from './internal/rowid-buffer.js';
import type { AsyncRowFetcher, IndexReader, MrrMatch, MrrOptions, MrrRange, RowId } from './types.js';

/** `mrr_buffer_size` / `read_rnd_buffer_size` default: 256 KiB. */
export const MRR_BUFFER_SIZE_DEFAULT = 262144;
/** `mrr_buffer_size`'s minimum, as the MariaDB variable: 8 KiB. */
export const MRR_BUFFER_SIZE_MIN = 8192;
/** Largest budget any of the buffer options accepts: 2^31 − 1, as the server variables. */
export const MRR_BUFFER_SIZE_MAX = 2147483647;
/** Bytes a key occupies in the key buffer when the reader does not say (a reference). */
export const KEY_REFERENCE_BYTES = 8;

const STEP_END = 0;
const STEP_FETCH = 1; // a new row: call the fetcher
const STEP_SAME = 2; // the previous row again, for another association

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

const BUDGETS = [
  ['mrr_buffer_size', MRR_BUFFER_SIZE_MIN],
  ['read_rnd_buffer_size', 1],
  ['bufferSize', 1],
] as const;

/** The budget option given (at most one), checked against its range. */
function budget(options: MrrOptions): { name: string; bytes: number } {
  let name = 'mrr_buffer_size';
  let bytes: unknown = MRR_BUFFER_SIZE_DEFAULT;
  let min = MRR_BUFFER_SIZE_MIN;
  let given: string | undefined;
  for (const [option, least] of BUDGETS) {
    const v = options[option];
    if (v === undefined) continue;
    if (given !== undefined) {
      throw new RangeError(
        `give one of mrr_buffer_size, read_rnd_buffer_size, bufferSize, not ${given} and ${option}`,
      );
    }
    given = option;
    name = option;
    bytes = v;
    min = least;
  }
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes)) {
    throw new TypeError(`${name} must be a safe integer number of bytes, got ${String(bytes)}`);
  }
  if (bytes < min || bytes > MRR_BUFFER_SIZE_MAX) {
    throw new RangeError(`${name} must be in [${min}, ${MRR_BUFFER_SIZE_MAX}] bytes, got ${bytes}`);
  }
  return { name, bytes };
}

/**
 * A multi-range read over `reader` and `fetcher`: yields (row, association) for every index
 * entry inside every input range. Which stages run is fixed at construction:
 *
 * - rowid-ordered (`sortRowIds`, default on): buffer (row id, association) pairs up to the
 *   byte budget, sort by row id, fetch each distinct row id once and emit it once per
 *   association; refill until the input is exhausted. ⌈S/N⌉ batches for S bytes of entries
 *   and a buffer of N bytes (trimmed to whole entries).
 * - key-ordered (`mrr_sort_keys` and every range an equality key): buffer keys, sort them,
 *   probe the index once per distinct key. With both stages the reader's interruption space
 *   comes off the budget first, then the rest is split once by {@link setupBufferSharing}.
 * - neither (`mrr: false`, nothing to sort, or a buffer too small for one entry of a stage):
 *   the default implementation, ranges in input order and one fetch per index entry.
 *
 * Output order: by row id within a rowid batch; by key within a key batch (key-only);
 * input order for the default strategy.
 *
 * @example
 * const scan = createMultiRangeRead(index, table, [{ key: 7, association: 0 }], { mrr_buffer_size: 4 << 20 });
 * while (scan.next()) console.log(scan.row, scan.association);
 */
export class MultiRangeRead<K, R> implements Iterable<MrrMatch<R>>, AsyncIterable<MrrMatch<R>> {
  /** EXPLAIN Extra text of this scan ("" for the default implementation). */
  readonly explain: string;
  /** True if keys are sorted before probing (Key-ordered scan). */
  readonly keyOrdered: boolean;
  /** True if row ids are sorted before fetching (Rowid-ordered scan). */
  readonly rowidOrdered: boolean;
  /**
   * True if MRR was asked for but the buffer could not hold one entry of a stage, so the
   * default implementation runs (MariaDB's `use_default_impl`); never with `onBufferTooSmall: 'error'`.
   */
  readonly fallback: boolean;
  /** The counters this scan adds into. */
  readonly counters: MrrCounters;
  /** Bytes one rowid-buffer entry is charged: `ref_length` + 8 with associations. */
  readonly rowIdElement: number;
  /** Bytes of one key-buffer entry: key length + 8 with associations. */
  readonly keyElement: number;
  /**
   * Entries the rowid buffer holds: the whole budget without a key stage, its share of the
   * split with one (0 without a rowid stage).
   */
  readonly rowIdCapacity: number;
  /** Bytes taken off the front of the budget for the key reader's saved tuple (both stages only). */
  readonly reservedBytes: number;
  /** Keys the key buffer holds (0 without a key stage). */
  readonly keyCapacity: number;
  /** Association of the current output. */
  association = 0;

  readonly #reader: IndexReader<K>;
  readonly #fetcher: AsyncRowFetcher<R>;
  readonly #stage: IndexStage;
  readonly #keyStage: KeyOrderedIndexStage<K> | null;
  readonly #rowids: RowIdBuffer | null;
  readonly #scratch: Uint8Array;
  #row: R | undefined = undefined;
  #needKeys: boolean;
  #inputEnded = false;
  #exhausted = false;
  #readPos = 0;
  #rowidBatches = 0;
  #busy = false;

  constructor(
    reader: IndexReader<K>,
    fetcher: AsyncRowFetcher<R>,
    ranges: Iterable<MrrRange<K>>,
    options: MrrOptions = {},
  ) {
    if (typeof reader !== 'object' || reader === null || typeof reader.seek !== 'function') {
      throw new TypeError(`reader must be an IndexReader with seek/next, got ${String(reader)}`);
    }
    if (typeof fetcher !== 'object' || fetcher === null || typeof fetcher.rndPos !== 'function') {
      throw new TypeError(`fetcher must be a RowFetcher with rndPos, got ${String(fetcher)}`);
    }
    if (ranges === null || typeof (ranges as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
      throw new TypeError(`ranges must be an iterable of ranges, got ${String(ranges)}`);
    }
    let idLength: number;
    // bytes a row id is charged in the buffer (ref_length); the stored image may be wider
    let refLength: number;
    if (reader.rowIdKind === 'number') {
      idLength = 8;
      refLength = 8;
    } else if (reader.rowIdKind === 'bytes') {
      idLength = reader.rowIdLength;
      if (!Number.isSafeInteger(idLength) || idLength < 1) {
        throw new RangeError(`reader.rowIdLength must be a positive integer, got ${String(idLength)}`);
      }
      refLength = reader.refLength ?? idLength;
      if (!Number.isSafeInteger(refLength) || refLength < 1) {
        throw new RangeError(`reader.refLength must be a positive integer, got ${String(refLength)}`);
      }
    } else {
      throw new TypeError(
        `reader.rowIdKind must be 'number' or 'bytes', got ${String((reader as { rowIdKind: unknown }).rowIdKind)}`,
      );
    }
    const keyLength = reader.keyLength ?? KEY_REFERENCE_BYTES;
    if (!Number.isSafeInteger(keyLength) || keyLength < 1) {
      throw new RangeError(`reader.keyLength must be a positive integer, got ${String(keyLength)}`);
    }
    const assoc = options.associations !== false;
    const mrr = options.mrr !== false;
    const singlePoint =
      options.singlePoint ??
      (Array.isArray(ranges) &&
        (ranges as readonly MrrRange<K>[]).every((r) => typeof r === 'object' && r !== null && 'key' in r));
    const onTooSmall = options.onBufferTooSmall ?? 'default';
    if (onTooSmall !== 'default' && onTooSmall !== 'error') {
      throw new RangeError(`onBufferTooSmall must be 'default' or 'error', got ${String(onTooSmall)}`);
    }
    let keyOrdered = mrr && options.mrr_sort_keys === true && singlePoint;
    let rowidOrdered = mrr && options.sortRowIds !== false;
    this.counters = options.counters ?? createMrrCounters();
    this.rowIdElement = refLength + (assoc ? ASSOCIATION_BYTES : 0);
    this.keyElement = keyLength + (assoc ? ASSOCIATION_BYTES : 0);
    this.#reader = reader;
    this.#fetcher = fetcher;
    this.#scratch = new Uint8Array(reader.rowIdKind === 'bytes' ? idLength : 0);

    const { name, bytes } = keyOrdered || rowidOrdered ? budget(options) : { name: '', bytes: 0 };
    let keyCapacity = 0;
    let rowIdCapacity = 0;
    let reserved = 0;
    // DsMrr_impl::dsmrr_init: the checks that send a scan to the default implementation.
    let tooSmall: { minimum: number; what: string } | null = null;
    if (keyOrdered && rowidOrdered) {
      // set_interruption_temp_buffer: saved row id, saved index tuple, saved primary key.
      reserved =
        refLength +
        nonNegative(reader.indexKeyLength, 'indexKeyLength') +
        nonNegative(reader.primaryKeyLength, 'primaryKeyLength');
      const shared = bytes - reserved;
      const split = setupBufferSharing(shared, this.rowIdElement, this.keyElement, reader.recordsPerKey ?? 1);
      if (shared <= 0 || !sharedBufferFits(split, this.rowIdElement, this.keyElement)) {
        tooSmall = {
          minimum: reserved + minimumSharedBufferSize(this.rowIdElement, this.keyElement),
          what: 'a key-ordered and a rowid-ordered stage',
        };
      } else {
        keyCapacity = Math.floor(split.keyBytes / this.keyElement);
        rowIdCapacity = Math.floor(split.rowIdBytes / this.rowIdElement);
      }
    } else if (keyOrdered) {
      if (bytes < this.keyElement) {
        tooSmall = { minimum: this.keyElement, what: assoc ? 'one (key, association) entry' : 'one key' };
      } else keyCapacity = Math.floor(bytes / this.keyElement);
    } else if (rowidOrdered) {
      if (bytes < this.rowIdElement) {
        tooSmall = {
          minimum: this.rowIdElement,
          what: assoc ? 'one (row id, association) entry' : 'one row id',
        };
      } else rowIdCapacity = Math.floor(bytes / this.rowIdElement);
    }
    if (tooSmall !== null) {
      if (onTooSmall === 'error') throw new BufferTooSmallError(name, bytes, tooSmall.minimum, tooSmall.what);
      keyOrdered = false;
      rowidOrdered = false;
      keyCapacity = 0;
      rowIdCapacity = 0;
      reserved = 0;
    }
    this.fallback = tooSmall !== null;
    this.keyOrdered = keyOrdered;
    this.rowidOrdered = rowidOrdered;
    this.reservedBytes = reserved;
    this.explain = explainMrr(keyOrdered, rowidOrdered);
    this.keyCapacity = keyCapacity;
    this.rowIdCapacity = rowIdCapacity;
    const iterator = ranges[Symbol.iterator]();
    if (this.keyOrdered) {
      this.#keyStage = new KeyOrderedIndexStage(reader, iterator, this.counters, assoc, keyCapacity);
      this.#stage = this.#keyStage;
    } else {
      this.#keyStage = null;
      this.#stage = new SimpleIndexStage(reader, iterator, this.counters, assoc);
    }
    this.#needKeys = this.keyOrdered;
    this.#rowids = this.rowidOrdered
      ? new RowIdBuffer(reader.rowIdKind === 'number', idLength, rowIdCapacity)
      : null;
    if (this.keyOrdered || this.rowidOrdered) this.counters.Handler_mrr_init++;
  }

  /** The current row. REQUIRES: the last `next()` / `nextAsync()` returned true. */
  get row(): R {
    return this.#row as R;
  }

  /** Rowid-buffer fills that produced entries so far (Handler_mrr_rowid_refills + 1 once any did). */
  get rowidBatches(): number {
    return this.#rowidBatches;
  }

  /** Key-buffer fills that produced keys so far (Handler_mrr_key_refills + 1 once any did). */
  get keyBatches(): number {
    return this.#keyStage === null ? 0 : this.#keyStage.batches;
  }

  /**
   * Advance to the next (row, association); `false` at the end. Sync path: the fetcher must
   * answer synchronously (a promise is a TypeError; use `nextAsync`).
   */
  next(): boolean {
    const step = this.#advance();
    if (step === STEP_END) return false;
    if (step === STEP_FETCH) {
      const row = this.#fetcher.rndPos(this.#fetchId());
      if (isThenable(row)) {
        throw new TypeError('fetcher.rndPos returned a promise: iterate with nextAsync() or for await');
      }
      this.#row = row;
    }
    return true;
  }

  /** `next()` for a fetcher that may answer with promises. Calls must not overlap. */
  async nextAsync(): Promise<boolean> {
    if (this.#busy) throw new Error('nextAsync() called again before the previous call settled');
    this.#busy = true;
    try {
      const step = this.#advance();
      if (step === STEP_END) return false;
      if (step === STEP_FETCH) this.#row = await this.#fetcher.rndPos(this.#fetchId());
      return true;
    } finally {
      this.#busy = false;
    }
  }

  /** Iterate (row, association) pairs; allocates one small object per output. */
  *[Symbol.iterator](): Generator<MrrMatch<R>, void, undefined> {
    while (this.next()) yield { row: this.#row as R, association: this.association };
  }

  /** Async iteration; awaits the fetcher. */
  async *[Symbol.asyncIterator](): AsyncGenerator<MrrMatch<R>, void, undefined> {
    while (await this.nextAsync()) yield { row: this.#row as R, association: this.association };
  }

  #fetchId(): RowId {
    const rowids = this.#rowids;
    if (rowids !== null) {
      if (this.#reader.rowIdKind === 'number') return rowids.numericId(this.#readPos);
      return rowids.bytesId(this.#readPos);
    }
    const reader = this.#reader;
    if (reader.rowIdKind === 'number') return reader.rowId();
    reader.copyRowId(this.#scratch, 0);
    return this.#scratch;
  }

  #advance(): number {
    const rowids = this.#rowids;
    if (rowids === null) return this.#advanceDirect();
    const pos = ++this.#readPos;
    if (pos < rowids.count) {
      this.association = rowids.association(pos);
      if (rowids.sameAsPrevious(pos)) return STEP_SAME;
      this.counters.Handler_read_rnd++;
      return STEP_FETCH;
    }
    if (!this.#fillRowids(rowids)) return STEP_END;
    this.#readPos = 0;
    this.association = rowids.association(0);
    this.counters.Handler_read_rnd++;
    return STEP_FETCH;
  }

  /** No rowid stage: each new index entry is fetched where it stands. */
  #advanceDirect(): number {
    const stage = this.#stage;
    for (;;) {
      if (this.#needKeys) {
        this.#needKeys = false;
        if (!stage.refill()) return STEP_END;
      }
      const p = stage.pull();
      if (p === PULL_ENTRY) {
        this.association = stage.association;
        return STEP_FETCH;
      }
      if (p === PULL_SAME_ENTRY) {
        this.association = stage.association;
        return STEP_SAME;
      }
      if (p === PULL_END) return STEP_END;
      this.#needKeys = true; // PULL_DRAINED
    }
  }

  /**
   * `Mrr_ordered_rndpos_reader::refill_buffer`: fill from the index stage until the buffer is
   * full, the input ends, or the key buffer is drained (a rowid batch never spans two key
   * batches); sort; count a refill for every non-empty batch after the first.
   */
  #fillRowids(rowids: RowIdBuffer): boolean {
    if (this.#exhausted) return false;
    const stage = this.#stage;
    const reader = this.#reader;
    for (;;) {
      if (this.#needKeys) {
        this.#needKeys = false;
        if (!stage.refill()) {
          this.#exhausted = true;
          return false;
        }
      }
      rowids.count = 0;
      const limit = rowids.capacity;
      while (rowids.count < limit) {
        const p = stage.pull();
        if (p === PULL_ENTRY || p === PULL_SAME_ENTRY) rowids.push(reader, stage.association);
        else if (p === PULL_END) {
          this.#inputEnded = true;
          break;
        } else {
          this.#needKeys = true; // PULL_DRAINED
          break;
        }
      }
      if (rowids.count > 0) {
        rowids.sort();
        if (this.#rowidBatches++ > 0) this.counters.Handler_mrr_rowid_refills++;
        return true;
      }
      if (this.#inputEnded) {
        this.#exhausted = true;
        return false;
      }
    }
  }
}

function nonNegative(value: number | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`reader.${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Start a multi-range read; see {@link MultiRangeRead}. `ranges` is read lazily, one batch at a
 * time.
 */
export function createMultiRangeRead<K, R>(
  reader: IndexReader<K>,
  fetcher: AsyncRowFetcher<R>,
  ranges: Iterable<MrrRange<K>>,
  options: MrrOptions = {},
): MultiRangeRead<K, R> {
  return new MultiRangeRead(reader, fetcher, ranges, options);
}
