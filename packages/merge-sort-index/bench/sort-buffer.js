// Sort buffer 1 / 8 / 64 MiB × merge mode 'innodb' (2-way passes) / 'kway' (loser tree) with the
// default 'fast' mechanics, and MySQL 5.6's ('mysql56': record-only accounting, every pass
// written): wall time (median of `repeat` runs), CPU time, runs, passes and bytes spilled.
import { buildIndex } from '../dist/index.js';
import { CountingSink, indexEntries, median, table } from './data.js';

const MiB = 1 << 20;

export function sortBufferTable(rows, repeat) {
  const out = [];
  table(rows);
  for (const mib of [1, 8, 64]) {
    for (const mode of ['innodb', 'kway', 'mysql56']) {
      const mergeMode = mode === 'kway' ? 'kway' : 'innodb';
      const mechanics = mode === 'mysql56' ? 'mysql56' : 'fast';
      const times = [];
      const cpus = [];
      let stats;
      for (let r = 0; r < repeat; r++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const res = buildIndex(indexEntries(rows), new CountingSink(), {
          innodb_sort_buffer_size: mib * MiB,
          mergeMode,
          mechanics,
        });
        times.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpus.push((c.user + c.system) / 1000);
        stats = res.stats;
      }
      out.push({
        sortBuffer: `${mib} MiB`,
        mode,
        ms: Math.round(median(times)),
        cpuMs: Math.round(median(cpus)),
        runs: stats.runs,
        passes: stats.passes,
        fanIn: stats.fanIn,
        spilledMB: +(stats.bytesWritten / 1e6).toFixed(1),
        readMB: +(stats.bytesRead / 1e6).toFixed(1),
        comparisons: stats.comparisons,
        peakMemoryMiB: +(stats.peakMemory / MiB).toFixed(2),
      });
    }
  }
  return out;
}
