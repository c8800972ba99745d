// BkaJoinCache: the record-at-a-time BKA / BKAH buffer, checked against a nested-loop model of
// every join type and against MariaDB's buffer accounting worked out by hand.
import { arrayRowFetcher, type NumberRowIdIndexReader } from '@enginekit/mrr';
import { describe, expect, it } from 'vitest';
import { arrayIndexReader, type BkaCacheSpec, BkaJoinCache, type JoinType, joinTypes } from '../src/index.js';

/** An outer record: an id, a two-column key (either part may be NULL), a payload length. */
interface Rec {
  id: number;
  a: number | null;
  b: number | null;
  len: number;
}
type Inner = readonly [number, number, number]; // a, b, id

const innerRows: Inner[] = Array.from({ length: 90 }, (_, i) => [i % 7, i % 3, 1000 + i] as const);
// the index is on (a, b), encoded as one string key; the fetcher gives the row by array position
const keyOf = (a: number, b: number): string => `${a}|${b}`;
const reader = (): NumberRowIdIndexReader<string> => {
  const r = arrayIndexReader(innerRows, (x) => keyOf(x[0], x[1]));
  return { ...r, recordsPerKey: 4, seek: r.seek.bind(r), next: r.next.bind(r), rowId: r.rowId.bind(r) };
};

function outerRecords(n: number, seed: number): Rec[] {
  let s = seed;
  const rnd = (m: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % m;
  };
  return Array.from({ length: n }, (_, id) => ({
    id,
    a: rnd(10) === 0 ? null : rnd(9),
    b: rnd(3),
    len: 5 + rnd(20),
  }));
}

const recKey = (o: Rec): string | null => (o.a === null || o.b === null ? null : keyOf(o.a, o.b));
const cond = (o: Rec, i: Inner): boolean => (o.id + i[2]) % 4 !== 0;

/** The nested-loop answer: (outer id, inner id or -1) pairs. */
function model(outer: readonly Rec[], type: JoinType): string[] {
  const out: string[] = [];
  for (const o of outer) {
    const k = recKey(o);
    const hits = k === null ? [] : innerRows.filter((i) => keyOf(i[0], i[1]) === k && cond(o, i));
    if (type === 'inner' || type === 'left') for (const i of hits) out.push(`${o.id}:${i[2]}`);
    if (type === 'left' && hits.length === 0) out.push(`${o.id}:-1`);
    if (type === 'semi' && hits.length > 0) out.push(`${o.id}:-1`);
    if (type === 'anti' && hits.length === 0) out.push(`${o.id}:-1`);
  }
  return out.sort();
}

function run(
  outer: readonly Rec[],
  extra: Partial<BkaCacheSpec<Rec, Inner, string>>,
): { out: string[]; cache: BkaJoinCache<Rec, Inner, string> } {
  const out: string[] = [];
  const cache = new BkaJoinCache<Rec, Inner, string>({
    reader: reader(),
    fetcher: arrayRowFetcher(innerRows),
    join_buffer_size: 4096,
    recordBytes: (o) => o.len,
    maxRecordBytes: 24,
    matches: cond,
    emit: (o, i) => {
      out.push(`${o.id}:${i === null ? -1 : i[2]}`);
      return true;
    },
    ...extra,
  });
  for (const o of outer) if (!cache.put(o, recKey(o))) break;
  cache.flush();
  return { out: out.sort(), cache };
}

describe('BkaJoinCache against the nested-loop model', () => {
  const outer = outerRecords(400, 7);
  for (const type of joinTypes) {
    for (const hashed of [false, true]) {
      for (const sortKeys of [false, true]) {
        it(`${type}, ${hashed ? 'BKAH' : 'BKA'}, ${sortKeys ? 'key-ordered' : 'keys in buffer order'}`, () => {
          const want = model(outer, type);
          for (const size of [300, 1000, 4096, 1 << 20]) {
            const { out, cache } = run(outer, {
              type,
              hashed,
              mrr_sort_keys: sortKeys,
              join_buffer_size: size,
              keyIdentity: (k) => k,
            });
            expect(out, `join_buffer_size ${size}`).toEqual(want);
            expect(cache.count).toBe(0);
          }
          // grouping BKA's keys (a per-record index condition) gives the same rows
          if (!hashed)
            expect(run(outer, { type, groupKeys: true, mrr_sort_keys: sortKeys }).out).toEqual(want);
        });
      }
    }
  }
});

describe('buffer accounting (MariaDB JOIN_CACHE::write_record_data)', () => {
  // reader: number row ids (ref_length 8), keyLength 8 by default, recordsPerKey 4:
  // aux_buffer_incr = (8 + 8) · 4 = 64 per record, plus 8 + 8 with the first.
  const same = (n: number, len: number): Rec[] =>
    Array.from({ length: n }, (_, id) => ({ id, a: 1, b: 1, len }));

  it('reserves the MRR share per record and is full when two more records would not fit', () => {
    // 10-byte records, maxRecordBytes 24: before record k (1-based) is written, with its share
    // reserved, 2000 − 10·(k − 1) − 16 − 64·k = 1994 − 74·k bytes are left; the buffer is full
    // when that is below two maximal records (48): k = 26 leaves 70, k = 27 leaves −4.
    const { cache } = run(same(100, 10), { join_buffer_size: 2000 });
    expect(cache.stats.joinBufferFills).toBe(Math.ceil(100 / 27));
    const c = new BkaJoinCache<Rec, Inner, string>({
      reader: reader(),
      fetcher: arrayRowFetcher(innerRows),
      join_buffer_size: 2000,
      recordBytes: (o) => o.len,
      maxRecordBytes: 24,
      emit: () => true,
    });
    for (let k = 1; k <= 26; k++) expect(c.put(same(1, 10)[0]!, '1|1')).toBe(true);
    expect(c.count).toBe(26);
    expect(c.usedBytes).toBe(260);
    expect(c.reservedBytes).toBe(16 + 26 * 64);
    c.put(same(1, 10)[0]!, '1|1');
    expect(c.count).toBe(0); // the 27th record filled it: joined and emptied
    expect(c.stats.joinBufferFills).toBe(1);
  });

  it('charges keyLength (ref.key_length) once, with the first record', () => {
    const c = new BkaJoinCache<Rec, Inner, string>({
      reader: reader(),
      fetcher: arrayRowFetcher(innerRows),
      join_buffer_size: 2000,
      keyLength: 4,
      recordBytes: (o) => o.len,
      maxRecordBytes: 24,
      emit: () => true,
    });
    c.put({ id: 0, a: 1, b: 1, len: 10 }, '1|1');
    expect(c.reservedBytes).toBe(4 + 8 + 64);
    c.put({ id: 1, a: 1, b: 1, len: 10 }, '1|1');
    expect(c.reservedBytes).toBe(4 + 8 + 2 * 64);
    expect(() => run([], { keyLength: -1 })).toThrow(/keyLength must be a non-negative integer, got -1/);
  });

  it('hands MRR the tail after the records: the reservations hold the row ids', () => {
    // each key (1|1) has 4 inner rows (a = 1 for i ≡ 1 mod 7, b = 1 for i ≡ 1 mod 3: i ≡ 1 mod 21)
    const { cache } = run(same(100, 10), { join_buffer_size: 2000, matches: () => true });
    // 27 records → 27·(rows of 1|1) row ids of 16 bytes in 2000 − 270 bytes
    const perKey = innerRows.filter((i) => i[0] === 1 && i[1] === 1).length;
    const perFill = Math.floor((2000 - 270) / 16);
    const fills = [27, 27, 27, 19];
    const refills = fills.reduce((n, recs) => n + Math.ceil((recs * perKey) / perFill) - 1, 0);
    expect(cache.counters.Handler_mrr_rowid_refills).toBe(refills);
    expect(cache.counters.Handler_mrr_init).toBe(4);
    expect(cache.counters.Handler_read_key).toBe(100);
  });

  it('BKAH also reserves a hash entry per record and sends each key once per fill', () => {
    const { cache } = run(same(100, 10), { join_buffer_size: 2000, hashed: true, matches: () => true });
    // 10 + 64 + 16 = 90 per record: 1994 − 90·k < 48 from k = 22
    expect(cache.stats.joinBufferFills).toBe(Math.ceil(100 / 22));
    expect(cache.counters.Handler_read_key).toBe(Math.ceil(100 / 22));
  });

  it('rejects a record longer than maxRecordBytes, naming the value', () => {
    expect(() => run(same(1, 30), {})).toThrow(
      /recordBytes must be an integer in \[0, maxRecordBytes = 24\], got 30/,
    );
    expect(() => run(same(1, 1), { join_buffer_size: 0 })).toThrow(/join_buffer_size must be in/);
  });
});

describe('early stop, interrupts and per-record checks', () => {
  const outer = outerRecords(300, 3);

  it('stops at the first emit that returns false and joins nothing after it', () => {
    let n = 0;
    const cache = new BkaJoinCache<Rec, Inner, string>({
      reader: reader(),
      fetcher: arrayRowFetcher(innerRows),
      join_buffer_size: 600,
      recordBytes: (o) => o.len,
      maxRecordBytes: 24,
      emit: () => ++n < 5,
    });
    let accepted = 0;
    for (const o of outer) {
      if (!cache.put(o, recKey(o))) break;
      accepted++;
    }
    expect(cache.flush()).toBe(false);
    expect(cache.stopped).toBe(true);
    expect(n).toBe(5);
    expect(accepted).toBeLessThan(outer.length);
    expect(cache.put(outer[0]!, recKey(outer[0]!))).toBe(false);
  });

  it('calls onJoined after each fill, before the buffer empties; false from it stops the join', () => {
    const counts: number[] = [];
    const c: BkaJoinCache<Rec, Inner, string> = new BkaJoinCache<Rec, Inner, string>({
      reader: reader(),
      fetcher: arrayRowFetcher(innerRows),
      join_buffer_size: 600,
      recordBytes: (o) => o.len,
      maxRecordBytes: 24,
      emit: () => true,
      onJoined: () => {
        counts.push(c.count);
        return counts.length < 3;
      },
    });
    let puts = 0;
    for (const o of outer) {
      if (!c.put(o, recKey(o))) break;
      puts++;
    }
    expect(counts.length).toBe(3);
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(c.stopped).toBe(true);
    expect(c.stats.joinBufferFills).toBe(3);
    expect(puts).toBe(counts[0]! + counts[1]! + counts[2]! - 1);
  });

  it('polls once per inner row, and a throwing poll interrupts the join', () => {
    let polls = 0;
    const { out } = run(outer, { poll: () => void polls++, matches: () => true });
    expect(polls).toBeGreaterThan(0);
    expect(polls).toBeLessThanOrEqual(out.length);
    expect(() =>
      run(outer, {
        poll: () => {
          throw new Error('interrupted');
        },
      }),
    ).toThrow('interrupted');
  });

  it('recordsOf gives every record of a grouped key, one record otherwise', () => {
    const seen: number[][] = [];
    const cache: BkaJoinCache<Rec, Inner, string> = new BkaJoinCache<Rec, Inner, string>({
      reader: reader(),
      fetcher: arrayRowFetcher(innerRows),
      join_buffer_size: 1 << 20,
      recordBytes: (o) => o.len,
      maxRecordBytes: 24,
      groupKeys: true,
      emit: (_o, i) => {
        // the association of this row is the chain head of its key; all share the key
        const ids: number[] = [];
        for (let r = 0; r < cache.count; r++) {
          const o = cache.record(r);
          if (recKey(o) === keyOf(i![0], i![1])) ids.push(r);
        }
        const chain: number[] = [];
        cache.recordsOf(Math.max(...ids), (_rec, r) => chain.push(r));
        seen.push(
          chain.sort((x, y) => x - y),
          ids,
        );
        return true;
      },
    });
    for (const o of outer.slice(0, 50)) cache.put(o, recKey(o));
    cache.flush();
    expect(seen.length).toBeGreaterThan(0);
    for (let j = 0; j < seen.length; j += 2) expect(seen[j]).toEqual(seen[j + 1]);
  });
});
