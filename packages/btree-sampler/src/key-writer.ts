import { fieldEnd } from './key-codec.js';
import {
  maxFieldBytes,
  writeBytesField,
  writeDateField,
  writeDecimalField,
  writeInt32Field,
  writeInt64Field,
  writeNullField,
} from './key-format.js';

const TEXT_ENCODER = new TextEncoder();

/**
 * Builds keys in `KeyCodec`'s format into one reused buffer, field by field, with no allocation
 * per key once the buffer has grown to the longest key and each key length has been seen once
 * ({@link KeyWriter.key} hands out a cached view per length). The hot-path twin of
 * `KeyCodec.encode`: the same values give the same bytes.
 *
 * @example
 * ```ts
 * const w = new KeyWriter();
 * const key = w.reset().int32(7).decimal(1250n).bytes(new TextEncoder().encode('ab')).key();
 * // the bytes of new KeyCodec([{ type: 'int32' }, { type: 'decimal', scale: 2 }, { type: 'string' }]).encode([7, '12.50', 'ab'])
 * ```
 */
export class KeyWriter {
  #buf: Uint8Array;
  #len = 0;
  /** `#views[n]` = `#buf.subarray(0, n)`, made once per length. */
  #views: Uint8Array[] = [];
  #starts = new Int32Array(16);
  #ends = new Int32Array(16);

  /** `capacity`: initial buffer bytes (it grows as needed). Default 64. */
  constructor(capacity = 64) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${String(capacity)}`);
    this.#buf = new Uint8Array(capacity);
  }

  /** Bytes written since the last {@link KeyWriter.reset}. */
  get length(): number {
    return this.#len;
  }

  /** Start a new key. */
  reset(): this {
    this.#len = 0;
    return this;
  }

  #room(n: number): Uint8Array {
    if (this.#len + n > this.#buf.length) {
      const next = new Uint8Array(Math.max(this.#buf.length * 2, this.#len + n));
      next.set(this.#buf.subarray(0, this.#len));
      this.#buf = next;
      this.#views = [];
    }
    return this.#buf;
  }

  /** A NULL field (`'first'`: sorts below every value, InnoDB's order; `'last'`: above). */
  null(nulls: 'first' | 'last' = 'first'): this {
    this.#len = writeNullField(this.#room(1), this.#len, nulls);
    return this;
  }

  /** An INT field. */
  int32(v: number): this {
    this.#len = writeInt32Field(this.#room(5), this.#len, v);
    return this;
  }

  /** A BIGINT field (a safe integer or a bigint). */
  int64(v: number | bigint): this {
    this.#len = writeInt64Field(this.#room(9), this.#len, v);
    return this;
  }

  /** A DATE field from its day number (days since 1970-01-01, UTC). */
  date(days: number): this {
    this.#len = writeDateField(this.#room(5), this.#len, days);
    return this;
  }

  /** A DECIMAL field from the scaled integer: the value × 10^scale (12.50 at scale 2 is 1250). */
  decimal(scaled: number | bigint): this {
    this.#len = writeDecimalField(this.#room(typeof scaled === 'number' ? 9 : 128), this.#len, scaled);
    return this;
  }

  /** A VARCHAR / VARBINARY field (binary collation) from `src[start, end)`. */
  bytes(src: Uint8Array, start = 0, end: number = src.length): this {
    this.#len = writeBytesField(this.#room(maxFieldBytes(end - start)), this.#len, src, start, end);
    return this;
  }

  /** A VARCHAR field from a string, encoded UTF-8 (allocates the UTF-8 bytes). */
  string(s: string): this {
    return this.bytes(TEXT_ENCODER.encode(s));
  }

  /**
   * Append fields of the codec key `src[off, off + len)` in the order `order` lists them (field
   * indexes, 0 first): e.g. the primary key carried at the end of a secondary entry. Throws
   * `CorruptionError` for a malformed key and `RangeError` for an index past its last field.
   */
  project(src: Uint8Array, off: number, len: number, order: ArrayLike<number>): this {
    const end = off + len;
    let n = 0;
    // field bounds relative to `off`: `src` may be a buffer pool past 2 GiB, whose offsets an
    // Int32Array cannot hold
    for (let p = off; p < end; n++) {
      if (n === this.#starts.length) {
        this.#starts = growInt32(this.#starts);
        this.#ends = growInt32(this.#ends);
      }
      this.#starts[n] = p - off;
      p = fieldEnd(src, p, end);
      this.#ends[n] = p - off;
    }
    for (let i = 0; i < order.length; i++) {
      const f = order[i]!;
      if (!(f >= 0 && f < n)) throw new RangeError(`order[${i}] = ${f}, but the key has ${n} fields`);
      const s = off + this.#starts[f]!;
      const e = off + this.#ends[f]!;
      const buf = this.#room(e - s);
      buf.set(src.subarray(s, e), this.#len);
      this.#len += e - s;
    }
    return this;
  }

  /** The key written so far: a view of the writer's buffer, valid until the next write. */
  key(): Uint8Array {
    const n = this.#len;
    return this.#views[n] ?? (this.#views[n] = this.#buf.subarray(0, n));
  }

  /** A copy of the key written so far. */
  copy(): Uint8Array {
    return this.#buf.slice(0, this.#len);
  }

  /** Copy the key written so far into `dst` at `offset`; returns the offset after it. */
  copyInto(dst: Uint8Array, offset: number): number {
    if (offset < 0 || offset + this.#len > dst.length)
      throw new RangeError(`dst has no room for ${this.#len} bytes at offset ${offset}`);
    dst.set(this.#buf.subarray(0, this.#len), offset);
    return offset + this.#len;
  }
}

function growInt32(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
