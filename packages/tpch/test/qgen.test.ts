import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { qgenParameters, TPCH_QUERY_COUNT, tpchQuery, validationParameters } from '../src/index.js';
import { nations, regions } from '../src/internal/dists.js';

describe('qgen parameter substitution', () => {
  // qgen outputs published in public repositories, each headed by
  // "-- using N as a seed to the RNG" (qgen -r N); the values are the ones those files contain.
  it.each([
    [100, 4, ['1994-05-01']],
    [1755703766, 4, ['1993-08-01']],
    [1680793381, 9, ['rose']],
    [1680793381, 11, ['CANADA', '0.0001000000']],
    [1680793381, 14, ['1994-08-01']],
    [1554216773, 15, ['1993-09-01']],
    [1489058137, 19, ['Brand#42', 'Brand#43', 'Brand#33', '9', '19', '28']],
    [1438372633, 13, ['unusual', 'deposits']],
    [81310311, 2, ['38', 'TIN', 'EUROPE']],
  ] as const)('seed %i, Q%i: as published qgen output', (seed, query, expected) => {
    expect(qgenParameters(query, seed)).toEqual(expected);
  });

  it('Q1 with seed 1, computed by hand from qgen.c and rnd.c', () => {
    // qgen.c main: Seed[1] = NextRand(1) = 16807. varsub case 1: UnifInt(60, 120, 1) advances
    // stream 1 to NextRand(16807) = 16807² mod (2³¹ − 1) = 282475249, then
    // 60 + trunc(282475249 / 2147483647 · 61) = 60 + trunc(8.0238) = 68.
    expect(qgenParameters(1, 1)).toEqual(['68']);
    expect(tpchQuery(1, { seed: 1 }).answer).toContain("interval '68' day");
  });

  it('is a function of (seed, query) only', () => {
    expect(qgenParameters(16, 4242)).toEqual(qgenParameters(16, 4242));
    expect(qgenParameters(16, 4242)).not.toEqual(qgenParameters(16, 4243));
  });

  it('every drawn parameter is in the domain the specification gives it', () => {
    const nationRegion = new Map(nations.words.map((w, i) => [w, regions.words[nations.cumulative[i]!]!]));
    const month = (d: string): number => (Number(d.slice(0, 4)) - 1993) * 12 + Number(d.slice(5, 7)) - 1;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2147483646 }), (seed) => {
        const p = (q: number): string[] => qgenParameters(q, seed);
        const n = (q: number, i = 0): number => Number(p(q)[i]);
        expect(n(1)).toBeGreaterThanOrEqual(60);
        expect(n(1)).toBeLessThanOrEqual(120);
        expect(n(2)).toBeGreaterThanOrEqual(1);
        expect(n(2)).toBeLessThanOrEqual(50);
        expect(p(3)[1]! >= '1995-03-01' && p(3)[1]! <= '1995-03-31').toBe(true);
        expect(month(p(4)[0]!)).toBeLessThanOrEqual(57); // 1997-10 at the latest
        expect(p(4)[0]!.endsWith('-01')).toBe(true);
        const [n1, n2] = p(7);
        expect(n1).not.toBe(n2);
        const [nation, region, type] = p(8);
        expect(nationRegion.get(nation!)).toBe(region);
        expect(type!.split(' ')).toHaveLength(3);
        expect(month(p(10)[0]!)).toBeGreaterThanOrEqual(1);
        expect(month(p(10)[0]!)).toBeLessThanOrEqual(24);
        expect(p(12)[0]).not.toBe(p(12)[1]);
        expect(month(p(14)[0]!)).toBeLessThanOrEqual(59);
        expect(month(p(15)[0]!)).toBeLessThanOrEqual(57);
        const q16 = p(16);
        expect(q16[0]).toMatch(/^Brand#[1-5][1-5]$/);
        expect(q16[1]!.split(' ')).toHaveLength(2);
        const sizes = q16.slice(2).map(Number);
        expect(new Set(sizes).size).toBe(8);
        for (const s of sizes) expect(s >= 1 && s <= 50).toBe(true);
        expect(n(18)).toBeGreaterThanOrEqual(312);
        expect(n(18)).toBeLessThanOrEqual(315);
        const q19 = p(19).slice(3).map(Number);
        expect(
          q19[0]! >= 1 && q19[0]! <= 10 && q19[1]! >= 10 && q19[1]! <= 20 && q19[2]! >= 20 && q19[2]! <= 30,
        ).toBe(true);
        const codes = p(22).map(Number);
        expect(new Set(codes).size).toBe(7);
        for (const c of codes) expect(c >= 10 && c <= 34).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a seed outside the Park–Miller state range and an unknown query', () => {
    expect(() => qgenParameters(1, 0)).toThrow('seed must be an integer in [1, 2147483646], got 0');
    expect(() => qgenParameters(1, 2147483647)).toThrow(RangeError);
    expect(() => qgenParameters(1, 1.5)).toThrow(RangeError);
    expect(() => qgenParameters(23, 1)).toThrow('query must be an integer in [1, 22], got 23');
  });
});

describe('validation parameters', () => {
  it('are qgen -d’s defaults, Q11’s fraction following the scale factor', () => {
    expect(validationParameters(1)).toEqual(['90']);
    expect(validationParameters(16)).toEqual([
      'Brand#45',
      'MEDIUM POLISHED',
      '49',
      '14',
      '23',
      '45',
      '19',
      '3',
      '36',
      '9',
    ]);
    expect(validationParameters(11)).toEqual(['GERMANY', '0.0001000000']);
    expect(validationParameters(11, 0.01)).toEqual(['GERMANY', '0.0100000000']);
    expect(validationParameters(11, 1000)).toEqual(['GERMANY', '0.0000001000']);
  });

  it('go into the text where the markers were', () => {
    expect(tpchQuery(1).answer).toContain("l_shipdate <= date '1998-12-01' - interval '90' day\n");
    expect(tpchQuery(6).answer).toContain(
      'and l_discount between .06 - 0.01 and .06 + 0.01\n\tand l_quantity < 24',
    );
    expect(tpchQuery(16).answer).toContain('p_size in (49, 14, 23, 45, 19, 3, 36, 9)');
    expect(tpchQuery(22).answer).toContain("('13', '31', '23', '29', '30', '18', '17')");
    expect(tpchQuery(3).answer.endsWith('\to_orderdate\nlimit 10')).toBe(true);
    expect(tpchQuery(13).answer).not.toContain('limit');
  });
});

describe('query texts', () => {
  it('leave no marker behind, for the validation and for seeded parameters', () => {
    for (let q = 1; q <= TPCH_QUERY_COUNT; q++) {
      for (const t of [tpchQuery(q), tpchQuery(q, { seed: 7 }), tpchQuery(q, { seed: 2024, sf: 10 })]) {
        expect(t.script).not.toMatch(/:\d/);
        expect(t.statements.length).toBe(q === 15 ? 3 : 1);
        expect(t.script).toBe(t.statements.map((s) => `${s};\n`).join(''));
      }
    }
  });

  it('Q15 is create view, select, drop view; the select is the answer', () => {
    const q = tpchQuery(15);
    expect(q.statements[0]).toMatch(/^create view revenue0 \(supplier_no, total_revenue\) as/);
    expect(q.answer).toBe(q.statements[1]);
    expect(q.statements[2]).toBe('drop view revenue0');
  });

  it('takes explicit parameters and checks them', () => {
    expect(tpchQuery(9, { parameters: ['olive'] }).answer).toContain("p_name like '%olive%'");
    expect(() => tpchQuery(2, { parameters: ['15'] })).toThrow('query 2 needs 3 parameters, got 1');
    expect(() => tpchQuery(2, { seed: 1, parameters: ['1', '2', '3'] })).toThrow(TypeError);
    expect(() => tpchQuery(0)).toThrow(RangeError);
    expect(() => tpchQuery(11, { sf: 0 })).toThrow('sf must be a positive number, got 0');
  });
});
