// One property suite: every algorithm × every join type gives the nested-loop oracle's multiset.
import { readdirSync, rmSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { joinTypes, type Tuple } from '../src/index.js';
import { type Case, graceDir, multiset, runners } from './algorithms.js';

const intKey = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 6 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);
const strKey = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('a', 'b', 'c', 'é', 'a long key value') },
  { weight: 1, arbitrary: fc.constant(null) },
);
const rows = (key: fc.Arbitrary<number | string | null>) =>
  fc.array(fc.tuple(key, fc.integer({ min: -50, max: 50 })) as fc.Arbitrary<Tuple>, { maxLength: 40 });

const caseArb = (key: fc.Arbitrary<number | string | null>, keyType: 'double' | 'string') =>
  fc
    .record({
      outer: rows(key),
      inner: rows(key),
      // From "smaller than one record" (the buffer grows) to "holds everything".
      bufferSize: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 40, max: 2000 })),
      partitions: fc.integer({ min: 2, max: 8 }),
      withCondition: fc.boolean(),
    })
    .map((r) => ({ ...r, columns: [keyType, 'int32'] }) as Omit<Case, 'type'>);

const oracle = runners['simple nested loop']!;

describe.each(Object.keys(runners).filter((n) => n !== 'simple nested loop'))('%s', (name) => {
  const run = runners[name]!;
  describe.each(joinTypes)('%s join', (type) => {
    it('matches the nested-loop oracle (integer keys, duplicates, NULLs)', () => {
      fc.assert(
        fc.property(caseArb(intKey, 'double'), (c) => {
          const full: Case = { ...c, type };
          expect(multiset(run, full)).toEqual(multiset(oracle, full));
        }),
        { numRuns: 60 },
      );
    });
    it('matches the nested-loop oracle (string keys)', () => {
      fc.assert(
        fc.property(caseArb(strKey, 'string'), (c) => {
          const full: Case = { ...c, type };
          expect(multiset(run, full)).toEqual(multiset(oracle, full));
        }),
        { numRuns: 30 },
      );
    });
  });
});

describe('the oracle itself', () => {
  it('follows SQL semantics on a hand-checked example', () => {
    const outer: Tuple[] = [
      [1, 10],
      [2, 20],
      [null, 30],
      [4, 40],
    ];
    const inner: Tuple[] = [
      [1, 1],
      [1, 2],
      [2, 3],
      [null, 4],
      [5, 5],
    ];
    const base = {
      outer,
      inner,
      columns: ['double', 'int32'],
      bufferSize: 100,
      partitions: 2,
      withCondition: false,
    } as const;
    const show = (type: Case['type']) => multiset(oracle, { ...base, columns: [...base.columns], type });
    expect(show('inner')).toEqual(['[[1,10],[1,1]]', '[[1,10],[1,2]]', '[[2,20],[2,3]]']);
    expect(show('left')).toEqual([
      '[[1,10],[1,1]]',
      '[[1,10],[1,2]]',
      '[[2,20],[2,3]]',
      '[[4,40],null]',
      '[[null,30],null]',
    ]);
    expect(show('semi')).toEqual(['[[1,10],null]', '[[2,20],null]']);
    expect(show('anti')).toEqual(['[[4,40],null]', '[[null,30],null]']);
  });
});

afterAll(() => {
  // Grace hash join removes its temp directory every time.
  expect(readdirSync(graceDir)).toEqual([]);
  rmSync(graceDir, { recursive: true, force: true });
});
