// The row format's reads (src/storage/row.ts). readInt must give back exactly what writeInt wrote
// for every width a column uses (4 for INT and DATE, 1–8 for DECIMAL, 8 for BIGINT), and for a
// stored value beyond a safe integer a result that is not a safe integer either (the codec then
// reads it with readBigInt); the oracle is readBigInt, a BigInt reading. A narrowed decode (the
// decoder the codec generates for a column mask) must give every wanted field exactly as the
// full decode does, on random schemas and rows (every stored kind: BIGINT UNSIGNED up to 2^64 − 1,
// the temporal kinds' microseconds, VARBINARY bytes); the oracle is the full decode's loop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowBuffer, RowCodec, readBigInt, readInt, writeBigInt, writeInt } from '../../src/storage/row.js';
import type { ColumnType, FieldValue, StoredColumn } from '../../src/storage/types.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

describe('row integers', () => {
  it('readInt inverts writeInt at every width, negative values too', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (w, x) => {
          // a value the width holds, in the safe range
          const lim = 2n ** BigInt(8 * w - 1);
          let v = ((x % lim) + lim) % (2n * lim);
          v = v >= lim ? v - 2n * lim : v;
          if (v > MAX_SAFE) v = MAX_SAFE;
          if (v < -MAX_SAFE) v = -MAX_SAFE;
          const b = new Uint8Array(w + 2);
          writeInt(b, 1, Number(v), w);
          expect(readBigInt(b, 1, w)).toBe(v);
          expect(readInt(b, 1, w)).toBe(Number(v));
        },
      ),
      { numRuns: 3000, seed: 20261201 },
    );
  });

  it('a stored value beyond 2^53 reads as no safe integer', () => {
    for (const w of [7, 8]) {
      const lim = 2n ** BigInt(8 * w - 1);
      for (const v of [MAX_SAFE + 1n, MAX_SAFE + 2n, -MAX_SAFE - 1n, -MAX_SAFE - 2n, lim - 1n, -lim]) {
        const b = new Uint8Array(w);
        writeBigInt(b, 0, v, w);
        expect(readBigInt(b, 0, w)).toBe(v);
        expect(Number.isSafeInteger(readInt(b, 0, w))).toBe(false);
      }
    }
  });

  it('a narrowed decode gives every wanted field as the full decode does', () => {
    const typeArb: fc.Arbitrary<ColumnType> = fc.oneof(
      fc.constant({ kind: 'int' } as const),
      fc.constant({ kind: 'bigint' } as const),
      fc.constant({ kind: 'date' } as const),
      fc.constant({ kind: 'double' } as const),
      fc
        .integer({ min: 1, max: 40 })
        .chain((p) =>
          fc.integer({ min: 0, max: p }).map((sc) => ({ kind: 'decimal', precision: p, scale: sc }) as const),
        ),
      fc.integer({ min: 1, max: 90 }).map((length) => ({ kind: 'char', length }) as const),
      fc.integer({ min: 1, max: 300 }).map((length) => ({ kind: 'varchar', length }) as const),
      fc.constant({ kind: 'bigint', unsigned: true } as const),
      fc
        .tuple(
          fc.constantFrom('datetime', 'timestamp', 'time') as fc.Arbitrary<'datetime' | 'timestamp' | 'time'>,
          fc.integer({ min: 0, max: 6 }),
        )
        .map(([kind, fsp]) => ({ kind, fsp }) as const),
      fc.integer({ min: 1, max: 300 }).map((length) => ({ kind: 'varbinary', length }) as const),
    );
    const fieldArb = (t: ColumnType): fc.Arbitrary<FieldValue> => {
      switch (t.kind) {
        case 'int':
          return fc.integer({ min: -2147483648, max: 2147483647 });
        case 'bigint':
          return t.unsigned === true
            ? fc.oneof(
                fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
                fc.constantFrom(0n, 2n ** 63n, 2n ** 64n - 1n),
              )
            : fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
        case 'datetime':
        case 'timestamp':
        case 'time':
          return fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n });
        case 'varbinary':
        case 'binary':
          return fc.uint8Array({ maxLength: Math.min(t.length, 70) });
        case 'date':
          return fc.integer({ min: -100000, max: 100000 });
        case 'double':
          return fc.double({ noNaN: true, noDefaultInfinity: true });
        case 'decimal': {
          const lim = 10n ** BigInt(t.precision) - 1n;
          return fc.oneof(
            fc.bigInt({ min: -lim, max: lim }),
            fc.bigInt({ min: -99n, max: 99n }).filter((x) => x >= -lim && x <= lim),
          );
        }
        default:
          return fc.string({
            maxLength: Math.min((t as { length: number }).length, 70),
            unit: fc.oneof(fc.constantFrom('a', 'Z', ' ', '0'), fc.constantFrom('é', '€')),
          });
      }
    };
    const caseArb = fc
      .array(fc.tuple(typeArb, fc.boolean()), { minLength: 1, maxLength: 14 })
      .chain((cols) => {
        const columns: StoredColumn[] = cols.map(([type, nullable], i) => ({
          name: `c${i}`,
          type,
          nullable,
        }));
        const row = fc.tuple(
          ...columns.map((c) =>
            c.nullable === true ? fc.option(fieldArb(c.type), { freq: 3 }) : fieldArb(c.type),
          ),
        );
        return fc.tuple(
          fc.constant(columns),
          fc.array(row, { minLength: 1, maxLength: 6 }),
          fc.array(fc.boolean(), { minLength: columns.length, maxLength: columns.length }),
        );
      });
    fc.assert(
      fc.property(caseArb, ([columns, rows, wanted]) => {
        const codec = new RowCodec(columns);
        const mask = Uint8Array.from(wanted, (w) => (w ? 1 : 0));
        const all = new RowBuffer(columns);
        const some = new RowBuffer(columns);
        some.wantOnly(mask);
        for (const values of rows) {
          const bytes = codec.encode(new RowBuffer(columns).setAll(values as FieldValue[])).slice();
          // the record at an offset inside a larger array, as on a page
          const page = new Uint8Array(bytes.length + 7);
          page.set(bytes, 5);
          codec.decode(page, 5, bytes.length, all);
          codec.decode(page, 5, bytes.length, some);
          for (let c = 0; c < columns.length; c++) {
            if (mask[c] !== 1) continue;
            expect(some.nulls[c], `column ${c} NULL`).toBe(all.nulls[c]);
            if (all.nulls[c] === 1) continue;
            expect(some.get(c), `column ${c}`).toEqual(all.get(c));
          }
        }
      }),
      { numRuns: 400, seed: 20261201 },
    );
  });
});

describe('the row format of the newer kinds, byte for byte', () => {
  const encode = (columns: StoredColumn[], values: FieldValue[]): string =>
    Buffer.from(new RowCodec(columns).encode(new RowBuffer(columns).setAll(values))).toString('hex');

  it('BIGINT UNSIGNED: 8 bytes big-endian, 0 … 2^64 − 1; past it is refused', () => {
    const cols: StoredColumn[] = [{ name: 'u', type: { kind: 'bigint', unsigned: true } }];
    expect(encode(cols, [0])).toBe('00' + '0000000000000000');
    expect(encode(cols, [2n ** 63n])).toBe('00' + '8000000000000000');
    expect(encode(cols, [2n ** 64n - 1n])).toBe('00' + 'ffffffffffffffff');
    expect(() => encode(cols, [2n ** 64n])).toThrow(/out of range for its BIGINT UNSIGNED/);
    expect(() => encode(cols, [-1])).toThrow(/out of range for BIGINT UNSIGNED/);
    const row = new RowBuffer(cols);
    const bytes = new RowCodec(cols).encode(new RowBuffer(cols).setAll([2n ** 64n - 2n])).slice();
    new RowCodec(cols).decode(bytes, 0, bytes.length, row);
    expect(row.get(0)).toBe(2n ** 64n - 2n);
  });

  it('DATETIME, TIMESTAMP, TIME: their microseconds as a signed BIGINT', () => {
    const cols: StoredColumn[] = [
      { name: 'd', type: { kind: 'datetime', fsp: 6 } },
      { name: 't', type: { kind: 'time', fsp: 0 } },
    ];
    // 2024-02-29 12:00:00.000001 = 1709208000000001 µs; −01:00:00 = −3600000000 µs
    expect(encode(cols, [1709208000000001, -3600000000])).toBe(
      '00' + '00061283ffaff001' + 'ffffffff296c5c00',
    );
  });

  it('VARBINARY: a length byte (two from 256 bytes) and the bytes; the length counts bytes', () => {
    const cols: StoredColumn[] = [
      { name: 'b', type: { kind: 'varbinary', length: 4 } },
      { name: 'w', type: { kind: 'varbinary', length: 300 } },
    ];
    expect(encode(cols, [Uint8Array.of(0, 255), Uint8Array.of(7)])).toBe('00' + '0200ff' + '000107');
    expect(() => encode(cols, [new Uint8Array(5), Uint8Array.of()])).toThrow(/5 bytes, at most 4 allowed/);
  });
});
