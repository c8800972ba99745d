// Chained join buffers (t0 ⋈ t1 ⋈ t2), flat and incremental, against a triple nested loop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arraySource, blockJoinPipeline, type Tuple, tupleCodec } from '../src/index.js';
import { linkBytes } from '../src/index.js';

const codec = tupleCodec(['double', 'double', 'int32']);
const key = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);
// A row: [key to the next table, own key, payload].
const table = fc.array(fc.tuple(key, key, fc.integer({ min: 0, max: 99 })) as fc.Arbitrary<Tuple>, {
  maxLength: 14,
});

function oracle(t0: Tuple[], t1: Tuple[], t2: Tuple[]): string[] {
  const out: string[] = [];
  for (const a of t0)
    for (const b of t1)
      for (const c of t2)
        if (a[0] !== null && a[0] === b[1] && b[0] !== null && b[0] === c[1])
          out.push(JSON.stringify([a, b, c]));
  return out.sort();
}

function run(t0: Tuple[], t1: Tuple[], t2: Tuple[], size: number, incremental: boolean, hashed: boolean) {
  const out: string[] = [];
  const stats = blockJoinPipeline(
    { source: arraySource(t0), codec },
    [
      {
        source: arraySource(t1),
        codec,
        outerKey: (rows) => (rows[0] as Tuple)[0] as number | null,
        innerKey: (r) => (r as Tuple)[1] as number | null,
        join_buffer_size: size,
        hashed,
      },
      {
        source: arraySource(t2),
        codec,
        outerKey: (rows) => (rows[1] as Tuple)[0] as number | null,
        innerKey: (r) => (r as Tuple)[1] as number | null,
        join_buffer_size: size,
        hashed,
        incremental,
      },
    ],
    (rows) => out.push(JSON.stringify(rows)),
  );
  return { out: out.sort(), stats };
}

describe('blockJoinPipeline', () => {
  it('flat and incremental, BNL and BNLH, give the triple nested loop result for any buffer size', () => {
    fc.assert(
      fc.property(
        table,
        table,
        table,
        fc.integer({ min: 1, max: 600 }),
        fc.boolean(),
        fc.boolean(),
        (t0, t1, t2, size, inc, hashed) => {
          expect(run(t0, t1, t2, size, inc, hashed).out).toEqual(oracle(t0, t1, t2));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an incremental buffer stores a link instead of copies, so it fills less often', () => {
    const t0: Tuple[] = Array.from({ length: 40 }, (_, i) => [i % 5, i, i]);
    const t1: Tuple[] = Array.from({ length: 40 }, (_, i) => [i % 3, i % 5, i]);
    const t2: Tuple[] = Array.from({ length: 9 }, (_, i) => [0, i % 3, i]);
    const flat = run(t0, t1, t2, 400, false, false);
    const inc = run(t0, t1, t2, 400, true, false);
    expect(inc.out).toEqual(flat.out);
    expect(inc.stats[1]!.joinBufferFills).toBeLessThan(flat.stats[1]!.joinBufferFills);
    expect(inc.stats[0]!.joinBufferFills).toBe(flat.stats[0]!.joinBufferFills);
  });

  it('rejects an empty pipeline', () => {
    expect(() => blockJoinPipeline({ source: arraySource([]), codec }, [], () => {})).toThrow(/steps/);
  });
});

describe('incremental links', () => {
  it('are as wide as the previous buffer needs (size_of_rec_ofs = offset_size(buff_size))', () => {
    expect(linkBytes(200)).toBe(1);
    expect(linkBytes(65535)).toBe(2);
    expect(linkBytes(131072)).toBe(4);
  });
});
