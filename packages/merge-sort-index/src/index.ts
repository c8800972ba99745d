export { compareBytes, DiskFullError, DuplicateKeyError, TempFileError } from '@enginekit/common';
export {
  type BuildIndexResult,
  type BulkLoadSink,
  buildIndex,
  type InsertTarget,
  insertEach,
  insertSink,
  sortRecords,
} from './build-index.js';
export { SortAbortedError, SorterStateError, SourceError } from './errors.js';
export {
  KWAY_READ_SIZE_DEFAULT,
  MERGE_BLOCK_SIZE_MIN,
  SORT_BUFFER_SIZE_DEFAULT,
  SORT_BUFFER_SIZE_LIMIT,
  SORT_BUFFER_SIZE_MAX,
  SORT_BUFFER_SIZE_MIN,
  type SorterOptions,
} from './options.js';
export { ExternalSorter, type SortedRecord } from './sorter.js';
export { type Codec, codecs, TypedSorter, type TypedSorterOptions } from './typed.js';
export type {
  KeyComparator,
  KeyValue,
  Mechanics,
  MergeMode,
  RecordSource,
  SortPhase,
  SortProgress,
  SortStats,
} from './types.js';
