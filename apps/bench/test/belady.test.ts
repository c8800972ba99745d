import { createGenerator } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import { beladyHits } from '../src/experiments/buffer-pool/belady.js';
import { spread } from '../src/measure.js';

/** The fewest misses any eviction choice can reach: every choice tried (tiny traces only). */
function bruteForceMinMisses(trace: readonly number[], frames: number): number {
  const memo = new Map<string, number>();
  const go = (i: number, cache: readonly number[]): number => {
    if (i === trace.length) return 0;
    const key = `${i}:${[...cache].sort().join(',')}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const p = trace[i] as number;
    let best: number;
    if (cache.includes(p)) best = go(i + 1, cache);
    else if (cache.length < frames) best = 1 + go(i + 1, [...cache, p]);
    else
      best =
        1 +
        Math.min(
          ...cache.map((_, v) =>
            go(
              i + 1,
              cache.map((c, j) => (j === v ? p : c)),
            ),
          ),
        );
    memo.set(key, best);
    return best;
  };
  return go(0, []);
}

describe("Belady's MIN", () => {
  it('misses as few times as the best of every eviction choice, on 300 random traces', () => {
    const g = createGenerator('xoshiro128**', { seed: 7 });
    for (let t = 0; t < 300; t++) {
      const frames = 1 + g.nextBelow(3);
      const trace = Array.from({ length: 4 + g.nextBelow(10) }, () => g.nextBelow(5));
      const hits = beladyHits(Uint32Array.from(trace), frames);
      const misses = trace.length - hits.reduce((a, h) => a + h, 0);
      expect(misses, `${trace.join(' ')} on ${frames} frames`).toBe(bruteForceMinMisses(trace, frames));
    }
  });
  it('counts a hit only when the page is cached', () => {
    // 2 frames: 1 2 1 3 1 2 → evict 2 at the 3 (next used last), so the final 2 misses.
    expect([...beladyHits(Uint32Array.of(1, 2, 1, 3, 1, 2), 2)]).toEqual([0, 0, 1, 0, 1, 0]);
  });
});

describe('spread', () => {
  it('gives the median, min and max of odd and even counts', () => {
    expect(spread([5, 1, 3])).toMatchObject({ median: 3, min: 1, max: 5, runs: 3 });
    expect(spread([4, 1, 3, 2])).toMatchObject({ median: 2.5, min: 1, max: 4, runs: 4 });
    expect(() => spread([])).toThrow(RangeError);
  });
});
