import type { KeyComparator } from '../types.js';
import type { Counter, RecordCursor } from './cursor.js';
import { readVarint, varintSize, writeVarint } from './varint.js';

/** Insertion-sort chunk of the bottom-up merge sort. */
const CHUNK = 12;
/** Words per entry of the offset array: key prefix (2 words) and record offset. */
const STRIDE = 3;
/** Bytes of sort buffer each record costs besides its encoding: its entry and the aux entry. */
export const ENTRY_OVERHEAD: number = 8 * STRIDE;

/**
 * MySQL 5.6 refuses a record when `total_size + size >= srv_sort_buf_size - 1`
 * (`row_merge_buf_add`, row0merge.cc): one byte stays free for the end-of-run marker that
 * `row_merge_buf_write` appends, so the records of one buffer may take at most size − 2 bytes.
 */
export const MYSQL56_RESERVED = 2;

/**
 * The sort buffer (`innodb_sort_buffer_size` bytes, one ArrayBuffer), laid out like a slotted
 * page so no JS object exists per record:
 *
 * ```
 * 0              12·n               24·n            low                     size
 * | entry[0..n)    | (merge-sort aux) |    free     | record n−1 | … | record 0 |
 * ```
 *
 * Records (encoded as in `varint.ts`) are appended downwards from the end. Entry i is three
 * 32-bit words: the first 8 key bytes big-endian, zero-padded (an "abbreviated key", as in
 * PostgreSQL's and DuckDB's sorts) and the byte offset of the i-th record added. Comparing
 * prefixes first keeps most comparisons inside the entry array, away from the scattered
 * records; only equal prefixes read the keys. Zero padding keeps memcmp order: a shorter key
 * pads with the smallest byte. With a custom comparator the prefixes stay 0 and every
 * comparison reads the keys.
 *
 * Invariant: `24·n ≤ low`, so the region after the entries always has room for the merge
 * sort's auxiliary array. `sort()` permutes entries (stable, records never move); `cursor()`
 * then walks them in key order.
 *
 * Record-only accounting (`recordOnly`, MySQL 5.5/5.6): the whole buffer holds records and the
 * entries live in a separate array that grows as needed, as InnoDB keeps its tuple pointers
 * (`buf->tuples`, `buf->tmp_tuples`) outside the block (`row_merge_buf_create_low`). A record is
 * refused when the records would pass `size − 2` bytes; the in-memory sort is the merge sort
 * alone (InnoDB's `UT_SORT_FUNCTION_BODY`), with no radix pass.
 */
export class SortBuffer {
  readonly bytes: Buffer;
  #words: Uint32Array;
  readonly #abbreviate: boolean;
  readonly #recordOnly: boolean;
  /** Radix-sort histograms, 8 bytes × 256 buckets. */
  readonly #hist: Uint32Array = new Uint32Array(2048);
  readonly size: number;
  count = 0;
  low: number;
  /** Encoded bytes of the records held (without the entries). */
  recordBytes = 0;

  /**
   * `abbreviate`: fill key prefixes (only valid for memcmp order). `recordOnly`: MySQL 5.6's
   * accounting (see the class comment).
   */
  constructor(size: number, abbreviate: boolean, recordOnly = false) {
    const ab = new ArrayBuffer(size);
    this.bytes = Buffer.from(ab);
    this.#words = recordOnly ? new Uint32Array(2 * STRIDE * 1024) : new Uint32Array(ab, 0, size >>> 2);
    this.#abbreviate = abbreviate;
    this.#recordOnly = recordOnly;
    this.size = size;
    this.low = size;
  }

  /** Largest encoded record the buffer can hold when empty. */
  static capacityFor(size: number, recordOnly = false): number {
    return recordOnly ? size - MYSQL56_RESERVED : size - ENTRY_OVERHEAD - 4;
  }

  /** Bytes of the entry array when it lives outside the buffer (record-only accounting), else 0. */
  get outsideBytes(): number {
    return this.#recordOnly ? this.#words.byteLength : 0;
  }

  /** Double the outside entry array (record-only accounting): once per doubling of a run, never per record. */
  #grow(): void {
    const bigger = new Uint32Array(2 * this.#words.length);
    bigger.set(this.#words.subarray(0, STRIDE * this.count));
    this.#words = bigger;
  }

  /** Append a record of encoded size `encoded`; false (and nothing changes) when it does not fit. */
  tryAdd(key: Uint8Array, value: Uint8Array, encoded: number): boolean {
    const low = this.low - encoded;
    if (this.#recordOnly) {
      if (this.recordBytes + encoded > this.size - MYSQL56_RESERVED) return false;
      if (2 * STRIDE * (this.count + 1) > this.#words.length) this.#grow();
    } else if (ENTRY_OVERHEAD * (this.count + 1) > (low & ~3)) return false;
    const bytes = this.bytes;
    const kl = key.length;
    let p = writeVarint(bytes, low, kl);
    if (kl < 24) for (let i = 0; i < kl; i++) bytes[p + i] = key[i]!;
    else bytes.set(key, p);
    p = writeVarint(bytes, p + kl, value.length);
    const vl = value.length;
    if (vl < 24) for (let i = 0; i < vl; i++) bytes[p + i] = value[i]!;
    else bytes.set(value, p);
    const w = this.#words;
    const e = STRIDE * this.count++;
    if (this.#abbreviate) {
      if (kl >= 8) {
        w[e] = ((key[0]! << 24) | (key[1]! << 16) | (key[2]! << 8) | key[3]!) >>> 0;
        w[e + 1] = ((key[4]! << 24) | (key[5]! << 16) | (key[6]! << 8) | key[7]!) >>> 0;
      } else {
        let hi = 0;
        let lo = 0;
        for (let i = 0; i < kl; i++) {
          if (i < 4) hi |= key[i]! << (24 - 8 * i);
          else lo |= key[i]! << (24 - 8 * (i - 4));
        }
        w[e] = hi >>> 0;
        w[e + 1] = lo >>> 0;
      }
    } else {
      w[e] = 0;
      w[e + 1] = 0;
    }
    w[e + 2] = low;
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
   * Stable sort of the entries by key. With memcmp order (abbreviated keys present) an LSD
   * radix sort on the 8 prefix bytes runs first (a counting pass per byte that varies, stable,
   * no comparisons), then each group of equal prefixes is ordered by its full keys with the
   * merge sort below. With a custom comparator the merge sort does everything.
   */
  sort(compare: KeyComparator | undefined, counter: Counter): void {
    const n = this.count;
    if (compare !== undefined || !this.#abbreviate || this.#recordOnly || n < 64) {
      this.#mergeSort(0, n, compare, counter);
      return;
    }
    this.#radix(n);
    const w = this.#words;
    for (let i = 0; i < n; ) {
      const hi = w[STRIDE * i]!;
      const lo = w[STRIDE * i + 1]!;
      let j = i + 1;
      while (j < n && w[STRIDE * j] === hi && w[STRIDE * j + 1] === lo) j++;
      if (j - i > 1) this.#mergeSort(i, j, undefined, counter);
      i = j;
    }
  }

  /** LSD radix sort of entries [0, n) by their 64-bit prefix, one byte a pass, skipping bytes all entries share. */
  #radix(n: number): void {
    const w = this.#words;
    const hist = this.#hist;
    hist.fill(0);
    for (let e = 0; e < STRIDE * n; e += STRIDE) {
      const h = w[e]!;
      const l = w[e + 1]!;
      hist[l & 255]!++;
      hist[256 + ((l >>> 8) & 255)]!++;
      hist[512 + ((l >>> 16) & 255)]!++;
      hist[768 + (l >>> 24)]!++;
      hist[1024 + (h & 255)]!++;
      hist[1280 + ((h >>> 8) & 255)]!++;
      hist[1536 + ((h >>> 16) & 255)]!++;
      hist[1792 + (h >>> 24)]!++;
    }
    let src = 0;
    let dst = STRIDE * n;
    for (let d = 0; d < 8; d++) {
      const base = 256 * d;
      let skip = false;
      let sum = 0;
      for (let b = 0; b < 256; b++) {
        const c = hist[base + b]!;
        if (c === n) skip = true;
        hist[base + b] = sum;
        sum += c;
      }
      if (skip) continue;
      const word = d < 4 ? 1 : 0;
      const shift = 8 * (d & 3);
      for (let e = src; e < src + STRIDE * n; e += STRIDE) {
        const b = (w[e + word]! >>> shift) & 255;
        const o = dst + STRIDE * hist[base + b]!++;
        w[o] = w[e]!;
        w[o + 1] = w[e + 1]!;
        w[o + 2] = w[e + 2]!;
      }
      const t = src;
      src = dst;
      dst = t;
    }
    if (src !== 0) w.copyWithin(0, src, src + STRIDE * n);
  }

  /**
   * Stable merge sort of entries [lo, hi): insertion sort on chunks of 12, then bottom-up merges
   * ping-ponging between the entries and the same range of the aux region (InnoDB's
   * `UT_SORT_FUNCTION_BODY` is a top-down merge sort with the same stability: on equal keys the
   * left half goes first). `compare` is undefined for memcmp order (inlined here).
   */
  #mergeSort(lo0: number, hi0: number, compare: KeyComparator | undefined, counter: Counter): void {
    const n = this.count;
    const w = this.#words;
    const b = this.bytes;
    let cmps = 0;
    // compare entries at word indices x and y
    const cmp = (x: number, y: number): number => {
      cmps++;
      const xh = w[x]!;
      const yh = w[y]!;
      if (xh !== yh) return xh < yh ? -1 : 1;
      const xm = w[x + 1]!;
      const ym = w[y + 1]!;
      if (xm !== ym) return xm < ym ? -1 : 1;
      const xr = w[x + 2]!;
      const yr = w[y + 2]!;
      let xl = b[xr]!;
      let xs = xr + 1;
      if (xl >= 0x80) {
        xl = readVarint(b, xr);
        xs = xr + varintSize(xl);
      }
      let yl = b[yr]!;
      let ys = yr + 1;
      if (yl >= 0x80) {
        yl = readVarint(b, yr);
        ys = yr + varintSize(yl);
      }
      if (compare !== undefined) return compare(b, xs, xs + xl, b, ys, ys + yl);
      const m = Math.min(xl, yl);
      for (let i = 8; i < m; i++) {
        const d = b[xs + i]! - b[ys + i]!;
        if (d !== 0) return d;
      }
      return xl - yl;
    };
    // insertion sort of each chunk, moving whole entries
    for (let lo = lo0; lo < hi0; lo += CHUNK) {
      const hi = Math.min(lo + CHUNK, hi0);
      for (let i = lo + 1; i < hi; i++) {
        const at = STRIDE * i;
        let j = i - 1;
        if (cmp(STRIDE * j, at) <= 0) continue;
        const v0 = w[at]!;
        const v1 = w[at + 1]!;
        const v2 = w[at + 2]!;
        // park the entry being inserted in the aux region so cmp() can read it
        const park = STRIDE * (n + lo0);
        w[park] = v0;
        w[park + 1] = v1;
        w[park + 2] = v2;
        do {
          const s = STRIDE * j;
          w[s + 3] = w[s]!;
          w[s + 4] = w[s + 1]!;
          w[s + 5] = w[s + 2]!;
          j--;
        } while (j >= lo && cmp(STRIDE * j, park) > 0);
        const d = STRIDE * (j + 1);
        w[d] = v0;
        w[d + 1] = v1;
        w[d + 2] = v2;
      }
    }
    let src = 0;
    let dst = STRIDE * n;
    for (let width = CHUNK; width < hi0 - lo0; width *= 2) {
      for (let lo = lo0; lo < hi0; lo += 2 * width) {
        const mid = Math.min(lo + width, hi0);
        const hi = Math.min(lo + 2 * width, hi0);
        if (mid >= hi || cmp(src + STRIDE * (mid - 1), src + STRIDE * mid) <= 0) {
          // a lone run, or the pair is already in order: copy as is
          w.copyWithin(dst + STRIDE * lo, src + STRIDE * lo, src + STRIDE * hi);
          continue;
        }
        let i = src + STRIDE * lo;
        const iEnd = src + STRIDE * mid;
        let j = iEnd;
        const jEnd = src + STRIDE * hi;
        let o = dst + STRIDE * lo;
        while (i < iEnd && j < jEnd) {
          const from = cmp(i, j) <= 0 ? i : j;
          w[o] = w[from]!;
          w[o + 1] = w[from + 1]!;
          w[o + 2] = w[from + 2]!;
          o += STRIDE;
          if (from === i) i += STRIDE;
          else j += STRIDE;
        }
        if (i < iEnd) w.copyWithin(o, i, iEnd);
        else if (j < jEnd) w.copyWithin(o, j, jEnd);
      }
      const t = src;
      src = dst;
      dst = t;
    }
    if (src !== 0) w.copyWithin(STRIDE * lo0, src + STRIDE * lo0, src + STRIDE * hi0);
    counter.comparisons += cmps;
  }

  /** A cursor over the records in entry order (key order after `sort()`). */
  cursor(): RecordCursor {
    return new MemoryCursor(this.bytes, this.#words, this.count);
  }
}

class MemoryCursor implements RecordCursor {
  readonly buf: Buffer;
  readonly #words: Uint32Array;
  readonly #end: number;
  #e = 2;
  recordStart = 0;
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;

  constructor(buf: Buffer, words: Uint32Array, count: number) {
    this.buf = buf;
    this.#words = words;
    this.#end = STRIDE * count;
  }

  next(): boolean {
    if (this.#e >= this.#end) return false;
    const b = this.buf;
    const r = this.#words[this.#e]!;
    this.#e += STRIDE;
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
