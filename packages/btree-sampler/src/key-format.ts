/**
 * The key format's field writers: each writes one field at `buf[off…]` and returns the offset after
 * it, with no allocation and no bounds growth (the caller leaves room: {@link maxFieldBytes}).
 * They write exactly the bytes `KeyCodec.encode` produces; `KeyCodec`'s header has the format.
 *
 * | tag | field | payload |
 * |---|---|---|
 * | 0x00 {@link TAG_NULL_FIRST} | NULL sorting first (InnoDB's order) | none |
 * | 0x10 {@link TAG_INT32} | INT | 4 bytes big-endian, sign bit flipped |
 * | 0x11 {@link TAG_INT64} | BIGINT | 8 bytes big-endian, sign bit flipped |
 * | 0x12 {@link TAG_DATE} | DATE | days since 1970-01-01 as INT |
 * | 0x13 {@link TAG_DECIMAL} | DECIMAL, the value × 10^scale as an integer | class byte, magnitude bytes |
 * | 0x14 {@link TAG_BYTES} | VARCHAR / VARBINARY, binary collation | bytes, 0x00 escaped as 0x00 0xFF, then 0x00 0x00 |
 * | 0xFF {@link TAG_NULL_LAST} | NULL sorting last | none |
 */

/** NULL that sorts below every value (`nulls: 'first'`, InnoDB's order). */
export const TAG_NULL_FIRST = 0x00;
/** Signed 32-bit integer. */
export const TAG_INT32 = 0x10;
/** Signed 64-bit integer. */
export const TAG_INT64 = 0x11;
/** A day number, encoded as an INT. */
export const TAG_DATE = 0x12;
/** An exact decimal as a scaled integer. */
export const TAG_DECIMAL = 0x13;
/** A byte string (text in binary collation). */
export const TAG_BYTES = 0x14;
/** NULL that sorts above every value (`nulls: 'last'`). */
export const TAG_NULL_LAST = 0xff;

const TWO_32 = 4294967296;

/** Most bytes a field can take: 9 for numbers and dates, 3 + 2·length for a byte string of that length. */
export function maxFieldBytes(byteStringLength = 0): number {
  return Math.max(9, 3 + 2 * byteStringLength);
}

/** A NULL field. */
export function writeNullField(buf: Uint8Array, off: number, nulls: 'first' | 'last' = 'first'): number {
  buf[off] = nulls === 'last' ? TAG_NULL_LAST : TAG_NULL_FIRST;
  return off + 1;
}

function writeInt32Body(buf: Uint8Array, off: number, tag: number, v: number): number {
  const u = (v ^ 0x80000000) >>> 0;
  buf[off] = tag;
  buf[off + 1] = u >>> 24;
  buf[off + 2] = (u >>> 16) & 0xff;
  buf[off + 3] = (u >>> 8) & 0xff;
  buf[off + 4] = u & 0xff;
  return off + 5;
}

/** An INT field. REQUIRES: `v` is an integer in [−2^31, 2^31) (a `RangeError` otherwise). */
export function writeInt32Field(buf: Uint8Array, off: number, v: number): number {
  if ((v | 0) !== v) throw new RangeError(`INT value must be an integer in [-2^31, 2^31), got ${v}`);
  return writeInt32Body(buf, off, TAG_INT32, v);
}

/** A DATE field from a day number (days since 1970-01-01, UTC). */
export function writeDateField(buf: Uint8Array, off: number, days: number): number {
  if ((days | 0) !== days) throw new RangeError(`DATE day number must be a 32-bit integer, got ${days}`);
  return writeInt32Body(buf, off, TAG_DATE, days);
}

/** A BIGINT field from a safe integer or a bigint in [−2^63, 2^63). */
export function writeInt64Field(buf: Uint8Array, off: number, v: number | bigint): number {
  let hi: number;
  let lo: number;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new RangeError(`BIGINT number must be a safe integer, got ${v}`);
    hi = Math.floor(v / TWO_32);
    lo = v - hi * TWO_32;
  } else {
    if (v < -(1n << 63n) || v >= 1n << 63n) throw new RangeError(`BIGINT value is out of range: ${v}`);
    const u = BigInt.asUintN(64, v);
    hi = Number(u >> 32n) | 0;
    lo = Number(u & 0xffffffffn);
  }
  const h = (hi ^ 0x80000000) >>> 0;
  buf[off] = TAG_INT64;
  buf[off + 1] = h >>> 24;
  buf[off + 2] = (h >>> 16) & 0xff;
  buf[off + 3] = (h >>> 8) & 0xff;
  buf[off + 4] = h & 0xff;
  buf[off + 5] = lo >>> 24;
  buf[off + 6] = (lo >>> 16) & 0xff;
  buf[off + 7] = (lo >>> 8) & 0xff;
  buf[off + 8] = lo & 0xff;
  return off + 9;
}

/**
 * A DECIMAL field from the scaled integer (the value × 10^scale: 12.50 at scale 2 is 1250), a safe
 * integer or a bigint. Class byte 0x80 + L then the L minimal big-endian magnitude bytes for
 * v ≥ 0, 0x7F − L then their complements for v < 0. Up to 126 magnitude bytes; a bigint needs
 * room for 2 + that many.
 */
export function writeDecimalField(buf: Uint8Array, off: number, scaled: number | bigint): number {
  buf[off] = TAG_DECIMAL;
  if (typeof scaled === 'number') {
    if (!Number.isSafeInteger(scaled))
      throw new RangeError(`DECIMAL scaled value must be a safe integer, got ${scaled}`);
    const neg = scaled < 0;
    let mag = neg ? -scaled : scaled;
    let len = 0;
    for (let m = mag; m > 0; m = Math.floor(m / 256)) len++;
    buf[off + 1] = neg ? 0x7f - len : 0x80 + len;
    const p = off + 2;
    for (let j = len - 1; j >= 0; j--) {
      const byte = mag % 256;
      buf[p + j] = neg ? ~byte & 0xff : byte;
      mag = (mag - byte) / 256;
    }
    return p + len;
  }
  const neg = scaled < 0n;
  const mag = neg ? -scaled : scaled;
  let len = 0;
  for (let m = mag; m > 0n; m >>= 8n) len++;
  if (len > 126) throw new RangeError('DECIMAL value has too many digits');
  buf[off + 1] = neg ? 0x7f - len : 0x80 + len;
  const p = off + 2;
  let m = mag;
  for (let j = len - 1; j >= 0; j--) {
    const byte = Number(m & 0xffn);
    buf[p + j] = neg ? ~byte & 0xff : byte;
    m >>= 8n;
  }
  return p + len;
}

/** A VARCHAR / VARBINARY field from `src[start, end)`. Needs up to 3 + 2·(end − start) bytes. */
export function writeBytesField(
  buf: Uint8Array,
  off: number,
  src: Uint8Array,
  start = 0,
  end: number = src.length,
): number {
  let p = off;
  buf[p++] = TAG_BYTES;
  for (let j = start; j < end; j++) {
    const x = src[j]!;
    buf[p++] = x;
    if (x === 0) buf[p++] = 0xff;
  }
  buf[p++] = 0;
  buf[p++] = 0;
  return p;
}
