// The GROUP BY trie against a plain Map of key texts (the model): the same groups for every
// sequence of rows, with NULLs, shared prefixes, DECIMAL bigints and -0.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupMap, groupKeyText } from '../../src/exec/group-map.js';
import { decType, T_DBL, T_INT, T_STR } from '../../src/exec/types.js';

const TYPES = [T_INT, T_STR, decType(10, 2), T_DBL];
const value = [
  fc.option(fc.integer({ min: -2, max: 2 })),
  fc.option(fc.constantFrom('', 'a', 'b')),
  fc.option(fc.bigInt({ min: -2n, max: 2n })),
  fc.option(fc.constantFrom(0, -0, 1.5)),
];

describe('GroupMap', () => {
  for (const width of [0, 1, 2, 4]) {
    it(`finds the group of every row as a Map of key texts does (${width} columns)`, () => {
      const types = TYPES.slice(0, width);
      const row = fc.tuple(...value.slice(0, width)) as fc.Arbitrary<unknown[]>;
      fc.assert(
        fc.property(fc.array(width === 0 ? fc.constant<unknown[]>([]) : row, { maxLength: 60 }), (rows) => {
          const trie = new GroupMap<number>(types);
          const model = new Map<string, number>();
          for (const r of rows) {
            const k = groupKeyText(r, types);
            const got = trie.find(r);
            expect(got).toBe(model.get(k));
            if (got === undefined) {
              trie.insert(model.size);
              model.set(k, model.size);
            }
          }
          expect(trie.list).toEqual([...model.values()]);
        }),
        { numRuns: 300 },
      );
    });
  }
});
