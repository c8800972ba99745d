// The row codec and the key encoder: round trips, and the key encoder byte for byte equal to
// btree-sampler's KeyCodec (the reference encoding).
import { KeyCodec, type KeyValue } from '@enginekit/btree-sampler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalBytes, RowBuffer, type StoredColumn } from '../src/index.js';
import { keySpec, RowKeyEncoder } from '../src/storage/row-key.js';
import { RowCodec } from '../src/storage/row.js';

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
