export type {
  AsyncRowFetcher,
  BytesRowIdIndexReader,
  IndexReader,
  IndexReaderBase,
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
  MRR_BUFFER_SIZE_MAX,
  MRR_BUFFER_SIZE_MIN,
  MultiRangeRead,
} from './multi-range-read.js';
export {
  ASSOCIATION_BYTES,
  type BufferSplit,
  minimumSharedBufferSize,
  setupBufferSharing,
  sharedBufferFits,
} from './buffer-sharing.js';
export {
  addMrrCounters,
  createMrrCounters,
  HANDLER_READ_COUNTERS,
  type HandlerReadCounterName,
  type HandlerReadCounters,
  MRR_COUNTERS,
  MRR_STATUS_COUNTERS,
  type MrrCounterName,
  type MrrCounters,
} from './counters.js';
export { BufferTooSmallError } from './errors.js';
export { explainMrr } from './explain.js';
export { arrayRowFetcher, decodeByteRowId, SortedArrayIndex, withByteRowIds } from './array-index.js';
