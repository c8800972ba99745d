import { type StatusCounters, SUMMED_STATUS } from '../exec/status.js';

/** Bytes of the table for `workers` workers. */
export function statusTableBytes(workers: number): number {
  return workers * SUMMED_STATUS.length * 8;
}

/**
 * SHOW GLOBAL STATUS across session workers: each worker publishes its global counts (the sums of
 * its sessions, its connections) into its own row of a shared Float64Array after every command;
 * SHOW GLOBAL STATUS on a worker adds the other rows to its own values
 * (`DatabaseInstance.otherThreadsStatus`).
 */
export class WorkerStatus {
  readonly #rows: Float64Array;
  readonly #workers: number;
  readonly #me: number;

  constructor(sab: SharedArrayBuffer, offset: number, workers: number, me: number) {
    this.#rows = new Float64Array(sab, offset, workers * SUMMED_STATUS.length);
    this.#workers = workers;
    this.#me = me;
  }

  /** Copies this worker's global counters into its row. */
  publish(global: StatusCounters): void {
    this.#rows.set(global.summed(), this.#me * SUMMED_STATUS.length);
  }

  /** The other workers' published counts, summed, in {@link SUMMED_STATUS} order. */
  othersSums(): Float64Array {
    const n = SUMMED_STATUS.length;
    const sums = new Float64Array(n);
    for (let w = 0; w < this.#workers; w++) {
      if (w === this.#me) continue;
      for (let i = 0; i < n; i++) sums[i]! += this.#rows[w * n + i]!;
    }
    return sums;
  }
}
