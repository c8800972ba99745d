// benny: sorting 50k index entries that fit in memory — ExternalSorter (no temp file) against
// Array.prototype.sort of [key, value] pairs by Buffer.compare, the obvious JS alternative.
import b from 'benny';
import { ExternalSorter } from '../dist/index.js';
import { indexEntries } from './data.js';

export async function microSuite(rows = 50_000) {
  const pairs = [];
  indexEntries(rows)((k, v) => pairs.push([Buffer.from(k), Buffer.from(v)]));
  const opts = { minSamples: 5, maxTime: 2 };
  let sink = 0;
  const summary = await b.suite(
    `sort ${rows} entries (123-byte keys) in memory`,
    b.add(
      'ExternalSorter, 16 MiB buffer (no spill)',
      () => {
        const s = new ExternalSorter({ innodb_sort_buffer_size: 16 << 20 });
        for (const [k, v] of pairs) s.add(k, v);
        sink += s.drain(() => {});
      },
      opts,
    ),
    b.add(
      'Array.prototype.sort + Buffer.compare',
      () => {
        const copy = pairs.map(([k, v]) => [Buffer.from(k), Buffer.from(v)]);
        copy.sort((x, y) => Buffer.compare(x[0], y[0]));
        sink += copy.length;
      },
      opts,
    ),
    b.cycle(),
    b.complete(),
  );
  if (sink < 0) console.log(sink);
  return summary.results.map((r) => ({
    name: r.name,
    opsPerSec: Math.round(r.ops),
    msPerOp: +(1000 / r.ops).toFixed(1),
    margin: `±${r.margin}%`,
  }));
}
