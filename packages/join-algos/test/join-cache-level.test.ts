// join_cache_level × optimizer_switch → algorithm, as MariaDB 10.0's check_join_cache_usage.
import { describe, expect, it } from 'vitest';
import { chooseJoinCache, type JoinCacheTable, explainJoinCache } from '../src/index.js';

const ref: JoinCacheTable = { access: 'ref', prevCached: true };
const bench = { mrr: true, mrr_sort_keys: true, mrr_cost_based: false }; // the blog's settings

describe('chooseJoinCache', () => {
  it('maps every level for a ref access with the blog settings (previous table buffered)', () => {
    const got = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((l) => {
      const c = chooseJoinCache(l, ref, bench);
      return `${l}:${c.algorithm}/${c.level}`;
    });
    expect(got).toEqual([
      '0:none/0',
      '1:none/0',
      '2:none/0',
      '3:BNLH/3',
      '4:BNLH/4',
      '5:BKA/5',
      '6:BKA/6',
      '7:BKAH/7',
      '8:BKAH/8',
    ]);
  });

  it('maps every level for a full scan', () => {
    const got = [0, 1, 2, 3, 8].map((l) => chooseJoinCache(l, { access: 'ALL', prevCached: true }).level);
    // Only level 1 forces a flat buffer for ALL; higher odd levels keep the link (MariaDB code).
    expect(got).toEqual([0, 1, 2, 2, 2]);
  });

  it('prints the EXPLAIN Extra text', () => {
    expect(chooseJoinCache(8, { access: 'ref' }, bench).extra).toBe(
      'Using join buffer (flat, BKAH join); Key-ordered Rowid-ordered scan',
    );
    expect(chooseJoinCache(6, ref, { mrr: true }).extra).toBe(
      'Using join buffer (incremental, BKA join); Rowid-ordered scan',
    );
    expect(chooseJoinCache(2, { access: 'ALL' }).extra).toBe('Using join buffer (flat, BNL join)');
    expect(chooseJoinCache(4, ref).extra).toBe('Using join buffer (incremental, BNLH join)');
    expect(chooseJoinCache(6, { access: 'eq_ref', clusteredKey: true }, bench).extra).toBe(
      'Using join buffer (flat, BKA join); Key-ordered scan',
    );
    expect(
      explainJoinCache({ algorithm: 'none', incremental: false, keyOrdered: false, rowidOrdered: false }),
    ).toBe('');
  });

  it('never buffers the first table, or anything at level 0', () => {
    expect(chooseJoinCache(8, { access: 'ALL', first: true }).algorithm).toBe('none');
    expect(chooseJoinCache(0, { access: 'ALL' }).algorithm).toBe('none');
  });

  it('join_cache_incremental=off turns an even level into the odd one below', () => {
    const c = chooseJoinCache(8, ref, { ...bench, join_cache_incremental: false });
    expect([c.algorithm, c.incremental, c.level]).toEqual(['BKAH', false, 7]);
  });

  it('join_cache_hashed=off: BKA instead of BKAH, and BKA even at level 3–4', () => {
    expect(chooseJoinCache(8, ref, { ...bench, join_cache_hashed: false }).algorithm).toBe('BKA');
    expect(chooseJoinCache(4, ref, { ...bench, join_cache_hashed: false }).algorithm).toBe('BKA');
  });

  it('join_cache_bka=off: BNLH at any level ≥ 3', () => {
    expect(chooseJoinCache(8, ref, { ...bench, join_cache_bka: false }).algorithm).toBe('BNLH');
  });

  it('BKA needs DS-MRR: mrr=off (the default), index-only, or a clustered key without mrr_sort_keys get no buffer', () => {
    expect(chooseJoinCache(6, ref).algorithm).toBe('none');
    expect(chooseJoinCache(6, { ...ref, coveringKey: true }, bench).algorithm).toBe('none');
    expect(chooseJoinCache(6, { ...ref, clusteredKey: true }, { mrr: true }).algorithm).toBe('none');
    expect(
      chooseJoinCache(6, { ...ref, dsMrrCheaper: false }, { mrr: true, mrr_cost_based: true }).algorithm,
    ).toBe('none');
  });

  it('a hash equi-join on unindexed columns is BNLH from level 3', () => {
    expect(chooseJoinCache(2, { access: 'hash' }).algorithm).toBe('none');
    expect(chooseJoinCache(8, { access: 'hash' }, bench).algorithm).toBe('BNLH');
  });

  it('outer_join_with_cache / semijoin_with_cache gate inner tables; nested inner tables need links', () => {
    expect(
      chooseJoinCache(2, { access: 'ALL', outerJoinInner: true }, { outer_join_with_cache: false }).algorithm,
    ).toBe('none');
    expect(
      chooseJoinCache(2, { access: 'ALL', semiJoinInner: true }, { semijoin_with_cache: false }).algorithm,
    ).toBe('none');
    expect(chooseJoinCache(1, { access: 'ALL', nestedInner: true }).algorithm).toBe('none');
    expect(chooseJoinCache(3, { ...ref, nestedInner: true }, bench).level).toBe(2 - 2); // level 2 for ref: none
  });

  it('rejects a bad level or access naming it', () => {
    expect(() => chooseJoinCache(9, ref)).toThrow(/join_cache_level/);
    expect(() => chooseJoinCache(1.5, ref)).toThrow(RangeError);
    expect(() => chooseJoinCache(2, { access: 'range' as 'ALL' })).toThrow(/table.access/);
  });
});
