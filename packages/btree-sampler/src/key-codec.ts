import { corruption } from './internal/corruption.js';
import {
  TAG_BYTES,
  TAG_DATE,
  TAG_DECIMAL,
  TAG_INT32,
  TAG_INT64,
  TAG_NULL_FIRST,
  TAG_NULL_LAST,
  writeBytesField,
  writeDateField,
  writeDecimalField,
  writeInt32Field,
  writeInt64Field,
  writeNullField,
} from './key-format.js';

/**
 * An order-preserving key codec: a tuple of typed values becomes a byte string whose memcmp order
 * is the tuple order, so the B+tree compares keys with one byte loop and no schema.
 *
 * Every field starts with a tag byte that also fixes how long the field is, so a key can be split
 * into fields without knowing its column types (the estimators count distinct key prefixes this way):
 *
 * | tag | field | payload |
 * |---|---|---|
 * | 0x00 | NULL, `nulls: 'first'` (InnoDB's order: NULL below every value) | none |
 * | 0x10 | INT (signed 32-bit) | 4 bytes big-endian, sign bit flipped |
 * | 0x11 | BIGINT (signed 64-bit) | 8 bytes big-endian, sign bit flipped |
 * | 0x12 | DATE | days since 1970-01-01 as a signed 32-bit integer, encoded as INT |
 * | 0x13 | DECIMAL(p, s), an exact scaled integer v = value·10^s | class byte, then magnitude bytes (below) |
 * | 0x14 | VARCHAR / VARBINARY in binary collation | bytes with 0x00 written as 0x00 0xFF, ended by 0x00 0x00 |
 * | 0xFF | NULL, `nulls: 'last'` | none |
 *
 * DECIMAL class byte: v ≥ 0 → 0x80 + L followed by the L minimal big-endian bytes of v (0 is 0x80
 * alone); v < 0 → 0x7F − L followed by the complement of the L bytes of −v. A longer negative
 * magnitude gets a smaller class byte, so the order holds across lengths.
 *
 * The string escape keeps a proper prefix first: "ab" = 61 62 00 00 < "abc" = 61 62 63 00 00, and
 * "a\0" = 61 00 FF 00 00 > "a" = 61 00 00.
 *
 * The tags are exported (`TAG_NULL_FIRST` …); `KeyWriter` and the `write…Field` functions write the
 * same bytes field by field without allocating.
 */

/** A column type of the codec. */
export type ColumnType = 'int32' | 'int64' | 'decimal' | 'date' | 'string' | 'binary';

/** One key column. `scale` applies to `decimal` (digits after the point, default 0). */
export interface ColumnSpec {
  readonly type: ColumnType;
  readonly scale?: number;
  /** Where NULL sorts: `'first'` (default, as InnoDB) or `'last'`. */
  readonly nulls?: 'first' | 'last';
}

/**
 * A value of one field: `number` for int32 (and int64 when safe), `bigint` for int64 or a scaled
 * decimal, a decimal string such as `'-12.50'`, a date as `Date` (UTC day), `'YYYY-MM-DD'` or a day
 * number, `string` (encoded UTF-8) or `Uint8Array` for strings, `null` for NULL.
 */
export type KeyValue = number | bigint | string | Date | Uint8Array | null;

const MS_PER_DAY = 86_400_000;
const TEXT_ENCODER = new TextEncoder();
const TEXT_DECODER = new TextDecoder('utf-8', { fatal: false });

/**
 * Encode and decode tuples for one key schema.
 *
 * @example
 * ```ts
 * const codec = new KeyCodec([{ type: 'int32' }, { type: 'decimal', scale: 2 }]);
 * const a = codec.encode([-5, '1.50']);
 * const b = codec.encode([-5, '10.00']);
 * compareKeys(a, b) < 0; // true, as (-5, 1.50) < (-5, 10.00)
 * codec.decode(a); // [-5, '1.50']
 * ```
 */
export class KeyCodec {
  readonly columns: readonly ColumnSpec[];

  constructor(columns: readonly ColumnSpec[]) {
    if (!Array.isArray(columns) || columns.length === 0) {
      throw new TypeError(`columns must be a non-empty array, got ${String(columns)}`);
    }
    for (const [i, c] of columns.entries()) {
      if (!['int32', 'int64', 'decimal', 'date', 'string', 'binary'].includes(c.type)) {
        throw new RangeError(`columns[${i}].type: unknown column type '${String(c.type)}'`);
      }
      if (c.scale !== undefined && (!Number.isInteger(c.scale) || c.scale < 0 || c.scale > 38)) {
        throw new RangeError(`columns[${i}].scale must be an integer in [0, 38], got ${String(c.scale)}`);
      }
    }
    this.columns = Object.freeze([...columns]);
  }

  /** Encode a whole tuple, or a leading prefix of it (for prefix seeks). */
  encode(values: readonly KeyValue[]): Uint8Array {
    if (!Array.isArray(values)) throw new TypeError(`values must be an array, got ${String(values)}`);
    if (values.length > this.columns.length) {
      throw new RangeError(`values has ${values.length} fields; the key has ${this.columns.length}`);
    }
    const parts: number[] = [];
    for (let i = 0; i < values.length; i++) encodeField(this.columns[i]!, values[i]!, i, parts);
    return Uint8Array.from(parts);
  }

  /**
   * Encode a tuple (or a leading prefix) into `buffer` at `offset`; returns the offset after the
   * key. Allocates nothing for numbers, dates and `Uint8Array` strings (a JS string is encoded to
   * UTF-8 first). Throws `RangeError` when the buffer has no room, leaving bytes past `offset`
   * unspecified.
   */
  encodeInto(values: readonly KeyValue[], buffer: Uint8Array, offset: number): number {
    if (!Array.isArray(values)) throw new TypeError(`values must be an array, got ${String(values)}`);
    if (values.length > this.columns.length) {
      throw new RangeError(`values has ${values.length} fields; the key has ${this.columns.length}`);
    }
    if (!(buffer instanceof Uint8Array))
      throw new TypeError(`buffer must be a Uint8Array, got ${String(buffer)}`);
    if (!Number.isInteger(offset) || offset < 0 || offset > buffer.length)
      throw new RangeError(`offset must be an integer in [0, ${buffer.length}], got ${String(offset)}`);
    let p = offset;
    for (let i = 0; i < values.length; i++) p = encodeFieldInto(this.columns[i]!, values[i]!, i, buffer, p);
    return p;
  }

  /** Decode a key written by {@link KeyCodec.encode} (decimals and dates come back as strings, BIGINT as bigint). */
  decode(key: Uint8Array): KeyValue[] {
    const out: KeyValue[] = [];
    let off = 0;
    for (let i = 0; i < this.columns.length && off < key.length; i++) {
      const end = fieldEnd(key, off, key.length);
      out.push(decodeField(this.columns[i]!, key, off, end));
      off = end;
    }
    return out;
  }
}

function encodeField(col: ColumnSpec, v: KeyValue, i: number, out: number[]): void {
  if (v === null) {
    out.push(col.nulls === 'last' ? TAG_NULL_LAST : TAG_NULL_FIRST);
    return;
  }
  switch (col.type) {
    case 'int32': {
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new TypeError(`values[${i}] must be an integer, got ${String(v)}`);
      if (v < -2147483648 || v > 2147483647) throw new RangeError(`values[${i}] is outside INT: ${v}`);
      pushInt32(out, TAG_INT32, v);
      return;
    }
    case 'date': {
      pushInt32(out, TAG_DATE, toDays(v, i));
      return;
    }
    case 'int64': {
      let b: bigint;
      if (typeof v === 'bigint') b = v;
      else if (typeof v === 'number' && Number.isSafeInteger(v)) b = BigInt(v);
      else throw new TypeError(`values[${i}] must be a bigint or a safe integer, got ${String(v)}`);
      if (b < -(1n << 63n) || b >= 1n << 63n) throw new RangeError(`values[${i}] is outside BIGINT: ${b}`);
      const u = BigInt.asUintN(64, b) ^ (1n << 63n);
      out.push(TAG_INT64);
      for (let s = 56n; s >= 0n; s -= 8n) out.push(Number((u >> s) & 0xffn));
      return;
    }
    case 'decimal': {
      const scaled = toScaled(v, col.scale ?? 0, i);
      out.push(TAG_DECIMAL);
      const neg = scaled < 0n;
      let mag = neg ? -scaled : scaled;
      const bytes: number[] = [];
      while (mag > 0n) {
        bytes.push(Number(mag & 0xffn));
        mag >>= 8n;
      }
      if (bytes.length > 126) throw new RangeError(`values[${i}] has too many digits for DECIMAL`);
      bytes.reverse();
      if (neg) {
        out.push(0x7f - bytes.length);
        for (const x of bytes) out.push(~x & 0xff);
      } else {
        out.push(0x80 + bytes.length);
        for (const x of bytes) out.push(x);
      }
      return;
    }
    case 'string':
    case 'binary': {
      let bytes: Uint8Array;
      if (typeof v === 'string') bytes = TEXT_ENCODER.encode(v);
      else if (v instanceof Uint8Array) bytes = v;
      else throw new TypeError(`values[${i}] must be a string or a Uint8Array, got ${String(v)}`);
      out.push(TAG_BYTES);
      for (const x of bytes) {
        out.push(x);
        if (x === 0) out.push(0xff);
      }
      out.push(0, 0);
      return;
    }
  }
}

/** Room a field needs: 9 bytes for numbers (DECIMAL: 2 + 126), a byte string 3 + 2·length. */
function need(buffer: Uint8Array, p: number, n: number, i: number): void {
  if (p + n > buffer.length) throw new RangeError(`buffer has no room for field ${i} at offset ${p}`);
}

function encodeFieldInto(col: ColumnSpec, v: KeyValue, i: number, buffer: Uint8Array, p: number): number {
  if (v === null) {
    need(buffer, p, 1, i);
    return writeNullField(buffer, p, col.nulls === 'last' ? 'last' : 'first');
  }
  switch (col.type) {
    case 'int32':
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new TypeError(`values[${i}] must be an integer, got ${String(v)}`);
      if (v < -2147483648 || v > 2147483647) throw new RangeError(`values[${i}] is outside INT: ${v}`);
      need(buffer, p, 5, i);
      return writeInt32Field(buffer, p, v);
    case 'date':
      need(buffer, p, 5, i);
      return writeDateField(buffer, p, toDays(v, i));
    case 'int64':
      if (typeof v !== 'bigint' && !(typeof v === 'number' && Number.isSafeInteger(v)))
        throw new TypeError(`values[${i}] must be a bigint or a safe integer, got ${String(v)}`);
      if (typeof v === 'bigint' && (v < -(1n << 63n) || v >= 1n << 63n))
        throw new RangeError(`values[${i}] is outside BIGINT: ${v}`);
      need(buffer, p, 9, i);
      return writeInt64Field(buffer, p, v);
    case 'decimal': {
      const scaled = toScaled(v, col.scale ?? 0, i);
      let len = 0;
      for (let m = scaled < 0n ? -scaled : scaled; m > 0n; m >>= 8n) len++;
      if (len > 126) throw new RangeError(`values[${i}] has too many digits for DECIMAL`);
      need(buffer, p, 2 + len, i);
      return writeDecimalField(buffer, p, scaled);
    }
    case 'string':
    case 'binary': {
      let bytes: Uint8Array;
      if (typeof v === 'string') bytes = TEXT_ENCODER.encode(v);
      else if (v instanceof Uint8Array) bytes = v;
      else throw new TypeError(`values[${i}] must be a string or a Uint8Array, got ${String(v)}`);
      let n = 3;
      for (let j = 0; j < bytes.length; j++) n += bytes[j] === 0 ? 2 : 1;
      need(buffer, p, n, i);
      return writeBytesField(buffer, p, bytes);
    }
  }
}

function pushInt32(out: number[], tag: number, v: number): void {
  const u = (v ^ 0x80000000) >>> 0;
  out.push(tag, u >>> 24, (u >>> 16) & 0xff, (u >>> 8) & 0xff, u & 0xff);
}

function toDays(v: KeyValue, i: number): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (v instanceof Date) {
    const t = v.getTime();
    if (Number.isNaN(t)) throw new RangeError(`values[${i}] is an invalid Date`);
    return Math.floor(t / MS_PER_DAY);
  }
  if (typeof v === 'string') {
    const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(v);
    if (m === null) throw new RangeError(`values[${i}] must be 'YYYY-MM-DD', got '${v}'`);
    return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY);
  }
  throw new TypeError(`values[${i}] must be a Date, 'YYYY-MM-DD' or a day number, got ${String(v)}`);
}

/** A decimal string or bigint as an exact integer scaled by 10^scale. */
function toScaled(v: KeyValue, scale: number, i: number): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v))
      throw new TypeError(`values[${i}]: pass a non-integer DECIMAL as a string, got ${v}`);
    return BigInt(v) * 10n ** BigInt(scale);
  }
  if (typeof v !== 'string')
    throw new TypeError(`values[${i}] must be a decimal string or a bigint, got ${String(v)}`);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(v);
  if (m === null || (m[2] === '' && (m[3] ?? '') === ''))
    throw new RangeError(`values[${i}] is not a decimal: '${v}'`);
  const frac = m[3] ?? '';
  if (frac.length > scale)
    throw new RangeError(`values[${i}] has more than ${scale} fractional digits: '${v}'`);
  const digits = (m[2] || '0') + frac.padEnd(scale, '0');
  const mag = BigInt(digits);
  return m[1] === '-' ? -mag : mag;
}

function decodeField(col: ColumnSpec, key: Uint8Array, off: number, end: number): KeyValue {
  const tag = key[off]!;
  if (tag === TAG_NULL_FIRST || tag === TAG_NULL_LAST) return null;
  switch (tag) {
    case TAG_INT32:
    case TAG_DATE: {
      const u = ((key[off + 1]! << 24) | (key[off + 2]! << 16) | (key[off + 3]! << 8) | key[off + 4]!) >>> 0;
      const v = (u ^ 0x80000000) | 0;
      if (tag === TAG_INT32) return v;
      return new Date(v * MS_PER_DAY).toISOString().slice(0, 10);
    }
    case TAG_INT64: {
      let u = 0n;
      for (let j = 1; j <= 8; j++) u = (u << 8n) | BigInt(key[off + j]!);
      return BigInt.asIntN(64, u ^ (1n << 63n));
    }
    case TAG_DECIMAL: {
      const cls = key[off + 1]!;
      const neg = cls < 0x80;
      let mag = 0n;
      for (let j = off + 2; j < end; j++) mag = (mag << 8n) | BigInt(neg ? ~key[j]! & 0xff : key[j]!);
      const scale = col.scale ?? 0;
      let s = mag.toString().padStart(scale + 1, '0');
      if (scale > 0) s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
      return neg ? `-${s}` : s;
    }
    default: {
      const bytes: number[] = [];
      for (let j = off + 1; j < end - 2; j++) {
        bytes.push(key[j]!);
        if (key[j] === 0) j++;
      }
      const raw = Uint8Array.from(bytes);
      return col.type === 'binary' ? raw : TEXT_DECODER.decode(raw);
    }
  }
}

/**
 * Where the field that starts at `off` ends (exclusive), for any key written by the codec.
 * REQUIRES: off < end. Throws buffer-pool's `CorruptionError` for an unknown tag or a truncated field.
 */
export function fieldEnd(key: Uint8Array, off: number, end: number): number {
  const tag = key[off]!;
  let next: number;
  switch (tag) {
    case TAG_NULL_FIRST:
    case TAG_NULL_LAST:
      return off + 1;
    case TAG_INT32:
    case TAG_DATE:
      next = off + 5;
      break;
    case TAG_INT64:
      next = off + 9;
      break;
    case TAG_DECIMAL: {
      const cls = key[off + 1];
      if (cls === undefined) throw corruption(`truncated DECIMAL at byte ${off}`);
      next = off + 2 + (cls >= 0x80 ? cls - 0x80 : 0x7f - cls);
      break;
    }
    case TAG_BYTES: {
      let j = off + 1;
      for (;;) {
        if (j + 1 >= end) throw corruption(`unterminated string at byte ${off}`);
        if (key[j] === 0) {
          if (key[j + 1] === 0) return j + 2;
          j += 2;
        } else j++;
      }
    }
    default:
      throw corruption(`unknown key field tag 0x${tag.toString(16)} at byte ${off}`);
  }
  if (next > end) throw corruption(`truncated key field at byte ${off}`);
  return next;
}

/** Whether a field tag is NULL (either ordering). */
export function isNullTag(tag: number): boolean {
  return tag === TAG_NULL_FIRST || tag === TAG_NULL_LAST;
}

/** Leading fields before the first NULL (all of them when none is NULL). */
export function fieldsBeforeNull(key: Uint8Array, off: number, len: number): number {
  const end = off + len;
  let n = 0;
  while (off < end) {
    if (isNullTag(key[off]!)) return n;
    off = fieldEnd(key, off, end);
    n++;
  }
  return n;
}

/** How many fields a codec key holds. */
export function countFields(key: Uint8Array, off = 0, len: number = key.length - off): number {
  const end = off + len;
  let n = 0;
  while (off < end) {
    off = fieldEnd(key, off, end);
    n++;
  }
  return n;
}

/**
 * The number of leading fields on which two codec keys are equal (InnoDB's `matched_fields` of
 * `cmp_rec_rec_with_match`). The encoding is canonical, so equal bytes mean equal values.
 * `nullsEqual: false` makes two NULLs differ (`innodb_stats_method = nulls_unequal / nulls_ignored`).
 */
export function matchedFields(
  a: Uint8Array,
  aOff: number,
  aLen: number,
  b: Uint8Array,
  bOff: number,
  bLen: number,
  nullsEqual = true,
): number {
  const aEnd = aOff + aLen;
  const bEnd = bOff + bLen;
  let n = 0;
  while (aOff < aEnd && bOff < bEnd) {
    const ea = fieldEnd(a, aOff, aEnd);
    const eb = fieldEnd(b, bOff, bEnd);
    if (ea - aOff !== eb - bOff) return n;
    if (!nullsEqual && isNullTag(a[aOff]!)) return n;
    for (let i = aOff; i < ea; i++) if (a[i] !== b[bOff + i - aOff]) return n;
    n++;
    aOff = ea;
    bOff = eb;
  }
  return n;
}
