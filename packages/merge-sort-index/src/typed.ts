import type { SorterOptions } from './options.js';
import { ExternalSorter } from './sorter.js';
import type { KeyComparator, SortStats } from './types.js';

/**
 * Bytes for values of type T. With no comparator the sort follows memcmp order of `encode`'s
 * bytes, so an order-preserving encoding (see `codecs`) sorts fastest. `decode` gets a view
 * valid during the call only and must copy what it keeps.
 */
export interface Codec<T> {
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

/** Options of `TypedSorter`: the sorter's, with `compare` over decoded values. */
export interface TypedSorterOptions<T> extends Omit<SorterOptions, 'compare'> {
  /**
   * Order of decoded values. Every comparison then decodes both keys (an object per
   * comparison): correct for any codec, several times slower than memcmp order.
   */
  compare?: (a: T, b: T) => number;
}

/**
 * An `ExternalSorter` over values of any type: each value is encoded once on `add`, sorted as
 * bytes (stable) and decoded once on output.
 *
 * @example
 * ```ts
 * const s = new TypedSorter(codecs.float64);
 * for (const x of [3.5, -1, 2]) s.add(x);
 * [...s.values()]; // [-1, 2, 3.5]
 * ```
 */
export class TypedSorter<T> {
  readonly #codec: Codec<T>;
  readonly #sorter: ExternalSorter;

  constructor(codec: Codec<T>, options: TypedSorterOptions<T> = {}) {
    if (
      codec === null ||
      typeof codec !== 'object' ||
      typeof codec.encode !== 'function' ||
      typeof codec.decode !== 'function'
    ) {
      throw new TypeError(`codec must have encode(value) and decode(bytes) methods, got ${String(codec)}`);
    }
    this.#codec = codec;
    const { compare, ...rest } = options;
    if (compare !== undefined && typeof compare !== 'function') {
      throw new TypeError(`compare must be a function, got ${String(compare)}`);
    }
    const byteCompare: KeyComparator | undefined =
      compare === undefined
        ? undefined
        : (a, as, ae, b, bs, be) =>
            compare(codec.decode(a.subarray(as, ae)), codec.decode(b.subarray(bs, be)));
    this.#sorter = new ExternalSorter(byteCompare === undefined ? rest : { ...rest, compare: byteCompare });
  }

  /** Add one value (encoded at once). */
  add(value: T): void {
    const bytes = this.#codec.encode(value);
    if (!(bytes instanceof Uint8Array))
      throw new TypeError(`codec.encode must return a Uint8Array, got ${String(bytes)}`);
    this.#sorter.add(bytes);
  }

  /** Add every value of an iterable. */
  addAll(values: Iterable<T>): this {
    for (const v of values) this.add(v);
    return this;
  }

  /** End the input and yield the values in order (stable). */
  *values(): Generator<T, void, undefined> {
    const codec = this.#codec;
    for (const rec of this.#sorter.entries({ copy: false })) yield codec.decode(rec.key);
  }

  [Symbol.iterator](): Generator<T, void, undefined> {
    return this.values();
  }

  get stats(): SortStats {
    return this.#sorter.stats;
  }

  /** Remove temp files early; idempotent. */
  close(): void {
    this.#sorter.close();
  }
}

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * Order-preserving codecs: memcmp order of the bytes is the natural order of the values, so
 * the sort needs no comparator and uses its fast path.
 */
export const codecs: {
  readonly uint32: Codec<number>;
  readonly int32: Codec<number>;
  readonly float64: Codec<number>;
  readonly utf8: Codec<string>;
  readonly bigUint64: Codec<bigint>;
} = {
  /** Unsigned 32-bit integers, big-endian. */
  uint32: {
    encode: (v) => {
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
        throw new RangeError(`uint32 value out of range: ${v}`);
      return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
    },
    decode: (b) => ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0,
  },
  /** Signed 32-bit integers: big-endian with the sign bit flipped. */
  int32: {
    encode: (v) => {
      if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff)
        throw new RangeError(`int32 value out of range: ${v}`);
      const u = (v ^ 0x80000000) >>> 0;
      return new Uint8Array([u >>> 24, (u >>> 16) & 0xff, (u >>> 8) & 0xff, u & 0xff]);
    },
    decode: (b) => ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) ^ 0x80000000,
  },
  /**
   * IEEE-754 doubles: big-endian, sign bit flipped for positives, all bits flipped for
   * negatives (−0 sorts before +0; NaN after +∞).
   */
  float64: {
    encode: (v) => {
      if (typeof v !== 'number') throw new TypeError(`float64 value must be a number, got ${String(v)}`);
      f64[0] = v;
      const out = new Uint8Array(8);
      for (let i = 0; i < 8; i++) out[i] = f64Bytes[LITTLE ? 7 - i : i]!;
      if (out[0]! & 0x80) for (let i = 0; i < 8; i++) out[i] = ~out[i]! & 0xff;
      else out[0] = out[0]! | 0x80;
      return out;
    },
    decode: (b) => {
      const neg = (b[0]! & 0x80) === 0;
      for (let i = 0; i < 8; i++) {
        const x = neg ? ~b[i]! & 0xff : i === 0 ? b[0]! & 0x7f : b[i]!;
        f64Bytes[LITTLE ? 7 - i : i] = x;
      }
      return f64[0]!;
    },
  },
  /** Strings as UTF-8: memcmp order is code-point order (not locale collation). */
  utf8: {
    encode: (v) => utf8Encoder.encode(v),
    decode: (b) => utf8Decoder.decode(b),
  },
  /** Unsigned 64-bit bigints, big-endian. */
  bigUint64: {
    encode: (v) => {
      if (typeof v !== 'bigint' || v < 0n || v > 0xffffffffffffffffn)
        throw new RangeError(`bigUint64 value out of range: ${String(v)}`);
      const out = new Uint8Array(8);
      new DataView(out.buffer).setBigUint64(0, v);
      return out;
    },
    decode: (b) => new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0),
  },
};
