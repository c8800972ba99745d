import type { BytesRowIdIndexReader, MrrRange, NumberRowIdIndexReader, RowFetcher, RowId } from './types.js';

/**
 * A secondary index held in two Float64Arrays sorted by (key, row id): numeric keys, numeric
 * row ids. For tests, examples and in-memory callers; it implements the {@link IndexReader}
 * contract exactly (one `seek` per range, `next` until the range ends).
 */
export class SortedArrayIndex implements NumberRowIdIndexReader<number> {
  readonly rowIdKind = 'number' as const;
  readonly keys: Float64Array;
  readonly rowIds: Float64Array;
  /** Entries per distinct key (rounded down, at least 1). */
  readonly recordsPerKey: number;
  readonly unique: boolean;
  #pos = 0;
  #end = 0;

  /** REQUIRES: keys.length === rowIds.length; every value a finite number. */
  constructor(keys: ArrayLike<number>, rowIds: ArrayLike<number>, options: { unique?: boolean } = {}) {
    if (keys.length !== rowIds.length) {
      throw new RangeError(
        `keys and rowIds must have the same length, got ${keys.length} and ${rowIds.length}`,
      );
    }
    const n = keys.length;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort(
      (a, b) => (keys[a] as number) - (keys[b] as number) || (rowIds[a] as number) - (rowIds[b] as number),
    );
    this.keys = new Float64Array(n);
    this.rowIds = new Float64Array(n);
    let distinct = 0;
    for (let i = 0; i < n; i++) {
      const j = order[i] as number;
      this.keys[i] = keys[j] as number;
      this.rowIds[i] = rowIds[j] as number;
      if (i === 0 || this.keys[i] !== this.keys[i - 1]) distinct++;
    }
    this.recordsPerKey = distinct === 0 ? 1 : Math.max(1, Math.floor(n / distinct));
    this.unique = options.unique === true;
    if (this.unique && distinct !== n) throw new RangeError('unique: true, but keys repeat');
  }

  /** First position whose key is ≥ key (`strict`: > key). */
  #lowerBound(key: number, strict: boolean): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid] as number;
      if (k < key || (strict && k === key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  seek(range: MrrRange<number>): boolean {
    let start: number;
    let end: number;
    if ('key' in range) {
      start = this.#lowerBound(range.key, false);
      end = this.#lowerBound(range.key, true);
    } else {
      start = range.low === undefined ? 0 : this.#lowerBound(range.low, range.lowInclusive === false);
      end =
        range.high === undefined
          ? this.keys.length
          : this.#lowerBound(range.high, range.highInclusive !== false);
    }
    this.#pos = start;
    this.#end = end;
    return start < end;
  }

  next(): boolean {
    return ++this.#pos < this.#end;
  }

  rowId(): number {
    return this.rowIds[this.#pos] as number;
  }

  /** Key of the current entry. */
  key(): number {
    return this.keys[this.#pos] as number;
  }

  compareKeys(a: number, b: number): number {
    return a - b;
  }
}

/**
 * A view of an index with numeric row ids that hands them out as `length`-byte big-endian
 * unsigned integers (so memcmp order equals numeric order). For exercising the byte path.
 * REQUIRES: every row id is an integer in [0, 2^min(48, 8·length)).
 */
export function withByteRowIds<K>(
  index: NumberRowIdIndexReader<K>,
  length: number,
): BytesRowIdIndexReader<K> {
  if (!Number.isSafeInteger(length) || length < 1) {
    throw new RangeError(`length must be a positive integer, got ${String(length)}`);
  }
  const view: BytesRowIdIndexReader<K> = {
    rowIdKind: 'bytes',
    rowIdLength: length,
    seek: (range) => index.seek(range),
    next: () => index.next(),
    copyRowId(target: Uint8Array, offset: number): void {
      let v = index.rowId();
      for (let k = length - 1; k >= 0; k--) {
        target[offset + k] = v % 256;
        v = Math.floor(v / 256);
      }
    },
  };
  const mutable = view as {
    compareKeys?: (a: K, b: K) => number;
    recordsPerKey?: number;
    keyLength?: number;
    unique?: boolean;
  };
  if (index.compareKeys !== undefined) mutable.compareKeys = index.compareKeys.bind(index);
  if (index.recordsPerKey !== undefined) mutable.recordsPerKey = index.recordsPerKey;
  if (index.keyLength !== undefined) mutable.keyLength = index.keyLength;
  if (index.unique !== undefined) mutable.unique = index.unique;
  return view;
}

/** Decode a big-endian unsigned byte row id (as written by {@link withByteRowIds}). */
export function decodeByteRowId(bytes: Uint8Array): number {
  let v = 0;
  for (let k = 0; k < bytes.length; k++) v = v * 256 + (bytes[k] as number);
  return v;
}

/** A row fetcher over an array: row id i (a number, or big-endian bytes) → rows[i]. */
export function arrayRowFetcher<R>(rows: readonly R[]): RowFetcher<R> {
  return {
    rndPos(rowId: RowId): R {
      const i = typeof rowId === 'number' ? rowId : decodeByteRowId(rowId);
      return rows[i] as R;
    },
  };
}
