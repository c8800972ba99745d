// In memory: the whole table in a warm pool, so only CPU differs. benny times one full scan
// per op for the default strategy and for MRR.
import b from 'benny';
import { createMultiRangeRead } from '../dist/index.js';
import { clusteredFetcher, secondaryReader } from './adapters.js';
import { openDataset } from './dataset.js';
import { CONFIGS } from './io-bound.js';

export async function runInMemory(ds, ranges, title) {
  const db = openDataset(ds, { poolPages: ds.dataPages + 64, hdd: false });
  const reader = secondaryReader(db.secondary);
  const fetcher = clusteredFetcher(db.clustered);
  let sink = 0;
  const scanAll = (options) => {
    const scan = createMultiRangeRead(reader, fetcher, ranges, options);
    while (scan.next()) sink += scan.row.length;
  };
  scanAll({ mrr: false }); // warm: every page the workload touches is now in the pool
  const configs = CONFIGS.filter((c) => !c.keysOnly || 'key' in ranges[0]);
  const results = [];
  await b.suite(
    title,
    ...configs.map((c) => b.add(c.label, () => scanAll(c.options))),
    b.cycle(),
    b.complete((summary) => {
      for (const r of summary.results) results.push({ label: r.name, ops: r.ops, margin: r.margin });
    }),
  );
  if (sink === 0) console.log('(no rows)');
  return { results, poolReads: db.pool.stats().Innodb_pages_read };
}
