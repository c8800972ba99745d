import { describe, expect, it } from 'vitest';
import { expectShape, quick, table } from './helpers.js';

describe('bka-q3 --quick', () => {
  it('IO-bound BKA reads fewer pages than the baseline; the space limit cuts a 6M buffer to 2M', async () => {
    const r = await quick('bka-q3');
    expectShape(r);
    const time = table(r, 'time').rows;
    expect(time.map((x) => String(x.ran).split(',')[0])).toEqual(['NLJ', 'BKA', 'BKA', 'BKA', 'BKAH']);
    expect(time[1]?.pkgPages as number).toBeLessThan(time[0]?.pkgPages as number);
    expect(time[3]?.pkgPages as number).toBeLessThan(time[0]?.pkgPages as number);
    expect(String(time[2]?.ran)).toContain('2048K');
    const sweep = table(r, 'join-buffer-sweep').rows;
    expect(sweep[0]?.fills as number).toBeGreaterThan(sweep[sweep.length - 1]?.fills as number);
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
  });
});
