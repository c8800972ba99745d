import fc from 'fast-check';
import { type MrrRange, SortedArrayIndex } from '../src/index.js';

/** A random secondary index: `n` entries, keys in [0, keyDomain), row ids 0..n−1 (distinct). */
export interface IndexCase {
  readonly keys: number[];
  readonly rowIds: number[];
}

export const indexCase = (maxEntries = 120, keyDomain = 12): fc.Arbitrary<IndexCase> =>
  fc
    .array(fc.integer({ min: 0, max: keyDomain - 1 }), { maxLength: maxEntries, size: 'medium' })
    .chain((keys) =>
      fc
        .shuffledSubarray(
          Array.from({ length: keys.length * 2 }, (_, i) => i),
          { minLength: keys.length, maxLength: keys.length },
        )
        .map((rowIds) => ({ keys, rowIds })),
    );

export const keyRanges = (keyDomain = 12, maxRanges = 60): fc.Arbitrary<MrrRange<number>[]> =>
  fc.array(
    fc.record({ key: fc.integer({ min: -1, max: keyDomain }), association: fc.nat({ max: 1_000_000 }) }),
    {
      maxLength: maxRanges,
      size: 'medium',
    },
  );

export const anyRanges = (keyDomain = 12, maxRanges = 40): fc.Arbitrary<MrrRange<number>[]> =>
  fc.array(
    fc.oneof(
      fc.record({ key: fc.integer({ min: -1, max: keyDomain }), association: fc.nat({ max: 1_000_000 }) }),
      fc.record(
        {
          low: fc.integer({ min: -1, max: keyDomain }),
          high: fc.integer({ min: -1, max: keyDomain }),
          lowInclusive: fc.boolean(),
          highInclusive: fc.boolean(),
          association: fc.nat({ max: 1_000_000 }),
        },
        { requiredKeys: ['association'] },
      ),
    ),
    { maxLength: maxRanges, size: 'medium' },
  );

/** Row for row id i: distinct from i so a mix-up of ids and rows shows. */
export const rowOf = (i: number): string => `row-${i}`;

/** The oracle: per range in input order, every entry in it, with the range's association. */
export function lookupModel(
  keys: readonly number[],
  rowIds: readonly number[],
  ranges: readonly MrrRange<number>[],
): string[] {
  const out: string[] = [];
  ranges.forEach((r, seq) => {
    const assoc = r.association ?? seq;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as number;
      let inside: boolean;
      if ('key' in r) inside = k === r.key;
      else {
        const lowOk = r.low === undefined || (r.lowInclusive === false ? k > r.low : k >= r.low);
        const highOk = r.high === undefined || (r.highInclusive === false ? k < r.high : k <= r.high);
        inside = lowOk && highOk;
      }
      if (inside) out.push(`${rowOf(rowIds[i] as number)}@${assoc}`);
    }
  });
  return out.sort();
}

export function makeIndex(c: IndexCase, unique = false): SortedArrayIndex {
  return new SortedArrayIndex(c.keys, c.rowIds, { unique });
}

export function rowsFor(c: IndexCase): string[] {
  return Array.from({ length: c.rowIds.length * 2 }, (_, i) => rowOf(i));
}

/** Buffer sizes from `min` up, weighted towards the small end where batches and refills happen. */
export const bufferSize = (min: number, max = 4096): fc.Arbitrary<number> =>
  fc.oneof(fc.integer({ min, max: min + 100 }), fc.integer({ min, max }));
