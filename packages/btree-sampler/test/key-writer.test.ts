// KeyWriter, KeyCodec.encodeInto and the write…Field functions write exactly KeyCodec.encode's
// bytes: checked byte for byte on random tuples of every column type, and on hand-written bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ColumnSpec,
  KeyCodec,
  type KeyValue,
  KeyWriter,
  maxFieldBytes,
  TAG_BYTES,
  TAG_DATE,
  TAG_DECIMAL,
  TAG_INT32,
  TAG_INT64,
  TAG_NULL_FIRST,
  TAG_NULL_LAST,
  writeInt32Field,
} from '../src/index.js';

const hex = (a: Uint8Array): string => Buffer.from(a).toString('hex');

type Field =
  | { col: ColumnSpec; kind: 'int32'; v: number | null }
  | { col: ColumnSpec; kind: 'int64'; v: bigint | null; asNumber: boolean }
  | { col: ColumnSpec; kind: 'date'; v: number | null }
  | { col: ColumnSpec; kind: 'decimal'; v: bigint | null; asNumber: boolean }
  | { col: ColumnSpec; kind: 'binary'; v: Uint8Array | null };

const nulls = fc.constantFrom<'first' | 'last'>('first', 'last');
const orNull = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 5, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });
const field: fc.Arbitrary<Field> = fc.oneof(
  fc.record({
    kind: fc.constant('int32' as const),
    col: nulls.map((n) => ({ type: 'int32' as const, nulls: n })),
    v: orNull(fc.integer({ min: -2147483648, max: 2147483647 })),
  }),
  fc.record({
    kind: fc.constant('int64' as const),
    col: nulls.map((n) => ({ type: 'int64' as const, nulls: n })),
    v: orNull(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })),
    asNumber: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('date' as const),
    col: nulls.map((n) => ({ type: 'date' as const, nulls: n })),
    v: orNull(fc.integer({ min: -800000, max: 3000000 })),
  }),
  fc.record({
    kind: fc.constant('decimal' as const),
    col: fc.record({ type: fc.constant('decimal' as const), scale: fc.integer({ min: 0, max: 6 }), nulls }),
    v: orNull(
      fc.oneof(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: -1000n, max: 1000n })),
    ),
    asNumber: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('binary' as const),
    col: nulls.map((n) => ({ type: 'binary' as const, nulls: n })),
    v: orNull(fc.uint8Array({ maxLength: 12 }).map((a) => a.map((x) => (x % 3 === 0 ? 0 : x)))),
  }),
);

function write(w: KeyWriter, f: Field): void {
  if (f.v === null) {
    w.null(f.col.nulls ?? 'first');
    return;
  }
  switch (f.kind) {
    case 'int32':
      w.int32(f.v as number);
      return;
    case 'date':
      w.date(f.v as number);
      return;
    case 'int64': {
      const v = f.v as bigint;
      w.int64(
        f.asNumber && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(v)
          : v,
      );
      return;
    }
    case 'decimal': {
      const v = f.v as bigint;
      w.decimal(
        f.asNumber && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(v)
          : v,
      );
      return;
    }
    case 'binary':
      w.bytes(f.v as Uint8Array);
  }
}

describe('KeyWriter', () => {
  it('writes the bytes of KeyCodec.encode for random tuples of every type (and encodeInto agrees)', () => {
    const w = new KeyWriter(4); // tiny, so the buffer grows while keys are written
    fc.assert(
      fc.property(
        fc.array(field, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 7 }),
        (fields, at) => {
          const codec = new KeyCodec(fields.map((f) => f.col));
          // KeyCodec takes a decimal as the scaled bigint, the same integer the writer takes
          const values: KeyValue[] = fields.map((f) => f.v);
          const expected = codec.encode(values);
          w.reset();
          for (const f of fields) write(w, f);
          expect(hex(w.key())).toBe(hex(expected));
          expect(w.length).toBe(expected.length);
          const buf = new Uint8Array(at + expected.length + 3).fill(0xee);
          expect(codec.encodeInto(values, buf, at)).toBe(at + expected.length);
          expect(hex(buf.subarray(at, at + expected.length))).toBe(hex(expected));
          expect(buf[at + expected.length]).toBe(0xee);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('hand-written bytes of the format table', () => {
    const w = new KeyWriter();
    expect(hex(w.reset().int32(-1).key())).toBe('107fffffff');
    expect(hex(w.reset().int32(0).key())).toBe('1080000000');
    expect(hex(w.reset().int64(-2).key())).toBe('117ffffffffffffffe');
    expect(
      hex(
        w
          .reset()
          .int64(2n ** 40n)
          .key(),
      ),
    ).toBe('118000010000000000');
    expect(hex(w.reset().date(1).key())).toBe('1280000001');
    // DECIMAL 12.50 at scale 2 = 1250 = 0x04E2: class 0x80 + 2; −1250: class 0x7F − 2, complements
    expect(hex(w.reset().decimal(1250).key())).toBe('138204e2');
    expect(hex(w.reset().decimal(-1250n).key())).toBe('137dfb1d');
    expect(hex(w.reset().decimal(0).key())).toBe('1380');
    expect(hex(w.reset().bytes(Uint8Array.of(0x61, 0x00)).key())).toBe('146100ff0000');
    expect(hex(w.reset().string('ab').key())).toBe('1461620000');
    expect(hex(w.reset().null().null('last').key())).toBe('00ff');
    expect([TAG_NULL_FIRST, TAG_INT32, TAG_INT64, TAG_DATE, TAG_DECIMAL, TAG_BYTES, TAG_NULL_LAST]).toEqual([
      0x00, 0x10, 0x11, 0x12, 0x13, 0x14, 0xff,
    ]);
    expect(maxFieldBytes()).toBe(9);
    expect(maxFieldBytes(5)).toBe(13);
  });

  it('hands out one view per key length, and copies on request', () => {
    const w = new KeyWriter();
    const a = w.reset().int32(1).key();
    const b = w.reset().int32(2).key();
    expect(b).toBe(a); // same view object: nothing made per key
    expect(hex(b)).toBe('1080000002');
    const c = w.copy();
    w.reset().int32(3);
    expect(hex(c)).toBe('1080000002');
    const dst = new Uint8Array(8);
    expect(w.copyInto(dst, 2)).toBe(7);
    expect(hex(dst)).toBe('0000108000000300');
    expect(() => w.copyInto(dst, 4)).toThrow(RangeError);
  });

  it('project() copies chosen fields of a codec key in a new order', () => {
    const codec = new KeyCodec([{ type: 'date' }, { type: 'int32' }, { type: 'string' }, { type: 'int64' }]);
    const entry = codec.encode(['1995-03-15', 7, 'x\0y', 9n]);
    const w = new KeyWriter(2);
    const pk = w.reset().project(entry, 0, entry.length, [3, 1]).key();
    expect(hex(pk)).toBe(hex(new KeyCodec([{ type: 'int64' }, { type: 'int32' }]).encode([9n, 7])));
    const framed = new Uint8Array(entry.length + 4);
    framed.set(entry, 2);
    expect(hex(w.reset().project(framed, 2, entry.length, [2]).key())).toBe('147800ff790000');
    expect(() => w.reset().project(entry, 0, entry.length, [4])).toThrow(/order\[0\] = 4/);
    // a key past 2 GiB into its buffer (a large buffer pool): lazily committed memory
    const big = new Uint8Array(new SharedArrayBuffer(2 ** 31 + 4096));
    big.set(entry, 2 ** 31 + 100);
    expect(
      hex(
        w
          .reset()
          .project(big, 2 ** 31 + 100, entry.length, [3, 1])
          .key(),
      ),
    ).toBe(hex(new KeyCodec([{ type: 'int64' }, { type: 'int32' }]).encode([9n, 7])));
  });

  it('rejects values outside the column type, naming the problem', () => {
    const w = new KeyWriter();
    expect(() => w.int32(2 ** 31)).toThrow(/INT value/);
    expect(() => w.int32(1.5)).toThrow(RangeError);
    expect(() => w.int64(2 ** 53)).toThrow(/safe integer/);
    expect(() => w.int64(1n << 63n)).toThrow(/BIGINT/);
    expect(() => w.decimal(0.5)).toThrow(/DECIMAL/);
    expect(() => writeInt32Field(new Uint8Array(5), 0, Number.NaN)).toThrow(RangeError);
    expect(() => new KeyWriter(0)).toThrow(/capacity/);
    const codec = new KeyCodec([{ type: 'int32' }]);
    expect(() => codec.encodeInto([5], new Uint8Array(4), 0)).toThrow(/no room/);
  });
});
