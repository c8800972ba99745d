/**
 * The page search, with a per-thread cache of key prefixes for pages searched again and again.
 *
 * A binary search over a 16 KiB page touches two cache lines per probe: the slot and the record
 * it points to, which sits anywhere in the heap (records stay where they were inserted). The cache
 * keeps, per frame, one number per slot in slot order ({@link keyCode}: the first six key bytes
 * and the key length up to 7, order-preserving and exact in a double), so a search reads one
 * contiguous array and only a tie on a key longer than six bytes (or on a non-unique tree's
 * value) reads the record. The numbers are searched as a two-level index of 8-number blocks (64
 * bytes, one cache line): after the n codes sit the maxima of each block of 8 (level 1), then the
 * maxima of each block of 8 of those (level 2); a search scans level 2, one block of level 1 and
 * one block of codes — about 4 cache lines for a 16 KiB leaf of ~500 records, where a binary
 * search touched ~7.
 * The entry is built on the second search of a page that has not changed in between, so a page
 * that is written between searches (an insert's leaf) never pays for a build.
 *
 * The six bytes are taken after the key prefix every record of the page shares (the common prefix
 * of its first and last keys, which sorted keys in between share too): on a page of BIGINT keys
 * below 2^40 the first five bytes are the same everywhere, and six bytes from the start would give
 * every record the same number. A search first compares its key with that shared prefix (a key
 * below or above it is before every record or after the last), then searches the numbers of the
 * bytes that follow.
 *
 * Validity: the cached frame must still hold the same page (number and space) with the same
 * newest-modification LSN in its envelope (the buffer pool stamps a new one on every
 * `markDirty`, so writes by other threads show there). For stores that do not stamp LSNs (a test
 * double), the entry also records the tree's write counter and is dropped when this tree wrote.
 *
 * Key lengths are read with the record's delete mark (bit 15) masked off, as `recKeyLen` does.
 */
import { compareBytes } from '@enginekit/common';
import { FIL_PAGE_DATA_END, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID } from '@enginekit/buffer-pool';
import { PAGE_N_RECS, REC_HEADER, recKeyLen, slotRec } from '../page.js';
import { readU32 } from './bytes.js';

/** Bytes of the key folded into the cached number (6 · 8 = 48 bits, exact in a double). */
const PREFIX_BYTES = 6;
/** Searches of the same unchanged page before its prefixes are cached. */
const BUILD_AFTER = 2;
/** Numbers per block of the cached search tree (8 doubles: one 64-byte cache line). */
const B = 8;
const N_RECS = PAGE_N_RECS;
const DIR_END = FIL_PAGE_DATA_END;

/**
 * The search number of the key b[off, off+len): its six-byte big-endian prefix (zero-padded) × 8 +
 * min(len, 7), an exact integer below 2^51. It orders like memcmp: equal prefixes of keys of at
 * most six bytes differ only by trailing zeros, so the shorter key, which sorts first, has the
 * smaller length part. Equal numbers below the 7 length code mean equal keys.
 */
export function keyCode(b: Uint8Array, off: number, len: number): number {
  return prefixOf(b, off, len) * 8 + Math.min(len, 7);
}

/** The six-byte big-endian prefix of b[off, off+len), zero-padded, as an exact integer. */
export function prefixOf(b: Uint8Array, off: number, len: number): number {
  let hi = 0;
  let lo = 0;
  if (len >= PREFIX_BYTES) {
    hi = (b[off]! << 8) | b[off + 1]!;
    lo = ((b[off + 2]! << 24) | (b[off + 3]! << 16) | (b[off + 4]! << 8) | b[off + 5]!) >>> 0;
  } else {
    // zero-padded to six bytes
    const b0 = len > 0 ? b[off]! : 0;
    const b1 = len > 1 ? b[off + 1]! : 0;
    const b2 = len > 2 ? b[off + 2]! : 0;
    const b3 = len > 3 ? b[off + 3]! : 0;
    const b4 = len > 4 ? b[off + 4]! : 0;
    hi = (b0 << 8) | b1;
    lo = ((b2 << 24) | (b3 << 16) | (b4 << 8)) >>> 0;
  }
  return hi * 4294967296 + lo;
}

export class SearchCache {
  readonly #b: Uint8Array;
  readonly #ps: number;
  readonly #unique: boolean;
  /** Per frame: [lsn high, lsn low, page no, space] the entry (or the hit count) belongs to. */
  readonly #meta: Uint32Array;
  /** Per frame: the tree's write counter when the entry was made (stores without LSN stamps). */
  readonly #ver: Float64Array;
  /** Per frame: searches seen at this meta; ≥ BUILD_AFTER: `#pre[frame]` is valid. */
  readonly #hits: Uint8Array;
  readonly #pre: (Float64Array | undefined)[] = [];
  /** Per frame: key bytes every record of the cached page shares, which its numbers skip. */
  readonly #skip: Uint16Array;
  /** Whether the store stamps a new LSN on every markDirty (then the write counter is not needed). */
  lsnStamped = false;

  constructor(bytes: Uint8Array, pageSize: number, unique: boolean) {
    this.#b = bytes;
    this.#ps = pageSize;
    this.#unique = unique;
    const frames = Math.floor(bytes.length / pageSize);
    this.#meta = new Uint32Array(frames * 4);
    this.#ver = new Float64Array(frames);
    this.#hits = new Uint8Array(frames);
    this.#skip = new Uint16Array(frames);
  }

  /**
   * First slot whose record is ≥ the target (`strict`: > the target), on the page at `base`.
   * `code` is `keyCode(key, 0, key.length)` (a descent computes it once for every level).
   */
  search(
    base: number,
    key: Uint8Array,
    val: Uint8Array | null,
    strict: boolean,
    version: number,
    code: number,
  ): number {
    const b = this.#b;
    const frame = (base / this.#ps) | 0;
    if (frame >= this.#hits.length) return this.#plain(base, key, val, strict);
    const m = frame * 4;
    const meta = this.#meta;
    const lsnHi = readU32(b, base + FIL_PAGE_LSN);
    const lsnLo = readU32(b, base + FIL_PAGE_LSN + 4);
    const pageNo = readU32(b, base + FIL_PAGE_OFFSET);
    const space = readU32(b, base + FIL_PAGE_SPACE_ID);
    let hits = this.#hits[frame]!;
    if (
      meta[m] !== lsnHi ||
      meta[m + 1] !== lsnLo ||
      meta[m + 2] !== pageNo ||
      meta[m + 3] !== space ||
      (!this.lsnStamped && this.#ver[frame] !== version)
    ) {
      meta[m] = lsnHi;
      meta[m + 1] = lsnLo;
      meta[m + 2] = pageNo;
      meta[m + 3] = space;
      this.#ver[frame] = version;
      hits = 0;
    }
    if (hits < BUILD_AFTER) {
      this.#hits[frame] = ++hits;
      if (hits < BUILD_AFTER) return this.#plain(base, key, val, strict);
      this.#build(frame, base);
    }
    const skip = this.#skip[frame]!;
    if (skip === 0) return this.#cached(this.#pre[frame]!, base, key, val, strict, code);
    // the key against the prefix the page's records share: before or after all of them, or
    // searched by the bytes that follow
    const first = base + slotRec(b, base, this.#ps, 0) + REC_HEADER;
    const n = Math.min(skip, key.length);
    for (let i = 0; i < n; i++) {
      const c = b[first + i]! - key[i]!;
      if (c !== 0) return c > 0 ? 0 : (b[base + N_RECS]! << 8) | b[base + N_RECS + 1]!;
    }
    if (key.length < skip) return 0;
    return this.#cached(this.#pre[frame]!, base, key, val, strict, keyCode(key, skip, key.length - skip));
  }

  /** Codes of every slot, then the block maxima above them (see the header). */
  #build(frame: number, base: number): void {
    const b = this.#b;
    const n = (b[base + N_RECS]! << 8) | b[base + N_RECS + 1]!;
    const nb = (n + B - 1) >>> 3;
    const nb2 = (nb + B - 1) >>> 3;
    const need = n + nb + nb2;
    let pre = this.#pre[frame];
    if (pre === undefined || pre.length < need) {
      pre = new Float64Array(Math.max(need + (need >>> 2), 32));
      this.#pre[frame] = pre;
    }
    // the key prefix every record shares: that of the first and the last (none when those keys
    // fit the six bytes: their numbers are exact already, and the search's prefix check would be
    // work for nothing)
    let skip = 0;
    if (n >= 2) {
      const a = slotRec(b, base, this.#ps, 0);
      const z = slotRec(b, base, this.#ps, n - 1);
      const most = Math.min(recKeyLen(b, base, a), recKeyLen(b, base, z));
      if (most > PREFIX_BYTES)
        while (skip < most && b[base + a + REC_HEADER + skip] === b[base + z + REC_HEADER + skip]) skip++;
    }
    this.#skip[frame] = skip;
    const dir = base + this.#ps - DIR_END - 2;
    for (let i = 0; i < n; i++) {
      const sp = dir - 2 * i;
      const rec = base + ((b[sp]! << 8) | b[sp + 1]!);
      pre[i] = keyCode(b, rec + REC_HEADER + skip, (((b[rec]! & 0x7f) << 8) | b[rec + 1]!) - skip);
    }
    // level 1 at n: the last (largest) code of each block of 8; level 2 at n + nb: the same over level 1
    for (let j = 0; j < nb; j++) pre[n + j] = pre[Math.min(j * B + B - 1, n - 1)]!;
    for (let t = 0; t < nb2; t++) pre[n + nb + t] = pre[n + Math.min(t * B + B - 1, nb - 1)]!;
  }

  /**
   * First index i < n with pre[i] ≥ code (n if none): the first level-2 number ≥ code (a scan, or
   * a bisection on pages of more than 1024 records), then one block of level 1, then one block of
   * codes. A block's maximum one level up is ≥ code, so each block scan ends inside the block.
   */
  #lowerBound(pre: Float64Array, n: number, code: number): number {
    let i = 0;
    if (n > B) {
      const nb = (n + B - 1) >>> 3;
      let j = 0;
      if (nb > B) {
        const o2 = n + nb;
        const nb2 = (nb + B - 1) >>> 3;
        let t = 0;
        if (nb2 <= 2 * B) {
          while (t < nb2 && pre[o2 + t]! < code) t++;
        } else {
          let hi = nb2;
          while (t < hi) {
            const mid = (t + hi) >>> 1;
            if (pre[o2 + mid]! < code) t = mid + 1;
            else hi = mid;
          }
        }
        if (t === nb2) return n;
        j = t * B;
      }
      const jEnd = Math.min(j + B, nb);
      while (j < jEnd && pre[n + j]! < code) j++;
      if (j === nb) return n;
      i = j * B;
    }
    const iEnd = Math.min(i + B, n);
    while (i < iEnd && pre[i]! < code) i++;
    return i;
  }

  #cached(
    pre: Float64Array,
    base: number,
    key: Uint8Array,
    val: Uint8Array | null,
    strict: boolean,
    code: number,
  ): number {
    const b = this.#b;
    const n = (b[base + N_RECS]! << 8) | b[base + N_RECS + 1]!;
    let lo = this.#lowerBound(pre, n, code);
    if (lo === n || pre[lo] !== code) return lo; // no record has the target's number
    // [lo, hi): the records with the target's number.
    let hi = lo + 1;
    if (hi < n && pre[hi] === code) {
      // a run of equal numbers (a long common prefix, or a non-unique key): gallop, then bisect
      let step = 2;
      let bound = lo + 1;
      while (bound + step < n && pre[bound + step] === code) {
        bound += step;
        step *= 2;
      }
      let a = bound + 1;
      let z = Math.min(bound + step, n);
      while (a < z) {
        const mid = (a + z) >>> 1;
        if (pre[mid] === code) a = mid + 1;
        else z = mid;
      }
      hi = a;
    }
    if (code % 8 < 7 && (val === null || this.#unique)) {
      // at most six bytes past the shared prefix: the same number is the same key
      return strict ? hi : lo;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.#compareSlot(base, mid, key, val);
      if (c < 0 || (strict && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The search without the cache, for a leaf about to be written (X-fixed: caching it would be
   * wasted work).
   */
  searchUncached(base: number, key: Uint8Array, val: Uint8Array | null, strict: boolean): number {
    return this.#plain(base, key, val, strict);
  }

  /** The search without the cache: compares bytes inline. */
  #plain(base: number, key: Uint8Array, val: Uint8Array | null, strict: boolean): number {
    const b = this.#b;
    const dir = base + this.#ps - DIR_END - 2;
    const kLen = key.length;
    const useVal = val !== null && !this.#unique;
    let lo = 0;
    let hi = (b[base + N_RECS]! << 8) | b[base + N_RECS + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const sp = dir - 2 * mid;
      const rec = base + ((b[sp]! << 8) | b[sp + 1]!);
      const kl = ((b[rec]! & 0x7f) << 8) | b[rec + 1]!;
      const p = rec + REC_HEADER;
      const n = Math.min(kl, kLen);
      let c = 0;
      for (let i = 0; i < n; i++) {
        c = b[p + i]! - key[i]!;
        if (c !== 0) break;
      }
      if (c === 0) c = kl - kLen;
      if (c === 0 && useVal)
        c = compareBytes(b, p + kl, p + kl + ((b[rec + 2]! << 8) | b[rec + 3]!), val, 0, val.length);
      if (c < 0 || (strict && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Record in `slot` against the target: by key, then (non-unique, `val` given) by value. */
  #compareSlot(base: number, slot: number, key: Uint8Array, val: Uint8Array | null): number {
    const b = this.#b;
    const sp = base + this.#ps - DIR_END - 2 - 2 * slot;
    const rec = base + ((b[sp]! << 8) | b[sp + 1]!);
    const kl = ((b[rec]! & 0x7f) << 8) | b[rec + 1]!;
    const p = rec + REC_HEADER;
    const kLen = key.length;
    const n = Math.min(kl, kLen);
    let c = 0;
    for (let i = 0; i < n; i++) {
      c = b[p + i]! - key[i]!;
      if (c !== 0) return c;
    }
    c = kl - kLen;
    if (c === 0 && val !== null && !this.#unique)
      c = compareBytes(b, p + kl, p + kl + ((b[rec + 2]! << 8) | b[rec + 3]!), val, 0, val.length);
    return c;
  }
}
