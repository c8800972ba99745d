import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrayRowFetcher,
  createMultiRangeRead,
  decodeByteRowId,
  type IndexReader,
  type MrrOptions,
  type MrrRange,
  withByteRowIds,
} from '../src/index.js';
import { anyRanges, bufferSize, indexCase, keyRanges, lookupModel, makeIndex, rowsFor } from './helpers.js';

function collect(
  reader: IndexReader<number>,
  rows: string[],
  ranges: MrrRange<number>[],
  options: MrrOptions,
): string[] {
  const scan = createMultiRangeRead(reader, arrayRowFetcher(rows), ranges, options);
  const out: string[] = [];
  while (scan.next()) out.push(`${scan.row}@${scan.association}`);
  expect(scan.next()).toBe(false); // stays at the end
  return out.sort();
}

const settings = fc.record({
  mrr: fc.boolean(),
  mrr_sort_keys: fc.boolean(),
  sortRowIds: fc.boolean(),
  bytes: fc.constantFrom(0, 3, 8),
  unique: fc.boolean(),
  // from the smallest budget that can work up to one that holds everything
  bufferSize: bufferSize(34),
});

describe('multiset of (row, association) equals per-key lookup', () => {
  it('for equality keys, every strategy, number and byte row ids', () => {
    fc.assert(
      fc.property(indexCase(), keyRanges(), settings, (c, ranges, s) => {
        const unique = s.unique && new Set(c.keys).size === c.keys.length;
        const base = makeIndex(c, unique);
        const reader = s.bytes === 0 ? base : withByteRowIds(base, s.bytes);
        const minimum = (s.bytes || 8) + 8 + 1 + 8 + 8 + 1;
        const got = collect(reader, rowsFor(c), ranges, {
          mrr: s.mrr,
          mrr_sort_keys: s.mrr_sort_keys,
          sortRowIds: s.sortRowIds,
          bufferSize: Math.max(minimum, s.bufferSize),
        });
        expect(got).toEqual(lookupModel(c.keys, c.rowIds, ranges));
      }),
      { numRuns: 300 },
    );
  });

  it('for intervals mixed with keys (no key-ordered stage possible)', () => {
    fc.assert(
      fc.property(indexCase(), anyRanges(), settings, (c, ranges, s) => {
        const reader = makeIndex(c);
        const scanOptions = {
          mrr: s.mrr,
          mrr_sort_keys: s.mrr_sort_keys,
          sortRowIds: s.sortRowIds,
          bufferSize: s.bufferSize,
        };
        expect(collect(reader, rowsFor(c), ranges, scanOptions)).toEqual(
          lookupModel(c.keys, c.rowIds, ranges),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('without associations every entry is still emitted (association 0)', () => {
    fc.assert(
      fc.property(indexCase(), keyRanges(), bufferSize(8, 512), (c, ranges, size) => {
        const got = collect(makeIndex(c), rowsFor(c), ranges, { associations: false, bufferSize: size });
        const want = lookupModel(c.keys, c.rowIds, ranges)
          .map((s) => `${s.slice(0, s.indexOf('@'))}@0`)
          .sort();
        expect(got).toEqual(want);
      }),
      { numRuns: 100 },
    );
  });

  it('ranges given as a lazy iterable (a generator) work as well as arrays', () => {
    fc.assert(
      fc.property(indexCase(), keyRanges(), bufferSize(41, 600), (c, ranges, size) => {
        function* gen(): Generator<MrrRange<number>> {
          yield* ranges;
        }
        const options = { mrr_sort_keys: true, singlePoint: true, bufferSize: size };
        expect(collect(makeIndex(c), rowsFor(c), [...gen()], options)).toEqual(
          collect(makeIndex(c), rowsFor(c), ranges, options),
        );
        const scan = createMultiRangeRead(makeIndex(c), arrayRowFetcher(rowsFor(c)), gen(), options);
        expect(scan.explain).toBe('Key-ordered Rowid-ordered scan');
        expect([...scan].map((m) => `${m.row}@${m.association}`).sort()).toEqual(
          lookupModel(c.keys, c.rowIds, ranges),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('large batches (buffers that grow past their first allocation) for both row id kinds', () => {
    const n = 12_000;
    const keys = Array.from({ length: n }, (_, i) => (i * 7919) % 3001);
    const rowIds = Array.from({ length: n }, (_, i) => (i * 104729) % n);
    const c = { keys, rowIds };
    const ranges = Array.from({ length: 5000 }, (_, i) => ({ key: (i * 31) % 3001, association: i }));
    const want = lookupModel(keys, rowIds, ranges);
    for (const reader of [makeIndex(c), withByteRowIds(makeIndex(c), 5)]) {
      for (const options of [
        { bufferSize: 1 << 20 },
        { bufferSize: 1 << 20, mrr_sort_keys: true },
        { bufferSize: 100_000, mrr_sort_keys: true },
      ]) {
        const rows = arrayRowFetcher(rowsFor(c));
        const fetched: number[] = [];
        const fetcher = {
          rndPos: (id: number | Uint8Array) => {
            fetched.push(typeof id === 'number' ? id : decodeByteRowId(id));
            return rows.rndPos(id);
          },
        };
        const scan = createMultiRangeRead(reader, fetcher, ranges, options);
        const got = [...scan].map((m) => `${m.row}@${m.association}`).sort();
        expect(got).toEqual(want);
        if (scan.rowidBatches === 1) {
          // one batch: every distinct row id fetched once, in ascending order (the sort is right)
          for (let i = 1; i < fetched.length; i++)
            expect(fetched[i]).toBeGreaterThan(fetched[i - 1] as number);
        }
      }
    }
  });

  it('association defaults to the range position in the input', () => {
    const reader = makeIndex({ keys: [5, 5, 6], rowIds: [2, 0, 1] });
    const rows = ['a', 'b', 'c'];
    const scan = createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 6 }, { key: 5 }, { key: 6 }]);
    expect([...scan].map((m) => `${m.row}@${m.association}`)).toEqual(['a@1', 'b@0', 'b@2', 'c@1']);
  });
});
