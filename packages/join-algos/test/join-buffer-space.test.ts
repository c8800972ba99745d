// join_buffer_space_limit and optimize_join_buffer_size, by hand from MariaDB 10.0:
// sql/sql_join_cache.cc JOIN_CACHE::alloc_buffer, get_min_join_buffer_size,
// get_max_join_buffer_size; sql/sql_select.cc JOIN::shrink_join_buffers.
import { describe, expect, it } from 'vitest';
import {
  allocateJoinBuffers,
  arrayIndexReader,
  JOIN_BUFFER_SPACE_LIMIT_DEFAULT,
  type JoinBufferNeeds,
  joinBufferNeeds,
  type Tuple,
  tupleCodec,
} from '../src/index.js';

const M = 1024 * 1024;
const small: JoinBufferNeeds = { minBytes: 100, bytesPerRecord: 50, maxRecordBytes: 40 };

describe('allocateJoinBuffers, optimize_join_buffer_size=off (the 10.0 default)', () => {
  it('every buffer is join_buffer_size; one that takes the total past the limit gets none', () => {
    expect(JOIN_BUFFER_SPACE_LIMIT_DEFAULT).toBe(2 * M);
    // 6M buffers under the 2M default limit: curr_buff_space_sz 6M > 2M and no shrinking ⇒ fail.
    expect(allocateJoinBuffers([small, small], { join_buffer_size: 6 * M })).toEqual([0, 0]);
    // The limit raised: both get their 6M.
    expect(
      allocateJoinBuffers([small, small], { join_buffer_size: 6 * M, join_buffer_space_limit: 16 * M }),
    ).toEqual([6 * M, 6 * M]);
    // 1M each: 1M + 1M = 2M is not over the limit; a third would be 3M.
    expect(allocateJoinBuffers([small, small, small], { join_buffer_size: M })).toEqual([M, M, 0]);
    // A table without a buffer (null) takes no space.
    expect(allocateJoinBuffers([small, null, small], { join_buffer_size: M })).toEqual([M, 0, M]);
  });

  it('a buffer never gets less than its minimum, and minimums over the limit fail', () => {
    const big = { ...small, minBytes: 3 * M };
    // set_if_bigger(max_sz, min_sz), then curr_min_buff_space_sz 3M > 2M ⇒ fail.
    expect(allocateJoinBuffers([big], { join_buffer_size: M })).toEqual([0]);
    expect(allocateJoinBuffers([big], { join_buffer_size: M, join_buffer_space_limit: 4 * M })).toEqual([
      3 * M,
    ]);
  });
});

describe('allocateJoinBuffers, optimize_join_buffer_size=on', () => {
  it('sizes a buffer for its expected records (get_max_join_buffer_size)', () => {
    // max_records 100; 262144 / 100 = 2621 > 50 ⇒ 50 · 100 + pack_length 40 = 5040.
    const n = { ...small, expectedRecords: 100 };
    expect(allocateJoinBuffers([n], { join_buffer_size: 262144, optimize_join_buffer_size: true })).toEqual([
      5040,
    ]);
    // max_records at least 10: 50 · 10 + 40 = 540.
    expect(
      allocateJoinBuffers([{ ...small, expectedRecords: 3 }], {
        join_buffer_size: 262144,
        optimize_join_buffer_size: true,
      }),
    ).toEqual([540]);
    // Many records: the buffer is join_buffer_size.
    expect(
      allocateJoinBuffers([{ ...small, expectedRecords: 1e6 }], {
        join_buffer_size: 262144,
        optimize_join_buffer_size: true,
      }),
    ).toEqual([262144]);
  });

  it('shrinks earlier buffers in proportion so the query fits join_buffer_space_limit', () => {
    const n = { ...small, expectedRecords: 1e6 };
    const options = { join_buffer_size: 6 * M, optimize_join_buffer_size: true };
    // Table 1: 6M > 2M ⇒ shrink_join_buffers(6M → 2M): it gets 2M.
    expect(allocateJoinBuffers([n], options)).toEqual([2 * M]);
    // Table 2: current 2M + 6M = 8M: table 1 becomes ⌊2M / 8M · 2M⌋ = 512K; what is left of the
    // 2M (1.5M) goes to table 2.
    expect(allocateJoinBuffers([n, n], options)).toEqual([512 * 1024, 1536 * 1024]);
  });

  it('a table that cannot get its minimum gets no join buffer', () => {
    const n = { minBytes: 1536 * 1024, bytesPerRecord: 50, maxRecordBytes: 40, expectedRecords: 1e6 };
    const options = { join_buffer_size: 6 * M, optimize_join_buffer_size: true };
    // Minimums 1.5M + 1.5M = 3M > 2M ⇒ the second fails; the first keeps its 2M.
    expect(allocateJoinBuffers([n, n], options)).toEqual([2 * M, 0]);
  });

  it('rejects bad input, naming it', () => {
    expect(() => allocateJoinBuffers([small], { join_buffer_size: 64 })).toThrow(/join_buffer_size/);
    expect(() => allocateJoinBuffers([small], { join_buffer_space_limit: 100 })).toThrow(
      /join_buffer_space_limit must be an integer ≥ 2048/,
    );
    expect(() => allocateJoinBuffers([{ ...small, minBytes: -1 }])).toThrow(/needs\[0\].minBytes/);
  });
});

describe('joinBufferNeeds', () => {
  const codec = tupleCodec(['int32', 'int32']); // at most 9 bytes
  it('BNL inner: bare records, the minimum is one average and one maximal record', () => {
    expect(joinBufferNeeds({ outerCodec: codec, type: 'inner', algorithm: 'BNL' })).toEqual({
      minBytes: 18,
      bytesPerRecord: 9,
      maxRecordBytes: 9,
    });
  });

  it('LEFT BNLH: length and match flag, a 12-byte hash entry per record', () => {
    // header 1 + 1; avg 9 + 2 + 12 = 23; max 11; min 34
    expect(joinBufferNeeds({ outerCodec: codec, type: 'left', algorithm: 'BNLH' })).toEqual({
      minBytes: 34,
      bytesPerRecord: 23,
      maxRecordBytes: 11,
    });
  });

  it('BKA: aux_buffer_incr(1) = key_length + ref_length + (ref_length + 8) · rec_per_key', () => {
    const inner: Tuple[] = Array.from({ length: 30 }, (_, i) => [Math.floor(i / 3), i]);
    const reader = arrayIndexReader(inner, (r) => r[0] as number);
    // rec_per_key 3, ref_length 8, key 8: 8 + 8 + 16 · 3 = 64; record 1 + 9 = 10
    expect(
      joinBufferNeeds({ outerCodec: codec, type: 'inner', algorithm: 'BKA', reader, expectedRecords: 500 }),
    ).toEqual({
      minBytes: 10 + 10 + 64,
      bytesPerRecord: 10 + 64,
      maxRecordBytes: 10,
      expectedRecords: 500,
    });
    expect(() => joinBufferNeeds({ outerCodec: codec, type: 'inner', algorithm: 'BKA' })).toThrow(
      /needs the inner reader/,
    );
    expect(() =>
      joinBufferNeeds({
        outerCodec: { ...codec, maxByteLength: undefined } as never,
        type: 'inner',
        algorithm: 'BNL',
      }),
    ).toThrow(/maxRowBytes/);
  });
});
