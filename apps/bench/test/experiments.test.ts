import { describe, expect, it } from 'vitest';
import { EXPERIMENTS } from '../src/registry.js';
import { expectShape, quick, table } from './helpers.js';

describe('registry', () => {
  it('names every experiment once', () => {
    const names = EXPERIMENTS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['prng-bias', 'cardinality', 'buffer-pool', 'latches']));
  });
});

describe('prng-bias --quick', () => {
  it('legacy 64-bit page_rnd dives always take record 2; the 32-bit word wraps at call 38', async () => {
    const r = await quick('prng-bias');
    expectShape(r);
    const dives = table(r, 'dives');
    const legacy = dives.rows.find((x) => x.generator === 'page_rnd, 64-bit ulint');
    expect(legacy).toMatchObject({ r0: 0, r1: 0, r2: 80, distinct: 1, identical: true });
    const fix = dives.rows.find((x) => x.generator === 'LCG fix (page_cur_lcg_prng)');
    expect(fix?.distinct).toBe(3);
    const wrap = table(r, 'wrap');
    expect(wrap.rows[0]).toMatchObject({ word: '32-bit', call: 38, before: 2, after: 1 });
    expect(r.claims.every((c) => c.holds === true)).toBe(true);
    // Seeded: a second run gives the same dives.
    const again = await quick('prng-bias');
    expect(table(again, 'dives').rows).toEqual(dives.rows);
  });
});

describe('cardinality --quick', () => {
  it('legacy dives read one leaf of the 3-record-root tree and give identical estimates', async () => {
    const r = await quick('cardinality');
    expectShape(r);
    const small = table(r, 'three-leaf');
    const legacy = small.rows.find((x) => x.estimator === 'transient 5.1, page_rnd (legacy)');
    expect(legacy).toMatchObject({ distinctLeaves: 1, leafPages: 3, identicalRuns: true });
    expect(legacy?.min).toBe(legacy?.max);
    expect(legacy?.min).not.toBe(legacy?.exact);
    const fix = small.rows.find((x) => x.estimator === 'transient 5.1, LCG fix');
    expect(fix).toMatchObject({ distinctLeaves: 3, identicalRuns: false });
    const hll = small.rows.find((x) => x.estimator === 'HyperLogLog p=14 (full scan)');
    expect(hll?.identicalRuns).toBe(true);
    const tpch = table(r, 'tpch');
    expect(new Set(tpch.rows.map((x) => x.index))).toEqual(
      new Set([
        'customer.i_c_nationkey',
        'orders.i_o_custkey',
        'orders.i_o_orderdate',
        'lineitem.i_l_orderkey',
      ]),
    );
    // DBT3 shapes: 25 nations; at SF 0.001 orders has 1,500 distinct keys in lineitem.
    expect(tpch.rows.find((x) => x.index === 'customer.i_c_nationkey')?.exact).toBe(25);
    expect(tpch.rows.find((x) => x.index === 'lineitem.i_l_orderkey')?.exact).toBe(1500);
    expect(r.claims.every((c) => c.holds === true)).toBe(true);
  });
});

describe('buffer-pool --quick', () => {
  it('old_blocks_time protects the hot set, read-ahead cuts requests, Belady bounds every policy', async () => {
    const r = await quick('buffer-pool');
    expectShape(r);
    const hits = table(r, 'scan-resistance').rows;
    const belady = hits.find((x) => String(x.label).startsWith('Belady')) as Record<string, number>;
    for (const row of hits) expect(row.hit as number).toBeLessThanOrEqual(belady.hit as number);
    const [t1000, t0] = hits as Record<string, number>[];
    expect(t1000?.after).toBeGreaterThan(t0?.after as number);
    expect(t1000?.notYoung).toBeGreaterThan(0);
    const ra = table(r, 'read-ahead').rows as Record<string, number>[];
    expect(ra[0]?.readAhead).toBeGreaterThan(0);
    expect(ra[0]?.requests).toBeLessThan(ra[1]?.requests as number);
    expect(ra[1]?.readAhead).toBe(0);
    expect(ra[2]?.modeledMs).toBeLessThan(ra[3]?.modeledMs as number);
    const inst = table(r, 'instances').rows;
    expect(inst.map((x) => [x.pages, x.workers, x.instances])).toEqual([
      [1024, 1, 1],
      [1024, 1, 8],
      [1024, 2, 1],
      [1024, 2, 8],
      [8192, 1, 1],
      [8192, 1, 8],
      [8192, 2, 1],
      [8192, 2, 8],
    ]);
    // The small set is cached before the clock starts; the large one cannot fit.
    for (const row of inst) {
      if (row.pages === 1024) expect(row.hitRatioPct).toBe(100);
      else expect(row.hitRatioPct as number).toBeLessThan(50);
    }
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
  });
});

describe('latches --quick', () => {
  it('measures every lock at every worker count, with counters and ratios', async () => {
    const r = await quick('latches');
    expectShape(r);
    const rows = table(r, 'throughput').rows;
    expect(rows).toHaveLength(5 * 2);
    for (const row of rows) {
      expect(row.mops as number).toBeGreaterThan(0);
      expect(row.min as number).toBeLessThanOrEqual(row.max as number);
    }
    // One worker never waits on another thread.
    for (const row of rows.filter((x) => x.workers === 1)) {
      expect(row.mutexOsWaits).toBe(0);
      expect(row.rwOsWaits).toBe(0);
    }
    expect(table(r, 'ratios').rows).toHaveLength(4);
  });
});
