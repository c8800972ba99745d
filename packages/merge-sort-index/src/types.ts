/**
 * Orders two keys given as byte ranges `a[aStart, aEnd)` and `b[bStart, bEnd)`: negative, zero
 * or positive. The ranges are views into the sorter's buffers: read them, never keep them.
 * The default is `compareBytes` (memcmp order, shorter key first on a common prefix).
 */
export type KeyComparator = (
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
) => number;

/** A record as the sources hand it in. */
export type KeyValue = readonly [key: Uint8Array, value: Uint8Array];

/**
 * Where records come from: an iterable of `[key, value]` pairs, or a scan function that calls
 * `emit` once per record (no object per record at all). An exception thrown by either becomes
 * a `SourceError`.
 */
export type RecordSource =
  | Iterable<KeyValue>
  | ((emit: (key: Uint8Array, value: Uint8Array) => void) => void);

/** Merge strategy. */
export type MergeMode = 'innodb' | 'kway';

/**
 * How the sort spends memory and I/O: `'fast'` (the default) or `'mysql56'`, MySQL 5.5/5.6's
 * `row0merge` as it was (record-only buffer accounting, every run and every pass written).
 */
export type Mechanics = 'fast' | 'mysql56';

/** What the sorter is doing when it reports progress. */
export type SortPhase = 'scan' | 'merge' | 'output' | 'done';

/** A progress report, passed to `onProgress`. The object is fresh each call. */
export interface SortProgress {
  readonly phase: SortPhase;
  /** Records added ('scan'), merged in the pass just finished ('merge'; the last pass reports as 'output'), or handed out ('output', 'done'). */
  readonly rows: number;
  /** Encoded bytes matching `rows`. */
  readonly bytes: number;
  /** Total records added so far. */
  readonly totalRows: number;
  /** Runs written so far ('scan'), or runs left after the pass just finished ('merge'). */
  readonly runs: number;
  /** Merge passes done so far. */
  readonly pass: number;
}

/** Counters of one sort; `stats` on the sorter, also returned by `buildIndex`. */
export interface SortStats {
  readonly mode: MergeMode;
  readonly mechanics: Mechanics;
  /** Records added. */
  records: number;
  /** Encoded bytes of all records (what one run of everything would take). */
  recordBytes: number;
  /** Initial sorted runs written to disk (0 when everything fit in the sort buffer, with 'fast' mechanics). */
  runs: number;
  /**
   * Merge passes over the data (⌈log2 runs⌉ in 'innodb' mode, ⌈log_fanIn runs⌉ in 'kway'). With
   * 'fast' mechanics the last one streams to the consumer; with 'mysql56' every one is written.
   */
  passes: number;
  /** Runs merged at once: 2 in 'innodb' mode, the memory-limited fan-in in 'kway'. */
  fanIn: number;
  /** Bytes written to temp files. */
  bytesWritten: number;
  /** Bytes read back from temp files. */
  bytesRead: number;
  /** Key comparisons, in-memory sort and merges together. */
  comparisons: number;
  /** Largest sum of the sorter's buffers alive at once (sort buffer, block buffers), bytes. */
  peakMemory: number;
  /** Number of temp files created (0 when nothing spilled). */
  tempFiles: number;
}
