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
}

/**
 * Column types of {@link tupleCodec}:
 * - `int32`: 4 bytes, two's complement (MySQL INT);
 * - `double`: 8 bytes IEEE 754 (MySQL DOUBLE; also any JS number);
 * - `int64`: 8 bytes, a `bigint` (MySQL BIGINT);
 * - `string`: 2-byte length + UTF-8 bytes (MySQL VARCHAR with a 2-byte length), at most 65535 bytes.
 */
export type ColumnType = 'int32' | 'double' | 'int64' | 'string';

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
 * ```
 */
export function tupleCodec(columns: readonly ColumnType[]): RowCodec<Tuple> {
  if (!Array.isArray(columns)) throw new TypeError(`columns must be an array, got ${String(columns)}`);
  const kinds = Uint8Array.from(columns, (c, i) => {
    const k = ['int32', 'double', 'int64', 'string'].indexOf(c);
    if (k < 0) throw new RangeError(`columns[${i}]: unknown column type '${String(c)}'`);
    return k;
  });
  const n = kinds.length;
  const nullBytes = (n + 7) >> 3;
  return {
    byteLength(row: Tuple): number {
      let len = nullBytes;
      for (let c = 0; c < n; c++) {
        const v = row[c];
        if (v === null || v === undefined) continue;
        const k = kinds[c]!;
        if (k === 0) len += 4;
        else if (k === 3) len += 2 + stringBytes(v as string);
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
            const written = encoder.encodeInto(v as string, bytes.subarray(offset + 2)).written;
            if (written > 0xffff) throw new RangeError(`row[${c}]: string of ${written} bytes exceeds 65535`);
            view.setUint16(offset, written, true);
            offset += 2 + written;
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
            const len = view.getUint16(offset, true);
            row[c] = decoder.decode(bytes.subarray(offset + 2, offset + 2 + len));
            offset += 2 + len;
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
