import type { GeneratorName, GeneratorOptions, RandomGenerator } from './types.js';
import { InnodbPageRnd } from './generators/innodb-page-rnd.js';
import { InnodbUtRnd } from './generators/innodb-ut-rnd.js';
import { InnodbLcg64 } from './generators/innodb-lcg64.js';
import { SplitMix64 } from './generators/splitmix64.js';
import { Xoshiro128StarStar } from './generators/xoshiro128ss.js';
import { Xoshiro256StarStar } from './generators/xoshiro256ss.js';
import { Pcg32 } from './generators/pcg32.js';
import { ParkMiller } from './generators/park-miller.js';
import { checkWordBits } from './internal/validate.js';

/** Every generator name, legacy ones first. */
export const generatorNames: readonly GeneratorName[] = Object.freeze([
  'innodb-page-rnd',
  'innodb-ut-rnd',
  'innodb-lcg64',
  'splitmix64',
  'xoshiro128**',
  'xoshiro256**',
  'pcg32',
  'park-miller',
] as const);

/** The generators that model InnoDB's C code (word width, historical `nextBelow`). */
export const legacyGeneratorNames: readonly GeneratorName[] = Object.freeze([
  'innodb-page-rnd',
  'innodb-ut-rnd',
  'innodb-lcg64',
] as const);

const OPTION_KEYS: Record<GeneratorName, readonly (keyof GeneratorOptions)[]> = {
  'innodb-page-rnd': ['seed', 'state', 'wordBits'],
  'innodb-ut-rnd': ['seed', 'state', 'wordBits', 'intervalVariant'],
  'innodb-lcg64': ['seed', 'state', 'wordBits'],
  splitmix64: ['seed', 'state'],
  'xoshiro128**': ['seed', 'state'],
  'xoshiro256**': ['seed', 'state'],
  pcg32: ['seed', 'stream', 'state'],
  'park-miller': ['seed', 'state'],
};

/**
 * Create a generator by name.
 *
 * Without a `seed` or `state`, the InnoDB generators start where the server started
 * (`page_rnd` = 976722341, `ut_rnd_ulint_counter` = 65654363, the LCG from the time in
 * microseconds), Park–Miller starts at 1, and the modern generators take 64 bits from
 * `crypto.getRandomValues`.
 *
 * @example
 * ```ts
 * const legacy = createGenerator('innodb-page-rnd');
 * legacy.nextBelow(3); // 2, and 2 again for the next 36 calls with 32-bit words, forever with 64
 * const good = createGenerator('xoshiro128**', { seed: 42 });
 * good.nextBelow(3); // 0, 1 or 2, unbiased
 * ```
 */
export function createGenerator(name: GeneratorName, options: GeneratorOptions = {}): RandomGenerator {
  if (typeof name !== 'string') throw new TypeError(`name must be a string, got ${String(name)}`);
  const allowed = OPTION_KEYS[name];
  if (allowed === undefined) {
    throw new RangeError(`name: unknown generator '${name}'; expected one of ${generatorNames.join(', ')}`);
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`options must be an object, got ${String(options)}`);
  }
  for (const key of Object.keys(options) as (keyof GeneratorOptions)[]) {
    if (options[key] === undefined) continue;
    if (!allowed.includes(key)) {
      throw new RangeError(`option '${key}' does not apply to ${name} (it takes ${allowed.join(', ')})`);
    }
  }
  if (options.wordBits !== undefined) checkWordBits(options.wordBits);
  switch (name) {
    case 'innodb-page-rnd':
      return new InnodbPageRnd(options);
    case 'innodb-ut-rnd':
      return new InnodbUtRnd(options);
    case 'innodb-lcg64':
      return new InnodbLcg64(options);
    case 'splitmix64':
      return new SplitMix64(options);
    case 'xoshiro128**':
      return new Xoshiro128StarStar(options);
    case 'xoshiro256**':
      return new Xoshiro256StarStar(options);
    case 'pcg32':
      return new Pcg32(options);
    case 'park-miller':
      return new ParkMiller(options);
  }
}
