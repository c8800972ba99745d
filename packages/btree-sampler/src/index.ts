export { CorruptionError, DuplicateKeyError, OutOfOrderError } from './errors.js';
export type { LatchMode, PageStore } from './page-store.js';
export { LATCH_NONE, LATCH_S, LATCH_X } from './page-store.js';
export type { ColumnSpec, ColumnType, KeyValue } from './key-codec.js';
export {
  compareKeys,
  countFields,
  fieldEnd,
  fieldsBeforeNull,
  isNullTag,
  KeyCodec,
  matchedFields,
} from './key-codec.js';
export * as pageFormat from './page.js';
export type { BTreeOptions, OpenOptions, RangeRawCallback } from './btree.js';
export { BTree } from './btree.js';
export type { SeekMode } from './cursor.js';
export { Cursor } from './cursor.js';
export type { BulkLoadOptions, BulkLoadResult, BulkLoadSink } from './bulk-load.js';
export { BulkLoader } from './bulk-load.js';
export type { TreeStats } from './check.js';
export type { DiveResult } from './dive.js';
export { diveToLeaf, randomDive } from './dive.js';
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
