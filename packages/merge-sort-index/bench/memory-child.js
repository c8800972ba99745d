// One memory measurement in a fresh process (so no other run's garbage blurs it):
// node bench/memory-child.js <rows> <mode> <innodb_sort_buffer_size>. Prints one JSON line.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ExternalSorter } from '../dist/index.js';
import { indexEntries, table } from './data.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const [rows, mergeMode, size] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];

table(rows); // the data is the table's memory, not the sorter's
gc();
gc();
const base = process.memoryUsage();
let peakAb = 0;
let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakAb = Math.max(peakAb, m.arrayBuffers - base.arrayBuffers);
  peakRss = Math.max(peakRss, m.rss - base.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed - base.heapUsed);
};
const sorter = new ExternalSorter({
  innodb_sort_buffer_size: size,
  ...(mergeMode === 'mysql56' ? { mechanics: 'mysql56' } : { mergeMode }),
  onProgress: sample,
});
sorter.addAll(indexEntries(rows));
let n = 0;
sorter.drain(() => {
  if ((++n & 4095) === 0) sample();
});
const s = sorter.stats;
console.log(JSON.stringify({ stats: s, peakAb, peakRss, peakHeap }));
