import { type ColumnSpec, KeyWriter } from '@enginekit/btree-sampler';
import { type Collation, weightBytesOfUtf8 } from './collation.js';
import { K_BIGINT, K_DATE, K_DECIMAL, K_DOUBLE, K_INT, K_UBIGINT, type RowBuffer } from './row.js';
import type { StoredColumn } from './types.js';

/**
 * The KeyCodec column spec of a stored column. Beyond btree-sampler's own types: DATETIME,
 * TIMESTAMP and TIME are BIGINT fields of their microseconds; BIGINT UNSIGNED is a BIGINT field of
 * its value − 2^63 (which keeps 0 … 2^64 − 1 in order, {@link unsignedKey}); text with a collation
 * is a byte-string field of its weight string (storage/collation.ts), so the index orders and
 * finds as the collation compares.
 */
export function keySpec(col: StoredColumn): ColumnSpec {
  switch (col.type.kind) {
    case 'int':
      return { type: 'int32' };
    case 'bigint':
    case 'datetime':
    case 'timestamp':
    case 'time':
      return { type: 'int64' };
    case 'decimal':
      return { type: 'decimal', scale: col.type.scale };
    case 'date':
      return { type: 'date' };
    default:
      return { type: 'binary' };
  }
}

const TWO_63 = 2n ** 63n;

/** A BIGINT UNSIGNED value as its key field value: v − 2^63, a signed BIGINT in the same order. */
export function unsignedKey(v: number | bigint): number | bigint {
  const x = BigInt(v) - TWO_63;
  return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x;
}

/** Inverse of {@link unsignedKey}. */
export function unsignedFromKey(k: number | bigint): number | bigint {
  const x = BigInt(k) + TWO_63;
  return x <= 9007199254740991n ? Number(x) : x;
}

/** Whether a column's key field holds its value as a row does (not collated text, not BIGINT UNSIGNED). */
export function keyIsValue(col: StoredColumn): boolean {
  const t = col.type;
  if (t.kind === 'bigint') return t.unsigned !== true;
  return keyCollation(col) === undefined;
}

/** The collation a stored column's key field is weighed by, or undefined (its bytes). */
export function keyCollation(col: StoredColumn): Collation | undefined {
  const t = col.type;
  return t.kind === 'char' || t.kind === 'varchar' ? t.collation : undefined;
}

/**
 * The key of chosen columns of a {@link RowBuffer}, written by btree-sampler's `KeyWriter` (its
 * key format: memcmp order = tuple order, NULL first) into one reused buffer: the hot path of
 * loading and index maintenance, with no allocation per key (but for collated text, whose weight
 * string is made per key).
 */
export class RowKeyEncoder {
  /** Row column of each key field. */
  readonly fields: Int32Array;
  readonly #kinds: Uint8Array;
  /** Per key field: the collation of a text column, or undefined. */
  readonly #collations: (Collation | undefined)[];
  readonly #w = new KeyWriter(256);

  constructor(fields: readonly number[], rowKinds: Uint8Array, columns?: readonly StoredColumn[]) {
    this.fields = Int32Array.from(fields);
    this.#kinds = Uint8Array.from(fields, (c) => rowKinds[c]!);
    this.#collations = fields.map((c) => (columns === undefined ? undefined : keyCollation(columns[c]!)));
  }

  /** The key of `row`: a view of an internal buffer, valid until the next call. */
  encode(row: RowBuffer): Uint8Array {
    const w = this.#w.reset();
    const n = this.fields.length;
    for (let i = 0; i < n; i++) {
      const c = this.fields[i]!;
      if (row.nulls[c] === 1) {
        w.null();
        continue;
      }
      switch (this.#kinds[i]) {
        case K_INT:
          w.int32(row.nums[c]!);
          break;
        case K_DATE:
          w.date(row.nums[c]!);
          break;
        case K_BIGINT:
          w.int64(row.isWide[c] === 1 ? row.wide[c]! : row.nums[c]!);
          break;
        case K_UBIGINT:
          w.int64(unsignedKey(row.isWide[c] === 1 ? row.wide[c]! : row.nums[c]!));
          break;
        case K_DECIMAL:
          w.decimal(row.isWide[c] === 1 ? row.wide[c]! : row.nums[c]!);
          break;
        case K_DOUBLE:
          w.bytes(doubleKeyBytes(row.nums[c]!), 0, 8);
          break;
        default: {
          const start = row.off[c]!;
          const coll = this.#collations[i];
          if (coll === undefined) w.bytes(row.src[c]!, start, start + row.len[c]!);
          else {
            const weights = weightBytesOfUtf8(row.src[c]!, start, row.len[c]!, coll);
            w.bytes(weights, 0, weights.length);
          }
        }
      }
    }
    return w.key();
  }
}

const DK = new Float64Array(1);
const DK_LE = new Uint8Array(DK.buffer);
const DK_OUT = new Uint8Array(8);

/**
 * A DOUBLE as 8 bytes whose memcmp order is numeric order (stored in a key as a byte-string
 * field): big-endian IEEE-754 with the sign bit flipped for positives and every bit flipped for
 * negatives (−0 is stored as 0). Returns a shared scratch array, valid until the next call.
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
