// The benchmark's table: a clustered B+tree (4-byte big-endian PK → 200-byte row) and a
// non-unique secondary index (4-byte secondary key, PK) built with @enginekit/btree-sampler's
// bulk loader on @enginekit/buffer-pool pages, then flushed to a MemoryDevice. Each run opens
// the trees again through a fresh pool, over that device or a SimulatedDevice wrapping it.
import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice, SimulatedDevice } from '@enginekit/buffer-pool';

export const PAGE_SIZE = 16384;
const ROW_BYTES = 200;

/** xorshift32: a fixed, seeded sequence so every run builds the same table and lookups. */
export function xorshift(seed) {
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

export function u32be(v, out = new Uint8Array(4), off = 0) {
  out[off] = v >>> 24;
  out[off + 1] = (v >>> 16) & 255;
  out[off + 2] = (v >>> 8) & 255;
  out[off + 3] = v & 255;
  return out;
}

export function readU32be(b, off = 0) {
  return ((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) >>> 0;
}

/**
 * rows rows; row i has PK i and secondary key skey[i], uniform in [0, rows) independent of the
 * PK (about one row per key, so the PK order of matches is random, as for o_custkey or
 * l_orderkey lookups from another table).
 */
export function buildDataset(rows) {
  const rnd = xorshift(20261129);
  const skey = new Uint32Array(rows);
  for (let i = 0; i < rows; i++) skey[i] = rnd() % rows;
  const device = new MemoryDevice({ pageSize: PAGE_SIZE });
  const pages = Math.ceil((rows * (ROW_BYTES + 40)) / PAGE_SIZE) * 2 + 64;
  const pool = new BufferPool({
    innodb_page_size: PAGE_SIZE,
    innodb_buffer_pool_size: pages * PAGE_SIZE,
    device,
  });
  const clustered = BTree.create(pool, { unique: true, indexId: 1 });
  const row = new Uint8Array(ROW_BYTES);
  let loader = clustered.bulkLoader();
  for (let i = 0; i < rows; i++) {
    u32be(i, row, 0);
    for (let k = 4; k < ROW_BYTES; k++) row[k] = (i + k) & 255;
    loader.add(u32be(i), row);
  }
  loader.finish();
  const secondary = BTree.create(pool, { unique: false, clustered: false, indexId: 2 });
  const order = Uint32Array.from({ length: rows }, (_, i) => i).sort((a, b) => skey[a] - skey[b] || a - b);
  loader = secondary.bulkLoader();
  for (let j = 0; j < rows; j++) {
    const i = order[j];
    loader.add(u32be(skey[i]), u32be(i));
  }
  loader.finish();
  pool.flushAll();
  const dataPages = pool.spaceSize(0);
  const counts = new Map();
  for (let i = 0; i < rows; i++) counts.set(skey[i], (counts.get(skey[i]) ?? 0) + 1);
  // Not closed: closing the pool would close the shared device.
  return {
    rows,
    device,
    dataPages,
    clusteredRoot: clustered.rootPage,
    secondaryRoot: secondary.rootPage,
    matchesOf: (k) => counts.get(k) ?? 0,
  };
}

/** A fresh pool of `poolPages` frames over the dataset (through an hdd model when `hdd`). */
export function openDataset(ds, { poolPages, hdd }) {
  const disk = hdd ? new SimulatedDevice(ds.device, 'hdd') : null;
  // Deterministic LRU and read-ahead: a clock that ticks once per reading (every access gets
  // its own, increasing time) and MySQL 5.5's old_blocks_time 0 (an old page is made young on
  // its next access).
  let tick = 0;
  const pool = new BufferPool({
    innodb_page_size: PAGE_SIZE,
    innodb_buffer_pool_size: poolPages * PAGE_SIZE,
    device: disk ?? ds.device,
    innodb_old_blocks_time: 0,
    now: () => ++tick,
  });
  const clustered = BTree.open(pool, { rootPage: ds.clusteredRoot });
  const secondary = BTree.open(pool, { rootPage: ds.secondaryRoot });
  return { pool, disk, clustered, secondary };
}
