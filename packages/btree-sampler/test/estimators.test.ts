import { createGenerator } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import {
  BTree,
  duj1,
  estimateDuj1,
  estimateExact,
  estimateHll,
  estimatePersistent,
  estimateTransient,
  KeyCodec,
  persistentNDiff,
  randomDive,
  runExperiment,
  sampleBlocks,
  transientScale,
} from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const one = new KeyCodec([{ type: 'int32' }]);
const two = new KeyCodec([{ type: 'int32' }, { type: 'int32' }]);
const V = Uint8Array.of(1, 2, 3, 4);

/**
 * 743 unique keys bulk loaded into a clustered index of 4 KiB pages: 13-byte records + 2-byte slots,
 * 1/16 of the page (256 bytes) kept free out of 4016 → 250, 250 and 243 records on 3 leaves under a
 * 3-record root.
 */
function threeLeafTree(): BTree {
  const t = BTree.create(new MemoryStore(4096, 64), { clustered: true, tupleKeys: true });
  const l = t.bulkLoader({ innodb_fill_factor: 100 });
  for (let i = 0; i < 743; i++) l.add(one.encode([i]), V);
  l.finish();
  return t;
}

describe('bug #43660: random dives with page_rnd', () => {
  it('a 3-record root of height 2: 8 dives with innodb-page-rnd all land on the 3rd leaf, every run', () => {
    const t = threeLeafTree();
    const st = t.checkValid();
    expect(st.height).toBe(2);
    expect(st.recordsPerLevel[1]).toBe(3);
    const legacy = createGenerator('innodb-page-rnd'); // one generator = the C file-static page_rnd
    const leaves = new Set<number>();
    for (let run = 0; run < 10; run++) for (let d = 0; d < 8; d++) leaves.add(randomDive(t, legacy).leafPage);
    expect(leaves.size).toBe(1);
    expect(randomDive(t, legacy).picks[0]).toBe(2);
    const fixed = createGenerator('innodb-lcg64', { seed: 12345 });
    const seen = new Set<number>();
    for (let d = 0; d < 8; d++) seen.add(randomDive(t, fixed).leafPage);
    expect(seen.size).toBeGreaterThan(1);
  });

  it('the transient estimate is the same wrong number every run (hand computed), the LCG varies', () => {
    const t = threeLeafTree();
    const clustered = t.checkValid().records;
    // Every one of the 8 dives reads leaf 3 (243 records): 242 adjacent pairs + 1 for the boundary
    // rule (the page has a left sibling) → n_diff = 8 · 243 = 1944; L = 3, S = 8:
    // ⌊(1944·3 + 8 − 1 + 1) / 8⌋ + min(⌊3/80⌋, 8) = 730, against 743 entries.
    const legacy = runExperiment(t, 'transient', {
      runs: 10,
      rng: createGenerator('innodb-page-rnd'),
      version: '5.1',
    });
    expect(legacy.runs[0]!.leaves.length).toBe(8);
    expect(legacy.identicalRuns).toBe(true);
    expect(legacy.distinctLeaves).toBe(1);
    expect(legacy.runs[0]!.nDiff).toEqual([730]);
    expect(t.checkValid().pagesPerLevel).toEqual([3, 1]);
    expect(legacy.perPrefix[0]!.exact).toBe(clustered);
    const fixed = runExperiment(t, 'transient', {
      runs: 10,
      rng: createGenerator('innodb-lcg64', { seed: 99 }),
      version: '5.1',
    });
    expect(fixed.distinctLeaves).toBe(3);
    expect(fixed.identicalRuns).toBe(false);
    // 5.5 caps S at the index size (4 pages)
    expect(estimateTransient(t, { rng: createGenerator('innodb-lcg64', { seed: 1 }) }).dives).toBe(4);
    expect(clustered).toBe(743);
  });

  it('with 32-bit words page_rnd wraps at call 38 and the residue mod 3 moves: the bias "looked" 64-bit only', () => {
    const t = threeLeafTree();
    const g = createGenerator('innodb-page-rnd', { wordBits: 32 });
    const roots: number[] = [];
    for (let d = 0; d < 30; d++) roots.push(randomDive(t, g).picks[0]!);
    // two calls per dive (root, leaf): calls 1..37 keep residue 2; the 19th dive's root pick is call 37
    expect(roots.slice(0, 19).every((p) => p === 2)).toBe(true);
    expect(new Set(roots.slice(19)).has(2)).toBe(false);
  });
});

describe('estimator formulas, hand-computed', () => {
  it('transient scaling: L = 1000, S = 8, n_diff = 80 → 10001 + 8', () => {
    expect(transientScale(80, 1000, 8, 1)).toBe(10009);
    expect(transientScale(0, 1, 1, 0)).toBe(0);
  });

  it('persistent final formula: 80000 → 66666 → 316663', () => {
    expect(
      persistentNDiff({
        leafPages: 100000,
        level: 2,
        nRecsOnLevel: 300,
        nDiffOnLevel: 250,
        nDiffAllAnalyzedPages: 95,
        leavesAnalyzed: 20,
        externalPages: 5,
      }),
    ).toBe(316663);
    expect(
      persistentNDiff({
        leafPages: 7,
        level: 1,
        nRecsOnLevel: 40,
        nDiffOnLevel: 10,
        nDiffAllAnalyzedPages: 9,
        leavesAnalyzed: 3,
        externalPages: 0,
      }),
    ).toBe(30);
  });

  it('Duj1 with its clamps', () => {
    // 100·60 / (100 − 40 + 40·100/1000) = 93.75 → 94
    expect(duj1({ n: 100, N: 1000, d: 60, f1: 40 })).toBe(94);
    expect(duj1({ n: 100, N: 1000, d: 100, f1: 100 })).toBe(1000); // nothing repeated: all distinct
    expect(duj1({ n: 100, N: 1000, d: 7, f1: 0 })).toBe(7); // everything repeated: the sample saw all
    expect(duj1({ n: 100, N: 100, d: 60, f1: 40 })).toBe(60); // the whole table: exactly d
  });

  it('Algorithm S picks n distinct ascending blocks, all of them when n ≥ N', () => {
    const g = createGenerator('xoshiro128**', { seed: 3 });
    const s = sampleBlocks(1000, 30, g);
    expect(s.length).toBe(30);
    for (let i = 1; i < s.length; i++) expect(s[i]!).toBeGreaterThan(s[i - 1]!);
    expect(s[29]!).toBeLessThan(1000);
    expect(sampleBlocks(5, 30, g)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a single-page tree: every estimator is exact per prefix (composite key, non-unique)', () => {
    const t = BTree.create(new MemoryStore(4096, 16), { unique: false, tupleKeys: true });
    // (a, b) with a in 0..3, b in 0..4, each twice with different values → prefixes 4, 20, and 40 entries
    for (let a = 0; a < 4; a++)
      for (let b = 0; b < 5; b++) for (const v of [1, 2]) t.insert(two.encode([a, b]), Uint8Array.of(v));
    expect(estimateExact(t).nDiff).toEqual([4, 20, 40]);
    expect(estimateTransient(t, { rng: createGenerator('innodb-lcg64', { seed: 5 }) }).nDiff).toEqual([
      4, 20, 40,
    ]);
    expect(estimatePersistent(t).nDiff).toEqual([4, 20, 40]);
    expect(estimateDuj1(t, { rng: createGenerator('xoshiro128**', { seed: 1 }) }).nDiff).toEqual([4, 20, 40]);
    expect(estimateHll(t).nDiff).toEqual([4, 20, 40]);
  });
});

describe('innodb_stats_method (transient)', () => {
  it('nulls_equal / nulls_unequal / nulls_ignored on one page, by hand', () => {
    // (a, pk): (NULL,1) (NULL,2) (1,3) (1,4) (2,5) on a single root leaf: L = 1, S = 1, no siblings
    const codec = new KeyCodec([{ type: 'int32' }]);
    const t = BTree.create(new MemoryStore(1024, 16), { unique: false, tupleKeys: true });
    const rows: [number | null, number][] = [
      [null, 1],
      [null, 2],
      [1, 3],
      [1, 4],
      [2, 5],
    ];
    for (const [a, pk] of rows) t.insert(codec.encode([a]), Uint8Array.of(pk));
    const rng = createGenerator('innodb-lcg64', { seed: 1 });
    // nulls_equal: pairs differing on (a) = 2, on (a, pk) = 4 → est = n_diff + 1 = [3, 5]
    expect(estimateTransient(t, { rng }).nDiff).toEqual([3, 5]);
    // nulls_unequal: the two NULLs differ too → [4, 5]
    expect(estimateTransient(t, { rng, innodb_stats_method: 'nulls_unequal' }).nDiff).toEqual([4, 5]);
    // nulls_ignored: as unequal, plus 3 rows whose prefix has no NULL → ⌊(3·1 + 1 − 1 + 1)/1⌋ = 4
    const ign = estimateTransient(t, { rng, innodb_stats_method: 'nulls_ignored' });
    expect(ign.nDiff).toEqual([4, 5]);
    expect(ign.nNonNull).toEqual([4, 4]);
    expect(estimateTransient(t, { rng }).nNonNull).toBeUndefined();
  });
});

describe('an empty index', () => {
  it('every estimator reports 0 and does not throw', () => {
    const t = BTree.create(new MemoryStore(1024, 16), { unique: false, tupleKeys: true });
    for (const e of [
      estimateTransient(t, { rng: createGenerator('innodb-lcg64', { seed: 1 }) }),
      estimatePersistent(t),
      estimateDuj1(t, { rng: createGenerator('xoshiro128**', { seed: 1 }) }),
      estimateExact(t),
      estimateHll(t),
    ]) {
      expect(e.nDiff.every((x) => x === 0)).toBe(true);
    }
  });
});

describe('estimators on a larger index', () => {
  // 60000 entries of (a, b): a has 3000 values (20 rows each), b makes the key unique.
  const t = BTree.create(new MemoryStore(4096, 4096), { tupleKeys: true });
  const l = t.bulkLoader();
  for (let a = 0; a < 3000; a++) for (let b = 0; b < 20; b++) l.add(two.encode([a, b * 7]), V);
  l.finish();

  it('seeded outputs are pinned (they change only with a major version)', () => {
    expect(estimateTransient(t, { rng: createGenerator('innodb-lcg64', { seed: 42 }) }).nDiff).toEqual([
      2885, 60165,
    ]);
    expect(
      estimatePersistent(t, { rng: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }) }).nDiff,
    ).toEqual([2928, 59840]);
    expect(
      estimateDuj1(t, { rng: createGenerator('xoshiro128**', { seed: 42 }), targetRows: 3000 }).nDiff,
    ).toEqual([2956, 60000]);
    expect(estimateHll(t).nDiff).toEqual([2977, 60341]);
  });

  it('exact and HLL', () => {
    expect(estimateExact(t).nDiff).toEqual([3000, 60000]);
    const h = estimateHll(t).nDiff;
    expect(Math.abs(h[0]! - 3000) / 3000).toBeLessThan(0.05);
    expect(Math.abs(h[1]! - 60000) / 60000).toBeLessThan(0.05);
  });

  it('persistent samples 20 leaves per prefix below a level and lands near the truth', () => {
    const e = estimatePersistent(t, { rng: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }) });
    expect(e.sampleSize).toEqual([20, 20]);
    expect(e.dives).toBe(40);
    expect(Math.abs(e.nDiff[0]! - 3000) / 3000).toBeLessThan(0.25);
    expect(Math.abs(e.nDiff[1]! - 60000) / 60000).toBeLessThan(0.25);
    expect(e.pagesRead).toBeLessThan(estimateExact(t).pagesRead);
  });

  it('transient and duj1 land near the truth on uniform data', () => {
    const tr = runExperiment(t, 'transient', { runs: 5, rng: createGenerator('innodb-lcg64', { seed: 8 }) });
    expect(tr.perPrefix[1]!.meanRelError).toBeLessThan(0.1);
    expect(tr.distinctLeaves).toBeGreaterThan(8);
    const d = estimateDuj1(t, { rng: createGenerator('xoshiro128**', { seed: 2 }), targetRows: 3000 });
    expect(d.sampledRows).toBe(3000);
    expect(Math.abs(d.rows - 60000) / 60000).toBeLessThan(0.05);
    expect(d.nDiff[1]).toBe(d.rows); // a unique prefix: nothing repeats in the sample
  });
});

describe('innodb_use_legacy_cardinality_algorithm', () => {
  it('ON dives with one process-wide page_rnd (the same wrong 730 every run), OFF with the LCG', () => {
    const t = threeLeafTree();
    const on = runExperiment(t, 'transient', {
      runs: 4,
      innodb_use_legacy_cardinality_algorithm: true,
      version: '5.1',
    });
    expect(on.identicalRuns).toBe(true);
    expect(on.distinctLeaves).toBe(1);
    expect(on.runs[0]!.nDiff).toEqual([730]);
    const off = runExperiment(t, 'transient', {
      runs: 4,
      innodb_use_legacy_cardinality_algorithm: false,
      version: '5.1',
    });
    expect(off.distinctLeaves).toBe(3);
    expect(() => estimateTransient(t, { innodb_use_legacy_cardinality_algorithm: 1 as never })).toThrow(
      TypeError,
    );
  });
});
