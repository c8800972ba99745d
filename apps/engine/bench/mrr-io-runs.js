// IO-bound and in-memory runs of one workload through the default strategy and MRR:
// physical page reads, modeled hdd time and CPU time per configuration.
import { createMrrCounters, createMultiRangeRead } from '@enginekit/mrr';
import { clusteredFetcher, secondaryReader } from './mrr-adapters.js';
import { openDataset, xorshift } from './mrr-dataset.js';

export const CONFIGS = [
  { label: 'default (no MRR)', options: { mrr: false } },
  { label: 'MRR rowid-ordered, 256K', options: { mrr_buffer_size: 256 * 1024 } },
  { label: 'MRR rowid-ordered, 4M', options: { mrr_buffer_size: 4 * 1024 * 1024 } },
  {
    label: 'MRR key+rowid-ordered, 256K',
    options: { mrr_sort_keys: true, mrr_buffer_size: 256 * 1024 },
    keysOnly: true,
  },
  {
    label: 'MRR key+rowid-ordered, 4M',
    options: { mrr_sort_keys: true, mrr_buffer_size: 4 * 1024 * 1024 },
    keysOnly: true,
  },
];

/** `count` equality lookups of random secondary keys (random order), association = position. */
export function equalityLookups(ds, count, seed = 7) {
  const rnd = xorshift(seed);
  return Array.from({ length: count }, (_, i) => ({ key: rnd() % ds.rows, association: i }));
}

/** One interval holding about `count` entries (the blog's Q10: a date range on a secondary index). */
export function intervalLookup(ds, count) {
  const low = Math.floor(ds.rows / 3);
  return [{ low, high: low + count - 1, association: 0 }];
}

export function expectedMatches(ds, ranges) {
  let n = 0;
  for (const r of ranges) {
    if ('key' in r) n += ds.matchesOf(r.key);
    else for (let k = r.low; k <= r.high; k++) n += ds.matchesOf(k);
  }
  return n;
}

/** Run one scan on a fresh pool; returns the measured row. */
export function runOnce(ds, ranges, config, { poolPages, hdd, warm = false }) {
  const db = openDataset(ds, { poolPages, hdd });
  const run = () => {
    const counters = createMrrCounters();
    const scan = createMultiRangeRead(secondaryReader(db.secondary), clusteredFetcher(db.clustered), ranges, {
      ...config.options,
      counters,
    });
    let rows = 0;
    let bytes = 0;
    while (scan.next()) {
      rows++;
      bytes += scan.row.length;
    }
    return { scan, counters, rows, bytes };
  };
  if (warm) run();
  db.pool.resetStats();
  db.disk?.resetStats();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { scan, counters, rows } = run();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const ps = db.pool.stats();
  const ds2 = db.disk?.stats();

  return {
    label: config.label,
    explain: scan.explain,
    rows,
    pagesRead: ps.Innodb_pages_read,
    readAhead: ps.Innodb_buffer_pool_read_ahead,
    readRequests: ps.Innodb_data_reads,
    positionings: ds2?.positionings ?? 0,
    modeledS: ds2 ? ds2.modeledMs / 1000 : 0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    counters,
  };
}
