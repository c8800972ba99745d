import type { BufferPool, PageDevice } from '@enginekit/buffer-pool';
import type { RedoLog } from './redo-log.js';

/** Settings of the page cleaner. */
export interface PageCleanerSettings {
  /** `innodb_io_capacity`: pages per second at the base rate. */
  readonly ioCapacity: number;
  /** `innodb_io_capacity_max`. */
  readonly ioCapacityMax: number;
  /** `innodb_adaptive_flushing`. */
  readonly adaptive: boolean;
  /** `innodb_max_dirty_pages_pct` (75 in MySQL 5.6). */
  readonly maxDirtyPct: number;
}

/** `innodb_adaptive_flushing_lwm`: below this share of the capacity the log age asks for nothing. */
const ADAPTIVE_LWM_PCT = 10;

/**
 * Flushing and checkpoints (`buf_flush_page_cleaner_thread` + `log_checkpoint`). Once a second
 * (an unref'd timer, so it never keeps the process alive) it does the once-a-second log work of
 * `innodb_flush_log_at_trx_commit` 0 and 2, writes the pages the policy asks for oldest first,
 * and writes a checkpoint; the timer runs on the thread that opened the database. {@link freeLog}
 * is the synchronous flush an mtr runs itself when the log is nearly full, on any thread, through
 * that thread's device (each thread has a PageCleaner for it; only the opener's is started).
 */
export class PageCleaner {
  readonly #pool: BufferPool;
  readonly #redo: RedoLog;
  readonly #device: PageDevice;
  readonly #s: PageCleanerSettings;
  #timer: NodeJS.Timeout | null = null;
  /** Pages written by the cleaner's ticks, and ticks run. */
  pagesFlushed = 0;
  ticks = 0;

  constructor(pool: BufferPool, redo: RedoLog, device: PageDevice, settings: PageCleanerSettings) {
    this.#pool = pool;
    this.#redo = redo;
    this.#device = device;
    this.#s = settings;
  }

  start(): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => {
      try {
        this.tick();
      } catch {
        // A failing device shows at the next statement that needs it.
      }
    }, 1000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /**
   * Pages to write this second (`page_cleaner_flush_pages_if_needed`, simplified): the larger of
   * the dirty-page percentage's share of `io_capacity` (100% past `innodb_max_dirty_pages_pct`) and,
   * with adaptive flushing, `af_get_pct_for_lsn` = (io_capacity_max / io_capacity) × f·√f / 7.5 %
   * with f = 100 × age / max_modified_age_async, once the age passes the low-water mark.
   */
  pagesToFlush(): number {
    const s = this.#s;
    const st = this.#pool.stats();
    const total = st.Innodb_buffer_pool_pages_total;
    const dirtyPct = total > 0 ? (100 * st.Innodb_buffer_pool_pages_dirty) / total : 0;
    const pctDirty = dirtyPct >= s.maxDirtyPct ? 100 : dirtyPct / 4;
    let pctLsn = 0;
    const age = Number(this.#redo.age);
    if (s.adaptive && age >= (Number(this.#redo.capacity) * ADAPTIVE_LWM_PCT) / 100) {
      const f = (100 * age) / Number(this.#redo.maxAgeAsync);
      pctLsn = ((s.ioCapacityMax / s.ioCapacity) * (f * Math.sqrt(f))) / 7.5;
    }
    const pct = Math.max(pctDirty, pctLsn);
    return Math.min(s.ioCapacityMax, Math.ceil((s.ioCapacity * pct) / 100));
  }

  /** One second's work. */
  tick(): void {
    this.ticks++;
    if (this.#redo.flushLogAtTrxCommit !== 1) this.#redo.flushSync();
    const n = this.pagesToFlush();
    let written = 0;
    if (n > 0) written = this.#pool.flushOldest(this.#redo.lsn, n);
    // Past the async margin: preflush until the age is back under it.
    if (this.#redo.age > this.#redo.maxAgeAsync) {
      written += this.#flushBelow(this.#redo.lsn - this.#redo.maxAgeAsync);
    }
    this.pagesFlushed += written;
    this.checkpoint();
  }

  /** Writes pages until every page's oldest modification is ≥ `target` (or none can be). */
  #flushBelow(target: bigint): number {
    let written = 0;
    for (;;) {
      const oldest = this.#pool.oldestModification();
      if (oldest === 0n || oldest >= target) return written;
      const n = this.#pool.flushOldest(target, 256);
      if (n === 0) return written;
      written += n;
    }
  }

  /** The synchronous flush (`log_free_check` → `log_preflush_pool_modified_pages`), then a checkpoint. */
  freeLog(target: bigint): number {
    const n = this.#flushBelow(target);
    this.checkpoint();
    return n;
  }

  /**
   * A fuzzy checkpoint at the oldest modification of any dirty page (the current LSN when none;
   * `RedoLog.fuzzyCheckpoint`): every thread's doublewrite batch out and the data file synced,
   * then the slot. An open transaction never holds it back: its undo is in pages it covers.
   */
  checkpoint(): void {
    this.#redo.fuzzyCheckpoint(
      () => this.#pool.oldestModification(),
      () => this.#device.sync(),
    );
  }
}
