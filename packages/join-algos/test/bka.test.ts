// BKA / BKAH through @enginekit/mrr: batches, associations, distinct keys, counters.
import { arrayRowFetcher } from '@enginekit/mrr';
import { describe, expect, it } from 'vitest';
import {
  arrayIndexReader,
  arraySource,
  batchedKeyAccessHashJoin,
  batchedKeyAccessJoin,
  type Tuple,
  tupleCodec,
} from '../src/index.js';

const codec = tupleCodec(['int32', 'int32']);
const key = (r: Tuple) => r[0] as number | null;
// 60 outer rows over 10 keys (each key 6 times); 30 inner rows, key k at rows 3k..3k+2.
const outer: Tuple[] = Array.from({ length: 60 }, (_, i) => [i % 10, i]);
const inner: Tuple[] = Array.from({ length: 30 }, (_, i) => [Math.floor(i / 3), 100 + i]);
const spec = (join_buffer_size: number) => ({
  type: 'inner' as const,
  outer: arraySource(outer),
  outerKey: key,
  innerKey: key,
  reader: arrayIndexReader(inner, key),
  fetcher: arrayRowFetcher(inner),
  outerCodec: codec,
  join_buffer_size,
});

describe('BKA', () => {
  it('sends every buffered record as one range and matches each inner row to its record', () => {
    const seen: string[] = [];
    const stats = batchedKeyAccessJoin(spec(1 << 20), (o, i) => seen.push(`${o[1]}-${i?.[1]}`));
    expect(seen.length).toBe(60 * 3);
    expect(stats.Handler_mrr_init).toBe(1);
    expect(stats.Handler_mrr_rowid_refills).toBe(0);
    expect(stats.joinBufferFills).toBe(1);
    expect(stats.Handler_read_key).toBe(60); // one seek per record: BKA does not merge keys
    expect(stats.Handler_read_rnd).toBe(30); // rowid-ordered: each inner row fetched once
    for (const s of seen) {
      const [o, i] = s.split('-').map(Number) as [number, number];
      expect(Math.floor((i - 100) / 3)).toBe(o % 10);
    }
  });

  it('runs one MRR batch per buffer fill', () => {
    // By hand from MariaDB 10.0 (sql_join_cache.cc): an INNER BKA record is a 1-byte length
    // (set_constants: 9 + 4·3 + 8 = 29 < 256) and the 9-byte row; JOIN_TAB_SCAN_MRR::aux_buffer_incr
    // reserves mrr_length_per_rec · rec_per_key = (ref_length 8 + 8) · 3 = 48 bytes per record
    // (InnoDB's ref_length + 8, ha_innobase::info) and key_length 8 + ref_length 8 = 16 more
    // with the first. 12 records: 16 + 12 · (10 + 48) = 712 bytes.
    const stats = batchedKeyAccessJoin(spec(16 + 12 * (10 + 48)), () => {});
    expect(stats.joinBufferFills).toBe(5);
    expect(stats.Handler_mrr_init).toBe(5);
    // one byte less: 11 records per fill, ⌈60 / 11⌉ = 6 fills
    expect(batchedKeyAccessJoin(spec(16 + 12 * (10 + 48) - 1), () => {}).joinBufferFills).toBe(6);
  });

  it('gives MRR the join buffer tail: the reservations hold every row id of a batch', () => {
    // 712 bytes, 12 records of 10 bytes: 592 bytes of MRR buffer; 36 row ids of 16 bytes fit
    // (576), so each batch is one rowid fill and no refill happens.
    const stats = batchedKeyAccessJoin(spec(16 + 12 * (10 + 48)), () => {});
    expect(stats.Handler_mrr_rowid_refills).toBe(0);
    expect(stats.Handler_read_rnd).toBe(5 * 30);
  });
});

describe('BKAH', () => {
  it('sends each distinct key once per batch', () => {
    let n = 0;
    const stats = batchedKeyAccessHashJoin(spec(1 << 20), () => n++);
    expect(n).toBe(60 * 3);
    expect(stats.Handler_read_key).toBe(10);
    expect(stats.Handler_read_rnd).toBe(30);
  });

  it('semi join emits each outer row once', () => {
    let n = 0;
    batchedKeyAccessHashJoin({ ...spec(1 << 20), type: 'semi' }, () => n++);
    expect(n).toBe(60);
  });
});

describe('errors', () => {
  it('rejects a missing reader, naming it', () => {
    expect(() => batchedKeyAccessJoin({ ...spec(100), reader: null as never }, () => {})).toThrow(
      /spec.reader/,
    );
  });
});

describe('the README example', () => {
  it('prints what the README says', () => {
    const orders: Tuple[] = [
      [1, 'O'],
      [2, 'F'],
      [3, null],
    ];
    const lineitem: Tuple[] = [
      [1, 17.5],
      [1, 36.1],
      [2, 8.2],
      [9, 28.0],
    ];
    const got: string[] = [];
    const stats = batchedKeyAccessJoin(
      {
        type: 'left',
        outer: arraySource(orders),
        outerKey: (o) => o[0] as number,
        innerKey: (l) => l[0] as number,
        reader: arrayIndexReader(lineitem, (l) => l[0] as number),
        fetcher: arrayRowFetcher(lineitem),
        outerCodec: tupleCodec(['int32', 'string']),
        join_buffer_size: 262144,
        mrr_sort_keys: true,
      },
      (o, l) => got.push(JSON.stringify([o, l])),
    );
    expect(got).toEqual(['[[1,"O"],[1,17.5]]', '[[1,"O"],[1,36.1]]', '[[2,"F"],[2,8.2]]', '[[3,null],null]']);
    expect(stats.Handler_read_key).toBe(3);
  });
});
