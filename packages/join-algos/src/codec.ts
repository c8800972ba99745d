/**
 * How a row is packed into a join buffer or a temp file: the join operators store records as
 * bytes, never as an array of row objects (MariaDB `JOIN_CACHE::write_record_data`).
 *
 * REQUIRES: `write(row, …)` writes exactly `byteLength(row)` bytes; `read` of those bytes returns a
 * row equal (for the join's key and condition, and for the caller) to `row`.
 */
export interface RowCodec<R> {
  byteLength(row: R): number;
  /** Write `row` at `offset`; returns the offset just past it. */
  write(row: R, bytes: Uint8Array, view: DataView, offset: number): number;
  /** Read the `length` bytes at `offset` back into a row. */
  read(bytes: Uint8Array, view: DataView, offset: number, length: number): R;
  /**
   * The most bytes `write` can produce (MariaDB's record `length` from the fields' declared
   * sizes). Decides the width of a join buffer's record-length field; unknown means 4 bytes.
   */
  readonly maxByteLength?: number;
  /** Fields a record has, flag fields such as a NULL bitmap included (MariaDB's `fields`). Default 1. */
  readonly fieldCount?: number;
}

/**
 * Column types of {@link tupleCodec}:
 * - `int32`: 4 bytes, two's complement (MySQL INT);
 * - `double`: 8 bytes IEEE 754 (MySQL DOUBLE; also any JS number);
 * - `int64`: 8 bytes, a `bigint` (MySQL BIGINT);
 * - `string`: 2-byte length + UTF-8 bytes (MySQL VARCHAR with a 2-byte length), at most 65535 bytes;
 * - `string(N)`: at most N UTF-8 bytes (a VARCHAR of N bytes), with a 1-byte length when
 *   N ≤ 255 and a 2-byte one above, as MySQL stores VARCHAR; N in [1, 65535].
 */
export type ColumnType = 'int32' | 'double' | 'int64' | 'string' | `string(${number})`;

/** A row of {@link tupleCodec}: one value per column, `null` for SQL NULL. */
export type Tuple = (number | bigint | string | null)[];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A codec for rows that are arrays, in the server's packed-record style: a NULL bitmap of
 * ⌈columns/8⌉ bytes (bit set = NULL), then each non-NULL value; NULL values take no bytes.
 *
 * @example
 * ```ts
 * const orders = tupleCodec(['int32', 'string', 'double']);
 * orders.byteLength([1, 'O', 173665.47]); // 1 + 4 + (2 + 1) + 8 = 16
 * tupleCodec(['int32', 'string(1)']).byteLength([1, 'O']); // 1 + 4 + (1 + 1) = 7
 * ```
 */
export function tupleCodec(columns: readonly ColumnType[]): RowCodec<Tuple> {
  if (!Array.isArray(columns)) throw new TypeError(`columns must be an array, got ${String(columns)}`);
  const n = columns.length;
  const kinds = new Uint8Array(n);
  const limits = new Uint32Array(n); // string byte limit
  const prefix = new Uint8Array(n); // string length-prefix bytes
  let maxByteLength = (n + 7) >> 3;
  for (let i = 0; i < n; i++) {
    const c = columns[i] as string;
    const k = ['int32', 'double', 'int64', 'string'].indexOf(c);
    const m = /^string\((\d+)\)$/.exec(String(c));
    if (k === 3 || m !== null) {
      const limit = m === null ? 0xffff : Number(m[1]);
      if (!(limit >= 1 && limit <= 0xffff)) {
        throw new RangeError(`columns[${i}]: '${c}' needs a byte length in [1, 65535]`);
      }
      kinds[i] = 3;
      limits[i] = limit;
      prefix[i] = limit <= 0xff ? 1 : 2;
      maxByteLength += prefix[i]! + limit;
    } else if (k >= 0) {
      kinds[i] = k;
      maxByteLength += k === 0 ? 4 : 8;
    } else throw new RangeError(`columns[${i}]: unknown column type '${String(c)}'`);
  }
  const nullBytes = (n + 7) >> 3;
  return {
    maxByteLength,
    fieldCount: n + 1,
    byteLength(row: Tuple): number {
      let len = nullBytes;
      for (let c = 0; c < n; c++) {
        const v = row[c];
        if (v === null || v === undefined) continue;
        const k = kinds[c]!;
        if (k === 0) len += 4;
        else if (k === 3) len += prefix[c]! + stringBytes(v as string);
        else len += 8;
      }
      return len;
    },
    write(row: Tuple, bytes: Uint8Array, view: DataView, offset: number): number {
      const start = offset;
      for (let b = 0; b < nullBytes; b++) bytes[start + b] = 0;
      offset += nullBytes;
      for (let c = 0; c < n; c++) {
        const v = row[c];
        if (v === null || v === undefined) {
          bytes[start + (c >> 3)]! |= 1 << (c & 7);
          continue;
        }
        switch (kinds[c]) {
          case 0:
            view.setInt32(offset, v as number, true);
            offset += 4;
            break;
          case 1:
            view.setFloat64(offset, v as number, true);
            offset += 8;
            break;
          case 2:
            view.setBigInt64(offset, v as bigint, true);
            offset += 8;
            break;
          default: {
            const p = prefix[c]!;
            const written = encoder.encodeInto(v as string, bytes.subarray(offset + p)).written;
            if (written > limits[c]!) {
              throw new RangeError(
                `row[${c}]: string of ${written} bytes exceeds its ${limits[c]}-byte column`,
              );
            }
            if (p === 1) bytes[offset] = written;
            else view.setUint16(offset, written, true);
            offset += p + written;
          }
        }
      }
      return offset;
    },
    read(bytes: Uint8Array, view: DataView, offset: number): Tuple {
      const start = offset;
      offset += nullBytes;
      const row: Tuple = new Array(n);
      for (let c = 0; c < n; c++) {
        if ((bytes[start + (c >> 3)]! >> (c & 7)) & 1) {
          row[c] = null;
          continue;
        }
        switch (kinds[c]) {
          case 0:
            row[c] = view.getInt32(offset, true);
            offset += 4;
            break;
          case 1:
            row[c] = view.getFloat64(offset, true);
            offset += 8;
            break;
          case 2:
            row[c] = view.getBigInt64(offset, true);
            offset += 8;
            break;
          default: {
            const p = prefix[c]!;
            const len = p === 1 ? bytes[offset]! : view.getUint16(offset, true);
            row[c] = decoder.decode(bytes.subarray(offset + p, offset + p + len));
            offset += p + len;
          }
        }
      }
      return row;
    },
  };
}

/** UTF-8 length of a string without encoding it (lone surrogates count 3 bytes, as encoded). */
function stringBytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
