import { describe, expect, it } from 'vitest';
import { createGenerator, type GeneratorName, ParkMiller, Pcg32, Xoshiro128StarStar } from '../src/index.js';

describe('createGenerator argument errors', () => {
  it('names the bad generator name and lists the good ones', () => {
    expect(() => createGenerator('mt19937' as GeneratorName)).toThrow(RangeError);
    expect(() => createGenerator('mt19937' as GeneratorName)).toThrow(
      /unknown generator 'mt19937'.*xoshiro128\*\*/,
    );
    expect(() => createGenerator(42 as unknown as GeneratorName)).toThrow(TypeError);
  });
  it('rejects bad seeds', () => {
    expect(() => createGenerator('pcg32', { seed: -1 })).toThrow(/seed must be non-negative/);
    expect(() => createGenerator('pcg32', { seed: 1.5 })).toThrow(TypeError);
    expect(() => createGenerator('splitmix64', { seed: -3n })).toThrow(RangeError);
    expect(() => new ParkMiller({ seed: 0 })).toThrow(/seed for park-miller must be in \[1, 2\^31 - 2\]/);
    expect(() => new ParkMiller({ seed: 2147483647 })).toThrow(RangeError);
  });
  it('rejects wordBits other than 32 or 64, and options that do not apply', () => {
    expect(() => createGenerator('innodb-page-rnd', { wordBits: 16 as 32 })).toThrow(
      /wordBits must be 32 or 64, got 16/,
    );
    expect(() => createGenerator('xoshiro128**', { wordBits: 32 })).toThrow(
      /option 'wordBits' does not apply to xoshiro128\*\*/,
    );
    expect(() => createGenerator('splitmix64', { stream: 1n })).toThrow(RangeError);
  });
  it('rejects bad state', () => {
    expect(() => new Xoshiro128StarStar({ state: [0, 0, 0, 0] })).toThrow(/must not be all zero/);
    expect(() => new Xoshiro128StarStar({ state: [1, 2] })).toThrow(/exactly 4 word/);
    expect(() => new Pcg32({ state: [1n, 2n] })).toThrow(/inc.*must be odd/);
  });
  it('rejects a bad intervalVariant', () => {
    expect(() => createGenerator('innodb-ut-rnd', { intervalVariant: '5.7' as '5.5' })).toThrow(
      /intervalVariant/,
    );
  });
});
