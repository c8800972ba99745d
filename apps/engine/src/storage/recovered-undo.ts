import type { RecoveredUndo } from './redo/recovery.js';

/**
 * What recovery does with the undo records of a transaction that has no commit record when
 * `Database.open` gets no `onRecoveredUndo` option: the transaction layer (txn/apply-undo.ts)
 * installs its applier here when it is loaded. A module of its own, so that neither imports the
 * other's module graph.
 */
export const recoveredUndoDefault: { apply: RecoveredUndo<import('./database.js').Database> | undefined } = {
  apply: undefined,
};
