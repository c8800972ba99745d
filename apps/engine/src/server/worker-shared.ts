import {
  mutexInit,
  mutexLock,
  mutexUnlock,
  MUTEX_SLOTS,
  RWLOCK_SLOTS,
  rwInit,
  rwSLock,
  rwSUnlock,
  rwXLock,
  rwXUnlock,
} from '@enginekit/mutex-atomics';
import type { Database } from '../storage/database.js';
import type { Table } from '../storage/table.js';
import { statusTableBytes } from './worker-status.js';
import { PreparedStatementCount } from '../session/prepared-count.js';
import { AUTO_INCREMENT_BYTES, AutoIncrementCounters, MAX_TABLE_IDS } from '../session/auto-increment.js';

/**
 * What the session workers share beyond the buffer pool, in one SharedArrayBuffer:
 *
 * | Int32 slot | meaning |
 * |---|---|
 * | 0 | dictionary version: bumped by every DDL; a worker reloads its dictionary when it moved |
 * | 8.. | the metadata lock (an atomics rw-lock): every statement holds it S, DDL holds it X |
 * | 16.. | the change latch: each row operation's page changes, and every other mini-transaction, run under it (MtrStore.changeLatch) |
 * | 60 | Prepared_stmt_count: statements prepared on every thread and not closed (atomic operations only) |
 *
 * and from byte 256 one Float64 per table id: the table's row count (NaN until a worker that
 * loads the table seeds it from the dictionary), read and written under the change latch; then one
 * Int64 per table id, the AUTO_INCREMENT counters (session/auto-increment.ts, atomic operations
 * only); then two Float64 per table id, the statistics' `stat_modified_counter` (every worker's
 * writes count there, so any worker sees when the table changed enough to recalculate) and the
 * statistics generation (raised by each recalculation, so a worker that cached older numbers
 * reloads them); then each worker's row of global status counters (worker-status.ts).
 *
 * Statements run in parallel, writers too: trees couple S page latches and a row operation
 * X-latches the pages it changes, one index per mini-transaction, under the change latch; row
 * locks (the shared lock table) keep writers of one row apart.
 */
const VERSION = 0;
const MDL = 8;
const WRITE = 16;
/** Prepared_stmt_count of the whole server (session/prepared-count.ts). */
const PREPARED = 60;
const ROWS_OFFSET = 256;
const AUTO_INCREMENT_OFFSET = ROWS_OFFSET + MAX_TABLE_IDS * 8;
const STATS_OFFSET = AUTO_INCREMENT_OFFSET + AUTO_INCREMENT_BYTES;

export class WorkerShared {
  readonly sab: SharedArrayBuffer;
  readonly #i32: Int32Array;
  readonly #rows: Float64Array;
  /** Per table id: `stat_modified_counter` at [2·id], the statistics generation at [2·id + 1]. */
  readonly #stats: Float64Array;

  /** Where the status table (worker-status.ts) starts. */
  static readonly STATUS_OFFSET: number = STATS_OFFSET + MAX_TABLE_IDS * 16;

  /** `workers`: rows of the status table to make room for (when creating). */
  constructor(sab?: SharedArrayBuffer, workers = 0) {
    const fresh = sab === undefined;
    this.sab = sab ?? new SharedArrayBuffer(WorkerShared.STATUS_OFFSET + statusTableBytes(workers));
    this.#i32 = new Int32Array(this.sab, 0, ROWS_OFFSET / 4);
    this.#rows = new Float64Array(this.sab, ROWS_OFFSET, MAX_TABLE_IDS);
    this.#stats = new Float64Array(this.sab, STATS_OFFSET, MAX_TABLE_IDS * 2);
    if (fresh) {
      rwInit(this.#i32, MDL);
      mutexInit(this.#i32, WRITE);
      this.#rows.fill(Number.NaN);
      this.#stats.fill(Number.NaN);
    }
    if (MDL + RWLOCK_SLOTS > WRITE || WRITE + MUTEX_SLOTS > PREPARED || PREPARED >= ROWS_OFFSET / 4)
      throw new Error('worker-shared layout');
  }

  /** Prepared_stmt_count, which every thread of the server shares. */
  preparedStatements(): PreparedStatementCount {
    return new PreparedStatementCount(this.#i32, PREPARED);
  }

  /** The AUTO_INCREMENT counters every thread of the server shares. */
  autoIncrement(): AutoIncrementCounters {
    return new AutoIncrementCounters(this.sab, AUTO_INCREMENT_OFFSET);
  }

  get version(): number {
    return Atomics.load(this.#i32, VERSION);
  }

  bumpVersion(): void {
    Atomics.add(this.#i32, VERSION, 1);
  }

  mdlS(): void {
    rwSLock(this.#i32, MDL);
  }
  mdlSUnlock(): void {
    rwSUnlock(this.#i32, MDL);
  }
  mdlX(): void {
    rwXLock(this.#i32, MDL);
  }
  mdlXUnlock(): void {
    rwXUnlock(this.#i32, MDL);
  }
  /** Takes the change latch (not re-entrant: MtrStore.hold nests it). */
  writeLock(): void {
    mutexLock(this.#i32, WRITE);
  }
  writeUnlock(): void {
    mutexUnlock(this.#i32, WRITE);
  }

  /**
   * Makes every table of `db` keep its row count here. A table seen for the first time is seeded
   * from its own count (the dictionary's, or the count a DDL just gave it when `seed` is true).
   * REQUIRES: the change latch or the metadata lock in X.
   */
  shareRowCounts(db: Database, seed: boolean): void {
    for (const t of db.tables()) this.#share(t, seed);
  }

  #share(t: Table, seed: boolean): void {
    const id = t.id;
    if (!(id >= 0 && id < MAX_TABLE_IDS))
      throw new RangeError(`table id ${id} is past the ${MAX_TABLE_IDS} the server shares`);
    const rows = this.#rows;
    const own = Object.getOwnPropertyDescriptor(t, 'rows');
    if (own !== undefined && own.get !== undefined) return;
    if (seed || Number.isNaN(rows[id]!)) rows[id] = t.rows;
    Object.defineProperty(t, 'rows', {
      configurable: true,
      enumerable: true,
      get: () => rows[id]!,
      set: (v: number) => {
        rows[id] = v;
      },
    });
    const stats = this.#stats;
    if (Number.isNaN(stats[2 * id]!)) {
      stats[2 * id] = t.statModifiedCounter;
      stats[2 * id + 1] = t.statsGeneration;
    }
    for (const [name, at] of [
      ['statModifiedCounter', 2 * id],
      ['statsGeneration', 2 * id + 1],
    ] as const)
      Object.defineProperty(t, name, {
        configurable: true,
        enumerable: true,
        get: () => stats[at]!,
        set: (v: number) => {
          stats[at] = v;
        },
      });
  }

  /** The shared row count of table `id` (NaN if no worker loaded it). */
  rowCount(id: number): number {
    return this.#rows[id]!;
  }
}
