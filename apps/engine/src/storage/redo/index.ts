export { DOUBLEWRITE_BATCH, DurableDevice, readDoublewrite } from './doublewrite.js';
export {
  createDurable,
  type DurabilityOptions,
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
export type { RecoveredUndo, RecoveryReport } from './recovery.js';
export { type FlushLogAtTrxCommit, RedoLog, type RedoStats } from './redo-log.js';
