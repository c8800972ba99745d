// Data for the benchmarks: keys, pools and the four estimator data sets. Seeded, so every run
// builds the same trees.
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import { createGenerator, ZipfSampler } from '@enginekit/prng';
import { BTree, KeyCodec } from '../dist/index.js';

export const int1 = new KeyCodec([{ type: 'int32' }]);
export const int2 = new KeyCodec([{ type: 'int32' }, { type: 'int32' }]);

/** A pool big enough to hold `bytes` of pages without eviction, on a MemoryDevice. */
export function memoryPool(bytes, pageSize = 16384) {
  const size = Math.max(64, Math.ceil((bytes * 1.5) / pageSize)) * pageSize;
  return new BufferPool({
    innodb_page_size: pageSize,
    innodb_buffer_pool_size: size,
    device: new MemoryDevice({ pageSize }),
  });
}

/** n distinct int32 keys in random order (a seeded shuffle of 0..n-1, spread by a multiplier). */
export function randomKeys(n, seed = 1) {
  const g = createGenerator('xoshiro128**', { seed });
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) keys[i] = i * 7 - 1_000_000;
  for (let i = n - 1; i > 0; i--) {
    const j = g.nextBelow(i + 1);
    const t = keys[i];
    keys[i] = keys[j];
    keys[j] = t;
  }
  return keys;
}

/** 8-byte value derived from the key. */
export function valueFor(k) {
  const v = new Uint8Array(8);
  new DataView(v.buffer).setInt32(0, k);
  new DataView(v.buffer).setInt32(4, ~k);
  return v;
}

const pk = (i) => {
  const v = new Uint8Array(4);
  new DataView(v.buffer).setInt32(0, i);
  return v;
};

/**
 * The estimator data sets, as secondary indexes (key = codec tuple of the column(s), value = the
 * 4-byte primary key, non-unique tree: n_uniq = key fields + 1) except TPC-H lineitem's clustered key.
 * Each returns sorted entries for the bulk loader.
 */
export function dataSets(rows) {
  const g = createGenerator('xoshiro128**', { seed: 2026 });
  const sortByKey = (pairs) => pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const uniform = sortByKey(Array.from({ length: rows }, (_, i) => [g.nextBelow(Math.floor(rows / 10)), i]));
  const zipf = new ZipfSampler(Math.floor(rows / 2), 1.1);
  const zipfRows = sortByKey(Array.from({ length: rows }, (_, i) => [zipf.sample(g), i]));
  // Clustered: values come in runs of 1..400 equal rows (a few values own most rows).
  const clustered = [];
  for (let v = 0, i = 0; i < rows; v++) {
    const run = 1 + Math.floor((g.nextBelow(1000) / 1000) ** 3 * 400);
    for (let r = 0; r < run && i < rows; r++, i++) clustered.push([v, i]);
  }
  // TPC-H lineitem primary key (l_orderkey, l_linenumber): 1..7 lines per order, order keys
  // sparse as dbgen makes them (8 used out of every 32).
  const lineitem = [];
  for (let o = 0; lineitem.length < rows; o++) {
    const orderkey = (o >> 3) * 32 + (o & 7) + 1;
    const lines = 1 + g.nextBelow(7);
    for (let l = 1; l <= lines && lineitem.length < rows; l++) lineitem.push([orderkey, l]);
  }
  return [
    { name: 'uniform', unique: false, entries: uniform.map(([a, i]) => [int1.encode([a]), pk(i)]) },
    { name: 'zipf s=1.1', unique: false, entries: zipfRows.map(([a, i]) => [int1.encode([a]), pk(i)]) },
    { name: 'clustered runs', unique: false, entries: clustered.map(([a, i]) => [int1.encode([a]), pk(i)]) },
    {
      name: 'TPC-H lineitem PK',
      unique: true,
      entries: lineitem.map(([o, l]) => [int2.encode([o, l]), new Uint8Array(40)]),
    },
  ];
}

/** Bulk load a data set into a fresh tree on its own pool. */
export function loadDataSet(ds, pageSize = 16384) {
  const bytes = ds.entries.length * (ds.entries[0][0].length + ds.entries[0][1].length + 8);
  const pool = memoryPool(bytes, pageSize);
  const tree = BTree.create(pool, { unique: ds.unique, clustered: ds.unique, tupleKeys: true });
  const loader = tree.bulkLoader();
  for (const [k, v] of ds.entries) loader.add(k, v);
  loader.finish();
  return tree;
}
