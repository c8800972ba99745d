// forEachRangeRaw passes offsets into the store's bytes instead of views: the same entries, in
// the same order, with the same early stop and count as forEachRange, on unique and non-unique
// trees, for random bounds.
import { createGenerator } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import { BTree, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const k = (i: number): Uint8Array => codec.encode([i]);

function collect(t: BTree, lo: Uint8Array | null, hi: Uint8Array | null, stopAt: number, raw: boolean) {
  const out: string[] = [];
  const n = raw
    ? t.forEachRangeRaw(lo, hi, (b, ko, kl, vo, vl) => {
        out.push(
          `${Buffer.from(b.subarray(ko, ko + kl)).toString('hex')}=${Buffer.from(b.subarray(vo, vo + vl)).toString('hex')}`,
        );
        return out.length === stopAt ? false : undefined;
      })
    : t.forEachRange(lo, hi, (key, value) => {
        out.push(`${Buffer.from(key).toString('hex')}=${Buffer.from(value).toString('hex')}`);
        return out.length === stopAt ? false : undefined;
      });
  return { n, out };
}

describe('forEachRangeRaw', () => {
  for (const unique of [true, false]) {
    it(`matches forEachRange (${unique ? 'unique' : 'non-unique'} tree, random bounds and stops)`, () => {
      const t = BTree.create(new MemoryStore(512, 4096), { unique });
      const rng = createGenerator('xoshiro128**', { seed: unique ? 1 : 2 });
      for (let i = 0; i < 3000; i++) {
        const x = rng.nextBelow(unique ? 100000 : 500);
        const v = Uint8Array.of(i & 255, i >> 8, rng.nextBelow(256));
        if (!t.has(k(x), unique ? undefined : v)) t.insert(k(x), v);
      }
      for (let r = 0; r < 60; r++) {
        const a = rng.nextBelow(4) === 0 ? null : k(rng.nextBelow(unique ? 100000 : 500));
        const b = rng.nextBelow(4) === 0 ? null : k(rng.nextBelow(unique ? 100000 : 500));
        const stop = rng.nextBelow(3) === 0 ? 1 + rng.nextBelow(50) : -1;
        const views = collect(t, a, b, stop, false);
        const raw = collect(t, a, b, stop, true);
        expect(raw).toEqual(views);
      }
      expect(collect(t, null, null, -1, true).n).toBe(t.stats().records);
    });
  }

  it('a callback that throws leaves no page fixed, and the tree can be written afterwards', () => {
    const store = new MemoryStore(512, 4096);
    const t = BTree.create(store, { unique: true });
    for (let i = 0; i < 2000; i++) t.insert(k(i), Uint8Array.of(i & 255));
    for (const raw of [true, false]) {
      let seen = 0;
      const boom = (): boolean => {
        if (++seen === 700) throw new Error('stop here');
        return true;
      };
      expect(() => (raw ? t.forEachRangeRaw(null, null, boom) : t.forEachRange(null, null, boom))).toThrow(
        'stop here',
      );
      expect(store.pins.every((p) => p === 0)).toBe(true);
      t.insert(k(5000 + (raw ? 1 : 2)), Uint8Array.of(1));
    }
    t.checkValid();
  });

  it('rejects a non-function callback', () => {
    const t = BTree.create(new MemoryStore(512, 64));
    expect(() => t.forEachRangeRaw(null, null, 42 as never)).toThrow(TypeError);
  });
});
