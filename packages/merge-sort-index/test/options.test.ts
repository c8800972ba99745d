// Bad options and bad records are rejected with errors naming the argument.
import { describe, expect, it } from 'vitest';
import {
  ExternalSorter,
  SORT_BUFFER_SIZE_DEFAULT,
  type SorterOptions,
  SorterStateError,
} from '../src/index.js';

describe('options', () => {
  it('defaults follow innodb_sort_buffer_size', () => {
    const s = new ExternalSorter();
    expect(SORT_BUFFER_SIZE_DEFAULT).toBe(1048576);
    expect(s.stats.mode).toBe('innodb');
    expect(s.stats.fanIn).toBe(2);
    expect(s.maxRecordSize).toBe(1048576 - 28);
    expect(new ExternalSorter({ mergeMode: 'kway' }).stats.fanIn).toBe(64);
  });

  it('rejects a sort buffer below 64 KiB or above 64 MiB without the opt-in', () => {
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: 65535 })).toThrow(RangeError);
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: 65535 })).toThrow(
      /innodb_sort_buffer_size.*65535/,
    );
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: 64 * 1024 * 1024 + 1 })).toThrow(
      /allowLargeSortBuffer/,
    );
    expect(
      () => new ExternalSorter({ innodb_sort_buffer_size: 128 << 20, allowLargeSortBuffer: true }),
    ).not.toThrow();
    expect(
      () => new ExternalSorter({ innodb_sort_buffer_size: 2 ** 31, allowLargeSortBuffer: true }),
    ).toThrow(RangeError);
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: 1.5e5 + 0.5 })).toThrow(TypeError);
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: '1M' as unknown as number })).toThrow(
      /innodb_sort_buffer_size must be an integer/,
    );
  });

  it('rejects a merge block larger than the buffer or below 4 KiB', () => {
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: 65536, mergeBlockSize: 65537 })).toThrow(
      /mergeBlockSize/,
    );
    expect(() => new ExternalSorter({ mergeBlockSize: 4095 })).toThrow(RangeError);
  });

  it('rejects bad modes, read sizes, callbacks and unknown options', () => {
    expect(() => new ExternalSorter({ mergeMode: 'fast' as 'kway' })).toThrow(/mergeMode/);
    expect(() => new ExternalSorter({ innodb_sort_buffer_size: 65536, kwayReadSize: 65536 })).toThrow(
      /kwayReadSize/,
    );
    expect(
      () => new ExternalSorter({ compare: 3 as unknown as NonNullable<SorterOptions['compare']> }),
    ).toThrow(TypeError);
    expect(() => new ExternalSorter({ onProgress: 'x' as unknown as () => void })).toThrow(/onProgress/);
    expect(() => new ExternalSorter({ tmpdir: '' })).toThrow(/tmpdir/);
    expect(() => new ExternalSorter({ sortBuferSize: 1 } as object)).toThrow(
      /unknown option 'sortBuferSize'/,
    );
    expect(() => new ExternalSorter(null as unknown as object)).toThrow(TypeError);
    expect(() => new ExternalSorter({ sortBufferSize: 65536 } as object)).toThrow(
      /unknown option 'sortBufferSize' \(the option is 'innodb_sort_buffer_size'\)/,
    );
  });

  it('rejects non-byte records and records larger than a merge read buffer', () => {
    const s = new ExternalSorter({ mergeBlockSize: 4096 });
    expect(() => s.add('k' as unknown as Uint8Array)).toThrow(/key must be a Uint8Array/);
    expect(() => s.add(new Uint8Array(1), [1] as unknown as Uint8Array)).toThrow(
      /value must be a Uint8Array/,
    );
    expect(() => s.add(new Uint8Array(10), new Uint8Array(4096))).toThrow(/exceeds maxRecordSize 4096/);
    s.add(new Uint8Array(10), new Uint8Array(4000));
    expect(s.stats.records).toBe(1);
  });

  it('refuses records after the output started', () => {
    const s = new ExternalSorter();
    s.add(new Uint8Array([1]));
    expect([...s].length).toBe(1);
    expect(() => s.add(new Uint8Array([2]))).toThrow(SorterStateError);
  });
});
