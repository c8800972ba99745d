import { describe, expect, it } from 'vitest';
import {
  arrayRowFetcher,
  BufferTooSmallError,
  createMultiRangeRead,
  type IndexReader,
  type MrrKeyRange,
  withByteRowIds,
} from '../src/index.js';
import { makeIndex } from './helpers.js';

const c = { keys: [1, 2, 2], rowIds: [0, 1, 2] };
const rows = ['a', 'b', 'c'];

describe('a buffer too small for one entry', () => {
  const strict = { onBufferTooSmall: 'error' } as const;

  it('falls back to the default implementation by default, as MariaDB dsmrr_init does', () => {
    const reader = withByteRowIds(makeIndex(c), 6);
    const scan = createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 2 }], { bufferSize: 13 });
    expect(scan.fallback).toBe(true);
    expect(scan.explain).toBe('');
    expect(scan.rowidOrdered).toBe(false);
    expect([...scan].map((m) => m.row)).toEqual(['b', 'c']);
    expect(scan.counters.Handler_mrr_init).toBe(0);
    expect(scan.counters.Handler_read_rnd).toBe(0);
    const ok = createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 2 }], { bufferSize: 14 });
    expect(ok.fallback).toBe(false);
    expect(ok.explain).toBe('Rowid-ordered scan');
  });

  it('rowid stage: ref_length + 8 bytes is the minimum', () => {
    const reader = withByteRowIds(makeIndex(c), 6);
    const run = (size: number) =>
      createMultiRangeRead(reader, arrayRowFetcher(rows), [{ key: 2 }], { ...strict, bufferSize: size });
    expect(() => run(13)).toThrow(BufferTooSmallError);
    expect(() => run(13)).toThrow(
      /bufferSize = 13 bytes is too small: one \(row id, association\) entry needs at least 14 bytes/,
    );
    const ok = run(14);
    expect([...ok].map((m) => m.row)).toEqual(['b', 'c']);
    expect(ok.counters.Handler_mrr_rowid_refills).toBe(1);
  });

  it('names read_rnd_buffer_size when that is the option given', () => {
    try {
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }], {
        ...strict,
        read_rnd_buffer_size: 15,
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BufferTooSmallError);
      expect(e).toBeInstanceOf(RangeError);
      expect((e as BufferTooSmallError).minimum).toBe(16);
      expect((e as BufferTooSmallError).bufferSize).toBe(15);
      expect(String(e)).toMatch(/read_rnd_buffer_size = 15/);
    }
  });

  it('both stages: the interruption reserve, then one row id plus a byte and one key', () => {
    // reserve ref_length 8; then 16 + 1 + 16 bytes: 8 + 33 = 41 (setup_buffer_sharing + have_space_for)
    const run = (size: number, options: object = strict) =>
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }, { key: 1 }], {
        mrr_sort_keys: true,
        bufferSize: size,
        ...options,
      });
    expect(() => run(40)).toThrow(/at least 41 bytes/);
    expect([...run(41)].map((m) => m.row).sort()).toEqual(['a', 'b', 'c']);
    expect(run(41).explain).toBe('Key-ordered Rowid-ordered scan');
    expect(run(40, {}).explain).toBe('');
    // the reader's saved index tuple and primary key come off the front too
    const base = makeIndex(c);
    const tuple: IndexReader<number> = {
      rowIdKind: 'number',
      indexKeyLength: 12,
      primaryKeyLength: 4,
      seek: (r: MrrKeyRange<number>) => base.seek(r),
      next: () => base.next(),
      rowId: () => base.rowId(),
      compareKeys: (a: number, b: number) => a - b,
    };
    const s = createMultiRangeRead(tuple, arrayRowFetcher(rows), [{ key: 2 }], {
      mrr_sort_keys: true,
      bufferSize: 8 + 12 + 4 + 33,
      ...strict,
    });
    expect(s.reservedBytes).toBe(24);
    expect(() =>
      createMultiRangeRead(tuple, arrayRowFetcher(rows), [{ key: 2 }], {
        mrr_sort_keys: true,
        bufferSize: 8 + 12 + 4 + 32,
        ...strict,
      }),
    ).toThrow(/at least 57 bytes/);
  });

  it('key stage alone: one key entry', () => {
    const run = (size: number) =>
      createMultiRangeRead(makeIndex(c), arrayRowFetcher(rows), [{ key: 2 }], {
        mrr_sort_keys: true,
        sortRowIds: false,
        bufferSize: size,
        ...strict,
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
    expect(make({ bufferSize: 0 })).toThrow(RangeError);
    // mrr_buffer_size keeps the MariaDB variable's range [8192, 2^31 − 1]
    expect(make({ mrr_buffer_size: 8191 })).toThrow(
      /mrr_buffer_size must be in \[8192, 2147483647\] bytes, got 8191/,
    );
    expect(make({ mrr_buffer_size: 2 ** 31 })).toThrow(RangeError);
    expect(make({ mrr_buffer_size: 8192 })).not.toThrow();
    expect(make({ read_rnd_buffer_size: 1 })).not.toThrow(); // MySQL 5.6's minimum is 1
    expect(make({ mrr_buffer_size: 8192, read_rnd_buffer_size: 8192 })).toThrow(
      /not mrr_buffer_size and read_rnd_buffer_size/,
    );
    expect(make({ bufferSize: 64, read_rnd_buffer_size: 64 })).toThrow(/give one of/);
    expect(make({ onBufferTooSmall: 'ignore' })).toThrow(/onBufferTooSmall must be 'default' or 'error'/);
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
        bufferSize: size,
        onBufferTooSmall: 'error',
      });
    expect(() => run(7)).toThrow(/one row id needs at least 8 bytes/);
    const scan = run(8);
    expect(scan.rowIdElement).toBe(8);
    expect([...scan].map((m) => `${m.row}@${m.association}`)).toEqual(['b@0', 'c@0']);
  });
});
