import type { StageActual } from './planned-stage.js';

/**
 * Wall time per stage for ANALYZE (MariaDB's `r_total_time_ms` per table): the clock is charged to
 * the stage whose code runs, switching on every call into the next stage and back, so a stage's
 * time excludes the stages after it and the result sink (charged to nobody).
 */
export class StageTimer {
  #current: StageActual | null = null;
  #last = 0;

  /** Charge the time since the last switch to the running stage, and run `to` from now; returns the one left. */
  enter(to: StageActual | null): StageActual | null {
    const t = performance.now();
    const from = this.#current;
    if (from !== null) from.ms += t - this.#last;
    this.#current = to;
    this.#last = t;
    return from;
  }

  /** `fn` run as stage `to`, the clock given back to the caller's stage afterwards. */
  wrap(to: StageActual | null, fn: () => boolean): () => boolean {
    return () => {
      const back = this.enter(to);
      try {
        return fn();
      } finally {
        this.enter(back);
      }
    };
  }
}
