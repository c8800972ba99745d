export type {
  GeneratorName,
  GeneratorOptions,
  JumpableGenerator,
  LegacyGenerator,
  RandomGenerator,
  RandomGenerator64,
} from './types.js';
export { createGenerator, generatorNames, legacyGeneratorNames } from './create.js';
export { InnodbPageRnd, PAGE_RND_START, PAGE_RND_STEP } from './generators/innodb-page-rnd.js';
export { InnodbUtRnd, UT_RND_COUNTER_START } from './generators/innodb-ut-rnd.js';
export { InnodbLcg64, LCG64_A, LCG64_C } from './generators/innodb-lcg64.js';
export { SplitMix64 } from './generators/splitmix64.js';
export { Xoshiro128StarStar } from './generators/xoshiro128ss.js';
export { Xoshiro256StarStar } from './generators/xoshiro256ss.js';
export { Pcg32 } from './generators/pcg32.js';
export { ParkMiller, PARK_MILLER_A, PARK_MILLER_M } from './generators/park-miller.js';
export { nextFloat53, sampleWithoutReplacement, shuffle, uniformInt, ZipfSampler } from './distributions.js';
export { bugStory } from './demo.js';
