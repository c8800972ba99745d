import { describe, expect, it } from 'vitest';
import { sortBufferVerdict } from '../src/experiments/index-build/present.js';
import { expectShape, quick, table } from './helpers.js';

describe('index-build --quick', () => {
  it("every mechanics builds the whole index; the engine runs the post's ALTER statements", async () => {
    const r = await quick('index-build');
    expectShape(r);
    for (const row of table(r, 'mechanics').rows) expect(row.records).toBe(20_000);
    const alter = table(r, 'alter').rows;
    // ADD INDEX, ADD COLUMN OFF / ON, and the build at sort buffer 1M and 8M (the database reopened)
    for (const row of alter.slice(0, 5)) expect(row.engine as number).toBeGreaterThan(0);
    expect(alter.every((x) => x.maria === null)).toBe(true);
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
  });
});

describe('the sort buffer verdict', () => {
  it('holds at 5 % faster or more, fails when not faster, leaves the noise between unjudged', () => {
    expect(sortBufferVerdict(0.9)).toBe(true);
    expect(sortBufferVerdict(0.95)).toBe(true);
    expect(sortBufferVerdict(0.96)).toBeNull();
    expect(sortBufferVerdict(1)).toBe(false);
    expect(sortBufferVerdict(1.05)).toBe(false);
  });
});
