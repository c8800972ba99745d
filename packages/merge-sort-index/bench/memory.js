// Bounded memory: the sorter's own account (stats.peakMemory: sort buffer + block buffers alive
// at once) against what the process really held: the peak growth of
// process.memoryUsage().arrayBuffers (and rss) over the level before the sort, sampled at every
// progress report and every 4096 output rows, each configuration in a fresh process.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1 << 20;

export function memoryTable(rowCounts, innodb_sort_buffer_size = MiB) {
  const out = [];
  for (const rows of rowCounts) {
    for (const mergeMode of ['innodb', 'kway', 'mysql56']) {
      const line = execFileSync(
        process.execPath,
        [join(here, 'memory-child.js'), String(rows), mergeMode, String(innodb_sort_buffer_size)],
        {
          encoding: 'utf8',
        },
      );
      const { stats: s, peakAb, peakRss } = JSON.parse(line.trim().split('\n').pop());
      out.push({
        rows,
        mode: mergeMode,
        inputMB: +(s.recordBytes / 1e6).toFixed(1),
        runs: s.runs,
        passes: s.passes,
        peakMemoryMiB: +(s.peakMemory / MiB).toFixed(2),
        measuredArrayBuffersMiB: +(peakAb / MiB).toFixed(2),
        rssGrowthMiB: +(peakRss / MiB).toFixed(1),
      });
    }
  }
  return out;
}
