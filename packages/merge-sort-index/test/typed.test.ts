// TypedSorter: order-preserving codecs against Array.prototype.sort, and a value comparator.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Codec, codecs, TypedSorter } from '../src/index.js';
import { scratchDir } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());
const small = { innodb_sort_buffer_size: 65536, mergeBlockSize: 4096, tmpdir: scratch.dir };

function sorted<T>(codec: Codec<T>, xs: readonly T[], mergeMode: 'innodb' | 'kway'): T[] {
  return [...new TypedSorter(codec, { ...small, mergeMode }).addAll(xs).values()];
}

/** Numeric order with −0 before +0, the order the float64 codec promises. */
const numeric = (a: number, b: number): number =>
  a < b
    ? -1
    : a > b
      ? 1
      : Object.is(a, -0) && Object.is(b, 0)
        ? -1
        : Object.is(a, 0) && Object.is(b, -0)
          ? 1
          : 0;

describe.each(['innodb', 'kway'] as const)('codecs, %s', (mode) => {
  it('float64 sorts numerically (−0 before +0, ±∞ at the ends)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true }), { maxLength: 12000 }), (xs) => {
        expect(sorted(codecs.float64, xs, mode)).toEqual([...xs].sort(numeric));
      }),
      { numRuns: 15 },
    );
  });

  it('int32, uint32, bigUint64 and utf8 follow their natural order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 12000 }),
        fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 3000 }),
        fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxLength: 3000 }),
        fc.array(fc.string({ maxLength: 20 }), { maxLength: 3000 }),
        (ints, uints, bigs, strs) => {
          expect(sorted(codecs.int32, ints, mode)).toEqual([...ints].sort((a, b) => a - b));
          expect(sorted(codecs.uint32, uints, mode)).toEqual([...uints].sort((a, b) => a - b));
          expect(sorted(codecs.bigUint64, bigs, mode)).toEqual(
            [...bigs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
          );
          expect(sorted(codecs.utf8, strs, mode)).toEqual([...strs].sort());
        },
      ),
      { numRuns: 8 },
    );
    expect(scratch.entries()).toEqual([]);
  });

  it('a value comparator over a JSON codec sorts stably', () => {
    type Person = { name: string; age: number };
    const json: Codec<Person> = {
      encode: (p) => new TextEncoder().encode(JSON.stringify(p)),
      decode: (b) => JSON.parse(new TextDecoder().decode(b)) as Person,
    };
    const people: Person[] = Array.from({ length: 3000 }, (_, i) => ({
      name: `p${i}`.padEnd(30, '.'),
      age: (i * 7919) % 90,
    }));
    const s = new TypedSorter(json, { ...small, mergeMode: mode, compare: (a, b) => a.age - b.age });
    const out = [...s.addAll(people).values()];
    expect(out).toEqual([...people].sort((a, b) => a.age - b.age));
    expect(s.stats.runs).toBeGreaterThan(1);
  });
});

describe('codec argument checks', () => {
  it('rejects out-of-range values and bad codecs', () => {
    expect(() => codecs.uint32.encode(-1)).toThrow(RangeError);
    expect(() => codecs.int32.encode(2 ** 31)).toThrow(RangeError);
    expect(() => codecs.bigUint64.encode(-1n)).toThrow(RangeError);
    expect(() => new TypedSorter({} as Codec<number>)).toThrow(/codec must have encode/);
    const bad = new TypedSorter({ encode: () => 'x' as unknown as Uint8Array, decode: () => 0 });
    expect(() => bad.add(1)).toThrow(/codec.encode must return a Uint8Array/);
  });
});
