// Counters, buffer growth, spilling and errors, on small hand-made inputs.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  arrayIndex,
  arraySource,
  blockNestedLoopHashJoin,
  blockNestedLoopJoin,
  graceHashJoin,
  indexNestedLoopJoin,
  JoinBuffer,
  type Tuple,
  tupleCodec,
} from '../src/index.js';

const codec = tupleCodec(['int32', 'int32']);
const rows = (n: number, keyOf: (i: number) => number | null): Tuple[] =>
  Array.from({ length: n }, (_, i) => [keyOf(i), i]);
const key = (r: Tuple) => r[0] as number | null;

describe('block nested loop', () => {
  it('scans the inner table once per buffer fill', () => {
    const outer = rows(100, (i) => i);
    const inner = rows(30, (i) => i * 2);
    // An INNER BNL buffer stores bare rows: no length (no key access), no match flag.
    const recordBytes = codec.byteLength([1, 1]); // NULL bitmap 1 + 4 + 4 = 9
    let out = 0;
    const stats = blockNestedLoopJoin(
      {
        type: 'inner',
        outer: arraySource(outer),
        inner: arraySource(inner),
        outerKey: key,
        innerKey: key,
        outerCodec: codec,
        join_buffer_size: recordBytes * 10,
      },
      () => out++,
    );
    expect(out).toBe(30);
    expect(stats.joinBufferFills).toBe(10);
    expect(stats.innerScans).toBe(10);
    // Outer scan 100 + 1 EOF call; each inner scan 30 + 1.
    expect(stats.Handler_read_rnd_next).toBe(101 + 10 * 31);
    expect(stats.rowsOut).toBe(30);
    expect(stats.joinBufferGrows).toBe(0);
  });

  it('grows the buffer to hold one record larger than join_buffer_size', () => {
    const wide = tupleCodec(['int32', 'string']);
    const outer: Tuple[] = [
      [1, 'x'.repeat(500)],
      [2, 'y'],
    ];
    const inner: Tuple[] = [
      [1, 'a'],
      [2, 'b'],
    ];
    const got: string[] = [];
    const stats = blockNestedLoopHashJoin(
      {
        type: 'inner',
        outer: arraySource(outer),
        inner: arraySource(inner),
        outerKey: key,
        innerKey: key,
        outerCodec: wide,
        join_buffer_size: 16,
      },
      (o, i) => got.push(`${(o[1] as string).length}:${i?.[1]}`),
    );
    expect(got.sort()).toEqual(['1:b', '500:a']);
    expect(stats.joinBufferGrows).toBe(1);
  });
});

describe('JoinBuffer', () => {
  it('packs records into one byte buffer and keeps the invariant', () => {
    // Length and match flag (a LEFT join's BNLH buffer). sql_join_cache.cc set_constants:
    // len = 9 (row) + 1 (flag) + 4·(3 fields + 1 flag field) + 8 = 34 < 256 ⇒ a 1-byte length.
    const buf = new JoinBuffer(codec, 100);
    expect(buf.lengthBytes).toBe(1);
    expect(buf.headerBytes).toBe(2);
    let n = 0;
    while (buf.put([n, -n], n) >= 0) n++;
    expect(n).toBe(Math.floor(100 / 11));
    expect(buf.usedBytes).toBe(n * 11);
    expect([...buf.bytes.subarray(buf.offset(1), buf.offset(1) + 3)]).toEqual([9, 0, 0]); // length 9, flag 0, NULL bitmap
    expect(buf.row(3)).toEqual([3, -3]);
    expect(buf.matched(3)).toBe(false);
    buf.setMatched(3);
    expect(buf.matched(3)).toBe(true);
    expect(buf.matched(2)).toBe(false);
    buf.reset();
    expect(buf.count).toBe(0);
    expect(buf.put([9, 9], 9)).toBe(0);
    expect(buf.matched(0)).toBe(false);
  });

  it('rejects a bad size naming the argument', () => {
    expect(() => new JoinBuffer(codec, 0)).toThrow(RangeError);
    expect(() => new JoinBuffer(codec, 1.5)).toThrow(/join_buffer_size/);
  });
});

describe('index nested loop', () => {
  it('counts one Handler_read_key per non-NULL outer key and every next_same call', () => {
    const outer = rows(10, (i) => (i === 0 ? null : i % 3)); // keys: null,1,2,0,1,2,0,1,2,0
    const inner = rows(6, (i) => i % 2); // key 0 ×3, key 1 ×3
    let out = 0;
    const stats = indexNestedLoopJoin(
      {
        type: 'inner',
        outer: arraySource(outer),
        inner: arrayIndex(inner, key),
        outerKey: key,
        innerKey: key,
      },
      () => out++,
    );
    expect(stats.Handler_read_key).toBe(9);
    // keys 0 (3 rows) and 1 (3 rows): 3 next_same each; key 2: none found, no next_same.
    expect(stats.Handler_read_next).toBe(6 * 3);
    expect(out).toBe(6 * 3);
  });
});

describe('grace hash join', () => {
  const made: string[] = [];
  const mkTmp = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'grace-'));
    made.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  const spec = (tmp: string, budget: number) => ({
    type: 'left' as const,
    outer: arraySource(rows(200, (i) => (i % 17 === 0 ? null : i % 50))),
    inner: arraySource(rows(300, (i) => i % 60)),
    outerKey: key,
    innerKey: key,
    outerCodec: codec,
    innerCodec: codec,
    memoryBudget: budget,
    partitions: 4,
    tmpdir: tmp,
  });

  it('spills to partition files with a tiny budget and removes them', () => {
    const tmp = mkTmp();
    let spilled = 0;
    const stats = graceHashJoin(spec(tmp, 64), () => spilled++);
    let inMemory = 0;
    const mem = graceHashJoin(spec(tmp, 1 << 20), () => inMemory++);
    expect(spilled).toBe(inMemory);
    expect(stats.spills).toBe(1);
    expect(stats.partitions).toBe(4);
    expect(stats.spilledBytes).toBeGreaterThan(0);
    expect(mem.spills).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('removes its files when the consumer throws', () => {
    const tmp = mkTmp();
    let n = 0;
    expect(() =>
      graceHashJoin(spec(tmp, 64), () => {
        if (++n === 5) throw new Error('consumer failed');
      }),
    ).toThrow('consumer failed');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('rejects bad options naming the argument', () => {
    const tmp = mkTmp();
    expect(() => graceHashJoin({ ...spec(tmp, 0) }, () => {})).toThrow(/memoryBudget/);
    expect(() => graceHashJoin({ ...spec(tmp, 64), partitions: 1 }, () => {})).toThrow(/partitions/);
    expect(() => graceHashJoin({ ...spec(tmp, 64), type: 'full' as 'left' }, () => {})).toThrow(RangeError);
  });
});
