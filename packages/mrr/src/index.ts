export type {
  AsyncRowFetcher,
  BytesRowIdIndexReader,
  IndexReader,
  IndexReaderBase,
  MrrCounters,
  MrrIntervalRange,
  MrrKeyRange,
  MrrMatch,
  MrrOptions,
  MrrRange,
  NumberRowIdIndexReader,
  RowFetcher,
  RowId,
} from './types.js';
export {
  createMultiRangeRead,
  KEY_REFERENCE_BYTES,
  MRR_BUFFER_SIZE_DEFAULT,
  MultiRangeRead,
} from './multi-range-read.js';
export {
  ASSOCIATION_BYTES,
  type BufferSplit,
  minimumSharedBufferSize,
  setupBufferSharing,
} from './buffer-sharing.js';
export { createMrrCounters } from './counters.js';
export { BufferTooSmallError } from './errors.js';
export { explainMrr } from './explain.js';
export { arrayRowFetcher, decodeByteRowId, SortedArrayIndex, withByteRowIds } from './array-index.js';
