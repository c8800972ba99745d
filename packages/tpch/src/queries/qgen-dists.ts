import { type Distribution, nations } from '../internal/dists.js';

function weighted(name: string, pairs: ReadonlyArray<readonly [string, number]>): Distribution {
  const cumulative = new Int32Array(pairs.length);
  let run = 0;
  for (let i = 0; i < pairs.length; i++) {
    run += pairs[i]![1];
    cumulative[i] = run;
  }
  return { name, words: pairs.map((p) => p[0]), cumulative, total: run };
}

/**
 * `nations2` of `dists.dss`: the 25 nation names, each of weight 1 (qgen draws a nation from it
 * uniformly; the generator's `nations` list carries region keys in its weights instead).
 */
export const nations2: Distribution = weighted(
  'nations2',
  nations.words.map((w) => [w, 1] as const),
);

/** `Q13a` of `dists.dss`: the first word of Q13's `o_comment not like '%:1%:2%'`. */
export const q13a: Distribution = weighted('Q13a', [
  ['special', 20],
  ['pending', 20],
  ['unusual', 20],
  ['express', 20],
]);

/** `Q13b` of `dists.dss`: the second word of Q13's pattern. */
export const q13b: Distribution = weighted('Q13b', [
  ['packages', 40],
  ['requests', 40],
  ['accounts', 40],
  ['deposits', 40],
]);

/** The region key of nation `i` (the running total of the `nations` weights, as dbgen reads it). */
export function nationRegion(i: number): number {
  return nations.cumulative[i]!;
}
