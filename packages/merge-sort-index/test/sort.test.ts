// ExternalSorter against the Array.prototype.sort oracle, in both merge modes.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compareBytes, ExternalSorter, type MergeMode, type SorterOptions } from '../src/index.js';
import {
  externalSort,
  makeRecords,
  recordArb,
  referenceSort,
  type Shape,
  scratchDir,
  toPlain,
} from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

const modes: MergeMode[] = ['innodb', 'kway'];
const shapes: Shape[] = ['random', 'duplicates', 'presorted', 'reverse'];

describe.each(modes)('mergeMode %s', (mergeMode) => {
  const small: SorterOptions = {
    innodb_sort_buffer_size: 65536,
    mergeBlockSize: 8192,
    mergeMode,
    kwayReadSize: 8192,
    tmpdir: scratch.dir,
  };

  it.each(shapes)('%s input larger than the buffer equals Array.prototype.sort (stable)', (shape) => {
    const records = makeRecords(shape, 3000, 99, 120);
    const { out, sorter } = externalSort(records, small);
    expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
    const stats = sorter.stats;
    expect(stats.runs).toBeGreaterThan(4);
    expect(stats.bytesWritten).toBeGreaterThan(0);
    expect(scratch.entries()).toEqual([]);
  });

  it('in-memory input never touches the disk', () => {
    const records = makeRecords('random', 200, 5, 20);
    const { out, sorter } = externalSort(records, small);
    expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
    const stats = sorter.stats;
    expect(stats.runs).toBe(0);
    expect(stats.passes).toBe(0);
    expect(stats.tempFiles).toBe(0);
    expect(stats.bytesWritten).toBe(0);
  });

  it('random records of any shape, property', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { maxLength: 1500 }),
        fc.constantFrom(4096, 8192, 65536),
        (records, block) => {
          const { out } = externalSort(records, {
            ...small,
            mergeBlockSize: block,
            kwayReadSize: Math.min(block, 32768),
          });
          expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
        },
      ),
      { numRuns: 25 },
    );
    expect(scratch.entries()).toEqual([]);
  });

  it('keys made of 0x00, 0x01 and 0xff around the 8-byte prefix, property', () => {
    const edgeKey = fc
      .array(fc.constantFrom(0, 1, 255), { maxLength: 12 })
      .map((bytes) => Uint8Array.from(bytes));
    const rec = fc.tuple(edgeKey, fc.uint8Array({ maxLength: 200 }));
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 1200 }), (records) => {
        const { out } = externalSort(records, small);
        expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
      }),
      { numRuns: 25 },
    );
  });

  it('empty input yields nothing', () => {
    const sorter = new ExternalSorter(small);
    expect([...sorter.entries()]).toEqual([]);
  });

  it('a custom comparator (descending) is honoured, stably', () => {
    const records = makeRecords('duplicates', 2500, 17, 100);
    const desc = (a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number) =>
      compareBytes(b, bs, be, a, as, ae);
    const { out, sorter } = externalSort(records, { ...small, compare: desc });
    const expected = [...records].sort((a, b) => Buffer.compare(b[0], a[0]));
    expect(toPlain(out)).toEqual(toPlain(expected));
    expect(sorter.stats.runs).toBeGreaterThan(1);
  });

  it('drain() hands the same order to a callback', () => {
    const records = makeRecords('random', 2000, 3, 100);
    const sorter = new ExternalSorter(small).addAll(records);
    const got: string[] = [];
    const n = sorter.drain((k, v) =>
      got.push(`${Buffer.from(k).toString('hex')}:${Buffer.from(v).toString('hex')}`),
    );
    expect(n).toBe(records.length);
    expect(got).toEqual(toPlain(referenceSort(records)));
  });
});

describe('pass counts', () => {
  it('innodb mode merges 2 runs at a time: ⌈log2 runs⌉ passes', () => {
    for (const n of [600, 1500, 3000, 5000]) {
      const records = makeRecords('random', n, n, 200);
      const { out, sorter } = externalSort(records, {
        innodb_sort_buffer_size: 65536,
        mergeMode: 'innodb',
        tmpdir: scratch.dir,
      });
      expect(out.length).toBe(n);
      const { runs, passes, fanIn } = sorter.stats;
      expect(fanIn).toBe(2);
      expect(runs).toBeGreaterThan(1);
      expect(passes).toBe(Math.ceil(Math.log2(runs)));
    }
  });

  it('kway mode merges innodb_sort_buffer_size / kwayReadSize runs at a time', () => {
    const records = makeRecords('random', 5000, 11, 200);
    const { out, sorter } = externalSort(records, {
      innodb_sort_buffer_size: 65536,
      mergeMode: 'kway',
      kwayReadSize: 16384,
      tmpdir: scratch.dir,
    });
    expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
    const { runs, passes, fanIn } = sorter.stats;
    expect(fanIn).toBe(4);
    expect(runs).toBeGreaterThan(fanIn * fanIn);
    expect(passes).toBe(Math.ceil(Math.log(runs) / Math.log(fanIn) - 1e-9));
  });

  it('kway with the default read size finishes in one pass where innodb needs several', () => {
    const records = makeRecords('random', 5000, 12, 200);
    const k = externalSort(records, {
      innodb_sort_buffer_size: 1 << 20,
      mergeBlockSize: 65536,
      mergeMode: 'kway',
      tmpdir: scratch.dir,
    });
    const i = externalSort(records, {
      innodb_sort_buffer_size: 65536,
      mergeMode: 'innodb',
      tmpdir: scratch.dir,
    });
    expect(toPlain(k.out)).toEqual(toPlain(i.out));
    expect(i.sorter.stats.passes).toBeGreaterThan(1);
  });
});

describe('entries() copies', () => {
  it('spreading the iterator keeps every record intact (copies by default)', () => {
    const records = makeRecords('random', 3000, 8, 100);
    const sorter = new ExternalSorter({ innodb_sort_buffer_size: 65536, tmpdir: scratch.dir }).addAll(
      records,
    );
    const out = [...sorter].map((r) => [r.key, r.value] as [Uint8Array, Uint8Array]);
    expect(out[0]![0]).not.toBeInstanceOf(Buffer);
    expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
  });

  it('{ copy: false } reuses one record object of views', () => {
    const sorter = new ExternalSorter().addAll([
      [new Uint8Array([2]), new Uint8Array(0)],
      [new Uint8Array([1]), new Uint8Array(0)],
    ]);
    const seen = new Set<object>();
    const keys: number[] = [];
    for (const r of sorter.entries({ copy: false })) {
      seen.add(r);
      keys.push(r.key[0]!);
    }
    expect(seen.size).toBe(1);
    expect(keys).toEqual([1, 2]);
  });
});

describe('record sizes at the limits', () => {
  it.each(['innodb', 'kway'] as const)(
    '%s: records of exactly maxRecordSize straddle blocks and read back',
    (mergeMode) => {
      const options = {
        innodb_sort_buffer_size: 65536,
        mergeBlockSize: 4096,
        kwayReadSize: 4096,
        mergeMode,
        tmpdir: scratch.dir,
      };
      const max = new ExternalSorter(options).maxRecordSize;
      expect(max).toBe(4096);
      // key 3 bytes (1-byte header), value max − 3 − 1 − 2 bytes (2-byte header): exactly 4096 encoded
      const records: [Uint8Array, Uint8Array][] = [];
      for (let i = 0; i < 60; i++) {
        const valueLen = i % 3 === 0 ? max - 6 : (i * 977) % 3000;
        records.push([new Uint8Array([i % 7, i % 5, i % 3]), new Uint8Array(valueLen).fill(i)]);
      }
      const { out, sorter } = externalSort(records, options);
      expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
      expect(sorter.stats.runs).toBeGreaterThan(2);
      expect(() => new ExternalSorter(options).add(new Uint8Array(3), new Uint8Array(max - 5))).toThrow(
        RangeError,
      );
    },
  );
});
