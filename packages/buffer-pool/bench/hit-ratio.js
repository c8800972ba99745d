// Hit ratio of midpoint LRU, plain LRU and CLOCK (the real BufferPool, read-ahead off) and of
// Belady's offline optimum on three traces. The clock advances 10 µs per access.
import { createGenerator, ZipfSampler } from '@enginekit/prng';
import { BufferPool } from '../dist/index.js';
import { deviceWithPages, fakeClock } from './pages.js';

const PS = 512;

/** Hot set of 1,500 pages (uniform) with a full scan of 12,000 other pages every 60,000 accesses. */
function hotAndScans(n) {
  const g = createGenerator('xoshiro128**', { seed: 1 });
  const t = [];
  while (t.length < n) {
    for (let i = 0; i < 60000 && t.length < n; i++) t.push(g.nextBelow(1500));
    for (let p = 0; p < 12000 && t.length < n; p++) for (let r = 0; r < 3; r++) t.push(20000 + p);
  }
  return Uint32Array.from(t.slice(0, n));
}

/** Zipf (s = 0.9) over 40,000 pages, ranks shuffled over the page numbers. */
function zipf(n) {
  const g = createGenerator('xoshiro128**', { seed: 2 });
  const z = new ZipfSampler(40000, 0.9);
  const perm = Uint32Array.from({ length: 40000 }, (_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = g.nextBelow(i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  return Uint32Array.from({ length: n }, () => perm[z.sample(g) - 1]);
}

/**
 * TPC-H-like index range scans: a secondary index (root + 40 internal + 4,000 leaf pages, leaves
 * 41..4040), each query dives root → internal → leaf, scans 1–30 consecutive leaves (each page
 * touched 8 times, one per entry read) and fetches a random clustered-table page (pages
 * 5000..36999) per entry; one query in ten is a hot-key query on the first 200 leaves.
 */
function indexScans(n) {
  const g = createGenerator('xoshiro128**', { seed: 3 });
  const t = [];
  while (t.length < n) {
    const hot = g.nextBelow(10) === 0;
    const start = hot ? 41 + g.nextBelow(200) : 41 + g.nextBelow(4000);
    const len = 1 + g.nextBelow(30);
    t.push(0, 1 + Math.floor((start - 41) / 100));
    for (let l = start; l < Math.min(start + len, 4041); l++) {
      for (let e = 0; e < 8; e++) {
        t.push(l);
        t.push(5000 + g.nextBelow(32000));
      }
    }
  }
  return Uint32Array.from(t.slice(0, n));
}

function runPolicy(trace, frames, policy, device, oldBlocksTime = 1000) {
  const clock = fakeClock();
  const pool = new BufferPool({
    innodb_page_size: PS,
    innodb_buffer_pool_size: frames * PS,
    policy,
    innodb_old_blocks_time: oldBlocksTime,
    linearReadAhead: false,
    device,
    now: clock.now,
  });
  for (let i = 0; i < trace.length; i++) {
    pool.unfix(pool.fix(0, trace[i], 0), 0);
    clock.advance(0.01);
  }
  const s = pool.stats();
  return 1 - s.Innodb_buffer_pool_reads / s.Innodb_buffer_pool_read_requests;
}

/** Belady's MIN: evict the cached page whose next use is farthest away (lazy max-heap). */
export function beladyHitRatio(trace, frames) {
  const n = trace.length;
  const next = new Float64Array(n);
  const last = new Map();
  for (let i = n - 1; i >= 0; i--) {
    next[i] = last.get(trace[i]) ?? Number.POSITIVE_INFINITY;
    last.set(trace[i], i);
  }
  const cur = new Map(); // page → its next use (valid heap entry)
  const heapKey = [];
  const heapPage = [];
  const push = (key, page) => {
    let i = heapKey.length;
    heapKey.push(key);
    heapPage.push(page);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapKey[p] >= heapKey[i]) break;
      [heapKey[p], heapKey[i]] = [heapKey[i], heapKey[p]];
      [heapPage[p], heapPage[i]] = [heapPage[i], heapPage[p]];
      i = p;
    }
  };
  const pop = () => {
    const key = heapKey[0];
    const page = heapPage[0];
    const lk = heapKey.pop();
    const lp = heapPage.pop();
    if (heapKey.length > 0) {
      heapKey[0] = lk;
      heapPage[0] = lp;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heapKey.length && heapKey[l] > heapKey[m]) m = l;
        if (r < heapKey.length && heapKey[r] > heapKey[m]) m = r;
        if (m === i) break;
        [heapKey[m], heapKey[i]] = [heapKey[i], heapKey[m]];
        [heapPage[m], heapPage[i]] = [heapPage[i], heapPage[m]];
        i = m;
      }
    }
    return [key, page];
  };
  let hits = 0;
  for (let i = 0; i < n; i++) {
    const p = trace[i];
    if (cur.has(p)) {
      hits++;
    } else if (cur.size >= frames) {
      for (;;) {
        const [key, page] = pop();
        if (cur.get(page) === key) {
          cur.delete(page);
          break;
        }
      }
    }
    cur.set(p, next[i]);
    push(next[i], p);
  }
  return hits / n;
}

export function runHitRatio({ accesses = 300000, frames = 2048 } = {}) {
  const device = deviceWithPages(40000, PS);
  const traces = [
    ['hot set 1,500 + full scans of 12,000', hotAndScans(accesses)],
    ['Zipf 0.9 over 40,000', zipf(accesses)],
    ['TPC-H-like index range scans + PK lookups', indexScans(accesses)],
  ];
  const rows = [];
  for (const [name, trace] of traces) {
    rows.push({
      trace: name,
      midpoint: runPolicy(trace, frames, 'midpoint', device),
      midpoint0: runPolicy(trace, frames, 'midpoint', device, 0),
      lru: runPolicy(trace, frames, 'lru', device),
      clock: runPolicy(trace, frames, 'clock', device),
      belady: beladyHitRatio(trace, frames),
    });
  }
  return rows;
}
