import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ColumnSpec,
  compareKeys,
  countFields,
  KeyCodec,
  type KeyValue,
  matchedFields,
} from '../src/index.js';

// The reference order of one field: NULL per the column's rule, then numeric / byte order.
function cmpValue(col: ColumnSpec, a: KeyValue, b: KeyValue): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    const nullFirst = col.nulls !== 'last';
    return a === null ? (nullFirst ? -1 : 1) : nullFirst ? 1 : -1;
  }
  switch (col.type) {
    case 'int32':
    case 'date':
      return Math.sign((a as number) - (b as number));
    case 'int64':
    case 'decimal':
      return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
    default: {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    }
  }
}
const cmpTuple = (cols: ColumnSpec[], a: KeyValue[], b: KeyValue[]): number => {
  for (let i = 0; i < cols.length; i++) {
    const c = cmpValue(cols[i]!, a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
};

const nullable = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arb, { freq: 6 });
const arbFor = (col: ColumnSpec): fc.Arbitrary<KeyValue> => {
  switch (col.type) {
    case 'int32':
      return nullable(fc.integer({ min: -2147483648, max: 2147483647 }));
    case 'date':
      return nullable(fc.integer({ min: -800000, max: 2900000 }));
    case 'int64':
      return nullable(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }));
    case 'decimal':
      // scaled integers of up to 65 digits (DECIMAL(65, s))
      return nullable(
        fc.oneof(
          fc.bigInt({ min: -1000n, max: 1000n }),
          fc.bigInt({ min: -(10n ** 65n) + 1n, max: 10n ** 65n - 1n }),
        ),
      );
    default:
      return nullable(fc.uint8Array({ maxLength: 6, max: 3 }).map((a) => a));
  }
};

const schemas: ColumnSpec[][] = [
  [{ type: 'int32' }],
  [{ type: 'int64' }],
  [{ type: 'decimal', scale: 2 }],
  [{ type: 'date' }],
  [{ type: 'binary' }],
  [{ type: 'int32', nulls: 'last' }, { type: 'binary' }],
  [{ type: 'binary' }, { type: 'int64' }, { type: 'decimal', scale: 4, nulls: 'last' }],
  [{ type: 'date' }, { type: 'int32' }, { type: 'binary', nulls: 'last' }, { type: 'int32' }],
];

describe('KeyCodec order property', () => {
  for (const cols of schemas) {
    it(`encode order == tuple order for (${cols.map((c) => `${c.type}${c.nulls === 'last' ? ' nulls last' : ''}`).join(', ')})`, () => {
      const codec = new KeyCodec(cols);
      const tuple = fc.tuple(...cols.map(arbFor));
      fc.assert(
        fc.property(tuple, tuple, (a, b) => {
          const ea = codec.encode(a);
          const eb = codec.encode(b);
          expect(Math.sign(compareKeys(ea, eb))).toBe(Math.sign(cmpTuple(cols, a, b)));
          expect(countFields(ea)).toBe(cols.length);
          // matched fields = length of the common prefix of equal values
          let m = 0;
          while (m < cols.length && cmpValue(cols[m]!, a[m]!, b[m]!) === 0) m++;
          expect(matchedFields(ea, 0, ea.length, eb, 0, eb.length)).toBe(m);
        }),
        { numRuns: 400 },
      );
    });
  }

  it('decodes what it encodes', () => {
    const codec = new KeyCodec([
      { type: 'int32' },
      { type: 'int64' },
      { type: 'decimal', scale: 2 },
      { type: 'date' },
      { type: 'string' },
      { type: 'binary', nulls: 'last' },
    ]);
    const t = [-7, -(2n ** 63n), '-12.50', '1999-12-31', 'naïve\u0000x', null];
    expect(codec.decode(codec.encode(t))).toEqual([
      -7,
      -(2n ** 63n),
      '-12.50',
      '1999-12-31',
      'naïve\u0000x',
      null,
    ]);
    expect(
      codec.decode(codec.encode([0, 5, '0.07', new Date(Date.UTC(1970, 0, 2)), '', new Uint8Array([0, 1])])),
    ).toEqual([0, 5n, '0.07', '1970-01-02', '', new Uint8Array([0, 1])]);
  });

  it('decimals are exact scaled integers: strings and bigints agree, order across signs and lengths', () => {
    const c = new KeyCodec([{ type: 'decimal', scale: 2 }]);
    expect(c.encode(['1.5'])).toEqual(c.encode([150n]));
    const values = [
      '-100000.00',
      '-256.00',
      '-255.99',
      '-1.00',
      '-0.01',
      '0',
      '0.01',
      '2.55',
      '2.56',
      '99999999999999999.99',
    ];
    const enc = values.map((v) => c.encode([v]));
    for (let i = 1; i < enc.length; i++) expect(compareKeys(enc[i - 1]!, enc[i]!)).toBeLessThan(0);
    expect(() => c.encode(['1.234'])).toThrow(RangeError);
  });

  it('pins the bytes of a few fields (a layout change must be deliberate)', () => {
    const c = new KeyCodec([{ type: 'int32' }, { type: 'string' }, { type: 'decimal', scale: 1 }]);
    expect([...c.encode([-1, 'a\u0000', '-25.6'])]).toEqual([
      0x10,
      0x7f,
      0xff,
      0xff,
      0xff,
      0x14,
      0x61,
      0x00,
      0xff,
      0x00,
      0x00,
      0x13,
      0x7d,
      0xff - 0x01,
      0xff - 0x00,
    ]);
    expect([...c.encode([null])]).toEqual([0x00]);
  });

  it('rejects bad input with the argument named', () => {
    const c = new KeyCodec([{ type: 'int32' }]);
    expect(() => c.encode([2 ** 31])).toThrow(/values\[0\]/);
    expect(() => c.encode(['x'])).toThrow(TypeError);
    expect(() => new KeyCodec([])).toThrow(TypeError);
    expect(() => new KeyCodec([{ type: 'float' as never }])).toThrow(RangeError);
  });
});
