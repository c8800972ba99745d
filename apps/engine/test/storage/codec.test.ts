// The row codec and the key encoder: round trips, and the key encoder byte for byte equal to
// btree-sampler's KeyCodec (the reference encoding).
import { KeyCodec, type KeyValue } from '@enginekit/btree-sampler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalBytes, RowBuffer, type StoredColumn } from '../../src/index.js';
import { keySpec, RowKeyEncoder } from '../../src/storage/row-key.js';
import { RowCodec } from '../../src/storage/row.js';

const COLUMNS: StoredColumn[] = [
  { name: 'i', type: { kind: 'int' } },
  { name: 'big', type: { kind: 'bigint' } },
  { name: 'dec', type: { kind: 'decimal', precision: 15, scale: 2 } },
  { name: 'small', type: { kind: 'decimal', precision: 3, scale: 1 }, nullable: true },
  { name: 'day', type: { kind: 'date' } },
  { name: 'c', type: { kind: 'char', length: 10 }, nullable: true },
  { name: 'v', type: { kind: 'varchar', length: 80 } },
];

const text = (max: number): fc.Arbitrary<Uint8Array> =>
  fc.uint8Array({ maxLength: max }).map((a) => a.map((x) => x & 0x7f)); // ASCII incl. 0x00 and spaces

const rowArb = fc.tuple(
  fc.integer({ min: -2147483648, max: 2147483647 }),
  fc.maxSafeInteger().chain((m) => fc.constantFrom(m, -m, 0, 1, -1, 2 ** 32, -(2 ** 32) - 5)),
  fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
  fc.option(fc.integer({ min: -999, max: 999 })),
  fc.integer({ min: -100000, max: 100000 }),
  fc.option(text(10)),
  text(80),
);

describe('row codec', () => {
  it('DECIMAL widths follow the precision (DECIMAL(15,2) takes 7 bytes, as MySQL)', () => {
    expect([1, 2, 3, 4, 9, 10, 15].map(decimalBytes)).toEqual([1, 1, 2, 2, 4, 5, 7]);
  });

  it('round-trips every type, NULLs and bytes exactly (trailing spaces, 0x00)', () => {
    const codec = new RowCodec(COLUMNS);
    const row = new RowBuffer(COLUMNS);
    const back = new RowBuffer(COLUMNS);
    fc.assert(
      fc.property(rowArb, (values) => {
        row.setAll(values);
        const bytes = codec.encode(row).slice();
        codec.decode(bytes, 0, bytes.length, back);
        // Integers have no negative zero: -0 (which the BIGINT arbitrary can produce as -m for m = 0)
        // is stored and read back as 0.
        const expected = values.map((v) =>
          v instanceof Uint8Array ? Uint8Array.from(v) : Object.is(v, -0) ? 0 : v,
        );
        expect(back.toArray()).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps CHAR trailing spaces as data', () => {
    const codec = new RowCodec(COLUMNS);
    const row = new RowBuffer(COLUMNS).setAll([1, 2, '0.06', null, '1998-12-01', 'ab  ', ' x ']);
    const bytes = codec.encode(row).slice();
    const back = new RowBuffer(COLUMNS);
    codec.decode(bytes, 0, bytes.length, back);
    expect(new TextDecoder().decode(back.get(5) as Uint8Array)).toBe('ab  ');
    expect(back.get(2)).toBe(6);
    expect(back.get(4)).toBe(10561);
  });

  it('values() shows each field as SQL does: text decoded, DECIMAL exact, DATE as a day', () => {
    const row = new RowBuffer(COLUMNS).setAll([
      -7,
      2 ** 40,
      '-1234.05',
      null,
      '1998-12-01',
      'ab  ',
      'naïve ✓',
    ]);
    expect(row.values()).toEqual([-7, 2 ** 40, '-1234.05', null, '1998-12-01', 'ab  ', 'naïve ✓']);
    row.setAll([0, 0, '0.06', '-0.5', '1970-01-01', null, '']);
    expect(row.values()).toEqual([0, 0, '0.06', '-0.5', '1970-01-01', null, '']);
    // every value round-trips through set(): what values() shows is what set() takes
    fc.assert(
      fc.property(rowArb, (r) => {
        const a = new RowBuffer(COLUMNS).setAll([...r]);
        const b = new RowBuffer(COLUMNS).setAll(a.values());
        expect(b.toArray()).toEqual(a.toArray());
      }),
    );
  });

  it('rejects values outside their type, naming the column', () => {
    const codec = new RowCodec(COLUMNS);
    const row = new RowBuffer(COLUMNS).setAll([1, 2, 3, null, 0, null, '']);
    row.set(0, 2 ** 31);
    expect(() => codec.encode(row)).toThrow(/column i: out of range for INT/);
    row.set(0, 1);
    row.set(3, 1000);
    expect(() => codec.encode(row)).toThrow(/column small: out of range/);
    row.set(3, null);
    row.set(6, 'x'.repeat(81));
    expect(() => codec.encode(row)).toThrow(/column v: 81 characters, at most 80/);
    expect(() => row.set(0, null)).toThrow(/column i is NOT NULL/);
    expect(() => row.set(2, '1.234')).toThrow(/more than 2 fraction digits/);
    expect(() => row.set(4, '1995-02-29')).toThrow(/no such day/);
  });
});

describe('decoding the wanted columns only', () => {
  it('reads the wanted fields exactly as a full decode, and stops after the last', () => {
    const codec = new RowCodec(COLUMNS);
    const row = new RowBuffer(COLUMNS);
    const full = new RowBuffer(COLUMNS);
    const part = new RowBuffer(COLUMNS);
    fc.assert(
      fc.property(rowArb, fc.uint8Array({ minLength: 7, maxLength: 7 }), (values, bits) => {
        const mask = bits.map((b) => b & 1);
        row.setAll(values);
        const bytes = codec.encode(row).slice();
        codec.decode(bytes, 0, bytes.length, full);
        part.wantOnly(mask);
        codec.decode(bytes, 0, bytes.length, part);
        for (let c = 0; c < COLUMNS.length; c++) if (mask[c] === 1) expect(part.get(c)).toEqual(full.get(c));
        part.wantOnly(null);
        codec.decode(bytes, 0, bytes.length, part);
        expect(part.toArray()).toEqual(full.toArray());
      }),
      { numRuns: 300 },
    );
  });
});

describe('key encoder', () => {
  it('writes exactly what KeyCodec.encode writes, for every column type', () => {
    const fields = [0, 1, 2, 3, 4, 5, 6];
    const enc = new RowKeyEncoder(fields, new RowCodec(COLUMNS).kinds);
    const ref = new KeyCodec(COLUMNS.map(keySpec));
    const row = new RowBuffer(COLUMNS);
    fc.assert(
      fc.property(rowArb, (values) => {
        row.setAll(values);
        const ours = enc.encode(row).slice();
        const refValues: KeyValue[] = values.map((v, i) =>
          v !== null && (i === 2 || i === 3) ? BigInt(v as number) : (v as KeyValue),
        );
        expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(ref.encode(refValues)).toString('hex'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('wide values: BIGINT over 64 bits, DECIMAL up to 65 digits', () => {
  const WIDE: StoredColumn[] = [
    { name: 'big', type: { kind: 'bigint' } },
    { name: 'd65', type: { kind: 'decimal', precision: 65, scale: 30 }, nullable: true },
    { name: 'd20', type: { kind: 'decimal', precision: 20, scale: 0 } },
  ];
  const TEN65 = 10n ** 65n;
  const TEN20 = 10n ** 20n;
  const wideRow = fc.tuple(
    fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n, -(2n ** 53n), 2n ** 53n - 1n, 0n),
    ),
    fc.option(
      fc.oneof(
        fc.bigInt({ min: -TEN65 + 1n, max: TEN65 - 1n }),
        fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
        fc.constantFrom(TEN65 - 1n, -TEN65 + 1n, 2n ** 53n, -(2n ** 53n)),
      ),
    ),
    fc.bigInt({ min: -TEN20 + 1n, max: TEN20 - 1n }),
  );
  /** A field as the buffer holds it: a safe integer as a number, anything wider as the bigint. */
  const held = (v: bigint | null): number | bigint | null =>
    v === null ? null : v >= -(2n ** 53n - 1n) && v <= 2n ** 53n - 1n ? Number(v) : v;

  it('takes the fewest two’s-complement bytes that hold ±(10^p − 1)', () => {
    expect([16, 18, 19, 20, 38, 65].map(decimalBytes)).toEqual([7, 8, 9, 9, 16, 28]);
  });

  it('round-trips exactly, a safe value held as a number and a wider one as a bigint', () => {
    const codec = new RowCodec(WIDE);
    const row = new RowBuffer(WIDE);
    const back = new RowBuffer(WIDE);
    fc.assert(
      fc.property(wideRow, (values) => {
        row.setAll(values);
        const bytes = codec.encode(row).slice();
        codec.decode(bytes, 0, bytes.length, back);
        expect(back.toArray()).toEqual(values.map(held));
      }),
      { numRuns: 500 },
    );
  });

  it('stores BIGINT as 8 bytes big-endian two’s complement', () => {
    const codec = new RowCodec(WIDE);
    const row = new RowBuffer(WIDE).setAll([-(2n ** 63n), null, 1n]);
    const hex = Buffer.from(codec.encode(row)).toString('hex');
    // null bitmap 0x02 (d65 NULL), then 80 00 … 00, then DECIMAL(20) in 9 bytes: 1
    expect(hex).toBe(`02${'80'}${'00'.repeat(7)}${'00'.repeat(8)}01`);
    row.setAll([2n ** 63n - 1n, -1n, -1n]);
    expect(Buffer.from(codec.encode(row)).toString('hex')).toBe(
      `00${'7f'}${'ff'.repeat(7)}${'ff'.repeat(28)}${'ff'.repeat(9)}`,
    );
  });

  it('rejects a value beyond its type', () => {
    const codec = new RowCodec(WIDE);
    const row = new RowBuffer(WIDE).setAll([2n ** 63n, null, 0n]);
    expect(() => codec.encode(row)).toThrow(/column big: out of range for its BIGINT/);
    row.setAll([0n, TEN65, 0n]);
    expect(() => codec.encode(row)).toThrow(/column d65: out of range for its DECIMAL/);
    row.setAll([0n, null, TEN20]);
    expect(() => codec.encode(row)).toThrow(/column d20: out of range for its DECIMAL/);
  });

  it('reads a DECIMAL(65,30) text exactly and shows it back', () => {
    const t = '-12345678901234567890123456789012345.123456789012345678901234567890';
    const row = new RowBuffer(WIDE).setAll([0, t, 0]);
    expect(row.values()[1]).toBe(t);
  });

  it('keys: byte for byte what KeyCodec.encode writes, whose order is numeric order', () => {
    const enc = new RowKeyEncoder([0, 1, 2], new RowCodec(WIDE).kinds);
    const ref = new KeyCodec(WIDE.map(keySpec));
    const row = new RowBuffer(WIDE);
    fc.assert(
      fc.property(wideRow, wideRow, (a, b) => {
        row.setAll(a);
        const ka = enc.encode(row).slice();
        expect(Buffer.from(ka).toString('hex')).toBe(Buffer.from(ref.encode([...a])).toString('hex'));
        row.setAll(b);
        const kb = enc.encode(row).slice();
        const byKey = Math.sign(Buffer.compare(Buffer.from(ka), Buffer.from(kb)));
        const tuple = (x: typeof a, y: typeof a): number => {
          for (let i = 0; i < 3; i++) {
            const u = x[i] ?? null;
            const v = y[i] ?? null;
            if (u === v) continue;
            if (u === null) return -1;
            if (v === null) return 1;
            return u < v ? -1 : 1;
          }
          return 0;
        };
        expect(byKey).toBe(tuple(a, b));
      }),
      { numRuns: 300 },
    );
  });
});
