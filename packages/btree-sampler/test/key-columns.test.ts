// Key columns as InnoDB counts them, pinned by cases computed by hand from the C:
// - n_uniq (`dict_index_build_internal_non_clust`, dict/dict0dict.c in 5.1.45 and 5.6.21): a
//   clustered index counts its primary-key columns; a non-unique secondary index its own columns
//   plus every primary-key column it carries; a UNIQUE secondary index its own columns only.
//   `dict_index_get_n_unique_in_tree` (include/dict0dict.ic): n_uniq when clustered, all fields
//   of the entry otherwise.
// - the transient estimate's page-boundary +1 (`btr_estimate_number_of_different_key_vals`,
//   btr/btr0cur.c 5.1.45 / 5.5): only when n_uniq = n_unique_in_tree.
// - the persistent estimate's full scan (`dict_stats_analyze_index`, dict/dict0stats.cc 5.6.21):
//   when N_SAMPLE_PAGES · n_uniq > leaf pages; otherwise K dives for each of the n_uniq prefixes.
import { createGenerator } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import {
  BTree,
  type BTreeOptions,
  estimateExact,
  estimatePersistent,
  estimateTransient,
  KeyWriter,
} from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const EMPTY = new Uint8Array(0);
const w = new KeyWriter();

/**
 * `n` entries (i, i, i) for i = 0 … n − 1, all prefixes distinct, bulk loaded into 4 KiB pages.
 * `layout: 'key'`: the whole tuple is the key, the value empty (a secondary key that ends with
 * the primary key); `'value'`: key (i), value the codec tuple (i, i) — the primary key carried in
 * the value. Either way a record is 4 + 15 bytes + a 2-byte slot = 21 bytes, and a page offers
 * 4096 − 64 − 8 = 4024 bytes: ⌊4024 / 21⌋ = 191 records per leaf (no reserve on a secondary index).
 */
function tree(n: number, layout: 'key' | 'value', options: BTreeOptions): BTree {
  const t = BTree.create(new MemoryStore(4096, 64), { clustered: false, tupleKeys: true, ...options });
  const l = t.bulkLoader();
  for (let i = 0; i < n; i++) {
    if (layout === 'key') l.add(w.reset().int32(i).int32(i).int32(i).copy(), EMPTY);
    else l.add(w.reset().int32(i).copy(), w.reset().int32(i).int32(i).copy());
  }
  l.finish();
  return t;
}

describe('n_uniq: the fields the estimators count', () => {
  it('a clustered index counts its primary-key columns; the row in the value is not a field', () => {
    const t = BTree.create(new MemoryStore(4096, 16), { clustered: true, tupleKeys: true });
    for (let i = 0; i < 50; i++)
      t.insert(
        w
          .reset()
          .int32(i % 5)
          .int32(i)
          .copy(),
        w.reset().int32(7).int32(8).copy(),
      );
    expect(estimateExact(t).nDiff).toEqual([5, 50]);
  });

  it('a non-unique secondary index counts each primary-key column it carries (3 for lineitem-like keys)', () => {
    // key (a), primary key (b, c) in the value: n_uniq = 1 + 2
    const byValue = BTree.create(new MemoryStore(4096, 16), {
      unique: false,
      tupleKeys: true,
      tupleValues: true,
    });
    // the same entries with the primary key appended to the key, value empty: n_uniq = 3
    const byKey = BTree.create(new MemoryStore(4096, 16), { unique: false, tupleKeys: true });
    for (let i = 0; i < 60; i++) {
      const [a, b, c] = [i % 3, Math.floor(i / 4), i % 4];
      byValue.insert(w.reset().int32(a).copy(), w.reset().int32(b).int32(c).copy());
      byKey.insert(w.reset().int32(a).int32(b).int32(c).copy(), EMPTY);
    }
    // distinct a: 3; (a, b): each order b has lines i = 4b … 4b+3, whose a = i mod 3 takes 3 values → 45; all 60
    expect(estimateExact(byValue).nDiff).toEqual([3, 45, 60]);
    expect(estimateExact(byKey).nDiff).toEqual([3, 45, 60]);
    // a value that is not a codec tuple is one field
    const opaque = BTree.create(new MemoryStore(4096, 16), { unique: false, tupleKeys: true });
    for (let i = 0; i < 60; i++)
      opaque.insert(
        w
          .reset()
          .int32(i % 3)
          .copy(),
        w.reset().int32(i).int32(0).copy(),
      );
    expect(estimateExact(opaque).nDiff).toEqual([3, 60]);
  });

  it('a UNIQUE secondary index counts only its own columns', () => {
    const t = tree(100, 'key', { unique: true, uniqueFields: 1 });
    expect(estimateExact(t).nDiff).toEqual([100]);
    const u = tree(100, 'value', { unique: true, tupleValues: true });
    expect(estimateExact(u).nDiff).toEqual([100]);
  });
});

describe('the transient estimate: the boundary +1 follows n_uniq = n_unique_in_tree', () => {
  // 382 entries: two leaves of 191 under a 2-record root; S = min(8, 3 index pages) = 3 dives,
  // each on a leaf of 191 records: 190 adjacent pairs, all differing on every prefix.
  //   without the +1: n_diff = 3·190 = 570 → ⌊(570·2 + 3 − 1 + 1) / 3⌋ + min(⌊2/30⌋, 3) = 381
  //   with it (the leaf has a sibling): 3·191 = 573 → ⌊(573·2 + 3) / 3⌋ = 383
  const rng = (): ReturnType<typeof createGenerator> => createGenerator('innodb-lcg64', { seed: 7 });

  it('non-unique: the +1 on the last prefix, whichever layout carries the primary key', () => {
    for (const t of [
      tree(382, 'key', { unique: false }),
      tree(382, 'value', { unique: false, tupleValues: true }),
    ]) {
      const st = t.checkValid();
      expect(st.pagesPerLevel).toEqual([2, 1]);
      expect(st.recordsPerLevel).toEqual([382, 2]);
      const e = estimateTransient(t, { rng: rng() });
      expect(e.dives).toBe(3);
      expect(e.nDiff).toEqual([381, 381, 383]);
    }
  });

  it('UNIQUE on fewer fields than the entry holds: no +1', () => {
    expect(
      estimateTransient(tree(382, 'key', { unique: true, uniqueFields: 1 }), { rng: rng() }).nDiff,
    ).toEqual([381]);
    expect(
      estimateTransient(tree(382, 'value', { unique: true, tupleValues: true }), { rng: rng() }).nDiff,
    ).toEqual([381]);
  });
});

describe('the persistent estimate: A · n_uniq decides the full scan, and each prefix gets its dives', () => {
  // 955 = 5 · 191 entries: five full leaves under a 5-record root (level 1).
  it('A = 2: n_uniq 3 → 6 > 5 leaves, a full scan; n_uniq 2 → 4 ≤ 5, sampled', () => {
    const three = tree(955, 'key', { unique: false });
    expect(three.checkValid().pagesPerLevel).toEqual([5, 1]);
    const full = estimatePersistent(three, { innodb_stats_persistent_sample_pages: 2 });
    expect(full.dives).toBe(0);
    expect(full.nDiff).toEqual([955, 955, 955]);
    expect(full.sampleSize).toEqual([5, 5, 5]);
    // The same entries as a UNIQUE index on two fields. On level 1 (the root) D = 5 groups for
    // each prefix, K = min(A, D) = 2 dives per prefix; each sampled leaf has 191 distinct values,
    // so Σ = 2 · (191 − 1) = 380 and n_diff = ⌊⌊5 · 5 / 5⌋ · 380 / 2⌋ = 950 (level 1: n_ordinary
    // = the records on the level).
    const two = tree(955, 'key', { unique: true, uniqueFields: 2 });
    const sampled = estimatePersistent(two, { innodb_stats_persistent_sample_pages: 2 });
    expect(sampled.dives).toBe(4);
    expect(sampled.nDiff).toEqual([950, 950]);
    expect(sampled.sampleSize).toEqual([2, 2]);
  });

  it('A = 1: three prefixes get three dives where two prefixes got two', () => {
    const e3 = estimatePersistent(tree(955, 'key', { unique: false }), {
      innodb_stats_persistent_sample_pages: 1,
    });
    const e2 = estimatePersistent(tree(955, 'key', { unique: true, uniqueFields: 2 }), {
      innodb_stats_persistent_sample_pages: 1,
    });
    // K = min(1, 5) = 1 per prefix; n_diff = ⌊5 · (191 − 1) / 1⌋ = 950
    expect(e3.dives).toBe(3);
    expect(e3.nDiff).toEqual([950, 950, 950]);
    expect(e2.dives).toBe(2);
    expect(e2.nDiff).toEqual([950, 950]);
  });
});
