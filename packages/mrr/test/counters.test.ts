import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrayRowFetcher,
  createMrrCounters,
  createMultiRangeRead,
  decodeByteRowId,
  type MrrKeyRange,
  SortedArrayIndex,
  setupBufferSharing,
  withByteRowIds,
} from '../src/index.js';
import {
  anyRanges,
  bufferSize,
  type IndexCase,
  indexCase,
  keyRanges,
  lookupModel,
  makeIndex,
  rowsFor,
} from './helpers.js';

function drain(scan: { next(): boolean }): number {
  let n = 0;
  while (scan.next()) n++;
  return n;
}

/** Entries per key in the index. */
function countByKey(c: IndexCase): Map<number, number> {
  const m = new Map<number, number>();
  for (const k of c.keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

describe('rowid-ordered stage', () => {
  it('runs ⌈S/N⌉ batches and counts every batch after the first as a rowid refill', () => {
    fc.assert(
      fc.property(
        indexCase(),
        anyRanges(),
        fc.constantFrom(0, 4, 12),
        fc.boolean(),
        bufferSize(1, 700),
        (c, ranges, bytes, assoc, size) => {
          const base = makeIndex(c);
          const reader = bytes === 0 ? base : withByteRowIds(base, bytes);
          const elem = (bytes || 8) + (assoc ? 8 : 0);
          if (size < elem) return; // covered by the error test
          const scan = createMultiRangeRead(reader, arrayRowFetcher(rowsFor(c)), ranges, {
            bufferSize: size,
            associations: assoc,
          });
          const entries = drain(scan);
          expect(entries).toBe(lookupModel(c.keys, c.rowIds, ranges).length);
          const n = Math.floor(size / elem) * elem; // the buffer trimmed to whole entries
          const s = entries * elem;
          expect(scan.rowIdCapacity).toBe(n / elem);
          expect(scan.rowidBatches).toBe(Math.ceil(s / n));
          expect(scan.counters.Handler_mrr_rowid_refills).toBe(Math.max(0, Math.ceil(s / n) - 1));
          expect(scan.counters.Handler_mrr_key_refills).toBe(0);
          expect(scan.counters.Handler_mrr_init).toBe(1);
          expect(scan.counters.Handler_read_key).toBe(ranges.length);
          // a range with m ≥ 1 entries: m next() calls (the last one fails); an empty range: none
          expect(scan.counters.Handler_read_next).toBe(entries);
          expect(scan.explain).toBe('Rowid-ordered scan');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('charges a row id refLength bytes when the stored image is wider (ref_length)', () => {
    fc.assert(
      fc.property(
        indexCase(),
        anyRanges(),
        fc.integer({ min: 1, max: 8 }),
        bufferSize(16, 700),
        (c, ranges, ref, size) => {
          // 8-byte images charged as `ref` bytes, no associations (a range scan's buffer)
          const reader = { ...withByteRowIds(makeIndex(c), 8), refLength: ref };
          const fetched: number[] = [];
          const rows = rowsFor(c);
          const fetcher = {
            rndPos: (id: number | Uint8Array) => {
              fetched.push(decodeByteRowId(id as Uint8Array));
              return rows;
            },
          };
          const scan = createMultiRangeRead(reader, fetcher, ranges, {
            bufferSize: size,
            associations: false,
          });
          const entries = drain(scan);
          const model = lookupModel(c.keys, c.rowIds, ranges);
          expect(entries).toBe(model.length);
          const capacity = Math.floor(size / ref);
          expect(scan.rowIdElement).toBe(ref);
          expect(scan.rowIdCapacity).toBe(capacity);
          expect(scan.counters.Handler_mrr_rowid_refills).toBe(
            Math.max(0, Math.ceil(entries / capacity) - 1),
          );
          // each batch is fetched in row id order: the order drops only where a new batch starts
          let drops = 0;
          for (let i = 1; i < fetched.length; i++) if (fetched[i]! < fetched[i - 1]!) drops++;
          expect(drops).toBeLessThanOrEqual(scan.counters.Handler_mrr_rowid_refills);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('fetches each distinct row id once per batch (one Handler_read_rnd each)', () => {
    fc.assert(
      fc.property(indexCase(), keyRanges(), (c, ranges) => {
        let fetches = 0;
        let last = -1;
        const rows = rowsFor(c);
        const fetcher = {
          rndPos: (id: number | Uint8Array) => {
            fetches++;
            expect(id as number).toBeGreaterThan(last); // one batch: strictly ascending, no repeats
            last = id as number;
            return rows[id as number] as string;
          },
        };
        const scan = createMultiRangeRead(makeIndex(c), fetcher, ranges, { bufferSize: 1 << 20 });
        drain(scan);
        const distinct = new Set(
          lookupModel(c.keys, c.rowIds, ranges).map((s) => s.slice(0, s.indexOf('@'))),
        );
        expect(fetches).toBe(distinct.size);
        expect(scan.counters.Handler_read_rnd).toBe(distinct.size);
        expect(scan.rowidBatches).toBe(distinct.size > 0 ? 1 : 0);
      }),
      { numRuns: 200 },
    );
  });

  it('emits rows in row-id order within a batch', () => {
    const c = { keys: [3, 1, 2, 1, 3], rowIds: [9, 4, 7, 1, 2] };
    const rowIds: number[] = [];
    const fetcher = { rndPos: (id: number | Uint8Array) => rowIds.push(id as number) };
    drain(createMultiRangeRead(makeIndex(c), fetcher, [{ key: 3 }, { key: 1 }, { key: 2 }]));
    expect(rowIds).toEqual([1, 2, 4, 7, 9]);
  });
});

describe('key-ordered stage (mrr_sort_keys)', () => {
  it('probes the index once per distinct key of each key batch; key refills per MariaDB', () => {
    fc.assert(
      fc.property(
        indexCase(),
        keyRanges(),
        fc.boolean(),
        fc.boolean(),
        bufferSize(16, 1200),
        (c, ranges, rowid, uniqueWanted, size) => {
          const unique = uniqueWanted && new Set(c.keys).size === c.keys.length;
          const options = {
            mrr_sort_keys: true,
            sortRowIds: rowid,
            bufferSize: Math.max(rowid ? 41 : 16, size),
          };
          const scan = createMultiRangeRead(
            makeIndex(c, unique),
            arrayRowFetcher(rowsFor(c)),
            ranges,
            options,
          );
          drain(scan);
          expect(scan.explain).toBe(rowid ? 'Key-ordered Rowid-ordered scan' : 'Key-ordered scan');
          const cap = scan.keyCapacity;
          expect(cap).toBeGreaterThanOrEqual(1);
          const perKey = countByKey(c);
          let probes = 0;
          let nexts = 0;
          const batches = Math.ceil(ranges.length / cap);
          for (let b = 0; b < batches; b++) {
            const distinct = new Set(
              ranges.slice(b * cap, (b + 1) * cap).map((r) => (r as MrrKeyRange<number>).key),
            );
            probes += distinct.size;
            for (const k of distinct) if (!unique) nexts += perKey.get(k) ?? 0;
          }
          expect(scan.keyBatches).toBe(batches);
          expect(scan.counters.Handler_read_key).toBe(probes);
          expect(scan.counters.Handler_read_next).toBe(nexts);
          expect(scan.counters.Handler_mrr_key_refills).toBe(Math.max(0, batches - 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with both stages the split is fixed per scan and a rowid batch never spans key batches', () => {
    fc.assert(
      fc.property(indexCase(), keyRanges(), bufferSize(41, 1500), (c, ranges, size) => {
        const scan = createMultiRangeRead(makeIndex(c), arrayRowFetcher(rowsFor(c)), ranges, {
          mrr_sort_keys: true,
          bufferSize: size,
        });
        drain(scan);
        // Numeric row ids: ref_length 8, so 8 bytes are reserved and 16-byte entries share the rest.
        expect(scan.reservedBytes).toBe(8);
        const split = setupBufferSharing(size - 8, 16, 16, makeIndex(c).recordsPerKey);
        const cap = Math.floor(split.keyBytes / 16);
        const rowCap = Math.floor(split.rowIdBytes / 16);
        expect(scan.keyCapacity).toBe(cap);
        expect(scan.rowIdCapacity).toBe(rowCap);
        const perKey = countByKey(c);
        let rowidBatches = 0;
        for (let b = 0; b * cap < ranges.length; b++) {
          let entries = 0;
          for (const r of ranges.slice(b * cap, (b + 1) * cap))
            entries += perKey.get((r as MrrKeyRange<number>).key) ?? 0;
          rowidBatches += Math.ceil(entries / rowCap);
        }
        expect(scan.rowidBatches).toBe(rowidBatches);
        expect(scan.counters.Handler_mrr_rowid_refills).toBe(Math.max(0, rowidBatches - 1));
      }),
      { numRuns: 300 },
    );
  });

  it('MariaDB 10.0 example: rec_per_key 1, 8 KiB, 100 keys × 4 rows → 2 rowid batches, 1 rowid refill', () => {
    // sql/multi_range_read.cc, DsMrr_impl::dsmrr_init + setup_buffer_sharing, by hand:
    //   set_interruption_temp_buffer takes ref_length = 8 bytes: 8184 bytes are shared;
    //   elements: row id 8 + 8 = 16, key reference 8 + 8 = 16; rec_per_key 1 ⇒ rowid_sz 16;
    //   bytes_for_rowids = round(8184 · 16 / 32) = 4092 ⇒ 255 row ids; keys 4092 ⇒ 255 keys.
    //   redistribute_buffer_space is never called, so the 400 row ids of the single key batch
    //   need ⌈400 / 255⌉ = 2 rowid batches: Handler_mrr_rowid_refills = 1.
    const keys: number[] = [];
    const rowIds: number[] = [];
    for (let k = 0; k < 400; k++) keys.push(Math.floor(k / 4) * 2); // 100 keys, 4 rows each
    for (let i = 0; i < 400; i++) rowIds.push((i * 211) % 400);
    const index = new SortedArrayIndex(keys, rowIds);
    // The statistics say one row per key (the index really has four).
    const lookupIndex = {
      rowIdKind: 'number' as const,
      recordsPerKey: 1,
      seek: (r: MrrKeyRange<number>) => index.seek(r),
      next: () => index.next(),
      rowId: () => index.rowId(),
      compareKeys: (a: number, b: number) => a - b,
    };
    const ranges = Array.from({ length: 100 }, (_, i) => ({ key: i * 2, association: i }));
    const scan = createMultiRangeRead(lookupIndex, arrayRowFetcher(rowIds.map(String)), ranges, {
      mrr_sort_keys: true,
      mrr_buffer_size: 8192,
    });
    expect(drain(scan)).toBe(400);
    expect(scan.reservedBytes).toBe(8);
    expect(scan.rowIdCapacity).toBe(255);
    expect(scan.keyCapacity).toBe(255);
    expect(scan.keyBatches).toBe(1);
    expect(scan.rowidBatches).toBe(2);
    expect(scan.counters.Handler_mrr_rowid_refills).toBe(1);
    expect(scan.counters.Handler_mrr_key_refills).toBe(0);
    expect(scan.counters.Handler_mrr_init).toBe(1);
  });

  it('needs compareKeys and equality keys', () => {
    const c = { keys: [1, 2], rowIds: [0, 1] };
    const noCompare = withByteRowIds(makeIndex(c), 2);
    delete (noCompare as { compareKeys?: unknown }).compareKeys;
    expect(() =>
      createMultiRangeRead(noCompare, arrayRowFetcher(['a', 'b']), [{ key: 1 }], { mrr_sort_keys: true }),
    ).toThrow(/compareKeys/);
    const scan = createMultiRangeRead(
      makeIndex(c),
      arrayRowFetcher(['a', 'b']),
      [{ key: 1 }, { low: 0 }][Symbol.iterator](),
      {
        mrr_sort_keys: true,
        singlePoint: true,
      },
    );
    expect(() => drain(scan)).toThrow(/interval/);
  });
});

describe('default strategy and Handler_mrr_init', () => {
  it('mrr: false is the default implementation: one seek per range, no MRR counters', () => {
    fc.assert(
      fc.property(indexCase(), anyRanges(), (c, ranges) => {
        const counters = createMrrCounters();
        const scan = createMultiRangeRead(makeIndex(c), arrayRowFetcher(rowsFor(c)), ranges, {
          mrr: false,
          counters,
        });
        const n = drain(scan);
        expect(scan.explain).toBe('');
        expect(counters.Handler_mrr_init).toBe(0);
        expect(counters.Handler_read_key).toBe(ranges.length);
        expect(counters.Handler_read_rnd).toBe(0);
        expect(n).toBe(lookupModel(c.keys, c.rowIds, ranges).length);
      }),
      { numRuns: 100 },
    );
  });

  it('a shared counters object sums many scans (one Handler_mrr_init each)', () => {
    const counters = createMrrCounters();
    const c = { keys: [1, 1, 2], rowIds: [0, 1, 2] };
    for (let i = 0; i < 5; i++)
      drain(createMultiRangeRead(makeIndex(c), arrayRowFetcher(['a', 'b', 'c']), [{ key: 1 }], { counters }));
    expect(counters.Handler_mrr_init).toBe(5);
    expect(counters.Handler_read_key).toBe(5);
    expect(counters.Handler_read_next).toBe(10);
    expect(counters.Handler_read_rnd).toBe(10);
  });

  it('mrr_sort_keys without sortRowIds and without equality keys falls back to the default', () => {
    const c = { keys: [1], rowIds: [0] };
    const scan = createMultiRangeRead(makeIndex(c), arrayRowFetcher(['a']), [{ low: 0 }], {
      mrr_sort_keys: true,
      sortRowIds: false,
    });
    expect(scan.explain).toBe('');
    expect(scan.counters.Handler_mrr_init).toBe(0);
  });
});

describe('setup_buffer_sharing', () => {
  it('splits proportionally to the row ids one key brings', () => {
    expect(setupBufferSharing(262144, 16, 16, 1)).toEqual({ rowIdBytes: 131072, keyBytes: 131072 });
    // rpc 3: rowid_sz 48 of 64 per key ⇒ 3/4 of the buffer for row ids
    expect(setupBufferSharing(262144, 16, 16, 3.9)).toEqual({ rowIdBytes: 196608, keyBytes: 65536 });
    // ⌊0.5 + 1000·14/(14+24)⌋ = ⌊368.9⌋ = 368
    expect(setupBufferSharing(1000, 14, 24, 1)).toEqual({ rowIdBytes: 368, keyBytes: 632 });
    // unknown rec_per_key (0) counts as 1
    expect(setupBufferSharing(100, 16, 16, 0)).toEqual({ rowIdBytes: 50, keyBytes: 50 });
  });

  it('gives each share at least one element plus one byte', () => {
    expect(setupBufferSharing(40, 16, 16, 1000)).toEqual({ rowIdBytes: 23, keyBytes: 17 });
    expect(setupBufferSharing(34, 16, 16, 1)).toEqual({ rowIdBytes: 17, keyBytes: 17 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 1 << 20 }),
        fc.nat(50),
        (r, k, extra, rpc) => {
          const total = r + k + 2 + extra;
          const s = setupBufferSharing(total, r, k, rpc);
          expect(s.rowIdBytes + s.keyBytes).toBe(total);
          expect(s.rowIdBytes).toBeGreaterThanOrEqual(r + 1);
          expect(s.keyBytes).toBeGreaterThanOrEqual(k + 1);
        },
      ),
    );
  });
});
