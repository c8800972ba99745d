// benny suites: the default strategy against MRR's stages on a SortedArrayIndex.
import { cpus, loadavg } from 'node:os';
import b from 'benny';
import { arrayRowFetcher, createMultiRangeRead, SortedArrayIndex } from '../dist/index.js';

/** xorshift32: a fixed, seeded sequence so every run builds the same index and lookups. */
function xorshift(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

const CONFIGS = [
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

export async function runSuites(entries, lookups) {
  const rnd = xorshift(20261201);
  const keys = new Float64Array(entries);
  const rowIds = new Float64Array(entries);
  for (let i = 0; i < entries; i++) {
    keys[i] = rnd() % entries; // about one entry per key, independent of the row id
    rowIds[i] = i;
  }
  const index = new SortedArrayIndex(keys, rowIds);
  const rows = Array.from({ length: entries }, (_, i) => ({ id: i, payload: i * 3 }));
  const fetcher = arrayRowFetcher(rows);
  const q = xorshift(7);
  const workloads = [
    [
      `${lookups} equality keys`,
      Array.from({ length: lookups }, (_, i) => ({ key: q() % entries, association: i })),
    ],
    [
      `1 range, ~${lookups} rows`,
      [{ low: Math.floor(entries / 3), high: Math.floor(entries / 3) + lookups - 1 }],
    ],
  ];
  console.log(
    `# ${entries} index entries; Node ${process.version}; ${cpus().length} cores; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  let sink = 0;
  for (const [name, ranges] of workloads) {
    const configs = CONFIGS.filter((c) => !c.keysOnly || 'key' in ranges[0]);
    const results = [];
    await b.suite(
      name,
      ...configs.map((c) =>
        b.add(c.label, () => {
          const scan = createMultiRangeRead(index, fetcher, ranges, c.options);
          while (scan.next()) sink += scan.row.payload;
        }),
      ),
      b.cycle(),
      b.complete((summary) => {
        for (const r of summary.results) results.push({ label: r.name, ops: r.ops, margin: r.margin });
      }),
    );
    const base = results[0].ops;
    console.log(`\n| ${name} | scans/s | ± % | time vs default |`);
    console.log('|---|--:|--:|--:|');
    for (const r of results)
      console.log(`| ${r.label} | ${r.ops.toFixed(1)} | ${r.margin} | ${(base / r.ops).toFixed(2)}× |`);
  }
  if (sink === 0) console.log('(no rows)');
}
