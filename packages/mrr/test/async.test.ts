import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayRowFetcher, createMultiRangeRead, type RowId } from '../src/index.js';
import { anyRanges, indexCase, makeIndex, rowsFor } from './helpers.js';

describe('async iteration', () => {
  it('gives the same sequence as sync iteration, with a fetcher answering promises', async () => {
    await fc.assert(
      fc.asyncProperty(
        indexCase(60),
        anyRanges(30, 20),
        fc.boolean(),
        fc.integer({ min: 34, max: 400 }),
        async (c, ranges, sortKeys, size) => {
          const rows = rowsFor(c);
          const options = { mrr_sort_keys: sortKeys, bufferSize: size };
          const sync = [...createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), ranges, options)];
          const asyncFetcher = { rndPos: (id: RowId) => Promise.resolve(rows[id as number] as string) };
          const got: { row: string; association: number }[] = [];
          for await (const m of createMultiRangeRead(makeIndex(c), asyncFetcher, ranges, options))
            got.push(m);
          expect(got).toEqual(sync);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('sync next() refuses a promise from the fetcher', () => {
    const scan = createMultiRangeRead(makeIndex({ keys: [1], rowIds: [0] }), { rndPos: async () => 'x' }, [
      { key: 1 },
    ]);
    expect(() => scan.next()).toThrow(/returned a promise/);
  });

  it('overlapping nextAsync calls are refused', async () => {
    const scan = createMultiRangeRead(
      makeIndex({ keys: [1, 1], rowIds: [0, 1] }),
      { rndPos: async (id: RowId) => id },
      [{ key: 1 }],
    );
    const first = scan.nextAsync();
    await expect(scan.nextAsync()).rejects.toThrow(/before the previous call settled/);
    expect(await first).toBe(true);
    expect(await scan.nextAsync()).toBe(true);
    expect(await scan.nextAsync()).toBe(false);
  });
});
