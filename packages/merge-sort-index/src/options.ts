import { tmpdir } from 'node:os';
import type { SpillFileSystem } from '@enginekit/common';
import type { KeyComparator, Mechanics, MergeMode, SortProgress } from './types.js';

/** `innodb_sort_buffer_size` default: 1 MiB (MySQL 5.6 `srv_sort_buf_size`). */
export const SORT_BUFFER_SIZE_DEFAULT = 1048576;
/** `innodb_sort_buffer_size` minimum: 64 KiB. */
export const SORT_BUFFER_SIZE_MIN = 65536;
/** `innodb_sort_buffer_size` maximum: 64 MiB; larger needs `allowLargeSortBuffer`. */
export const SORT_BUFFER_SIZE_MAX = 67108864;
/** Hard ceiling even with `allowLargeSortBuffer`: 1 GiB (Percona's `innodb_merge_sort_block_size` max). */
export const SORT_BUFFER_SIZE_LIMIT = 1073741824;
/** Smallest merge block: 4 KiB. */
export const MERGE_BLOCK_SIZE_MIN = 4096;
/** Default read buffer per input run in 'kway' mode: 16 KiB (a 1 MiB sort buffer then merges 64 runs at once). */
export const KWAY_READ_SIZE_DEFAULT = 16384;

/** Options of `ExternalSorter` (and of `buildIndex`, `sortRecords`). */
export interface SorterOptions {
  /**
   * Bytes of the in-memory sort buffer. Default 1048576; range 65536–67108864, up to 1 GiB with
   * `allowLargeSortBuffer: true`. With `mechanics: 'fast'` the buffer holds the records and
   * 24 bytes of sort entries per record; with `'mysql56'` the records alone, as
   * `row_merge_buf_add` counts them.
   */
  innodb_sort_buffer_size?: number;
  /** Opt in to a sort buffer above InnoDB's 64 MiB maximum (for experiments). Default false. */
  allowLargeSortBuffer?: boolean;
  /**
   * Bytes per temp-file block: runs are written in blocks of this size and, in 'innodb' mode,
   * merged with three buffers of this size. Default: `innodb_sort_buffer_size`, as in MySQL 5.6,
   * whose block is the sort buffer's size (`srv_sort_buf_size`; Percona Server 5.5 named the
   * same single size `innodb_merge_sort_block_size`). A smaller block is a knob of this library
   * with no MySQL variable. Range 4096–`innodb_sort_buffer_size`; `'mysql56'` takes the default only.
   */
  mergeBlockSize?: number;
  /**
   * 'innodb' (default): 2-way merge passes as `row_merge_sort`, ⌈log2 runs⌉ passes, three block
   * buffers. 'kway': a loser-tree merge of as many runs as the sort buffer's memory can feed
   * (`innodb_sort_buffer_size / kwayReadSize` read buffers), usually one pass. `'mysql56'`
   * mechanics take 'innodb' only.
   */
  mergeMode?: MergeMode;
  /** 'kway' only: read buffer per input run, bytes. Default 16384; range 4096–`innodb_sort_buffer_size / 2`. */
  kwayReadSize?: number;
  /**
   * 'fast' (default): entries charged to the sort buffer, no temp file when everything fits,
   * the last merge pass streamed to the consumer. 'mysql56': MySQL 5.5/5.6's `row0merge` as it
   * was: only record bytes count against the buffer, every buffer (even the only one) is written
   * as a run of whole blocks, every merge pass is written, the last one too, and the output
   * reads the final run back from its file.
   */
  mechanics?: Mechanics;
  /** Key order; default memcmp order (`compareBytes`). */
  compare?: KeyComparator;
  /**
   * A unique index: equal keys fail the sort with `DuplicateKeyError` (temp files removed), as
   * InnoDB's duplicate check while building a unique index. Default false.
   */
  unique?: boolean;
  /** Directory for the temp files (MySQL's `tmpdir`; a private sub-directory is made in it). Default `os.tmpdir()`. */
  tmpdir?: string;
  /** Abort the sort: temp files are removed and `SortAbortedError` is thrown. */
  signal?: AbortSignal;
  /** Called after each spilled run, each merge pass and every 65536 output records. */
  onProgress?: (progress: SortProgress) => void;
  /** File-system calls for the temp files (fault injection in tests). Default `node:fs`. */
  fs?: SpillFileSystem;
}

/** Options after validation, defaults filled in. */
export interface ResolvedOptions {
  sortBufferSize: number;
  mergeBlockSize: number;
  mergeMode: MergeMode;
  kwayReadSize: number;
  mechanics: Mechanics;
  compare: KeyComparator | undefined;
  unique: boolean;
  tmpdir: string;
  signal: AbortSignal | undefined;
  onProgress: ((progress: SortProgress) => void) | undefined;
  fs: SpillFileSystem | undefined;
}

const KNOWN = new Set([
  'innodb_sort_buffer_size',
  'allowLargeSortBuffer',
  'mergeBlockSize',
  'mergeMode',
  'kwayReadSize',
  'mechanics',
  'compare',
  'unique',
  'tmpdir',
  'signal',
  'onProgress',
  'fs',
]);

function integer(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer number of bytes, got ${String(value)}`);
  }
  return value;
}

/** Validate `options`; every error names the option and the value. */
export function resolveOptions(options: SorterOptions = {}): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`options must be an object, got ${String(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) {
      const hint = key === 'sortBufferSize' ? " (the option is 'innodb_sort_buffer_size')" : '';
      throw new RangeError(`unknown option '${key}'${hint}`);
    }
  }
  const large = options.allowLargeSortBuffer ?? false;
  if (typeof large !== 'boolean') {
    throw new TypeError(`allowLargeSortBuffer must be a boolean, got ${String(large)}`);
  }
  const sortBufferSize = integer(
    'innodb_sort_buffer_size',
    options.innodb_sort_buffer_size ?? SORT_BUFFER_SIZE_DEFAULT,
  );
  const max = large ? SORT_BUFFER_SIZE_LIMIT : SORT_BUFFER_SIZE_MAX;
  if (sortBufferSize < SORT_BUFFER_SIZE_MIN || sortBufferSize > max) {
    const hint = large ? '' : ' (set allowLargeSortBuffer: true to go above 64 MiB)';
    throw new RangeError(
      `innodb_sort_buffer_size must be in [${SORT_BUFFER_SIZE_MIN}, ${max}], got ${sortBufferSize}${hint}`,
    );
  }
  const mechanics = options.mechanics ?? 'fast';
  if (mechanics !== 'fast' && mechanics !== 'mysql56') {
    throw new RangeError(`mechanics must be 'fast' or 'mysql56', got ${String(mechanics)}`);
  }
  const mergeBlockSize = integer('mergeBlockSize', options.mergeBlockSize ?? sortBufferSize);
  if (mergeBlockSize < MERGE_BLOCK_SIZE_MIN || mergeBlockSize > sortBufferSize) {
    throw new RangeError(
      `mergeBlockSize must be in [${MERGE_BLOCK_SIZE_MIN}, innodb_sort_buffer_size = ${sortBufferSize}], got ${mergeBlockSize}`,
    );
  }
  if (mechanics === 'mysql56' && mergeBlockSize !== sortBufferSize) {
    throw new RangeError(
      `mergeBlockSize ${mergeBlockSize} with mechanics 'mysql56': MySQL 5.6's merge block is innodb_sort_buffer_size (${sortBufferSize})`,
    );
  }
  const mergeMode = options.mergeMode ?? 'innodb';
  if (mergeMode !== 'innodb' && mergeMode !== 'kway') {
    throw new RangeError(`mergeMode must be 'innodb' or 'kway', got ${String(mergeMode)}`);
  }
  if (mechanics === 'mysql56' && mergeMode !== 'innodb') {
    throw new RangeError(`mergeMode 'kway' with mechanics 'mysql56': MySQL 5.6 merges 2 runs at a time`);
  }
  const kwayReadSize = integer(
    'kwayReadSize',
    options.kwayReadSize ?? Math.min(KWAY_READ_SIZE_DEFAULT, Math.floor(sortBufferSize / 2)),
  );
  if (kwayReadSize < MERGE_BLOCK_SIZE_MIN || kwayReadSize > sortBufferSize / 2) {
    throw new RangeError(
      `kwayReadSize must be in [${MERGE_BLOCK_SIZE_MIN}, innodb_sort_buffer_size / 2 = ${sortBufferSize / 2}], got ${kwayReadSize}`,
    );
  }
  const compare = options.compare;
  if (compare !== undefined && typeof compare !== 'function') {
    throw new TypeError(`compare must be a function, got ${String(compare)}`);
  }
  const unique = options.unique ?? false;
  if (typeof unique !== 'boolean') throw new TypeError(`unique must be a boolean, got ${String(unique)}`);
  const dir = options.tmpdir ?? tmpdir();
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new TypeError(`tmpdir must be a non-empty string, got ${String(dir)}`);
  }
  const signal = options.signal;
  if (
    signal !== undefined &&
    (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')
  ) {
    throw new TypeError(`signal must be an AbortSignal, got ${String(signal)}`);
  }
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${String(onProgress)}`);
  }
  return {
    sortBufferSize,
    mergeBlockSize,
    mergeMode,
    kwayReadSize,
    mechanics,
    compare,
    unique,
    tmpdir: dir,
    signal,
    onProgress,
    fs: options.fs,
  };
}
