import type { LatchMode } from '@enginekit/buffer-pool';

/** The latch argument of the page store's `fix`/`unfix` (buffer-pool's `LatchMode`): S, shared. */
export const LATCH_S: LatchMode = 1;
/** X, exclusive. */
export const LATCH_X: LatchMode = 2;
