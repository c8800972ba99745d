import { type ColumnSpec, fieldEnd } from '@enginekit/btree-sampler';
import { K_BIGINT, K_DATE, K_DECIMAL, K_DOUBLE, K_INT, type RowBuffer } from './row.js';
import type { StoredColumn } from './types.js';

// Tags of btree-sampler's KeyCodec (its header documents the format; test/storage-key.test.ts
// checks this encoder byte for byte against KeyCodec.encode).
const TAG_NULL = 0x00;
const TAG_INT32 = 0x10;
const TAG_INT64 = 0x11;
const TAG_DATE = 0x12;
const TAG_DECIMAL = 0x13;
const TAG_BYTES = 0x14;

/** The KeyCodec column spec of a stored column. */
export function keySpec(col: StoredColumn): ColumnSpec {
  switch (col.type.kind) {
    case 'int':
      return { type: 'int32' };
    case 'bigint':
      return { type: 'int64' };
    case 'decimal':
      return { type: 'decimal', scale: col.type.scale };
    case 'date':
      return { type: 'date' };
    case 'double':
      return { type: 'binary' };
    default:
      return { type: 'binary' };
  }
}

/**
 * Writes the key of chosen columns of a {@link RowBuffer} in btree-sampler's `KeyCodec` format
 * (memcmp order = tuple order, NULL first, text in binary collation) into one reused buffer: the
 * hot path of loading and index maintenance, with no allocation per key.
 */
export class KeyEncoder {
  /** Row column of each key field. */
  readonly fields: Int32Array;
  readonly #kinds: Uint8Array;
  #out: Uint8Array = new Uint8Array(256);
  /** Views of `#out` by length, so a key costs no allocation once its length was seen. */
  #views: Uint8Array[] = [];

  constructor(fields: readonly number[], rowKinds: Uint8Array) {
    this.fields = Int32Array.from(fields);
    this.#kinds = Uint8Array.from(fields, (c) => rowKinds[c]!);
  }

  /** The key of `row`: a view of an internal buffer, valid until the next call. */
  encode(row: RowBuffer): Uint8Array {
    const n = this.fields.length;
    let need = 0;
    for (let i = 0; i < n; i++) need += 10 + 2 * row.len[this.fields[i]!]!;
    if (this.#out.length < need) {
      this.#out = new Uint8Array(need * 2);
      this.#views = [];
    }
    const o = this.#out;
    let p = 0;
    for (let i = 0; i < n; i++) {
      const c = this.fields[i]!;
      if (row.nulls[c] === 1) {
        o[p++] = TAG_NULL;
        continue;
      }
      const v = row.nums[c]!;
      switch (this.#kinds[i]) {
        case K_INT:
        case K_DATE: {
          o[p++] = this.#kinds[i] === K_INT ? TAG_INT32 : TAG_DATE;
          const u = (v ^ 0x80000000) >>> 0;
          o[p++] = u >>> 24;
          o[p++] = (u >>> 16) & 0xff;
          o[p++] = (u >>> 8) & 0xff;
          o[p++] = u & 0xff;
          break;
        }
        case K_BIGINT: {
          o[p++] = TAG_INT64;
          const hi = Math.floor(v / 4294967296);
          const lo = v - hi * 4294967296;
          const h = (hi ^ 0x80000000) >>> 0;
          o[p++] = h >>> 24;
          o[p++] = (h >>> 16) & 0xff;
          o[p++] = (h >>> 8) & 0xff;
          o[p++] = h & 0xff;
          o[p++] = lo >>> 24;
          o[p++] = (lo >>> 16) & 0xff;
          o[p++] = (lo >>> 8) & 0xff;
          o[p++] = lo & 0xff;
          break;
        }
        case K_DECIMAL: {
          o[p++] = TAG_DECIMAL;
          const neg = v < 0;
          let mag = neg ? -v : v;
          let len = 0;
          for (let m = mag; m > 0; m = Math.floor(m / 256)) len++;
          o[p++] = neg ? 0x7f - len : 0x80 + len;
          for (let j = len - 1; j >= 0; j--) {
            const byte = mag % 256;
            o[p + j] = neg ? ~byte & 0xff : byte;
            mag = (mag - byte) / 256;
          }
          p += len;
          break;
        }
        case K_DOUBLE: {
          // as a byte string (tag 0x14): the 8 order-preserving bytes of doubleKeyBytes, escaped
          o[p++] = TAG_BYTES;
          const k = doubleKeyBytes(v);
          for (let j = 0; j < 8; j++) {
            const x = k[j]!;
            o[p++] = x;
            if (x === 0) o[p++] = 0xff;
          }
          o[p++] = 0;
          o[p++] = 0;
          break;
        }
        default: {
          o[p++] = TAG_BYTES;
          const src = row.src[c]!;
          const end = row.off[c]! + row.len[c]!;
          for (let j = row.off[c]!; j < end; j++) {
            const x = src[j]!;
            o[p++] = x;
            if (x === 0) o[p++] = 0xff;
          }
          o[p++] = 0;
          o[p++] = 0;
        }
      }
    }
    return this.#views[p] ?? (this.#views[p] = o.subarray(0, p));
  }
}

const DK = new Float64Array(1);
const DK_LE = new Uint8Array(DK.buffer);
const DK_OUT = new Uint8Array(8);

/**
 * A DOUBLE as 8 bytes whose memcmp order is numeric order: big-endian IEEE-754 with the sign bit
 * flipped for positives and every bit flipped for negatives (−0 is stored as 0). Returns a shared
 * scratch array, valid until the next call.
 */
export function doubleKeyBytes(v: number): Uint8Array {
  DK[0] = v === 0 ? 0 : v;
  const neg = (DK_LE[7]! & 0x80) !== 0;
  for (let i = 0; i < 8; i++) {
    const b = DK_LE[7 - i]!;
    DK_OUT[i] = neg ? ~b & 0xff : i === 0 ? b ^ 0x80 : b;
  }
  return DK_OUT;
}

/**
 * Copies chosen fields of a codec key, in a new order, into `out` from `pos`; returns the end.
 * `starts`/`ends` are scratch arrays at least as long as the key's field count.
 * Used to rebuild a primary key from a secondary-index entry, as InnoDB does for a lookup.
 */
export function projectFields(
  key: Uint8Array,
  keyOff: number,
  keyLen: number,
  order: Int32Array,
  starts: Int32Array,
  ends: Int32Array,
  out: Uint8Array,
  pos: number,
): number {
  const end = keyOff + keyLen;
  let n = 0;
  for (let p = keyOff; p < end; n++) {
    starts[n] = p;
    p = fieldEnd(key, p, end);
    ends[n] = p;
  }
  for (let i = 0; i < order.length; i++) {
    const f = order[i]!;
    const s = starts[f]!;
    const e = ends[f]!;
    for (let j = s; j < e; j++) out[pos++] = key[j]!;
  }
  return pos;
}
