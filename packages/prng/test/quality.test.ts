import { describe, expect, it } from 'vitest';
import { createGenerator } from '../src/index.js';
import { chiSquareSurvival, diveTest, formatReport, report, residueTest } from '../src/quality.js';

describe('statistics', () => {
  it('chi-square survival matches tabulated critical values', () => {
    // Critical values: χ²(1) at 0.05 is 3.841; χ²(10) at 0.01 is 23.209; χ²(255) at 0.5 ≈ 254.33.
    expect(chiSquareSurvival(3.841, 1)).toBeCloseTo(0.05, 3);
    expect(chiSquareSurvival(23.209, 10)).toBeCloseTo(0.01, 4);
    expect(chiSquareSurvival(254.33, 255)).toBeCloseTo(0.5, 2);
  });
});

describe('the bug, as the battery sees it', () => {
  it('page_rnd only ever reaches record 2 of 3; the fix reaches all three', () => {
    expect(diveTest(createGenerator('innodb-page-rnd'), 3).reachable).toEqual([2]);
    expect(diveTest(createGenerator('innodb-lcg64', { seed: 1 }), 3).reachable).toEqual([0, 1, 2]);
    expect(residueTest(createGenerator('innodb-page-rnd'), 3).passed).toBe(false);
  });
  it('report(): legacy page_rnd and lcg64 fail tests, every modern generator passes all', () => {
    const rows = report();
    const byName = Object.fromEntries(rows.map((r) => [r.generator, r]));
    expect(byName['innodb-page-rnd']!.failed).toBeGreaterThanOrEqual(8);
    expect(byName['innodb-lcg64']!.failed).toBeGreaterThanOrEqual(1);
    for (const name of ['splitmix64', 'xoshiro128**', 'xoshiro256**', 'pcg32'] as const) {
      expect(byName[name]!.failed, name).toBe(0);
    }
    const text = formatReport(rows);
    expect(text).toContain('innodb-page-rnd');
    expect(text.split('\n')[0]).toMatch(/^test\s+innodb-page-rnd/);
  });
});
