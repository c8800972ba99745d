import { describe, expect, it } from 'vitest';
import { chunkRange, scalePlan } from '../src/index.js';

describe('scalePlan (dbgen -s)', () => {
  it('scales row counts like dbgen below and above SF 1', () => {
    expect(scalePlan(0.01)).toMatchObject({
      scale: 1,
      part: 2000,
      supplier: 100,
      customer: 1500,
      orders: 15000,
    });
    expect(scalePlan(0.1)).toMatchObject({ part: 20000, supplier: 1000, customer: 15000, orders: 150000 });
    expect(scalePlan(1)).toMatchObject({ part: 200000, partsupp: 800000, orders: 1500000, clerks: 1000 });
    expect(scalePlan(10)).toMatchObject({ scale: 10, customer: 1500000, clerks: 10000 });
    expect(scalePlan(0.005)).toMatchObject({ part: 1000, supplier: 50, customer: 750, orders: 7500 });
    // trunc(1000 · 0.0001) = 0: every table falls to dbgen's floor of one row
    expect(scalePlan(0.0001)).toMatchObject({ part: 1, supplier: 1, customer: 1, orders: 1 });
  });
  it('rejects what dbgen would silently mangle', () => {
    expect(() => scalePlan(0)).toThrow(new RangeError('sf must be a positive number, got 0'));
    expect(() => scalePlan(Number.NaN)).toThrow(RangeError);
    expect(() => scalePlan(1.5)).toThrow(
      new RangeError('sf above 1 must be an integer (dbgen would truncate 1.5 to 1)'),
    );
  });
});

describe('chunkRange (dbgen set_state)', () => {
  it('splits rows evenly, the last chunk taking the remainder, covering every row once', () => {
    expect(chunkRange(15000, 4, 1)).toEqual({ first: 1, count: 3750 });
    expect(chunkRange(10, 3, 3)).toEqual({ first: 7, count: 4 });
    for (const [rows, chunks] of [
      [1, 1],
      [100, 7],
      [60175, 13],
    ] as const) {
      let next = 1;
      for (let s = 1; s <= chunks; s++) {
        const r = chunkRange(rows, chunks, s);
        expect(r.first).toBe(next);
        next += r.count;
      }
      expect(next).toBe(rows + 1);
    }
    expect(() => chunkRange(10, 0, 1)).toThrow(new RangeError('chunks must be a positive integer, got 0'));
  });
});
