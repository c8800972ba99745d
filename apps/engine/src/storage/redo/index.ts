export {
  DOUBLEWRITE_BATCH,
  DoublewriteBatches,
  type DoublewriteDescriptor,
  type DoublewriteIo,
} from './doublewrite-batches.js';
export { type DoublewriteRegion, DurableDevice, readDoublewrite } from './doublewrite.js';
export {
  attachDurable,
  createDurable,
  type DurabilityOptions,
  type DurableAttachDescriptor,
  type DurableOpen,
  durabilitySettings,
  dropCleanRedo,
  newDatabaseId,
  openDurable,
  redoFiles,
  removeRedoFiles,
} from './durability.js';
export { RedoLogError, RedoLogFullError } from './errors.js';
export { MtrStore } from './mtr.js';
export { PageCleaner } from './page-cleaner.js';
export type { RecoveryReport } from './recovery.js';
export {
  type FlushLogAtTrxCommit,
  RedoLog,
  type RedoLogDescriptor,
  type RedoStats,
} from './redo-log.js';
