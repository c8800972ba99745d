import { describe, expect, it } from 'vitest';
import { POSTS } from '../src/posts.js';
import { resultText, verdictSummary } from '../src/print-result.js';
import { type ExperimentResult, RESULT_SCHEMA } from '../src/result.js';
import { duration } from '../src/tour.js';

function result(
  name: string,
  claims: ExperimentResult['claims'],
  config: Record<string, unknown> = {},
): ExperimentResult {
  return {
    schema: RESULT_SCHEMA,
    experiment: name,
    title: `The ${name} experiment, with a title long enough to need a second line at eighty columns`,
    post: { title: 'a post', sources: [POSTS.mrr], claim: 'a claim' },
    config: { quick: true, ...config },
    quick: true,
    startedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 1234,
    machine: {
      cpuModel: 'AMD EPYC',
      cores: 2,
      nodeVersion: 'v20.20.2',
      platform: 'linux',
      arch: 'x64',
      totalMemoryBytes: 1,
      loadAverage: [1, 2, 3],
      loadAverageAfter: [1, 2, 3],
      gitCommit: '0123456789abcdef',
      gitDirty: false,
    },
    claims,
    tables: [],
    charts: [],
    data: null,
  };
}

const claim = (holds: boolean | null, text = 'a claim of the post'): ExperimentResult['claims'][number] => ({
  text,
  post: 'what the post measured, in a sentence long enough to wrap at eighty columns for sure',
  ours: 'what this run measured, in a sentence long enough to wrap at eighty columns as well',
  holds,
});

describe('what experiment prints', () => {
  it('cites the post, indents the claims under their text, and fits the width', () => {
    const text = resultText(result('mrr-q10', [claim(true), claim(null)]), 80);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(text).toContain(`“${POSTS.mrr.title}”, ${POSTS.mrr.author}, ${POSTS.mrr.date}`);
    expect(text).toMatch(/^ {4}the post: what the post measured/m);
    expect(text).toMatch(/^ {14}\S/m);
    expect(text).toContain('[holds]');
  });
});

describe("the tour's closing summary", () => {
  it('one line per experiment: checks that hold, figures measured, what does not hold, skips', () => {
    const text = verdictSummary(
      [
        result('prng-bias', [claim(true), claim(true), claim(true)]),
        result('peers', [claim(true), claim(null), claim(null)]),
        result('latches', [claim(false, 'atomics beat the legacy lock'), claim(true)]),
        result('oltp', [claim(null)], { skipped: 'sysbench is not installed' }),
      ],
      100,
    );
    expect(text.split('\n').filter((l) => l !== '')).toEqual([
      '  prng-bias  3 of 3 checks hold',
      "  peers      1 of 1 checks hold; 2 measured figures beside the post's",
      '  latches    1 of 2 checks hold; does not hold: atomics beat the legacy lock',
      '  oltp       skipped: sysbench is not installed',
    ]);
  });
  it('says durations in seconds, then minutes and seconds', () => {
    expect([duration(4_400), duration(59_000), duration(193_000)]).toEqual(['4 s', '59 s', '3 min 13 s']);
  });
});
