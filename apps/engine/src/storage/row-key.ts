import { type ColumnSpec, KeyWriter } from '@enginekit/btree-sampler';
import { K_BIGINT, K_DATE, K_DECIMAL, K_DOUBLE, K_INT, type RowBuffer } from './row.js';
import type { StoredColumn } from './types.js';

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
    default:
      return { type: 'binary' };
  }
}

/**
 * The key of chosen columns of a {@link RowBuffer}, written by btree-sampler's `KeyWriter` (its
 * key format: memcmp order = tuple order, NULL first, text in binary collation) into one reused
 * buffer: the hot path of loading and index maintenance, with no allocation per key.
 */
export class RowKeyEncoder {
  /** Row column of each key field. */
  readonly fields: Int32Array;
  readonly #kinds: Uint8Array;
  readonly #w = new KeyWriter(256);

  constructor(fields: readonly number[], rowKinds: Uint8Array) {
    this.fields = Int32Array.from(fields);
    this.#kinds = Uint8Array.from(fields, (c) => rowKinds[c]!);
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
        case K_DECIMAL:
          w.decimal(row.isWide[c] === 1 ? row.wide[c]! : row.nums[c]!);
          break;
        case K_DOUBLE:
          w.bytes(doubleKeyBytes(row.nums[c]!), 0, 8);
          break;
        default: {
          const start = row.off[c]!;
          w.bytes(row.src[c]!, start, start + row.len[c]!);
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
