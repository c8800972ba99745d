// buildIndex streams sorted entries into a bulk-load sink; insertEach is the baseline.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type BulkLoadSink, buildIndex, insertEach, type SortProgress, sortRecords } from '../src/index.js';
import { makeRecords, type Rec, recordArb, referenceSort, scratchDir, toPlain } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

/** A sink that insists on non-decreasing keys, copies entries and counts them. */
class CheckingSink implements BulkLoadSink<Rec[]> {
  readonly entries: Rec[] = [];
  finished = 0;
  add(key: Uint8Array, value: Uint8Array): void {
    const prev = this.entries[this.entries.length - 1];
    if (prev !== undefined && Buffer.compare(prev[0], key) > 0) throw new Error('keys out of order');
    if (this.finished) throw new Error('add after finish');
    this.entries.push([key.slice(), value.slice()]);
  }
  finish(): Rec[] {
    this.finished++;
    return this.entries;
  }
}

/** The insert-each baseline target: a sorted array with binary-search insertion (stable). */
class SortedArray {
  readonly entries: Rec[] = [];
  insert(key: Uint8Array, value: Uint8Array): void {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare(this.entries[mid]![0], key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.entries.splice(lo, 0, [key.slice(), value.slice()]);
  }
}

describe.each(['innodb', 'kway'] as const)('buildIndex, %s', (mergeMode) => {
  const options = { innodb_sort_buffer_size: 65536, mergeBlockSize: 16384, mergeMode, tmpdir: scratch.dir };

  it('builds the same index as inserting each entry, for any input', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 1200 }), (records) => {
        const sink = new CheckingSink();
        const { result, rows, stats } = buildIndex(records, sink, options);
        const baseline = new SortedArray();
        expect(insertEach(records, baseline)).toBe(records.length);
        expect(rows).toBe(records.length);
        expect(sink.finished).toBe(1);
        expect(toPlain(result)).toEqual(toPlain(baseline.entries));
        expect(stats.records).toBe(records.length);
      }),
      { numRuns: 20 },
    );
    expect(scratch.entries()).toEqual([]);
  });

  it('spills, reports progress in phase order and counts bytes', () => {
    const records = makeRecords('random', 4000, 21, 150);
    const phases: SortProgress['phase'][] = [];
    const sink = new CheckingSink();
    const { stats } = buildIndex(
      (emit) => {
        for (const [k, v] of records) emit(k, v);
      },
      sink,
      { ...options, onProgress: (p) => phases.push(p.phase) },
    );
    expect(toPlain(sink.entries)).toEqual(toPlain(referenceSort(records)));
    expect(stats.runs).toBeGreaterThan(2);
    expect(stats.bytesRead).toBeGreaterThanOrEqual(stats.recordBytes);
    expect(stats.bytesWritten).toBeGreaterThanOrEqual(stats.recordBytes);
    expect(stats.comparisons).toBeGreaterThan(records.length);
    const order = ['scan', 'merge', 'output', 'done'];
    const ranks = phases.map((p) => order.indexOf(p));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(phases[0]).toBe('scan');
    expect(phases[phases.length - 1]).toBe('done');
  });

  it('sortRecords yields the sorted records', () => {
    const records = makeRecords('duplicates', 2500, 4, 120);
    const out: Rec[] = [];
    for (const { key, value } of sortRecords(records, options)) out.push([key.slice(), value.slice()]);
    expect(toPlain(out)).toEqual(toPlain(referenceSort(records)));
  });
});

describe('argument checks', () => {
  it('rejects a sink or target of the wrong shape', () => {
    expect(() => buildIndex([], {} as BulkLoadSink, {})).toThrow(/sink must have add/);
    expect(() => insertEach([], {} as { insert(): void })).toThrow(/target must have an insert/);
    expect(() => buildIndex(42 as unknown as Rec[], new CheckingSink())).toThrow(
      /source must be an iterable/,
    );
  });
});
