// Temp files: removed on success, source error, abort, early break, disk full and read errors.
import { nodeSpillFileSystem, removeAllSpillDirectories, type SpillFileSystem } from '@enginekit/common';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DiskFullError,
  DuplicateKeyError,
  ExternalSorter,
  SortAbortedError,
  SorterStateError,
  SourceError,
  TempFileError,
} from '../src/index.js';
import { makeRecords, type Rec, scratchDir } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

const base = { innodb_sort_buffer_size: 65536, mergeBlockSize: 8192, tmpdir: scratch.dir } as const;
const records = makeRecords('random', 3000, 42, 150);

const variants = [
  ['innodb', { mergeMode: 'innodb' }],
  ['kway', { mergeMode: 'kway' }],
  ['mysql56', { mechanics: 'mysql56', mergeBlockSize: 65536 }],
] as const;

describe.each(variants)('%s', (_name, variant) => {
  it('removes its directory after a full read', () => {
    const sorter = new ExternalSorter({ ...base, ...variant }).addAll(records);
    expect(sorter.tempDirectory).toBeDefined();
    expect(scratch.entries().length).toBe(1);
    let n = 0;
    for (const _ of sorter.entries()) n++;
    expect(n).toBe(records.length);
    expect(scratch.entries()).toEqual([]);
    expect(sorter.tempDirectory).toBeUndefined();
  });

  it('removes its files when the consumer breaks out early', () => {
    const sorter = new ExternalSorter({ ...base, ...variant }).addAll(records);
    for (const _ of sorter.entries()) break;
    expect(scratch.entries()).toEqual([]);
  });

  it('a failing iterable source becomes SourceError, files removed', () => {
    function* failing(): Generator<Rec> {
      yield* records.slice(0, 2000);
      throw new Error('disk read failed at row 2000');
    }
    const sorter = new ExternalSorter({ ...base, ...variant });
    let caught: unknown;
    try {
      sorter.addAll(failing());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SourceError);
    expect((caught as Error).message).toMatch(/disk read failed at row 2000/);
    expect((caught as Error).cause).toBeInstanceOf(Error);
    expect(scratch.entries()).toEqual([]);
    expect(() => sorter.add(new Uint8Array(1))).toThrow(SorterStateError);
  });

  it('a failing scan function becomes SourceError, files removed', () => {
    const sorter = new ExternalSorter({ ...base, ...variant });
    expect(() =>
      sorter.addAll((emit) => {
        for (const [k, v] of records) emit(k, v);
        throw new RangeError('scan broke');
      }),
    ).toThrow(SourceError);
    expect(scratch.entries()).toEqual([]);
  });

  it('abort during the scan throws SortAbortedError, files removed', () => {
    const controller = new AbortController();
    const sorter = new ExternalSorter({
      ...base,
      ...variant,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'scan' && p.runs >= 3) controller.abort(new Error('user cancelled'));
      },
    });
    expect(() => sorter.addAll(records)).toThrow(SortAbortedError);
    expect(scratch.entries()).toEqual([]);
  });

  it('abort during the merge throws SortAbortedError, files removed', () => {
    const controller = new AbortController();
    const sorter = new ExternalSorter({
      ...base,
      ...variant,
      kwayReadSize: 16384,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'merge') controller.abort();
      },
    }).addAll(makeRecords('random', 6000, 7, 150));
    expect(() => sorter.drain(() => {})).toThrow(SortAbortedError);
    expect(scratch.entries()).toEqual([]);
  });

  it('abort during the output throws SortAbortedError, files removed', () => {
    const controller = new AbortController();
    const sorter = new ExternalSorter({ ...base, ...variant, signal: controller.signal }).addAll(records);
    let n = 0;
    expect(() => {
      for (const _ of sorter.entries()) if (++n === 100) controller.abort();
    }).toThrow(SortAbortedError);
    expect(n).toBeLessThanOrEqual(1024 + 1);
    expect(scratch.entries()).toEqual([]);
  });

  it('a full disk (ENOSPC) becomes DiskFullError naming the directory, files removed', () => {
    let budget = 100_000;
    const fs: SpillFileSystem = {
      ...nodeSpillFileSystem,
      writeSync(fd, buffer, offset, length, position) {
        if (budget < length)
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        budget -= length;
        return nodeSpillFileSystem.writeSync(fd, buffer, offset, length, position);
      },
    };
    const sorter = new ExternalSorter({ ...base, ...variant, fs });
    let caught: unknown;
    try {
      sorter.addAll(records);
      sorter.drain(() => {});
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DiskFullError);
    expect((caught as DiskFullError).directory).toContain(scratch.dir);
    expect((caught as Error).message).toMatch(/full \(ENOSPC\)/);
    expect(scratch.entries()).toEqual([]);
  });

  it('a failing read becomes TempFileError, files removed', () => {
    const fs: SpillFileSystem = {
      ...nodeSpillFileSystem,
      readSync() {
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      },
    };
    const sorter = new ExternalSorter({ ...base, ...variant, fs }).addAll(records);
    expect(() => sorter.drain(() => {})).toThrow(TempFileError);
    expect(scratch.entries()).toEqual([]);
  });

  it('an exception from the consumer propagates, files removed', () => {
    const sorter = new ExternalSorter({ ...base, ...variant }).addAll(records);
    expect(() =>
      sorter.drain(() => {
        throw new Error('sink full');
      }),
    ).toThrow('sink full');
    expect(scratch.entries()).toEqual([]);
  });

  it('close() before reading removes the files and ends the sorter', () => {
    const sorter = new ExternalSorter({ ...base, ...variant }).addAll(records);
    sorter.close();
    sorter.close();
    expect(scratch.entries()).toEqual([]);
    expect(() => [...sorter.entries()]).toThrow(SorterStateError);
  });
});

describe('unique', () => {
  it.each(['innodb', 'kway'] as const)(
    '%s: a duplicate key fails the sort with DuplicateKeyError, files removed',
    (mergeMode) => {
      const entries = makeRecords('presorted', 3000, 1, 150);
      const dup = entries[1234]!;
      for (const big of [false, true]) {
        const sorter = new ExternalSorter({
          ...base,
          mergeMode,
          unique: true,
          innodb_sort_buffer_size: big ? 1 << 24 : 65536,
        });
        sorter.addAll([...entries, [dup[0], new Uint8Array([9])]]);
        expect(sorter.stats.runs > 0).toBe(!big);
        let caught: unknown;
        try {
          sorter.drain(() => {});
        } catch (err) {
          caught = err;
        }
        expect(caught).toBeInstanceOf(DuplicateKeyError);
        expect(Buffer.from((caught as DuplicateKeyError).key!).equals(Buffer.from(dup[0]))).toBe(true);
        expect((caught as Error).message).toMatch(/duplicate key 000004d2/);
        expect(scratch.entries()).toEqual([]);
      }
    },
  );

  it('unique keys pass', () => {
    const entries = makeRecords('reverse', 3000, 1, 150);
    const n = new ExternalSorter({ ...base, unique: true }).addAll(entries).drain(() => {});
    expect(n).toBe(entries.length);
    expect(() => new ExternalSorter({ unique: 1 as unknown as boolean })).toThrow(/unique must be a boolean/);
  });
});

it('close() in the middle of the output ends it with SorterStateError', () => {
  const sorter = new ExternalSorter({ ...base }).addAll(records);
  let n = 0;
  expect(() => {
    for (const _ of sorter.entries()) if (++n === 10) sorter.close();
  }).toThrow(SorterStateError);
  expect(n).toBe(10);
  expect(scratch.entries()).toEqual([]);
});

it('a temp directory that does not exist is a TempFileError naming it, at the first spill', () => {
  const missing = `${scratch.dir}/no/such/dir`;
  const sorter = new ExternalSorter({ ...base, tmpdir: missing });
  let caught: unknown;
  try {
    sorter.addAll(records);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(TempFileError);
  expect((caught as Error).message).toContain(missing);
  // the same input that fits in memory never needs the directory
  const small = new ExternalSorter({ ...base, tmpdir: missing }).addAll(records.slice(0, 100));
  expect(small.drain(() => {})).toBe(100);
});

it('runs live in an enginekit-sort- directory that removeAllSpillDirectories() removes', () => {
  const sorter = new ExternalSorter({ ...base }).addAll(records);
  const dir = sorter.tempDirectory!;
  expect(dir.startsWith(`${scratch.dir}/enginekit-sort-`)).toBe(true);
  expect(scratch.entries().length).toBe(1);
  // what a SIGINT handler does: every live spill directory of the thread goes
  expect(removeAllSpillDirectories()).toBeGreaterThanOrEqual(1);
  expect(scratch.entries()).toEqual([]);
  sorter.close();
});
