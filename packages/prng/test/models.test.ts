// The int32/double arithmetic of the hot paths against a second implementation in BigInt:
// pcg32 as pcg_basic.c (pcg32_srandom_r, pcg32_random_r) writes it, and Lemire's method as the
// paper states it (high word of x·n, reject while the low word is below 2^32 mod n).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGenerator, type GeneratorName } from '../src/index.js';

const MASK32 = 0xffffffffn;
const MASK64 = (1n << 64n) - 1n;
const PCG_MUL = 6364136223846793005n;

/** pcg_basic.c, in BigInt. */
class Pcg32Model {
  constructor(
    public state: bigint,
    public inc: bigint,
  ) {}
  static seeded(initstate: bigint, initseq: bigint): Pcg32Model {
    const g = new Pcg32Model(0n, ((initseq << 1n) | 1n) & MASK64);
    g.next();
    g.state = (g.state + initstate) & MASK64;
    g.next();
    return g;
  }
  next(): number {
    const old = this.state;
    this.state = (old * PCG_MUL + this.inc) & MASK64;
    const xorshifted = Number((((old >> 18n) ^ old) >> 27n) & MASK32);
    const rot = Number(old >> 59n);
    return ((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0;
  }
}

// Words where a carry or a rounding error would show: all ones, all zeros, one bit either side
// of the halves, and the multiplier's own halves.
const edgeWord = fc.oneof(
  fc.constantFrom(
    0n,
    1n,
    MASK32,
    1n << 32n,
    MASK32 << 32n,
    (1n << 63n) - 1n,
    1n << 63n,
    MASK64,
    MASK64 - 1n,
    0x4c957f2dn,
    0x5851f42d00000000n,
    0xffffffff4c957f2dn,
  ),
  fc.bigInt({ min: 0n, max: MASK64 }),
);

describe('pcg32 against pcg_basic.c in BigInt', () => {
  it('steps exactly from any raw [state, inc]', () => {
    fc.assert(
      fc.property(edgeWord, edgeWord, (state, incWord) => {
        const inc = incWord | 1n;
        const g = createGenerator('pcg32', { state: [state, inc] });
        const model = new Pcg32Model(state, inc);
        for (let i = 0; i < 64; i++) expect(g.nextUint32()).toBe(model.next());
      }),
      { numRuns: 300 },
    );
  });

  it('seeds as pcg32_srandom_r for any seed and stream', () => {
    fc.assert(
      fc.property(edgeWord, edgeWord, (seed, stream) => {
        const g = createGenerator('pcg32', { seed, stream });
        const model = Pcg32Model.seeded(seed, stream);
        for (let i = 0; i < 8; i++) expect(g.nextUint32()).toBe(model.next());
      }),
      { numRuns: 200 },
    );
  });

  it('one long run from pcg32-demo’s seed stays on the model', () => {
    const g = createGenerator('pcg32', { seed: 42n, stream: 54n });
    const model = Pcg32Model.seeded(42n, 54n);
    for (let i = 0; i < 20_000; i++) {
      const got = g.nextUint32();
      const want = model.next();
      if (got !== want) expect({ i, got }).toEqual({ i, want });
    }
  });
});

/** Lemire's method on a stream of 32-bit draws, in BigInt. */
function lemireModel(draw: () => number, n: number): number {
  const bn = BigInt(n);
  const threshold = ((1n << 32n) - bn) % bn;
  for (;;) {
    const m = BigInt(draw()) * bn;
    if ((m & MASK32) >= threshold) return Number(m >> 32n);
  }
}

// Bounds on both sides of every switch in the inline code (2^21, 2^31, 2^32) and around powers
// of two, where the rejection threshold is 0 or largest.
const edgeBound = fc.oneof(
  fc.constantFrom(
    1,
    2,
    3,
    7,
    1000,
    2 ** 16 - 1,
    2 ** 16 + 1,
    2 ** 21 - 1,
    2 ** 21,
    2 ** 21 + 1,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 31 + 1,
    3 * 2 ** 30,
    2 ** 32 - 1,
    2 ** 32,
  ),
  fc.integer({ min: 1, max: 2 ** 32 }),
);

describe.each(['xoshiro128**', 'xoshiro256**', 'splitmix64', 'pcg32'] as GeneratorName[])(
  '%s nextBelow against Lemire in BigInt',
  (name) => {
    it('gives the model’s value for the same draws, at every bound', () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: MASK64 }), edgeBound, (seed, n) => {
          const g = createGenerator(name, { seed });
          const twin = createGenerator(name, { seed });
          for (let i = 0; i < 32; i++) expect(g.nextBelow(n)).toBe(lemireModel(() => twin.nextUint32(), n));
        }),
        { numRuns: 300 },
      );
    });
  },
);
