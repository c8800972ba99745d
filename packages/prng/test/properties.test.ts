// One property suite, run against every generator.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGenerator, type GeneratorName, generatorNames, type JumpableGenerator } from '../src/index.js';

const seeded = (name: GeneratorName, seed: number) =>
  createGenerator(name, name === 'park-miller' ? { seed: (seed % 2147483645) + 1 } : { seed });

describe.each(generatorNames)('%s', (name) => {
  it('same seed gives the same sequence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 3 }), (seed) => {
        const a = seeded(name, seed);
        const b = seeded(name, seed);
        for (let i = 0; i < 50; i++) expect(a.nextUint32()).toBe(b.nextUint32());
      }),
      { numRuns: 40 },
    );
  });

  it('nextUint32 is an integer in [0, 2^32)', () => {
    const g = seeded(name, 7);
    for (let i = 0; i < 2000; i++) {
      const x = g.nextUint32();
      expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true);
    }
  });

  it('nextBelow(n) is an integer in [0, n) for any n in [1, 2^32]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 3 }),
        fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 2 ** 32 })),
        (seed, n) => {
          const g = seeded(name, seed);
          for (let i = 0; i < 20; i++) {
            const x = g.nextBelow(n);
            expect(Number.isInteger(x)).toBe(true);
            expect(x).toBeGreaterThanOrEqual(0);
            expect(x).toBeLessThan(n);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects bad n with a clear error', () => {
    const g = seeded(name, 3);
    expect(() => g.nextBelow(0)).toThrow(RangeError);
    expect(() => g.nextBelow(-5)).toThrow(/n must be in \[1, 2\^32\]/);
    expect(() => g.nextBelow(2 ** 32 + 1)).toThrow(RangeError);
    expect(() => g.nextBelow(2.5)).toThrow(TypeError);
    expect(() => g.nextBelow(Number.NaN)).toThrow(/n must be an integer/);
  });
});

describe.each(['xoshiro128**', 'xoshiro256**'] as const)('%s jump()', (name) => {
  it('moves to a different stream, deterministically', () => {
    const a = createGenerator(name, { seed: 99 }) as JumpableGenerator;
    const b = createGenerator(name, { seed: 99 }) as JumpableGenerator;
    const plain = createGenerator(name, { seed: 99 });
    a.jump();
    b.jump();
    const xs = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => plain.nextUint32())).not.toEqual(xs);
  });
});

describe('Lemire nextBelow is unbiased where a modulo would not be', () => {
  it('n = 3·2^30: the three thirds are equally likely (a plain x % n would favour the first)', () => {
    const g = createGenerator('xoshiro128**', { seed: 5 });
    const n = 3 * 2 ** 30;
    const counts = [0, 0, 0];
    const draws = 60_000;
    for (let i = 0; i < draws; i++) counts[Math.floor(g.nextBelow(n) / 2 ** 30)]! += 1;
    // x % n maps [0, 2^32) onto n with the first third hit twice as often: expected 1/2, 1/4, 1/4.
    for (const c of counts) expect(Math.abs(c / draws - 1 / 3)).toBeLessThan(0.01);
  });
});
