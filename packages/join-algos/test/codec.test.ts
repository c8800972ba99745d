// tupleCodec round-trips any row, and byteLength is exactly what write writes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Tuple, tupleCodec } from '../src/index.js';

type Basic = 'int32' | 'double' | 'int64' | 'string';
const value: Record<Basic, fc.Arbitrary<number | bigint | string>> = {
  int32: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  double: fc.double({ noNaN: true }),
  int64: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  string: fc.string({ unit: 'grapheme', maxLength: 20 }),
};

describe('tupleCodec', () => {
  it('round-trips rows with NULLs, and byteLength equals the bytes written', () => {
    const schema = fc.array(fc.constantFrom<Basic>('int32', 'double', 'int64', 'string'), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        schema.chain((cols) =>
          fc.tuple(
            fc.constant(cols),
            fc.tuple(...cols.map((c) => fc.option(value[c], { nil: null }))) as fc.Arbitrary<Tuple>,
          ),
        ),
        fc.nat({ max: 7 }),
        ([cols, row], at) => {
          const codec = tupleCodec(cols);
          const len = codec.byteLength(row);
          const bytes = new Uint8Array(at + len + 3).fill(0xee);
          const view = new DataView(bytes.buffer);
          expect(codec.write(row, bytes, view, at)).toBe(at + len);
          expect(bytes[at + len]).toBe(0xee); // nothing written past the record
          const back = codec.read(bytes, view, at, len);
          expect(back.map((v) => (Object.is(v, -0) ? 0 : v))).toEqual(
            row.map((v) => (Object.is(v, -0) ? 0 : v)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('packs as documented: NULL bitmap, then the non-NULL values', () => {
    const c = tupleCodec(['int32', 'string', 'double']);
    expect(c.byteLength([1, 'O', 173665.47])).toBe(1 + 4 + (2 + 1) + 8);
    expect(c.byteLength([null, null, null])).toBe(1);
    const bytes = new Uint8Array(8);
    c.write([7, null, null], bytes, new DataView(bytes.buffer), 0);
    expect(Array.from(bytes.subarray(0, 5))).toEqual([0b110, 7, 0, 0, 0]);
  });
});

describe('string(N) columns', () => {
  it('take a 1-byte length up to 255 bytes, 2 above, and bound maxByteLength', () => {
    const c = tupleCodec(['int32', 'string(25)', 'string(300)']);
    // NULL bitmap 1 + int 4 + (1 + 25) + (2 + 300)
    expect(c.maxByteLength).toBe(333);
    expect(c.fieldCount).toBe(4);
    const row = [7, 'Customer#000000001', 'x'.repeat(300)];
    expect(c.byteLength(row)).toBe(1 + 4 + 1 + 18 + 2 + 300);
    const bytes = new Uint8Array(c.byteLength(row));
    const end = c.write(row, bytes, new DataView(bytes.buffer), 0);
    expect(end).toBe(bytes.length);
    expect(bytes[5]).toBe(18);
    expect(c.read(bytes, new DataView(bytes.buffer), 0, end)).toEqual(row);
    const scratch = new Uint8Array(64);
    expect(() => c.write([1, 'y'.repeat(26), ''], scratch, new DataView(scratch.buffer), 0)).toThrow(
      /string of 26 bytes exceeds its 25-byte column/,
    );
    expect(() => tupleCodec(['string(0)'])).toThrow(/byte length in \[1, 65535\]/);
  });
});
