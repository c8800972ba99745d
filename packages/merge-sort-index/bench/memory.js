// Bounded memory: the sorter's own account (stats.peakMemory: sort buffer + block buffers
// alive at once) against what the process really held: the peak of
// process.memoryUsage().arrayBuffers above the level before the sort, sampled at every
// progress report and every 16384 output rows, after a full GC before the sort.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { ExternalSorter } from '../dist/index.js';
import { indexEntries, table } from './data.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const MiB = 1 << 20;

export function memoryTable(rowCounts, sortBufferSize = MiB) {
  const out = [];
  for (const rows of rowCounts) {
    table(rows); // the data is not the sorter's memory
    for (const mergeMode of ['innodb', 'kway']) {
      gc();
      const base = process.memoryUsage();
      let peakAb = 0;
      let peakRss = 0;
      const sample = () => {
        const m = process.memoryUsage();
        peakAb = Math.max(peakAb, m.arrayBuffers - base.arrayBuffers);
        peakRss = Math.max(peakRss, m.rss - base.rss);
      };
      const sorter = new ExternalSorter({ sortBufferSize, mergeMode, onProgress: sample });
      sorter.addAll(indexEntries(rows));
      let n = 0;
      sorter.drain(() => {
        if ((++n & 16383) === 0) sample();
      });
      const s = sorter.stats;
      out.push({
        rows,
        mode: mergeMode,
        inputMB: +(s.recordBytes / 1e6).toFixed(1),
        runs: s.runs,
        passes: s.passes,
        budgetMiB: +(
          (mergeMode === 'innodb' ? Math.max(2 * sortBufferSize, 3 * sortBufferSize) : 2 * sortBufferSize) /
          MiB
        ).toFixed(2),
        peakMemoryMiB: +(s.peakMemory / MiB).toFixed(2),
        measuredArrayBuffersMiB: +(peakAb / MiB).toFixed(2),
        rssGrowthMiB: +(peakRss / MiB).toFixed(1),
      });
    }
  }
  return out;
}
