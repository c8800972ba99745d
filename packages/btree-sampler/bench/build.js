// Building a tree of N sorted keys: the bottom-up bulk loader vs N single inserts (ascending, and
// in random order), timed passes, median of 3.
import { BTree } from '../dist/index.js';
import { int1, memoryPool, randomKeys, valueFor } from './data.js';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function runBuild(n) {
  const asc = Array.from({ length: n }, (_, i) => int1.encode([i]));
  const vals = Array.from({ length: n }, (_, i) => valueFor(i));
  const rnd = randomKeys(n, 5).map((k) => (k + 1_000_000) / 7);
  const rows = [];
  const time = (name, fn) => {
    const ts = [];
    let stats;
    for (let pass = 0; pass < 3; pass++) {
      const pool = memoryPool(n * 40);
      const t0 = process.hrtime.bigint();
      const tree = fn(pool);
      ts.push(Number(process.hrtime.bigint() - t0) / 1e9);
      stats = tree.stats();
    }
    rows.push({ name, seconds: median(ts), stats });
  };
  time('bulk loader (innodb_fill_factor 100, secondary)', (pool) => {
    const t = BTree.create(pool, { clustered: false });
    const l = t.bulkLoader();
    for (let i = 0; i < n; i++) l.add(asc[i], vals[i]);
    l.finish();
    return t;
  });
  time('bulk loader (clustered: 1/16 free)', (pool) => {
    const t = BTree.create(pool);
    const l = t.bulkLoader();
    for (let i = 0; i < n; i++) l.add(asc[i], vals[i]);
    l.finish();
    return t;
  });
  time('single inserts, ascending', (pool) => {
    const t = BTree.create(pool);
    for (let i = 0; i < n; i++) t.insert(asc[i], vals[i]);
    return t;
  });
  time('single inserts, random order', (pool) => {
    const t = BTree.create(pool);
    for (let i = 0; i < n; i++) t.insert(asc[rnd[i]], vals[rnd[i]]);
    return t;
  });
  return rows;
}
