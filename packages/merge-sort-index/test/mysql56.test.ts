// mechanics 'mysql56': MySQL 5.5/5.6's row0merge, pinned by cases computed by hand from
// storage/innobase/row/row0merge.cc (MySQL 5.6; 5.5's row0merge.c has the same rules with a
// fixed 1 MiB block); the function each number comes from is named.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildIndex,
  ExternalSorter,
  insertSink,
  type SortProgress,
  type SorterOptions,
} from '../src/index.js';
import { key32, makeRecords, type Rec, recordArb, referenceSort, scratchDir, toPlain } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

const B = 65536;
const mysql56: SorterOptions = { innodb_sort_buffer_size: B, mechanics: 'mysql56', tmpdir: scratch.dir };
const fast: SorterOptions = { innodb_sort_buffer_size: B, tmpdir: scratch.dir };

/** `n` records of a 10-byte key and a `valueLen`-byte value, keys in reverse order. */
function records(n: number, valueLen: number): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    const k = new Uint8Array(10);
    k.set(key32(n - i), 6);
    out.push([k, new Uint8Array(valueLen).fill(i & 0xff)]);
  }
  return out;
}

/** Records in the first run: the record count at the first 'scan' progress report. */
function firstRun(options: SorterOptions, recs: readonly Rec[]): { perRun: number; sorter: ExternalSorter } {
  let perRun = -1;
  const sorter = new ExternalSorter({
    ...options,
    onProgress: (p: SortProgress) => {
      if (p.phase === 'scan' && perRun < 0) perRun = p.totalRows;
    },
  });
  sorter.addAll(recs);
  return { perRun, sorter };
}

describe("mechanics 'mysql56'", () => {
  it('row_merge_buf_add: a 64 KiB buffer holds 668 records of 98 bytes (fast mechanics: 537)', () => {
    // encoded record: 1-byte key length + 10 + 1-byte value length + 86 = 98 bytes.
    // row_merge_buf_add refuses when total_size + data_size >= srv_sort_buf_size - 1, and the
    // tuple pointers (buf->tuples, 2 x max_tuples, row_merge_buf_create_low) are outside the
    // block: 668 x 98 = 65464 <= 65534 < 669 x 98 = 65562.
    const recs = records(3341, 86);
    const a = firstRun(mysql56, recs);
    expect(a.perRun).toBe(668);
    // fast mechanics charge 24 bytes of entries per record to the same 64 KiB:
    // 537 x (98 + 24) fits (the entries end at 12888 <= 12908, where the records begin), 538 does not
    const b = firstRun(fast, recs);
    expect(b.perRun).toBe(537);
    a.sorter.close();
    b.sorter.close();
  });

  it("MySQL 5.5's fixed 1 MiB block (row_merge_block_t): 10699 records of 98 bytes per run", () => {
    // 5.5's row0merge.c row_merge_buf_add: total_size + data_size >= sizeof(row_merge_block_t) - 1
    // refuses, with row_merge_block_t = byte[1048576]: floor(1048574 / 98) = 10699
    const a = firstRun({ ...mysql56, innodb_sort_buffer_size: 1048576 }, records(10700, 86));
    expect(a.perRun).toBe(10699);
    a.sorter.close();
  });

  it('small records: 3x as many per run as fast mechanics (12-byte records, 5461 vs 1820)', () => {
    // 1 + 10 + 1 + 0 = 12 bytes: floor(65534 / 12) = 5461 (row_merge_buf_add); fast mechanics
    // fit 1820 x (12 + 24) bytes (entries 43680 <= records at 43696; 1821 would need 43704)
    const recs = records(6000, 0);
    const a = firstRun(mysql56, recs);
    const b = firstRun(fast, recs);
    expect(a.perRun).toBe(5461);
    expect(b.perRun).toBe(1820);
    a.sorter.close();
    b.sorter.close();
  });

  it('row_merge_sort: 3341 records make 6 runs, 3 written passes, 23 blocks written and read', () => {
    // 6 runs of one block each (row_merge_read_clustered_index: one row_merge_write per buffer);
    // row_merge halves the runs each pass (6 -> 3 -> 2 -> 1), writing every pass, the last too.
    // A run takes ceil((record bytes + 1 end marker) / B) blocks (row_merge_write_eof):
    //   initial: 6 x 1 block;
    //   pass 1: 1336 + 1336 + 669 records -> ceil(130929/B) = 2, 2, ceil(65563/B) = 2 -> 6 blocks;
    //   pass 2: 2672 + 669 records -> ceil(261857/B) = 4, 2 -> 6 blocks;
    //   pass 3: 3341 records -> ceil(327419/B) = 5 blocks.
    // Written 6 + 6 + 6 + 5 = 23 blocks; read back: each pass reads its input (6 + 6 + 6) and
    // row_merge_insert_index_tuples reads the final 5: 23 blocks.
    const recs = records(3341, 86);
    const sorter = new ExternalSorter(mysql56).addAll(recs);
    const out: Rec[] = [];
    for (const { key, value } of sorter.entries()) out.push([key, value]);
    expect(toPlain(out)).toEqual(toPlain(referenceSort(recs)));
    const s = sorter.stats;
    expect(s.mechanics).toBe('mysql56');
    expect(s.runs).toBe(6);
    expect(s.passes).toBe(3);
    expect(s.bytesWritten).toBe(23 * B);
    expect(s.bytesRead).toBe(23 * B);
    expect(s.tempFiles).toBe(2);
    // row_merge_build_indexes: block_size = 3 * srv_sort_buf_size (two inputs, one output)
    expect(s.peakMemory).toBe(3 * B);
    expect(scratch.entries()).toEqual([]);
  });

  it('the same records with fast mechanics: 7 runs, the last of 3 passes streamed', () => {
    const sorter = new ExternalSorter(fast).addAll(records(3341, 86));
    expect(sorter.drain(() => {})).toBe(3341);
    const s = sorter.stats;
    expect(s.runs).toBe(7); // ceil(3341 / 537)
    expect(s.passes).toBe(3); // 7 -> 4 -> 2 written, the third merge feeds the consumer
    // no padding, no marker: the runs once, then two written passes of the same bytes
    expect(s.bytesWritten).toBe(3 * 3341 * 98);
  });

  it('a buffer that holds everything is still written and read back (one run, no pass)', () => {
    // row_merge_read_clustered_index writes the last buffer whatever its size; 5.7 skips the file
    const recs = records(100, 86);
    const sorter = new ExternalSorter(mysql56).addAll(recs);
    expect(sorter.drain(() => {})).toBe(100);
    const s = sorter.stats;
    expect([s.runs, s.passes, s.bytesWritten, s.bytesRead, s.tempFiles]).toEqual([1, 0, B, B, 1]);
    const f = new ExternalSorter(fast).addAll(recs);
    f.drain(() => {});
    expect([f.stats.runs, f.stats.bytesWritten]).toEqual([0, 0]);
  });

  it('records that end one byte short of a block: the end marker still fits', () => {
    // one run of exactly B - 2 record bytes, the most row_merge_buf_add accepts; the 0 marker
    // takes byte B - 2 and the run is one block. Two records of (B - 2) / 2 = 32767 bytes each:
    // 1-byte key length + 1 key byte + 3-byte value length (32762 >= 2^14) + 32762 value bytes.
    const v = new Uint8Array(32762);
    const sorter = new ExternalSorter(mysql56);
    sorter.add(new Uint8Array([2]), v);
    sorter.add(new Uint8Array([1]), v);
    expect(sorter.stats.recordBytes).toBe(B - 2);
    expect(sorter.drain(() => {})).toBe(2);
    expect(sorter.stats.runs).toBe(1);
    expect(sorter.stats.bytesWritten).toBe(B);
  });

  it('sorts any input like Array.prototype.sort, stable, property', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 1500 }), (recs) => {
        const sorter = new ExternalSorter(mysql56).addAll(recs);
        const out: Rec[] = [];
        for (const { key, value } of sorter.entries()) out.push([key, value]);
        expect(toPlain(out)).toEqual(toPlain(referenceSort(recs)));
        expect(sorter.stats.passes).toBe(Math.ceil(Math.log2(Math.max(1, sorter.stats.runs))));
      }),
      { numRuns: 25 },
    );
    expect(scratch.entries()).toEqual([]);
  });

  it('rejects combinations MySQL 5.6 did not have', () => {
    expect(() => new ExternalSorter({ ...mysql56, mergeMode: 'kway' })).toThrow(/merges 2 runs at a time/);
    expect(() => new ExternalSorter({ ...mysql56, mergeBlockSize: 16384 })).toThrow(
      /merge block is innodb_sort_buffer_size/,
    );
    expect(() => new ExternalSorter({ mechanics: '5.7' as 'fast' })).toThrow(/mechanics must be/);
  });
});

describe('insertSink: row-by-row insertion of the sorted entries', () => {
  /** A model index: a sorted array, one binary-search insertion per entry, counting inserts. */
  class SortedArray {
    readonly entries: Rec[] = [];
    inserts = 0;
    insert(key: Uint8Array, value: Uint8Array): void {
      this.inserts++;
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

  it('row_merge_insert_index_tuples: one insert per sorted entry, same index as the bulk path', () => {
    const recs = makeRecords('random', 4000, 3, 40);
    const target = new SortedArray();
    const { result, rows } = buildIndex(recs, insertSink(target), mysql56);
    expect(result).toBe(target);
    expect(rows).toBe(recs.length);
    expect(target.inserts).toBe(recs.length);
    expect(toPlain(target.entries)).toEqual(toPlain(referenceSort(recs)));
    expect(() => insertSink({} as SortedArray)).toThrow(/insert\(key, value\)/);
  });
});
