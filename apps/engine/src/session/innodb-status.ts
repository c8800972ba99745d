import type { Database } from '../storage/database.js';

/**
 * SHOW ENGINE INNODB STATUS: one text made of sections, each owned by the module whose counters
 * it prints (SEMAPHORES from the latches, TRANSACTIONS from the lock system, LOG from the redo
 * log, BUFFER POOL AND MEMORY from the pool). Sections register here with their place in
 * InnoDB's order (`srv_printf_innodb_monitor`): BACKGROUND THREAD 10, SEMAPHORES 20,
 * LATEST DETECTED DEADLOCK 30, TRANSACTIONS 40, FILE I/O 50, LOG 60, BUFFER POOL AND MEMORY 70,
 * ROW OPERATIONS 80.
 */
export interface InnodbStatusSection {
  readonly order: number;
  readonly title: string;
  /** The section's lines, without the title banner; empty to leave the section out. */
  body(db: Database): string[];
}

const sections: InnodbStatusSection[] = [];

export function registerInnodbStatusSection(section: InnodbStatusSection): void {
  const i = sections.findIndex((s) => s.title === section.title);
  if (i >= 0) sections.splice(i, 1);
  sections.push(section);
  sections.sort((a, b) => a.order - b.order);
}

function banner(title: string, ch = '-'): string[] {
  const line = ch.repeat(title.length);
  return [line, title, line];
}

/** The Status column of SHOW ENGINE INNODB STATUS. */
export function innodbStatusText(db: Database, now: Date = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace('T', ' ');
  const out = ['', ...banner(`${stamp} INNODB MONITOR OUTPUT`, '=')];
  for (const s of sections) {
    const body = s.body(db);
    if (body.length === 0) continue;
    out.push(...banner(s.title), ...body);
  }
  out.push(...banner('END OF INNODB MONITOR OUTPUT', '='), '');
  return out.join('\n');
}

registerInnodbStatusSection({
  order: 70,
  title: 'BUFFER POOL AND MEMORY',
  body(db) {
    const s = db.pool.stats();
    return [
      `Buffer pool size   ${s.Innodb_buffer_pool_pages_total}`,
      `Free buffers       ${s.Innodb_buffer_pool_pages_free}`,
      `Database pages     ${s.Innodb_buffer_pool_pages_data}`,
      `Modified db pages  ${s.Innodb_buffer_pool_pages_dirty}`,
      `Pages made young ${s.Innodb_buffer_pool_pages_made_young}, not young ${s.Innodb_buffer_pool_pages_not_made_young}`,
      `Pages read ${s.Innodb_pages_read}, created ${s.Innodb_pages_created}, written ${s.Innodb_pages_written}`,
      `Buffer pool hit rate ${hitRate(s.Innodb_buffer_pool_read_requests, s.Innodb_buffer_pool_reads)} / 1000`,
      `Pages read ahead ${s.Innodb_buffer_pool_read_ahead}, evicted without access ${s.Innodb_buffer_pool_read_ahead_evicted}`,
    ];
  },
});

function hitRate(requests: number, reads: number): number {
  return requests === 0 ? 1000 : Math.round((1000 * (requests - reads)) / requests);
}

registerInnodbStatusSection({
  order: 60,
  title: 'LOG',
  body(db) {
    const r = db.redo;
    if (r === null) return [];
    const oldest = db.pool.oldestModification();
    const s = r.stats;
    return [
      `Log sequence number ${r.lsn}`,
      `Log flushed up to   ${r.flushedLsn}`,
      `Pages flushed up to ${oldest === 0n ? r.lsn : oldest}`,
      `Last checkpoint at  ${r.checkpoint.lsn}`,
      `${s.Innodb_log_waits} log waits, ${s.Innodb_log_write_requests} log write requests, ${s.Innodb_log_writes} log writes`,
      `${s.Innodb_os_log_fsyncs} log fsyncs, ${s.Innodb_checkpoints} checkpoints, ${s.Innodb_log_sync_flushes} synchronous flushes (${s.Innodb_log_sync_flush_pages} pages)`,
    ];
  },
});
