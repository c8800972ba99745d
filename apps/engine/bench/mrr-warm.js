// In memory: the whole table in a warm pool, so only CPU differs. benny times one full scan
// per op for the default strategy and for MRR.
import b from 'benny';
import { createMultiRangeRead } from '@enginekit/mrr';
import { clusteredFetcher, secondaryReader } from './mrr-adapters.js';
import { openDataset } from './mrr-dataset.js';
import { CONFIGS } from './mrr-io-runs.js';

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

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The same comparison, robust to a loaded machine: `rounds` rounds, each running every
 * configuration once in a rotated order, CPU time (`process.cpuUsage`) per scan; medians.
 */
export function runInMemoryInterleaved(ds, ranges, rounds = 21) {
  const db = openDataset(ds, { poolPages: ds.dataPages + 64, hdd: false });
  const reader = secondaryReader(db.secondary);
  const fetcher = clusteredFetcher(db.clustered);
  const configs = CONFIGS.filter((c) => !c.keysOnly || 'key' in ranges[0]);
  const samples = configs.map(() => []);
  let sink = 0;
  const scanAll = (options) => {
    const scan = createMultiRangeRead(reader, fetcher, ranges, options);
    while (scan.next()) sink += scan.row.length;
  };
  for (const c of configs) scanAll(c.options); // warm pages and JIT
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < configs.length; j++) {
      const i = (j + r) % configs.length;
      const t0 = cpuNow();
      scanAll(configs[i].options);
      samples[i].push(cpuNow() - t0);
    }
  }
  if (sink === 0) console.log('(no rows)');
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return configs.map((c, i) => ({ label: c.label, cpuMs: median(samples[i]) }));
}

/**
 * Where the in-memory difference comes from: the same clustered-index gets (`BTree.get`, one per
 * PK) in random order and in ascending order, nothing else.
 */
export async function runGetOrder(ds, pks, title) {
  const db = openDataset(ds, { poolPages: ds.dataPages + 64, hdd: false });
  const fetcher = clusteredFetcher(db.clustered);
  const random = Array.from(pks);
  const sorted = Float64Array.from(pks).sort();
  let sink = 0;
  for (const pk of random) sink += fetcher.rndPos(pk).length; // warm
  const results = [];
  await b.suite(
    title,
    b.add('clustered gets, random order', () => {
      for (let i = 0; i < random.length; i++) sink += fetcher.rndPos(random[i]).length;
    }),
    b.add('clustered gets, ascending order', () => {
      for (let i = 0; i < sorted.length; i++) sink += fetcher.rndPos(sorted[i]).length;
    }),
    b.cycle(),
    b.complete((summary) => {
      for (const r of summary.results) results.push({ label: r.name, ops: r.ops, margin: r.margin });
    }),
  );
  if (sink === 0) console.log('(no rows)');
  return { results };
}
