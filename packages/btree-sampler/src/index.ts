export { CorruptionError } from '@enginekit/buffer-pool';
export { compareKeys, DuplicateKeyError } from '@enginekit/common';
export { OutOfOrderError } from './errors.js';
export type { ColumnSpec, ColumnType, KeyValue } from './key-codec.js';
export { countFields, fieldEnd, fieldsBeforeNull, isNullTag, KeyCodec, matchedFields } from './key-codec.js';
export {
  maxFieldBytes,
  TAG_BYTES,
  TAG_DATE,
  TAG_DECIMAL,
  TAG_INT32,
  TAG_INT64,
  TAG_NULL_FIRST,
  TAG_NULL_LAST,
  writeBytesField,
  writeDateField,
  writeDecimalField,
  writeInt32Field,
  writeInt64Field,
  writeNullField,
} from './key-format.js';
export { KeyWriter } from './key-writer.js';
export * as pageFormat from './page.js';
export { isDeleteMarked, pageBaseOf, pageMaxTrxId } from './page.js';
export type { BTreeOptions, BTreeRecord, OpenOptions, RangeRawCallback } from './btree.js';
export { BTree } from './btree.js';
export type { IndexLatch } from './index-latch.js';
export type { SeekMode } from './cursor.js';
export type { Cursor } from './cursor.js';
export type { BulkLoadOptions, BulkLoadResult, BulkLoadSink } from './bulk-load.js';
export type { BulkLoader } from './bulk-load.js';
export type { TreeShape, TreeStats } from './tree-stats.js';
export type { WriteStats } from './write-stats.js';
export type { DiveResult } from './dive.js';
export { randomDive } from './dive.js';
export type { Estimate } from './estimators/estimate.js';
export type { TransientEstimate, TransientOptions } from './estimators/transient.js';
export { estimateTransient, transientScale } from './estimators/transient.js';
export type { PersistentOptions, PersistentSample } from './estimators/persistent.js';
export { estimatePersistent, persistentNDiff } from './estimators/persistent.js';
export type { Duj1Inputs, Duj1Options } from './estimators/duj1.js';
export { duj1, estimateDuj1, sampleBlocks } from './estimators/duj1.js';
export { estimateExact } from './estimators/exact.js';
export type { HllOptions } from './estimators/hll.js';
export { estimateHll } from './estimators/hll.js';
export type { EstimatorName, EstimatorOptions, ExperimentResult, PrefixSummary } from './experiment.js';
export { estimate, runExperiment } from './experiment.js';
