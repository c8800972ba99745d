// The filesort against a model (a stable sort of the values with MySQL's ORDER BY rules: NULL
// first ascending and last descending, numbers by value, strings by their UTF-8 bytes), small
// enough to stay in memory and large enough to spill through merge passes; and the bound on the
// rows' serialized size against v8's own serializer, which the in-memory decision relies on.
import { serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSort } from '../../src/exec/filesort.js';
import { serializedSizeBound } from '../../src/exec/internal/serialized-size.js';
import { decType, type SqlType, T_DATE, T_DBL, T_INT, T_STR } from '../../src/exec/types.js';

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', 'é', '€uro', '😀', 'Z'),
);
const intValue = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 32, -(2 ** 32), 2 ** 31, -(2 ** 31) - 1),
);

function compareValues(a: unknown, b: unknown, t: SqlType): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  if (t.kind === 'str') return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

function modelSort(
  rows: ReadonlyArray<readonly unknown[]>,
  types: readonly SqlType[],
  desc: readonly boolean[],
): unknown[][] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((p, q) => {
      for (let k = 0; k < types.length; k++) {
        const d = compareValues(p.r[k], q.r[k], types[k]!);
        if (d !== 0) return desc[k] ? -d : d;
      }
      return p.i - q.i;
    })
    .map((x) => [...x.r]);
}

function sortAll(
  rows: ReadonlyArray<readonly unknown[]>,
  types: readonly SqlType[],
  desc: readonly boolean[],
  bufferSize: number,
): { out: unknown[][]; passes: number } {
  const fs = new FileSort(types, desc, bufferSize);
  for (const r of rows) fs.add(r, r);
  const out: unknown[][] = [];
  const passes = fs.drain((r) => {
    out.push(r);
    return true;
  });
  return { out, passes };
}

describe('FileSort', () => {
  it('orders rows as the model does, in memory and through merge passes', () => {
    const types = [T_INT, T_STR, T_DBL];
    const row = fc.tuple(fc.option(intValue), fc.option(text), fc.option(fc.double({ noNaN: true })));
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 300 }),
        fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
        (rows, desc) => {
          const { out, passes } = sortAll(rows, types, desc, 65536);
          expect(passes).toBe(0);
          // a double compares -0 equal to 0: the model keeps arrival order there, as the sort does
          expect(out).toEqual(modelSort(rows, types, desc));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('spills past the sort buffer and still gives the model order', () => {
    const types = [T_STR, T_INT];
    const rows: unknown[][] = [];
    for (let i = 0; i < 5000; i++) {
      const k = (i * 7919) % 1000;
      rows.push([i % 53 === 0 ? null : `r${(k * 31) % 997} ${'x'.repeat(i % 17)}`, k - 500]);
    }
    const { out, passes } = sortAll(rows, types, [true, false], 65536);
    expect(passes).toBeGreaterThan(0);
    expect(out).toEqual(modelSort(rows, types, [true, false]));
  });

  it('hands rows to the external sorter when a single one would not fit a merge read', () => {
    // one row of ~6000 bytes: beyond the sorter's 4096-byte record limit, so it is refused there
    const rows = [['a'], ['b'.repeat(3000)]];
    expect(() => sortAll(rows, [T_STR], [false], 65536)).toThrow(RangeError);
    // while a row of 2000 two-byte units stays in memory (its bound is 4000 + a few bytes)
    expect(sortAll([['é'.repeat(1000)], ['a']], [T_STR], [false], 65536).out).toEqual([
      ['a'],
      ['é'.repeat(1000)],
    ]);
  });

  it('with a LIMIT’s keep, gives the model’s first rows, ties in arrival order, in memory or spilled', () => {
    const types = [T_INT, T_STR];
    // few distinct keys: many ties, where arrival order decides
    const row = fc.tuple(
      fc.option(fc.integer({ min: -3, max: 3 })),
      fc.option(fc.constantFrom('a', 'b', '')),
    );
    fc.assert(
      fc.property(
        // enough rows that the held ones are cut back several times
        fc.array(row, { minLength: 40, maxLength: 400, size: 'max' }),
        fc.tuple(fc.boolean(), fc.boolean()),
        fc.nat({ max: 60 }),
        (rows, desc, keep) => {
          // each row carries its arrival number, so a tie in the wrong order shows
          const tagged = rows.map((r, i) => [...r, i]);
          const fs = new FileSort(types, desc, 65536, keep);
          for (const r of tagged) fs.add(r.slice(0, 2), r);
          const out: unknown[][] = [];
          // as a LIMIT reads: at most `keep` rows
          fs.drain((r) => {
            if (out.length >= keep) return false;
            out.push(r);
            return out.length < keep;
          });
          expect(fs.rows).toBe(rows.length);
          expect(out).toEqual(modelSort(tagged, [...types, T_INT], [...desc, false]).slice(0, keep));
        },
      ),
      { numRuns: 150 },
    );
    // rows too large for the buffer even when cut back: the kept rows and the later ones spill
    const big: unknown[][] = [];
    for (let i = 0; i < 3000; i++) big.push([(i * 7919) % 211, `${'y'.repeat(i % 50)}${i}`]);
    const keep = 1500;
    const fs = new FileSort([T_INT, T_STR], [false, false], 65536, keep);
    for (const r of big) fs.add(r, r);
    const out: unknown[][] = [];
    const passes = fs.drain((r) => {
      out.push(r);
      return out.length < keep;
    });
    expect(passes).toBeGreaterThan(0);
    expect(out).toEqual(modelSort(big, [T_INT, T_STR], [false, false]).slice(0, keep));
  });

  it('keeps DATE and DECIMAL keys in value order', () => {
    const dec = decType(20, 2);
    const rows = [
      [3, 10n],
      [-1, -(10n ** 30n)],
      [null, 0n],
      [2, 10n ** 30n],
      [-1, -5n],
    ];
    expect(sortAll(rows, [T_DATE, dec], [false, true], 65536).out).toEqual(
      modelSort(rows, [T_DATE, dec], [false, true]),
    );
  });
});

describe('serializedSizeBound', () => {
  it('is never below v8.serialize(row).length for rows of SQL values', () => {
    const value = fc.oneof(
      fc.constant(null),
      fc.integer(),
      fc.double(),
      fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }),
      text,
      // a two-byte string's slice that holds only Latin-1 characters
      text.map((s) => `€${s}`.slice(1)),
      fc.boolean(),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 140 }), (row) => {
        expect(serializedSizeBound(row)).toBeGreaterThanOrEqual(serialize(row).length);
      }),
      { numRuns: 500 },
    );
  });

  it('is Infinity for a row holding an object', () => {
    expect(serializedSizeBound([1, [2]])).toBe(Number.POSITIVE_INFINITY);
    expect(serializedSizeBound([new Uint8Array(3)])).toBe(Number.POSITIVE_INFINITY);
  });
});
