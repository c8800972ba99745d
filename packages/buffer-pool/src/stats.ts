import * as C from './internal/layout.js';

/**
 * Buffer-pool status counters under their MySQL/MariaDB names (`SHOW GLOBAL STATUS`, and
 * INFORMATION_SCHEMA.INNODB_BUFFER_POOL_STATS for made_young / not_made_young). The
 * `Innodb_buffer_pool_pages_*` gauges describe the pool now and are not reset.
 */
export interface BufferPoolStats {
  /** Logical page requests: +1 per `fix()` and `allocatePage()` (`n_page_gets`). */
  Innodb_buffer_pool_read_requests: number;
  /** Pages read synchronously on a miss, plus random read-ahead pages (`srv_buf_pool_reads`). */
  Innodb_buffer_pool_reads: number;
  /** Pages read by linear read-ahead (`n_ra_pages_read`). */
  Innodb_buffer_pool_read_ahead: number;
  /** Pages read by random read-ahead (`n_ra_pages_read_rnd`). */
  Innodb_buffer_pool_read_ahead_rnd: number;
  /** Read-ahead pages evicted before anyone accessed them (`n_ra_pages_evicted`). */
  Innodb_buffer_pool_read_ahead_evicted: number;
  /** Old blocks moved to the head (`n_pages_made_young`). */
  Innodb_buffer_pool_pages_made_young: number;
  /** Accesses to old blocks kept old by innodb_old_blocks_time (`n_pages_not_made_young`). */
  Innodb_buffer_pool_pages_not_made_young: number;
  /** Times a free frame had to be waited for (`srv_buf_pool_wait_free`). */
  Innodb_buffer_pool_wait_free: number;
  /** `markDirty()` calls (`srv_buf_pool_write_requests`). */
  Innodb_buffer_pool_write_requests: number;
  /** Pages written by eviction or `flushAll()` (`srv_buf_pool_flushed`). */
  Innodb_buffer_pool_pages_flushed: number;
  /** Pages created by `allocatePage()` (`n_pages_created`). */
  Innodb_pages_created: number;
  /** Pages read from devices, every kind of read (`n_pages_read`). */
  Innodb_pages_read: number;
  /** Pages written to devices (`n_pages_written`). */
  Innodb_pages_written: number;
  /** Bytes read from devices. */
  Innodb_data_read: number;
  /** Read requests sent to devices (a read-ahead run of k pages is one). */
  Innodb_data_reads: number;
  /** Bytes written to devices. */
  Innodb_data_written: number;
  /** Write requests sent to devices. */
  Innodb_data_writes: number;
  /** Frames holding a page (gauge). */
  Innodb_buffer_pool_pages_data: number;
  /** Frames holding a modified page (gauge). */
  Innodb_buffer_pool_pages_dirty: number;
  /** Frames on the free list (gauge). */
  Innodb_buffer_pool_pages_free: number;
  /** All frames (gauge). */
  Innodb_buffer_pool_pages_total: number;
  /** Pages in the old sublist (gauge; INNODB_BUFFER_POOL_STATS.OLD_DATABASE_PAGES). */
  Innodb_buffer_pool_pages_old: number;
}

/** Counter name → slot in the instance's counter block. */
export const COUNTER_SLOTS: ReadonlyArray<readonly [keyof BufferPoolStats, number]> = [
  ['Innodb_buffer_pool_read_requests', C.C_READ_REQUESTS],
  ['Innodb_buffer_pool_reads', C.C_READS],
  ['Innodb_buffer_pool_read_ahead', C.C_READ_AHEAD],
  ['Innodb_buffer_pool_read_ahead_rnd', C.C_READ_AHEAD_RND],
  ['Innodb_buffer_pool_read_ahead_evicted', C.C_READ_AHEAD_EVICTED],
  ['Innodb_buffer_pool_pages_made_young', C.C_MADE_YOUNG],
  ['Innodb_buffer_pool_pages_not_made_young', C.C_NOT_MADE_YOUNG],
  ['Innodb_buffer_pool_wait_free', C.C_WAIT_FREE],
  ['Innodb_buffer_pool_write_requests', C.C_WRITE_REQUESTS],
  ['Innodb_buffer_pool_pages_flushed', C.C_PAGES_FLUSHED],
  ['Innodb_pages_created', C.C_PAGES_CREATED],
  ['Innodb_pages_read', C.C_PAGES_READ],
  ['Innodb_pages_written', C.C_PAGES_WRITTEN],
  ['Innodb_data_read', C.C_DATA_READ],
  ['Innodb_data_reads', C.C_DATA_READS],
  ['Innodb_data_written', C.C_DATA_WRITTEN],
  ['Innodb_data_writes', C.C_DATA_WRITES],
];

/** Reads one instance's counters (summed over thread slots) and gauges; a racy snapshot. */
export function readInstanceStats(L: C.PoolLayout, inst: number): BufferPoolStats {
  const ib = inst * C.I_STRIDE;
  const out = {} as Record<keyof BufferPoolStats, number>;
  for (const [name, slot] of COUNTER_SLOTS) {
    // Each thread adds to its own slot without atomics; the sum (with the detached threads'
    // block at slot maxThreads) is the instance's counter.
    let v = 0;
    for (let t = 0; t <= L.maxThreads; t++) v += L.counters[(t * L.instances + inst) * C.C_STRIDE + slot]!;
    out[name] = v;
  }
  out.Innodb_buffer_pool_pages_data = L.inst[ib + C.I_LRU_LEN]!;
  out.Innodb_buffer_pool_pages_dirty = L.inst[ib + C.I_FL_LEN]!;
  out.Innodb_buffer_pool_pages_free = L.inst[ib + C.I_FREE_LEN]!;
  out.Innodb_buffer_pool_pages_total = L.perInstance;
  out.Innodb_buffer_pool_pages_old = L.inst[ib + C.I_LRU_OLD_LEN]!;
  return out;
}

/** Adds `b` into `a` field by field. */
export function addStats(a: BufferPoolStats, b: BufferPoolStats): BufferPoolStats {
  const out = { ...a };
  for (const k of Object.keys(b) as (keyof BufferPoolStats)[]) out[k] += b[k];
  return out;
}
