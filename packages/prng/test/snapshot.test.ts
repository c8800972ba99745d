// Seeded sequences pinned by snapshot: they may change only with a major version.
import { describe, expect, it } from 'vitest';
import { createGenerator, generatorNames } from '../src/index.js';

describe('seeded sequences (noreg)', () => {
  it.each(generatorNames)('%s', (name) => {
    const g = createGenerator(name, { seed: 20260101 });
    const words = Array.from({ length: 6 }, () => g.nextUint32());
    const below = Array.from({ length: 6 }, () => g.nextBelow(1000));
    expect({ words, below }).toMatchSnapshot();
  });
});
