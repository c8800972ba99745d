import { describe, expect, it } from 'vitest';
import {
  arrayRowFetcher,
  BufferTooSmallError,
  createMultiRangeRead,
  type IndexReader,
  withByteRowIds,
} from '../src/index.js';
import { makeIndex } from './helpers.js';

const c = { keys: [1, 2, 2], rowIds: [0, 1, 2] };
const rows = ['a', 'b', 'c'];

describe('a buffer too small for one entry', () => {
  it('rowid stage: ref_length + 8 bytes is the minimum', () => {
    const reader = withByteRowIds(makeIndex(c), 6);
    expect(() =>
      createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 2 }], { mrr_buffer_size: 13 }),
    ).toThrow(BufferTooSmallError);
    expect(() =>
      createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 2 }], { mrr_buffer_size: 13 }),
    ).toThrow(
      /mrr_buffer_size = 13 bytes is too small: one \(row id, association\) entry needs at least 14 bytes/,
    );
    const ok = createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 2 }], { mrr_buffer_size: 14 });
    expect([...ok].map((m) => m.row)).toEqual(['b', 'c']);
    expect(ok.counters.Handler_mrr_rowid_refills).toBe(1);
  });

  it('names read_rnd_buffer_size when that is the option given', () => {
    try {
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }], { read_rnd_buffer_size: 15 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BufferTooSmallError);
      expect(e).toBeInstanceOf(RangeError);
      expect((e as BufferTooSmallError).minimum).toBe(16);
      expect((e as BufferTooSmallError).bufferSize).toBe(15);
      expect(String(e)).toMatch(/read_rnd_buffer_size = 15/);
    }
  });

  it('both stages: one element plus one byte each', () => {
    const run = (size: number) =>
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }, { key: 1 }], {
        mrr_sort_keys: true,
        mrr_buffer_size: size,
      });
    expect(() => run(33)).toThrow(/at least 34 bytes/);
    expect([...run(34)].map((m) => m.row).sort()).toEqual(['a', 'b', 'c']);
  });

  it('key stage alone: one key entry', () => {
    const run = (size: number) =>
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }], {
        mrr_sort_keys: true,
        sortRowIds: false,
        mrr_buffer_size: size,
      });
    expect(() => run(15)).toThrow(BufferTooSmallError);
    expect([...run(16)].map((m) => m.row)).toEqual(['b', 'c']);
  });
});

describe('argument errors name the argument', () => {
  it('buffer size type and range', () => {
    const make = (o: object) => () => createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [], o);
    expect(make({ mrr_buffer_size: 1.5 })).toThrow(TypeError);
    expect(make({ mrr_buffer_size: '4M' })).toThrow(/mrr_buffer_size must be a safe integer/);
    expect(make({ mrr_buffer_size: 0 })).toThrow(RangeError);
    expect(make({ mrr_buffer_size: 64, read_rnd_buffer_size: 64 })).toThrow(/not both/);
    expect(make({ mrr: false, mrr_buffer_size: 0 })).not.toThrow(); // no buffer in the default strategy
  });

  it('reader, fetcher and ranges', () => {
    const f = arrayRowFetcher(rows);
    expect(() => createMultiRangeRead(null as unknown as IndexReader<number>, f, [])).toThrow(
      /reader must be/,
    );
    expect(() => createMultiRangeRead(makeIndex(c), {} as typeof f, [])).toThrow(/fetcher must be/);
    expect(() => createMultiRangeRead(makeIndex(c), f, 5 as unknown as [])).toThrow(
      /ranges must be an iterable/,
    );
    const bad = { ...withByteRowIds(makeIndex(c), 4), rowIdLength: 0 };
    expect(() => createMultiRangeRead(bad, f, [])).toThrow(/rowIdLength must be a positive integer, got 0/);
    const badKind = {
      ...makeIndex(c),
      seek: () => false,
      rowIdKind: 'uuid',
    } as unknown as IndexReader<number>;
    expect(() => createMultiRangeRead(badKind, f, [])).toThrow(/rowIdKind/);
  });
});

describe('without associations', () => {
  it('an entry is the row id alone, and the error says so', () => {
    const run = (size: number) =>
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }], {
        associations: false,
        mrr_buffer_size: size,
      });
    expect(() => run(7)).toThrow(/one row id needs at least 8 bytes/);
    const scan = run(8);
    expect(scan.rowIdElement).toBe(8);
    expect([...scan].map((m) => `${m.row}@${m.association}`)).toEqual(['b@0', 'c@0']);
  });
});
