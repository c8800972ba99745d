import type { KeyComparator } from '../types.js';
import type { Counter, RecordCursor } from './cursor.js';
import { readVarint, varintSize, writeVarint } from './varint.js';

/** Insertion-sort chunk of the bottom-up merge sort. */
const CHUNK = 12;

/**
 * The sort buffer (`innodb_sort_buffer_size` bytes, one ArrayBuffer), laid out like a slotted
 * page so no JS object exists per record:
 *
 * ```
 * 0            4·n          8·n                      low                      size
 * | offset[0..n) | (merge-sort aux) |   free    | record n−1 | … | record 0 |
 * ```
 *
 * Records (encoded as in `varint.ts`) are appended downwards from the end; `offset[i]` is the
 * byte offset of the i-th record added. Invariant: `8·n ≤ low`, so the region after the
 * offsets always has room for the merge sort's auxiliary array. `sort()` permutes the offsets
 * (stable, records never move); `cursor()` then walks them in key order.
 */
export class SortBuffer {
  readonly bytes: Buffer;
  readonly #words: Uint32Array;
  readonly size: number;
  count = 0;
  low: number;
  /** Encoded bytes of the records held (without the 8 bytes of offsets each). */
  recordBytes = 0;

  constructor(size: number) {
    const ab = new ArrayBuffer(size);
    this.bytes = Buffer.from(ab);
    this.#words = new Uint32Array(ab, 0, size >>> 2);
    this.size = size;
    this.low = size;
  }

  /** Largest encoded record the buffer can hold when empty. */
  static capacityFor(size: number): number {
    return size - 16;
  }

  /** Append a record of encoded size `encoded`; false (and nothing changes) when it does not fit. */
  tryAdd(key: Uint8Array, value: Uint8Array, encoded: number): boolean {
    const low = this.low - encoded;
    if (8 * (this.count + 1) > (low & ~3)) return false;
    const bytes = this.bytes;
    let p = writeVarint(bytes, low, key.length);
    bytes.set(key, p);
    p = writeVarint(bytes, p + key.length, value.length);
    bytes.set(value, p);
    this.#words[this.count++] = low;
    this.low = low;
    this.recordBytes += encoded;
    return true;
  }

  /** Empty the buffer for the next run. */
  reset(): void {
    this.count = 0;
    this.low = this.size;
    this.recordBytes = 0;
  }

  /**
   * Stable sort of the offsets by key: insertion sort on chunks of 12, then bottom-up merges
   * ping-ponging between the offsets and the aux region (InnoDB's `UT_SORT_FUNCTION_BODY` is a
   * top-down merge sort with the same stability: on equal keys the left half goes first).
   */
  sort(compare: KeyComparator, counter: Counter): void {
    const n = this.count;
    const w = this.#words;
    const b = this.bytes;
    let cmps = 0;
    const cmp = (x: number, y: number): number => {
      cmps++;
      const xl = readVarint(b, x);
      const xs = x + varintSize(xl);
      const yl = readVarint(b, y);
      const ys = y + varintSize(yl);
      return compare(b, xs, xs + xl, b, ys, ys + yl);
    };
    for (let lo = 0; lo < n; lo += CHUNK) {
      const hi = Math.min(lo + CHUNK, n);
      for (let i = lo + 1; i < hi; i++) {
        const v = w[i]!;
        let j = i - 1;
        while (j >= lo && cmp(w[j]!, v) > 0) {
          w[j + 1] = w[j]!;
          j--;
        }
        w[j + 1] = v;
      }
    }
    let src = 0;
    let dst = n;
    for (let width = CHUNK; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        const hi = Math.min(lo + 2 * width, n);
        let i = lo;
        let j = mid;
        let o = dst + lo;
        if (mid < hi && cmp(w[src + mid - 1]!, w[src + mid]!) <= 0) {
          // already in order: copy the pair of runs as they are
          w.copyWithin(o, src + lo, src + hi);
          continue;
        }
        while (i < mid && j < hi) {
          const x = w[src + i]!;
          const y = w[src + j]!;
          if (cmp(x, y) <= 0) {
            w[o++] = x;
            i++;
          } else {
            w[o++] = y;
            j++;
          }
        }
        if (i < mid) w.copyWithin(o, src + i, src + mid);
        else if (j < hi) w.copyWithin(o, src + j, src + hi);
      }
      const t = src;
      src = dst;
      dst = t;
    }
    if (src !== 0) w.copyWithin(0, src, src + n);
    counter.comparisons += cmps;
  }

  /** A cursor over the records in offset order (key order after `sort()`). */
  cursor(): RecordCursor {
    return new MemoryCursor(this.bytes, this.#words, this.count);
  }
}

class MemoryCursor implements RecordCursor {
  readonly buf: Buffer;
  readonly #words: Uint32Array;
  readonly #count: number;
  #i = 0;
  recordStart = 0;
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;

  constructor(buf: Buffer, words: Uint32Array, count: number) {
    this.buf = buf;
    this.#words = words;
    this.#count = count;
  }

  next(): boolean {
    if (this.#i >= this.#count) return false;
    const b = this.buf;
    const r = this.#words[this.#i++]!;
    const kl = readVarint(b, r);
    const ks = r + varintSize(kl);
    const ke = ks + kl;
    const vl = readVarint(b, ke);
    const vs = ke + varintSize(vl);
    this.recordStart = r;
    this.keyStart = ks;
    this.keyEnd = ke;
    this.valueStart = vs;
    this.valueEnd = vs + vl;
    return true;
  }
}
