export type {
  KeyComparator,
  KeyValue,
  MergeMode,
  RecordSource,
  SortPhase,
  SortProgress,
  SortStats,
} from './types.js';
export { compareBytes } from './compare.js';
export {
  KWAY_READ_SIZE_DEFAULT,
  MERGE_BLOCK_SIZE_MIN,
  SORT_BUFFER_SIZE_DEFAULT,
  SORT_BUFFER_SIZE_LIMIT,
  SORT_BUFFER_SIZE_MAX,
  SORT_BUFFER_SIZE_MIN,
  type SorterOptions,
} from './options.js';
export {
  DiskFullError,
  DuplicateKeyError,
  SortAbortedError,
  SorterStateError,
  SourceError,
  TempFileError,
} from './errors.js';
export { nodeTempFileSystem, type TempFileSystem } from './temp-files.js';
export { ExternalSorter, type SortedRecord } from './sorter.js';
export {
  type BuildIndexResult,
  type BulkLoadSink,
  buildIndex,
  type InsertTarget,
  insertEach,
  sortRecords,
} from './build-index.js';
export { type Codec, codecs, TypedSorter, type TypedSorterOptions } from './typed.js';
