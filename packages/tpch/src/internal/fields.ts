import type { Distribution } from './dists.js';
import type { RowStreams } from './streams.js';
import { TEXT_POOL_SIZE } from './text-pool.js';
import type { TblWriter } from '../tbl-writer.js';

/** dbgen's MAX_LONG: `UnifInt(0, MAX_LONG)` is the one call with a 32-bit special case. */
const MAX_LONG = 0x7fffffff;
/** `bm_utils.c` `alpha_num`: the 64 characters of random address strings, indexed by 6 bits. */
const ALPHA_NUM = new TextEncoder().encode(
  '0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,',
);
/** V_STR_LOW and V_STR_HGH: variable-length strings range over [0.4·avg, 1.6·avg]. */
const V_STR_LOW = 0.4;
const V_STR_HIGH = 1.6;

/**
 * dbgen `UnifInt(0, MAX_LONG)`: the range is computed in 32-bit ints, `MAX_LONG − 0 + 1`, which
 * wraps to −2^31 with gcc on x86-64, so the draw is `trunc(u · −2^31)`, a value in (−2^31, 0]; its
 * low 6 bits (two's complement) then pick characters. Returned as an int32.
 */
function randomWord(rs: RowStreams, stream: number): number {
  rs.count(stream, 1);
  const seed = rs.generator(stream).nextRaw();
  return Math.trunc((seed / MAX_LONG) * -2147483648) | 0;
}

/**
 * dbgen `a_rnd(min, max, stream)` (`V_STR`): a length in [min, max], then one 31-bit draw per five
 * characters, six bits per character. Writes into `out` and returns the length.
 */
export function randomAlnum(rs: RowStreams, stream: number, avg: number, out: Uint8Array): number {
  const len = rs.unif(stream, Math.trunc(avg * V_STR_LOW), Math.trunc(avg * V_STR_HIGH));
  let word = 0;
  for (let i = 0; i < len; i++) {
    if (i % 5 === 0) word = randomWord(rs, stream);
    out[i] = ALPHA_NUM[word & 63]!;
    word >>= 6;
  }
  return len;
}

/** Result of {@link textSlice}: where in the pool, how long. Reused; read before the next call. */
export const slice: { offset: number; length: number } = { offset: 0, length: 0 };

/**
 * dbgen `dbg_text` (`TEXT(avg, stream)`): an offset in [0, POOL − max] then a length in [min, max],
 * two draws; the comment is that slice of the text pool. Sets {@link slice}.
 */
export function textSlice(rs: RowStreams, stream: number, avg: number): void {
  const min = Math.trunc(avg * V_STR_LOW);
  const max = Math.trunc(avg * V_STR_HIGH);
  slice.offset = rs.unif(stream, 0, TEXT_POOL_SIZE - max);
  slice.length = rs.unif(stream, min, max);
}

/** {@link textSlice} written as a field. */
export function writeText(w: TblWriter, rs: RowStreams, pool: Uint8Array, stream: number, avg: number): void {
  textSlice(rs, stream, avg);
  w.bytes(pool, slice.offset, slice.offset + slice.length);
  w.sep();
}

/** dbgen `pick_str`: one draw in [1, total], the first member whose running weight reaches it. */
export function pick(rs: RowStreams, stream: number, d: Distribution): number {
  const j = rs.unif(stream, 1, d.total);
  const c = d.cumulative;
  let i = 0;
  while (c[i]! < j) i++;
  return i;
}

/** Encoded members of a distribution, for writing without re-encoding. */
export function encoded(d: Distribution): Uint8Array[] {
  return d.words.map((s) => new TextEncoder().encode(s));
}

/**
 * dbgen `gen_phone`: `CC-AAA-EEE-NNNN` with country code 10 + nation key and three draws
 * (area 100–999, exchange 100–999, number 1000–9999) on the same stream. Written as a field.
 */
export function writePhone(w: TblWriter, rs: RowStreams, stream: number, nationKey: number): void {
  const area = rs.unif(stream, 100, 999);
  const exchange = rs.unif(stream, 100, 999);
  const number = rs.unif(stream, 1000, 9999);
  w.padded(10 + (nationKey % 90), 2);
  w.byte(0x2d);
  w.padded(area, 3);
  w.byte(0x2d);
  w.padded(exchange, 3);
  w.byte(0x2d);
  w.padded(number, 4);
  w.sep();
}
