import { STATUS_NAMES } from '../exec/status.js';

/**
 * SHOW GLOBAL STATUS across session workers: each worker publishes its global counters (the sums
 * of its sessions) into its own row of a shared Float64Array after every command; a worker
 * answering SHOW GLOBAL STATUS first puts the sum of every row into its global map, then takes
 * its own values back, plus what the SHOW itself counted.
 */
export const SUMMED_STATUS: readonly string[] = [
  ...STATUS_NAMES,
  'Com_stmt_prepare',
  'Com_stmt_execute',
  'Com_stmt_close',
  'Com_stmt_reset',
  'Com_show_fields',
];

/** Bytes of the table for `workers` workers. */
export function statusTableBytes(workers: number): number {
  return workers * SUMMED_STATUS.length * 8;
}

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
  publish(global: Map<string, number>): void {
    const n = SUMMED_STATUS.length;
    const base = this.#me * n;
    for (let i = 0; i < n; i++) this.#rows[base + i] = global.get(SUMMED_STATUS[i]!) ?? 0;
  }

  /**
   * Runs `f` with `global` holding every worker's sums (this worker's own values from `global`
   * itself), then gives `global` back its own values plus whatever `f` added.
   */
  withSums<T>(global: Map<string, number>, f: () => T): T {
    const n = SUMMED_STATUS.length;
    const own = SUMMED_STATUS.map((k) => global.get(k) ?? 0);
    const sums = own.slice();
    for (let w = 0; w < this.#workers; w++) {
      if (w === this.#me) continue;
      for (let i = 0; i < n; i++) sums[i]! += this.#rows[w * n + i]!;
    }
    for (let i = 0; i < n; i++) global.set(SUMMED_STATUS[i]!, sums[i]!);
    try {
      return f();
    } finally {
      for (let i = 0; i < n; i++) {
        const k = SUMMED_STATUS[i]!;
        global.set(k, own[i]! + ((global.get(k) ?? 0) - sums[i]!));
      }
    }
  }
}
