// planJoinCaches: check_join_cache_usage's choice, then JOIN_CACHE::alloc_buffer's verdict
// (MariaDB 10.0, sql/sql_select.cc and sql/sql_join_cache.cc), table by table.
import { describe, expect, it } from 'vitest';
import { arrayIndexReader, planJoinCaches, type Tuple, tupleCodec } from '../src/index.js';

const M = 1024 * 1024;
const inner: Tuple[] = Array.from({ length: 40 }, (_, i) => [i % 10, i]);
const reader = arrayIndexReader(inner, (r) => r[0] as number);
const customer = {
  access: { access: 'ALL' as const },
  buffer: { outerCodec: tupleCodec(['int32']), type: 'inner' as const },
};
const ref = (codec: ReturnType<typeof tupleCodec>) => ({
  access: { access: 'ref' as const },
  buffer: { outerCodec: codec, type: 'inner' as const, reader },
});
const q3 = [customer, ref(tupleCodec(['int32'])), ref(tupleCodec(['int32', 'int32']))];
const bka = { join_cache_level: 6, optimizer_switch: { mrr: true, mrr_sort_keys: true } };

describe('planJoinCaches', () => {
  it('6M buffers under the 2M default join_buffer_space_limit: no join buffer, plain ref access', () => {
    const plan = planJoinCaches(q3, { ...bka, join_buffer_size: 6 * M });
    expect(plan.map((s) => s.choice.algorithm)).toEqual(['none', 'none', 'none']);
    expect(plan.map((s) => s.refused)).toEqual([false, true, true]);
    expect(plan.map((s) => s.join_buffer_size)).toEqual([0, 0, 0]);
  });

  it('the limit raised: BKA flat, then BKA incremental linked to it', () => {
    const plan = planJoinCaches(q3, { ...bka, join_buffer_size: 6 * M, join_buffer_space_limit: 16 * M });
    expect(plan.map((s) => s.choice.extra)).toEqual([
      '',
      'Using join buffer (flat, BKA join); Key-ordered Rowid-ordered scan',
      'Using join buffer (incremental, BKA join); Key-ordered Rowid-ordered scan',
    ]);
    expect(plan.map((s) => s.join_buffer_size)).toEqual([0, 6 * M, 6 * M]);
  });

  it('a refused table makes the next one flat (nothing to link to)', () => {
    // 1.5M each under 2M: the second BKA buffer does not fit beside the first.
    const plan = planJoinCaches([...q3, ref(tupleCodec(['int32']))], {
      ...bka,
      join_buffer_size: 1536 * 1024,
    });
    expect(plan.map((s) => [s.choice.algorithm, s.choice.incremental, s.refused])).toEqual([
      ['none', false, false],
      ['BKA', false, false],
      ['none', false, true],
      ['none', false, true],
    ]);
  });

  it('optimize_join_buffer_size shares the limit instead of refusing', () => {
    const plan = planJoinCaches(q3, { ...bka, join_buffer_size: 6 * M, optimize_join_buffer_size: true });
    // shrink_join_buffers: the first gets 2M, then ⌊2M / 8M · 2M⌋ = 512K and the rest, 1.5M.
    expect(plan.map((s) => s.join_buffer_size)).toEqual([0, 512 * 1024, 1536 * 1024]);
    expect(plan[2]!.choice.incremental).toBe(true);
  });
});
