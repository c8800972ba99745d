import { generated } from '../internal/generated-code.js';
import { EXTERN_REF_BYTES } from './external.js';
import {
  decimalBytes,
  type FieldValue,
  isBlobColumn,
  MAX_DECIMAL_PRECISION,
  maxTextBytes,
  type StoredColumn,
  textBlobBytes,
} from './types.js';

/** Column kinds as small integers, so hot loops switch on a byte instead of a string. */
export const K_INT = 0;
export const K_BIGINT = 1;
export const K_DECIMAL = 2;
export const K_DATE = 3;
export const K_TEXT = 4;
export const K_DOUBLE = 5;
/** BIGINT UNSIGNED: 8 bytes holding 0 … 2^64 − 1. */
export const K_UBIGINT = 6;

const TEXT_ENCODER = new TextEncoder();
const TEXT_DECODER = new TextDecoder();
const MS_PER_DAY = 86_400_000;

/** The kind byte of each column. */
export function columnKinds(columns: readonly StoredColumn[]): Uint8Array {
  const k = new Uint8Array(columns.length);
  for (const [i, c] of columns.entries()) {
    switch (c.type.kind) {
      case 'int':
        k[i] = K_INT;
        break;
      case 'bigint':
        k[i] = c.type.unsigned === true ? K_UBIGINT : K_BIGINT;
        break;
      case 'datetime':
      case 'timestamp':
      case 'time':
        // microseconds in 8 bytes, as a BIGINT
        if (!Number.isInteger(c.type.fsp) || c.type.fsp < 0 || c.type.fsp > 6)
          throw new RangeError(
            `columns[${i}] ${c.name}: fractional digits must be in [0, 6], got ${c.type.fsp}`,
          );
        k[i] = K_BIGINT;
        break;
      case 'decimal':
        if (
          c.type.precision < 1 ||
          c.type.precision > MAX_DECIMAL_PRECISION ||
          c.type.scale > c.type.precision
        )
          throw new RangeError(
            `columns[${i}] ${c.name}: DECIMAL(${c.type.precision},${c.type.scale}) is not supported (1 ≤ p ≤ ${MAX_DECIMAL_PRECISION}, s ≤ p)`,
          );
        k[i] = K_DECIMAL;
        break;
      case 'date':
        k[i] = K_DATE;
        break;
      case 'double':
        k[i] = K_DOUBLE;
        break;
      default: {
        // text counts characters (at most 16383: 65532 bytes), binary strings bytes; TEXT and
        // BLOB columns go up to LONGTEXT's and LONGBLOB's 4 GiB
        const binary = c.type.kind === 'binary' || c.type.kind === 'varbinary';
        const max = isBlobColumn(c.type) ? (binary ? 4294967295 : 1073741823) : binary ? 65532 : 16383;
        if (!Number.isInteger(c.type.length) || c.type.length < 0 || c.type.length > max)
          throw new RangeError(
            `columns[${i}] ${c.name}: length must be in [0, ${max}], got ${c.type.length}`,
          );
        k[i] = K_TEXT;
      }
    }
  }
  return k;
}

/**
 * One row held in typed arrays, no object per field: numbers (INT, BIGINT, DATE as days, DECIMAL
 * as the scaled integer) in `nums`, text as a (source array, offset, length) triple that points
 * into whatever holds the bytes (a page, a parsed `.tbl` batch). A BIGINT or DECIMAL value that is
 * not a safe integer (|v| ≥ 2^53) is held exactly in `wide[c]` with `isWide[c]` = 1 (its `nums`
 * slot is then meaningless); every other value leaves `isWide[c]` = 0, so the common case reads
 * one Float64Array. A decoded row's text views are valid only until the page is unfixed;
 * {@link RowBuffer.get} and {@link RowBuffer.toArray} copy.
 */
export class RowBuffer {
  readonly columns: readonly StoredColumn[];
  readonly kinds: Uint8Array;
  readonly nums: Float64Array;
  /** 1 where the field is NULL. */
  readonly nulls: Uint8Array;
  /** 1 where a BIGINT/DECIMAL field is beyond a safe integer and held in `wide`. */
  readonly isWide: Uint8Array;
  /** Exact BIGINT/DECIMAL values where `isWide` is 1. */
  readonly wide: bigint[];
  readonly src: Uint8Array[];
  /** Where each text field starts in `src` (a Float64Array: `src` may be a pool past 2 GiB). */
  readonly off: Float64Array;
  readonly len: Int32Array;
  /**
   * The columns a reader of this buffer needs (1 = wanted), or null for all: the codec then
   * decodes only those. Set by {@link RowBuffer.wantOnly}.
   */
  want: Uint8Array | null = null;

  constructor(columns: readonly StoredColumn[], kinds: Uint8Array = columnKinds(columns)) {
    this.columns = columns;
    this.kinds = kinds;
    const n = columns.length;
    this.nums = new Float64Array(n);
    this.nulls = new Uint8Array(n);
    this.isWide = new Uint8Array(n);
    this.wide = new Array<bigint>(n).fill(0n);
    this.src = new Array<Uint8Array>(n).fill(EMPTY);
    this.off = new Float64Array(n);
    this.len = new Int32Array(n);
  }

  /**
   * From the next decode on, read only the columns set in `mask` (shared, not copied; null: all).
   * The other fields then hold stale values: only for a buffer whose every reader reads no more.
   * REQUIRES: `mask` does not change afterwards (the codec compiles a decoder per mask).
   */
  wantOnly(mask: Uint8Array | null): void {
    this.want = mask;
  }

  /** Set field `c` from a convenience value (see {@link FieldValue}); validates against the type. */
  set(c: number, v: FieldValue): void {
    const col = this.columns[c];
    if (col === undefined) throw new RangeError(`column index ${c} is outside 0..${this.columns.length - 1}`);
    if (v === null) {
      if (col.nullable !== true) throw new TypeError(`column ${col.name} is NOT NULL, got null`);
      this.nulls[c] = 1;
      return;
    }
    this.nulls[c] = 0;
    const kind = this.kinds[c]!;
    if (kind === K_TEXT) {
      const bytes = typeof v === 'string' ? TEXT_ENCODER.encode(v) : v;
      if (!(bytes instanceof Uint8Array))
        throw new TypeError(`column ${col.name}: expected a string or Uint8Array, got ${String(v)}`);
      this.src[c] = bytes;
      this.off[c] = 0;
      this.len[c] = bytes.length;
      return;
    }
    let x: number | bigint;
    if (kind === K_DECIMAL && typeof v === 'string') x = parseDecimalText(v, col);
    else if (kind === K_DATE && typeof v === 'string') x = parseDateText(v, col);
    else if (typeof v === 'number') x = v;
    else if (typeof v === 'bigint' && (kind === K_BIGINT || kind === K_UBIGINT || kind === K_DECIMAL)) x = v;
    else throw new TypeError(`column ${col.name}: expected a number, got ${String(v)}`);
    this.setNumber(c, x);
  }

  /** Set numeric field `c` (not NULL) to `x`: a bigint that is a safe integer goes to `nums`. */
  setNumber(c: number, x: number | bigint): void {
    this.nulls[c] = 0;
    if (typeof x === 'number') {
      this.nums[c] = x;
      this.isWide[c] = 0;
    } else if (x >= -MAX_SAFE && x <= MAX_SAFE) {
      this.nums[c] = Number(x);
      this.isWide[c] = 0;
    } else {
      this.wide[c] = x;
      this.isWide[c] = 1;
    }
  }

  /** Numeric field `c` exactly: a number when a safe integer (or DOUBLE), else a bigint. */
  numberAt(c: number): number | bigint {
    return this.isWide[c] === 1 ? this.wide[c]! : this.nums[c]!;
  }

  /** Field `c` as a convenience value (text copied). */
  get(c: number): FieldValue {
    if (this.nulls[c] === 1) return null;
    if (this.kinds[c] === K_TEXT) return this.src[c]!.slice(this.off[c]!, this.off[c]! + this.len[c]!);
    return this.isWide[c] === 1 ? this.wide[c]! : this.nums[c]!;
  }

  /** Every field as convenience values (allocates: for tests and tools, not hot paths). */
  toArray(): FieldValue[] {
    const out: FieldValue[] = [];
    for (let c = 0; c < this.columns.length; c++) out.push(this.get(c));
    return out;
  }

  /**
   * Field `c` as SQL shows it: INT and BIGINT as numbers (BIGINT beyond 2^53 as a bigint),
   * DECIMAL as its exact text (`'10.50'`), DATE as `'YYYY-MM-DD'`, CHAR/VARCHAR decoded from
   * UTF-8, NULL as null.
   */
  value(c: number): number | bigint | string | null {
    if (this.nulls[c] === 1) return null;
    const t = this.columns[c]!.type;
    switch (t.kind) {
      case 'char':
      case 'varchar':
        return TEXT_DECODER.decode(this.src[c]!.subarray(this.off[c]!, this.off[c]! + this.len[c]!));
      case 'binary':
      case 'varbinary':
        return Buffer.from(this.src[c]!.subarray(this.off[c]!, this.off[c]! + this.len[c]!)).toString('hex');
      case 'decimal':
        return decimalToText(this.isWide[c] === 1 ? this.wide[c]! : this.nums[c]!, t.scale);
      case 'date':
        return dayToText(this.nums[c]!);
      default:
        return this.isWide[c] === 1 ? this.wide[c]! : this.nums[c]!;
    }
  }

  /** Every field as {@link RowBuffer.value} shows it (allocates: for tools and tests). */
  values(): Array<number | bigint | string | null> {
    const out: Array<number | bigint | string | null> = [];
    for (let c = 0; c < this.columns.length; c++) out.push(this.value(c));
    return out;
  }

  /** Set every field from an array of convenience values. */
  setAll(values: readonly FieldValue[]): this {
    if (!Array.isArray(values) || values.length !== this.columns.length)
      throw new RangeError(`values must have ${this.columns.length} fields, got ${String(values?.length)}`);
    for (let c = 0; c < values.length; c++) this.set(c, values[c]!);
    return this;
  }
}

const EMPTY = new Uint8Array(0);
const MAX_SAFE = 9007199254740991n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
/** Scratch for DOUBLE fields: little-endian on every platform Node runs on; written reversed. */
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);

function parseDecimalText(v: string, col: StoredColumn): number | bigint {
  const t = col.type;
  const scale = t.kind === 'decimal' ? t.scale : 0;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(v);
  if (m === null || (m[2] === '' && (m[3] ?? '') === ''))
    throw new RangeError(`column ${col.name}: not a decimal: '${v}'`);
  const frac = m[3] ?? '';
  if (frac.length > scale)
    throw new RangeError(`column ${col.name}: more than ${scale} fraction digits: '${v}'`);
  const digits = (m[2] || '0') + frac.padEnd(scale, '0');
  const x = Number(digits);
  if (Number.isSafeInteger(x)) return m[1] === '-' ? -x : x;
  const b = BigInt(digits);
  return m[1] === '-' ? -b : b;
}

function parseDateText(v: string, col: StoredColumn): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m === null) throw new RangeError(`column ${col.name}: not a 'YYYY-MM-DD' date: '${v}'`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    throw new RangeError(`column ${col.name}: no such day: '${v}'`);
  return t / MS_PER_DAY;
}

/** `'YYYY-MM-DD'` of a day number. */
export function dayToText(days: number): string {
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** A scaled DECIMAL integer as text: 6 at scale 2 → `'0.06'`. */
export function decimalToText(v: number | bigint, scale: number): string {
  const neg = v < 0;
  let s = (neg ? -v : v).toString().padStart(scale + 1, '0');
  if (scale > 0) s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  return neg ? `-${s}` : s;
}

/**
 * The row format: the value of a clustered-index record.
 *
 * | part | size | content |
 * |---|---|---|
 * | null bitmap | ⌈n/8⌉ bytes | bit c (byte c>>3, bit c&7) set: column c is NULL and has no bytes below |
 * | INT, DATE | 4 | big-endian two's complement (DATE: days since 1970-01-01) |
 * | BIGINT; DATETIME, TIMESTAMP, TIME | 8 | big-endian two's complement, the full signed 64-bit range (the temporal types: microseconds) |
 * | BIGINT UNSIGNED | 8 | big-endian, 0 … 2^64 − 1 |
 * | DOUBLE | 8 | IEEE-754 binary64, big-endian |
 * | DECIMAL(p,s) | {@link decimalBytes}(p): 1–28 | the exact scaled integer value·10^s, big-endian two's complement in the fewest bytes that hold ±(10^p − 1) (DECIMAL(15,2): 7, as MySQL; DECIMAL(65,30): 28, MySQL's packed form takes 30) |
 * | CHAR(n), VARCHAR(n) | 1 or 2 + len | byte length (1 byte when 4n < 256, else 2, big-endian), then the bytes exactly (trailing spaces kept) |
 * | BINARY(n), VARBINARY(n) | 1 or 2 + len | byte length (1 byte when n < 256, else 2), then the bytes |
 * | TEXT, BLOB (and MEDIUM…, LONG…) | 2 + len, or 22 | byte length in 2 bytes, then the bytes; or, for a value stored off-page (these, and VARCHAR and VARBINARY values of a 2-byte prefix), the 2 bytes 0x80 0x14 (bit 15: off-page) and the 20-byte field reference of storage/external.ts |
 *
 * Fields follow in column order; every column is stored, the key columns too (InnoDB keeps them
 * in the clustered record as well).
 */
export class RowCodec {
  readonly columns: readonly StoredColumn[];
  readonly kinds: Uint8Array;
  /** Per column: fixed width, or for text the length-prefix width (1 or 2). */
  readonly widths: Uint8Array;
  /** Per column: DECIMAL bound 10^p, text max characters. */
  readonly limits: Float64Array;
  /** Per column: 1 when every stored value is a safe integer read by {@link readInt} (INT, DATE, DECIMAL p ≤ 15). */
  readonly narrow: Uint8Array;
  /** Per DECIMAL column: the exact bound 10^p (a wide value must stay below it). */
  readonly #bigLimits: bigint[];
  /** Per column: 1 when `limits` counts bytes (BINARY, VARBINARY), not characters. */
  readonly #bytesLimit: Uint8Array;
  readonly bitmapBytes: number;
  /**
   * Per column: 1 for a column whose value may be stored off-page (TEXT and BLOB, and, as InnoDB's
   * DYNAMIC format, a VARCHAR or VARBINARY that may be longer than 255 bytes): its 2-byte length
   * prefix then has bit 15 set and 20 bytes of field reference follow (storage/external.ts).
   */
  readonly external: Uint8Array;
  /** True when some column may be stored off-page. */
  readonly hasExternal: boolean;
  /**
   * Reads an off-page value from its reference at `bytes[at]` (set by the table that owns the
   * pages); decoding a record with an off-page field without it is an error.
   */
  readExternal: ((bytes: Uint8Array, at: number) => Uint8Array) | null = null;
  /**
   * Per column: its byte offset after the null bitmap when every column before it is NOT NULL
   * and of fixed width (so it is the same in every record), else −1. A decode that wants only
   * later columns starts at the first wanted one.
   */
  readonly #fixedOff: Int32Array;
  /** Generated decoders of column masks (see {@link RowCodec.decode}), and the last one used. */
  readonly #masked = new WeakMap<Uint8Array, MaskedDecode>();
  #lastMask: Uint8Array | null = null;
  #lastDecode: MaskedDecode | null = null;
  #out: Uint8Array = new Uint8Array(256);
  /** Views of `#out` by length: no allocation per row once a length was seen. */
  #views: Uint8Array[] = [];

  constructor(columns: readonly StoredColumn[]) {
    this.columns = columns;
    this.kinds = columnKinds(columns);
    this.widths = new Uint8Array(columns.length);
    this.limits = new Float64Array(columns.length);
    this.narrow = new Uint8Array(columns.length);
    this.#bigLimits = new Array<bigint>(columns.length).fill(0n);
    this.#bytesLimit = new Uint8Array(columns.length);
    this.external = new Uint8Array(columns.length);
    for (const [i, c] of columns.entries()) {
      const t = c.type;
      switch (this.kinds[i]) {
        case K_INT:
        case K_DATE:
          this.widths[i] = 4;
          this.narrow[i] = 1;
          break;
        case K_BIGINT:
        case K_UBIGINT:
        case K_DOUBLE:
          this.widths[i] = 8;
          break;
        case K_DECIMAL:
          if (t.kind === 'decimal') {
            this.widths[i] = decimalBytes(t.precision);
            this.limits[i] = 10 ** t.precision;
            this.#bigLimits[i] = 10n ** BigInt(t.precision);
            this.narrow[i] = t.precision <= 15 ? 1 : 0;
          }
          break;
        default:
          if ((t.kind === 'varchar' || t.kind === 'varbinary') && t.blob === true) {
            // TEXT and BLOB: limited by bytes, as MySQL; a 2-byte prefix with the off-page bit
            this.widths[i] = 2;
            this.limits[i] = t.kind === 'varchar' ? textBlobBytes(t.length) : t.length;
            this.#bytesLimit[i] = 1;
            this.external[i] = 1;
          } else if (t.kind === 'char' || t.kind === 'varchar') {
            this.widths[i] = maxTextBytes(t.length) < 256 ? 1 : 2;
            this.limits[i] = t.length;
          } else if (t.kind === 'binary' || t.kind === 'varbinary') {
            this.widths[i] = t.length < 256 ? 1 : 2;
            this.limits[i] = t.length;
            this.#bytesLimit[i] = 1;
          }
          // as DYNAMIC: a VARCHAR or VARBINARY that may be longer than 255 bytes may go off-page
          if ((t.kind === 'varchar' || t.kind === 'varbinary') && this.widths[i] === 2) this.external[i] = 1;
      }
    }
    this.hasExternal = this.external.includes(1);
    this.bitmapBytes = (columns.length + 7) >> 3;
    this.#fixedOff = new Int32Array(columns.length).fill(-1);
    for (let c = 0, at = 0; c < columns.length; c++) {
      this.#fixedOff[c] = at;
      if (this.kinds[c] === K_TEXT || columns[c]!.nullable === true) break;
      at += this.widths[c]!;
    }
  }

  /**
   * Encode `row`; returns a view of an internal buffer, valid until the next call. Throws
   * RangeError/TypeError naming the column for a value outside its type. With `refs`, each column
   * `c` whose `refs.stored[c]` is 1 (a TEXT or BLOB column) is written as the 20-byte field
   * reference at `refs.bytes[20·c]` instead of its value (the value is still checked).
   */
  encode(row: RowBuffer, refs: ExternRefs | null = null): Uint8Array {
    const n = this.columns.length;
    const need = this.encodedSize(row, refs === null ? null : refs.stored);
    if (this.#out.length < need) {
      this.#out = new Uint8Array(need * 2);
      this.#views = [];
    }
    const o = this.#out;
    o.fill(0, 0, this.bitmapBytes);
    let p = this.bitmapBytes;
    for (let c = 0; c < n; c++) {
      if (row.nulls[c] === 1) {
        if (this.columns[c]!.nullable !== true)
          throw new TypeError(`column ${this.columns[c]!.name} is NOT NULL, got null`);
        o[c >> 3]! |= 1 << (c & 7);
        continue;
      }
      const kind = this.kinds[c]!;
      if (kind === K_TEXT) {
        const len = row.len[c]!;
        const src = row.src[c]!;
        const off = row.off[c]!;
        if (this.#bytesLimit[c] === 1) {
          if (len > this.limits[c]!)
            throw new RangeError(
              `column ${this.columns[c]!.name}: ${len} bytes, at most ${this.limits[c]} allowed`,
            );
        } else checkText(this.columns[c]!, src, off, len, this.limits[c]!);
        if (refs !== null && refs.stored[c] === 1) {
          o[p++] = 0x80;
          o[p++] = EXTERN_REF_BYTES;
          o.set(refs.bytes.subarray(c * EXTERN_REF_BYTES, (c + 1) * EXTERN_REF_BYTES), p);
          p += EXTERN_REF_BYTES;
          continue;
        }
        if (this.widths[c] === 1) o[p++] = len;
        else {
          o[p++] = len >>> 8;
          o[p++] = len & 0xff;
        }
        if (len < 32) for (let i = 0; i < len; i++) o[p + i] = src[off + i]!;
        else o.set(src.subarray(off, off + len), p);
        p += len;
        continue;
      }
      const v = row.nums[c]!;
      if (kind === K_DOUBLE) {
        if (!Number.isFinite(v))
          throw new RangeError(`column ${this.columns[c]!.name}: not a finite DOUBLE: ${v}`);
        F64[0] = v;
        for (let i = 0; i < 8; i++) o[p + i] = F64_BYTES[7 - i]!;
        p += 8;
        continue;
      }
      if (row.isWide[c] === 1 && kind !== K_INT && kind !== K_DATE) {
        const x = row.wide[c]!;
        const bad =
          kind === K_BIGINT
            ? x < INT64_MIN || x > INT64_MAX
            : kind === K_UBIGINT
              ? x < 0n || x > UINT64_MAX
              : x <= -this.#bigLimits[c]! || x >= this.#bigLimits[c]!;
        if (bad)
          throw new RangeError(
            `column ${this.columns[c]!.name}: out of range for its ${kind === K_BIGINT ? 'BIGINT' : kind === K_UBIGINT ? 'BIGINT UNSIGNED' : 'DECIMAL'} (value ${x})`,
          );
        p = writeBigInt(o, p, x, this.widths[c]!);
        continue;
      }
      checkNumber(this.columns[c]!, kind, v, this.limits[c]!);
      p = writeInt(o, p, v, this.widths[c]!);
    }
    return this.#views[p] ?? (this.#views[p] = o.subarray(0, p));
  }

  /** Bytes {@link encode} writes for `row`, the columns set in `stored` as field references. */
  encodedSize(row: RowBuffer, stored: Uint8Array | null): number {
    let need = this.bitmapBytes;
    for (let c = 0; c < this.columns.length; c++) {
      if (row.nulls[c] === 1) continue;
      need +=
        this.kinds[c] !== K_TEXT
          ? this.widths[c]!
          : stored !== null && stored[c] === 1
            ? 2 + EXTERN_REF_BYTES
            : this.widths[c]! + row.len[c]!;
    }
    return need;
  }

  /**
   * Decode a record value `bytes[off, off+len)` into `row`; text fields become views of `bytes`.
   * When the row names the columns it wants ({@link RowBuffer.want}), only those are read: the
   * others are stepped over (their fields in `row` keep older values) and the walk stops after
   * the last wanted column.
   */
  decode(bytes: Uint8Array, off: number, len: number, row: RowBuffer): void {
    const want = row.want;
    if (want !== null) {
      // a narrowed read: a decoder generated for the mask, with every offset, width and kind
      // of the columns up to the last wanted one written into it
      if (want !== this.#lastMask) {
        let d = this.#masked.get(want);
        if (d === undefined) {
          d = this.#compileMasked(want);
          this.#masked.set(want, d);
        }
        this.#lastMask = want;
        this.#lastDecode = d;
      }
      this.#lastDecode!(bytes, off, row);
      return;
    }
    this.#decodeAll(bytes, off, len, row);
  }

  /**
   * The generated decoder of `mask` (its columns only, as {@link RowCodec.decode} describes): the
   * loop of {@link RowCodec.#decodeAll} unrolled over the columns up to the last wanted one, the
   * null-bit test kept for nullable columns only (a NOT NULL column is never stored NULL), the
   * columns before the first wanted one stepped over at once when their offset is fixed.
   */
  #compileMasked(mask: Uint8Array): MaskedDecode {
    let end = 0;
    let first = -1;
    for (let c = 0; c < mask.length && c < this.columns.length; c++)
      if (mask[c] === 1) {
        end = c + 1;
        if (first < 0) first = c;
      }
    const lines: string[] = ['const nulls = row.nulls, nums = row.nums, isWide = row.isWide;', 'let l = 0;'];
    let start = 0;
    const at = first < 0 ? -1 : this.#fixedOff[first]!;
    if (at >= 0) start = first;
    lines.push(`let p = off + ${this.bitmapBytes + Math.max(at, 0)};`);
    for (let c = start; c < end; c++) {
      const w = this.widths[c]!;
      const k = this.kinds[c]!;
      const len = w === 1 ? 'bytes[p]' : '((bytes[p] << 8) | bytes[p + 1])';
      let body: string;
      const ext = this.external[c] === 1;
      if (mask[c] !== 1 && ext) body = 'p += 2 + (((bytes[p] & 0x7f) << 8) | bytes[p + 1]);';
      else if (mask[c] !== 1) body = k === K_TEXT ? `p += ${w} + ${len};` : `p += ${w};`;
      else if (ext)
        body =
          `if ((bytes[p] & 0x80) !== 0) { const v = readExternal(bytes, p + 2); row.src[${c}] = v; row.off[${c}] = 0; row.len[${c}] = v.length; p += ${2 + EXTERN_REF_BYTES}; }` +
          ` else { l = ${len}; p += 2; row.src[${c}] = bytes; row.off[${c}] = p; row.len[${c}] = l; p += l; }`;
      else if (k === K_TEXT)
        body = `l = ${len}; p += ${w}; row.src[${c}] = bytes; row.off[${c}] = p; row.len[${c}] = l; p += l;`;
      else if (k === K_DOUBLE) body = `nums[${c}] = readDouble(bytes, p); p += 8;`;
      else if (this.narrow[c] === 1) body = `nums[${c}] = ${intExpr(w)}; isWide[${c}] = 0; p += ${w};`;
      else if (k === K_UBIGINT)
        body =
          `{ const x = readInt(bytes, p, 8); if (Number.isSafeInteger(x) && x >= 0) { nums[${c}] = x; isWide[${c}] = 0; }` +
          ` else { row.wide[${c}] = BigInt.asUintN(64, readBigInt(bytes, p, 8)); isWide[${c}] = 1; } } p += 8;`;
      else
        body =
          `{ const x = readInt(bytes, p, ${w}); if (Number.isSafeInteger(x)) { nums[${c}] = x; isWide[${c}] = 0; }` +
          ` else { row.wide[${c}] = readBigInt(bytes, p, ${w}); isWide[${c}] = 1; } } p += ${w};`;
      if (mask[c] === 1) body = `nulls[${c}] = 0; ${body}`;
      if (this.columns[c]!.nullable === true)
        body = `if ((bytes[off + ${c >> 3}] & ${1 << (c & 7)}) !== 0) { ${mask[c] === 1 ? `nulls[${c}] = 1;` : ''} } else { ${body} }`;
      lines.push(body);
    }
    const src = `return function decodeMasked(bytes, off, row) {\n${lines.join('\n')}\n};`;
    const readExternal = (bytes: Uint8Array, at: number): Uint8Array => this.#readExternal(bytes, at);
    return generated<MaskedDecode>(['readInt', 'readBigInt', 'readDouble', 'readExternal'], src, [
      readInt,
      readBigInt,
      readDouble,
      readExternal,
    ]);
  }

  #readExternal(bytes: Uint8Array, at: number): Uint8Array {
    if (this.readExternal === null)
      throw new RangeError('a record holds an off-page value and its table gave no way to read it');
    return this.readExternal(bytes, at);
  }

  /**
   * The offsets (in `bytes`) of the field references of the off-page values of the record
   * `bytes[off, off+len)`, in column order; none for a table without TEXT or BLOB columns.
   */
  externalRefs(bytes: Uint8Array, off: number, len: number): number[] {
    const out: number[] = [];
    if (!this.hasExternal) return out;
    const n = this.columns.length;
    let p = off + this.bitmapBytes;
    for (let c = 0; c < n; c++) {
      if ((bytes[off + (c >> 3)]! & (1 << (c & 7))) !== 0) continue;
      const w = this.widths[c]!;
      if (this.kinds[c] !== K_TEXT) {
        p += w;
        continue;
      }
      if (this.external[c] === 1 && (bytes[p]! & 0x80) !== 0) {
        out.push(p + 2);
        p += 2 + EXTERN_REF_BYTES;
        continue;
      }
      p += w + (w === 1 ? bytes[p]! : (bytes[p]! << 8) | bytes[p + 1]!);
    }
    if (p !== off + len) throw new RangeError(`row value is ${len} bytes, its fields take ${p - off}`);
    return out;
  }

  /** Every column of the record, its length checked (the loop the generated decoders unroll). */
  #decodeAll(bytes: Uint8Array, off: number, len: number, row: RowBuffer): void {
    const n = this.columns.length;
    const end = off + len;
    const kinds = this.kinds;
    const widths = this.widths;
    const narrow = this.narrow;
    const nulls = row.nulls;
    const nums = row.nums;
    let p = off + this.bitmapBytes;
    for (let c = 0; c < n; c++) {
      if ((bytes[off + (c >> 3)]! & (1 << (c & 7))) !== 0) {
        nulls[c] = 1;
        continue;
      }
      const w = widths[c]!;
      const k = kinds[c]!;
      nulls[c] = 0;
      if (k === K_TEXT) {
        if (this.external[c] === 1 && (bytes[p]! & 0x80) !== 0) {
          const v = this.#readExternal(bytes, p + 2);
          row.src[c] = v;
          row.off[c] = 0;
          row.len[c] = v.length;
          p += 2 + EXTERN_REF_BYTES;
          continue;
        }
        const l = w === 1 ? bytes[p]! : (bytes[p]! << 8) | bytes[p + 1]!;
        p += w;
        row.src[c] = bytes;
        row.off[c] = p;
        row.len[c] = l;
        p += l;
      } else if (k === K_DOUBLE) {
        for (let i = 0; i < 8; i++) F64_BYTES[7 - i] = bytes[p + i]!;
        nums[c] = F64[0]!;
        p += 8;
      } else if (narrow[c] === 1) {
        nums[c] =
          w === 4
            ? (bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!
            : readInt(bytes, p, w);
        row.isWide[c] = 0;
        p += w;
      } else {
        const x = readInt(bytes, p, w);
        if (Number.isSafeInteger(x) && (x >= 0 || k !== K_UBIGINT)) {
          nums[c] = x;
          row.isWide[c] = 0;
        } else {
          const b = readBigInt(bytes, p, w);
          row.wide[c] = k === K_UBIGINT ? BigInt.asUintN(64, b) : b;
          row.isWide[c] = 1;
        }
        p += w;
      }
    }
    if (p !== end) throw new RangeError(`row value is ${len} bytes, its fields take ${p - off}`);
  }
}

/**
 * Which TEXT and BLOB fields an encode writes as field references: `stored[c]` 1 for column `c`,
 * its reference at `bytes[20·c, 20·c + 20)`.
 */
export interface ExternRefs {
  readonly stored: Uint8Array;
  readonly bytes: Uint8Array;
}

/** A decoder of one column mask, generated by RowCodec. */
type MaskedDecode = (bytes: Uint8Array, off: number, row: RowBuffer) => void;

/** An IEEE-754 binary64 stored big-endian at `b[p]`. */
function readDouble(b: Uint8Array, p: number): number {
  for (let i = 0; i < 8; i++) F64_BYTES[7 - i] = b[p + i]!;
  return F64[0]!;
}

/** Source of {@link readInt} of width `w` at `bytes[p]`, inline (the generated decoders use it). */
function intExpr(w: number): string {
  const b = (i: number): string => (i === 0 ? 'bytes[p]' : `bytes[p + ${i}]`);
  const word = (i: number): string =>
    `(${b(i)} << 24) | (${b(i + 1)} << 16) | (${b(i + 2)} << 8) | ${b(i + 3)}`;
  if (w === 4) return word(0);
  if (w < 4) return `readInt(bytes, p, ${w})`;
  const hi =
    w === 8
      ? word(0)
      : w === 7
        ? `((${b(0)} << 24) >> 8) | (${b(1)} << 8) | ${b(2)}`
        : w === 6
          ? `((${b(0)} << 24) >> 16) | ${b(1)}`
          : `(${b(0)} << 24) >> 24`;
  return `(${hi}) * 4294967296 + ((${word(w - 4)}) >>> 0)`;
}

function checkNumber(col: StoredColumn, kind: number, v: number, limit: number): void {
  switch (kind) {
    case K_INT:
    case K_DATE:
      if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647)
        throw new RangeError(`column ${col.name}: out of range for ${kind === K_INT ? 'INT' : 'DATE'}: ${v}`);
      return;
    case K_BIGINT:
      if (!Number.isSafeInteger(v)) throw new RangeError(`column ${col.name}: not a safe BIGINT: ${v}`);
      return;
    case K_UBIGINT:
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(`column ${col.name}: out of range for BIGINT UNSIGNED: ${v}`);
      return;
    default:
      if (!Number.isSafeInteger(v) || v <= -limit || v >= limit)
        throw new RangeError(`column ${col.name}: out of range for its DECIMAL (scaled value ${v})`);
  }
}

function checkText(col: StoredColumn, src: Uint8Array, off: number, len: number, maxChars: number): void {
  if (len <= maxChars) return; // at most one byte per character: cannot be too long
  let chars = 0;
  for (let i = off; i < off + len; i++) if ((src[i]! & 0xc0) !== 0x80) chars++;
  if (chars > maxChars)
    throw new RangeError(`column ${col.name}: ${chars} characters, at most ${maxChars} allowed`);
}

/**
 * Big-endian two's complement of a safe integer in `w` bytes (any width ≥ 1; bytes above the
 * value's 8 are sign fill).
 */
export function writeInt(o: Uint8Array, p: number, v: number, w: number): number {
  if (w === 4) {
    o[p] = v >>> 24;
    o[p + 1] = (v >>> 16) & 0xff;
    o[p + 2] = (v >>> 8) & 0xff;
    o[p + 3] = v & 0xff;
    return p + 4;
  }
  const hi = Math.floor(v / 4294967296);
  const lo = v - hi * 4294967296;
  let i = p + w - 1;
  // the low word first, then the high word (|hi| < 2^21: an int32), then sign fill
  for (let k = 0; k < 4 && i >= p; k++, i--) o[i] = (lo >>> (8 * k)) & 0xff;
  for (let k = 0; k < 4 && i >= p; k++, i--) o[i] = (hi >> (8 * k)) & 0xff;
  const fill = hi < 0 ? 0xff : 0;
  for (; i >= p; i--) o[i] = fill;
  return p + w;
}

/**
 * Inverse of {@link writeInt}: exact when the stored value is a safe integer; for a wider value
 * the result is not a safe integer (the caller then reads it with {@link readBigInt}).
 */
export function readInt(b: Uint8Array, p: number, w: number): number {
  if (w === 4) return (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
  if (w > 4 && w <= 8) {
    // the sign-extended high w − 4 bytes times 2^32 plus the low word: one rounding at most,
    // in the sum, and only when the value is not a safe integer (which stays unsafe)
    const q = p + w - 4;
    const hi =
      w === 7
        ? ((b[p]! << 24) >> 8) | (b[p + 1]! << 8) | b[p + 2]!
        : w === 8
          ? (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!
          : w === 6
            ? ((b[p]! << 24) >> 16) | b[p + 1]!
            : (b[p]! << 24) >> 24;
    const lo = ((b[q]! << 24) | (b[q + 1]! << 16) | (b[q + 2]! << 8) | b[q + 3]!) >>> 0;
    return hi * 4294967296 + lo;
  }
  // sign-extend from the top byte; every partial value is smaller than the whole, so a safe
  // result was computed exactly, and an unsafe one stays unsafe after rounding
  let v = (b[p]! << 24) >> 24;
  for (let i = 1; i < w; i++) v = v * 256 + b[p + i]!;
  return v;
}

/** Big-endian two's complement of any integer that fits `w` bytes. */
export function writeBigInt(o: Uint8Array, p: number, v: bigint, w: number): number {
  let x = BigInt.asUintN(8 * w, v);
  for (let i = p + w - 1; i >= p; i--) {
    o[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return p + w;
}

/** Inverse of {@link writeBigInt}. */
export function readBigInt(b: Uint8Array, p: number, w: number): bigint {
  let x = 0n;
  for (let i = 0; i < w; i++) x = (x << 8n) | BigInt(b[p + i]!);
  return BigInt.asIntN(8 * w, x);
}
