import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createGenerator,
  nextFloat53,
  sampleWithoutReplacement,
  shuffle,
  uniformInt,
  ZipfSampler,
} from '../src/index.js';

describe('helpers', () => {
  it('uniformInt stays within [min, max], including ranges wider than 2^32', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.integer({ min: 0, max: 2 ** 45 }),
        (min, span) => {
          const g = createGenerator('pcg32', { seed: 1 });
          for (let i = 0; i < 10; i++) {
            const x = uniformInt(g, min, min + span);
            expect(x >= min && x <= min + span && Number.isInteger(x)).toBe(true);
          }
        },
      ),
    );
    expect(() => uniformInt(createGenerator('pcg32', { seed: 1 }), 5, 4)).toThrow(
      /max \(4\) must be >= min \(5\)/,
    );
  });
  it('nextFloat53 is in [0, 1) with mean near 1/2', () => {
    const g = createGenerator('xoshiro256**', { seed: 3 });
    let sum = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = nextFloat53(g);
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(Math.abs(sum / 20_000 - 0.5)).toBeLessThan(0.01);
  });
  it('shuffle is a permutation; sampling without replacement gives distinct values', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 0, max: 1000 }), (arr, seed) => {
        const g = createGenerator('xoshiro128**', { seed });
        const copy = shuffle(g, [...arr]);
        expect([...copy].sort()).toEqual([...arr].sort());
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }), (n, k0) => {
        const k = Math.min(n, k0);
        const s = sampleWithoutReplacement(createGenerator('pcg32', { seed: n * 7 + k }), n, k);
        expect(s).toHaveLength(k);
        expect(new Set(s).size).toBe(k);
        for (const x of s) expect(x >= 0 && x < n).toBe(true);
      }),
    );
  });
  it('Zipf frequencies follow k^-s (rank 1 vs rank 2 ratio = 2^s)', () => {
    const z = new ZipfSampler(1000, 1.1);
    const g = createGenerator('xoshiro128**', { seed: 11 });
    const counts = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) {
      const k = z.sample(g);
      expect(k >= 1 && k <= 1000).toBe(true);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const ratio = counts.get(1)! / counts.get(2)!;
    expect(Math.abs(ratio - 2 ** 1.1)).toBeLessThan(0.1);
    expect(() => new ZipfSampler(0, 1)).toThrow(RangeError);
  });
});
