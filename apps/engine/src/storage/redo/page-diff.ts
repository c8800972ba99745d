import { FIL_PAGE_LSN } from '@enginekit/buffer-pool';
import { MLOG_PAGE_BYTES, MLOG_PAGE_INIT, readU16, readU32, writeU16, writeU32 } from './format.js';

/** Equal bytes between two changed ranges below which they are logged as one range. */
const MERGE_GAP = 16;

/**
 * A growable byte sink for the records of one mini-transaction, reused across mtrs (no
 * allocation per row operation once it has grown).
 */
export class RecordBuilder {
  bytes: Uint8Array = new Uint8Array(4096);
  length = 0;

  reset(): void {
    this.length = 0;
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  u8(v: number): void {
    this.reserve(1);
    this.bytes[this.length++] = v;
  }

  u32(v: number): void {
    this.reserve(4);
    writeU32(this.bytes, this.length, v);
    this.length += 4;
  }

  copy(src: Uint8Array, from: number, n: number): void {
    this.reserve(n);
    this.bytes.set(src.subarray(from, from + n), this.length);
    this.length += n;
  }
}

/** Appends MLOG_PAGE_INIT for (space, pageNo). */
export function logPageInit(out: RecordBuilder, space: number, pageNo: number): void {
  out.u8(MLOG_PAGE_INIT);
  out.u32(space);
  out.u32(pageNo);
}

/**
 * Appends MLOG_PAGE_BYTES for the ranges where the page `now` differs from `before`, or nothing if
 * they are equal. Both pages are given as bytes and as int32 views (`bw`, `nw`: word offsets of the
 * pages in the views), so the scan compares words and refines only the ends of each range to
 * bytes. Ranges closer than 16 bytes merge; a range never exceeds 65536 bytes. The caller has made
 * the envelope LSN fields equal. Returns whether a record was written.
 */
export function logPageDiff(
  out: RecordBuilder,
  space: number,
  pageNo: number,
  before: Uint8Array,
  beforeOff: number,
  now: Uint8Array,
  nowOff: number,
  ps: number,
  B: Int32Array,
  N: Int32Array,
): boolean {
  const words = ps >> 2;
  const bw = beforeOff / 4; // offsets into a pool past 2 GiB: no 32-bit shift
  const nw = nowOff / 4;
  let w = 0;
  while (w < words && B[bw + w] === N[nw + w]) w++;
  if (w === words) return false;
  const head = out.length;
  out.reserve(11);
  out.bytes[out.length] = MLOG_PAGE_BYTES;
  writeU32(out.bytes, out.length + 1, space);
  writeU32(out.bytes, out.length + 5, pageNo);
  out.length += 11;
  let ranges = 0;
  const gapWords = MERGE_GAP >> 2;
  while (w < words) {
    let start = w << 2;
    while (before[beforeOff + start] === now[nowOff + start]) start++;
    let last = w;
    let j = w + 1;
    while (j < words && j - last <= gapWords && (j - w) << 2 < 65528) {
      if (B[bw + j] !== N[nw + j]) last = j;
      j++;
    }
    let end = (last << 2) + 4;
    while (before[beforeOff + end - 1] === now[nowOff + end - 1]) end--;
    out.reserve(4 + (end - start));
    writeU16(out.bytes, out.length, start);
    writeU16(out.bytes, out.length + 2, end - start - 1);
    out.length += 4;
    out.copy(now, nowOff + start, end - start);
    ranges++;
    w = last + 1;
    while (w < words && B[bw + w] === N[nw + w]) w++;
  }
  writeU16(out.bytes, head + 9, ranges);
  return true;
}

/**
 * Applies the MLOG_PAGE_BYTES body at `rec[at…]` (after the type, space and page number: the
 * range count) to the page at `page[off…]`. Returns the offset after the record, or −1 if a range
 * falls outside the page or the record outside `end`.
 */
export function applyPageBytes(
  rec: Uint8Array,
  at: number,
  end: number,
  page: Uint8Array,
  off: number,
  ps: number,
): number {
  if (at + 2 > end) return -1;
  const ranges = readU16(rec, at);
  let p = at + 2;
  for (let r = 0; r < ranges; r++) {
    if (p + 4 > end) return -1;
    const o = readU16(rec, p);
    const n = readU16(rec, p + 2) + 1;
    p += 4;
    if (o + n > ps || p + n > end) return -1;
    page.set(rec.subarray(p, p + n), off + o);
    p += n;
  }
  return p;
}

/** The offset after the MLOG_PAGE_BYTES body at `rec[at…]`, or −1 (see {@link applyPageBytes}). */
export function skipPageBytes(rec: Uint8Array, at: number, end: number, ps: number): number {
  if (at + 2 > end) return -1;
  const ranges = readU16(rec, at);
  let p = at + 2;
  for (let r = 0; r < ranges; r++) {
    if (p + 4 > end) return -1;
    const o = readU16(rec, p);
    const n = readU16(rec, p + 2) + 1;
    p += 4 + n;
    if (o + n > ps || p > end) return -1;
  }
  return p;
}

/** Space id and page number of a page record at `rec[at…]` (the byte after the type). */
export function recordPage(rec: Uint8Array, at: number): [number, number] {
  return [readU32(rec, at), readU32(rec, at + 4)];
}

/** The envelope LSN fields a diff leaves out: bytes 16–23 and the trailer's last 4. */
export function copyLsnFields(
  from: Uint8Array,
  fromOff: number,
  to: Uint8Array,
  toOff: number,
  ps: number,
): void {
  to.set(from.subarray(fromOff + FIL_PAGE_LSN, fromOff + FIL_PAGE_LSN + 8), toOff + FIL_PAGE_LSN);
  to.set(from.subarray(fromOff + ps - 4, fromOff + ps), toOff + ps - 4);
}
