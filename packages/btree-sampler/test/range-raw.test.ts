// forEachRangeRaw passes offsets into the store's bytes instead of views: the same entries, in
// the same order, with the same early stop and count as forEachRange, on unique and non-unique
// trees, for random bounds. A detached walk (each leaf copied and released before its callbacks)
// gives the same entries again, holds no page while its callback runs (a nested walk of the same
// tree, and even a write to it, go through), and leaves no page fixed when its callback throws.
import { createGenerator } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import { BTree, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const k = (i: number): Uint8Array => codec.encode([i]);

function collect(
  t: BTree,
  lo: Uint8Array | null,
  hi: Uint8Array | null,
  stopAt: number,
  raw: boolean,
  detached = false,
) {
  const out: string[] = [];
  const n = raw
    ? t.forEachRangeRaw(
        lo,
        hi,
        (b, ko, kl, vo, vl) => {
          out.push(
            `${Buffer.from(b.subarray(ko, ko + kl)).toString('hex')}=${Buffer.from(b.subarray(vo, vo + vl)).toString('hex')}`,
          );
          return out.length === stopAt ? false : undefined;
        },
        detached,
      )
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
        expect(collect(t, a, b, stop, true, true)).toEqual(views);
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

  it('a detached walk holds no page in its callback: nested walks and writes go through', () => {
    const store = new MemoryStore(512, 4096);
    const t = BTree.create(store, { unique: true });
    for (let i = 0; i < 2000; i += 2) t.insert(k(i), Uint8Array.of(i & 255));
    const before = collect(t, null, null, -1, true).out;
    let seen = 0;
    let nested = 0;
    const keys: number[] = [];
    t.forEachRangeRaw(
      null,
      null,
      (b, ko, kl) => {
        keys.push(codec.decode(b.slice(ko, ko + kl))[0] as number);
        // the entry is in a page-sized copy whose header is at its start
        expect(b.length).toBe(512);
        expect(ko).toBeLessThan(512);
        expect(store.pins.every((p) => p === 0)).toBe(true);
        nested += t.forEachRangeRaw(k(seen * 2), k(seen * 2 + 10), () => undefined, true);
        // writes between the entries seen: each lands in a leaf already copied or one ahead
        if (seen < 900) t.insert(k(seen * 2 + 1), Uint8Array.of(7));
        seen++;
        return undefined;
      },
      true,
    );
    // every entry there at the start was seen once, in order, and some of the new ones too
    for (let i = 1; i < keys.length; i++) expect(keys[i]!).toBeGreaterThan(keys[i - 1]!);
    for (let i = 0; i < 2000; i += 2) expect(keys).toContain(i);
    expect(keys.length).toBeGreaterThan(before.length);
    expect(nested).toBeGreaterThan(0);
    expect(store.pins.every((p) => p === 0)).toBe(true);
    t.checkValid();
    let thrown = 0;
    expect(() =>
      t.forEachRangeRaw(
        null,
        null,
        () => {
          if (++thrown === 300) throw new Error('stop here');
          return undefined;
        },
        true,
      ),
    ).toThrow('stop here');
    expect(store.pins.every((p) => p === 0)).toBe(true);
  });

  it('rejects a non-function callback', () => {
    const t = BTree.create(new MemoryStore(512, 64));
    expect(() => t.forEachRangeRaw(null, null, 42 as never)).toThrow(TypeError);
  });
});

describe('forEachRangeRawBackward', () => {
  /** Entries below `before`, largest first, as forEachRangeRaw's strings (stop after `stopAt`). */
  function backward(t: BTree, before: Uint8Array | null, stopAt: number, detached: boolean) {
    const out: string[] = [];
    const n = t.forEachRangeRawBackward(
      before,
      (b, ko, kl, vo, vl) => {
        out.push(
          `${Buffer.from(b.subarray(ko, ko + kl)).toString('hex')}=${Buffer.from(b.subarray(vo, vo + vl)).toString('hex')}`,
        );
        return out.length === stopAt ? false : undefined;
      },
      detached,
    );
    return { n, out };
  }

  for (const unique of [true, false])
    it(`gives forEachRangeRaw's entries in reverse (${unique ? 'unique' : 'non-unique'} tree, random bounds and stops)`, () => {
      const t = BTree.create(new MemoryStore(512, 4096), { unique });
      const rng = createGenerator('xoshiro128**', { seed: unique ? 3 : 4 });
      for (let i = 0; i < 3000; i++) {
        const x = rng.nextBelow(unique ? 100000 : 500);
        const v = Uint8Array.of(i & 255, i >> 8, rng.nextBelow(256));
        if (!t.has(k(x), unique ? undefined : v)) t.insert(k(x), v);
      }
      // deletes leave some leaves sparse or empty
      for (let i = 0; i < 600; i++) {
        const x = rng.nextBelow(unique ? 100000 : 500);
        if (unique && t.has(k(x))) t.delete(k(x));
      }
      for (let r = 0; r < 80; r++) {
        const before = rng.nextBelow(5) === 0 ? null : k(rng.nextBelow(unique ? 100000 : 500));
        const stop = rng.nextBelow(3) === 0 ? 1 + rng.nextBelow(50) : -1;
        const all = collect(t, null, before, -1, true).out.reverse();
        const want = stop === -1 ? all : all.slice(0, stop);
        for (const detached of [false, true]) {
          const got = backward(t, before, stop, detached);
          expect(got.out).toEqual(want);
          expect(got.n).toBe(want.length);
        }
      }
      expect(backward(t, null, -1, false).n).toBe(t.stats().records);
      expect(backward(BTree.create(new MemoryStore(512, 64), { unique }), null, -1, false).n).toBe(0);
    });

  it('a detached backward walk sees every entry once, largest first, while the tree splits under it', () => {
    const store = new MemoryStore(512, 4096);
    const t = BTree.create(store, { unique: true });
    for (let i = 0; i < 4000; i += 2) t.insert(k(i), Uint8Array.of(i & 255));
    const keys: number[] = [];
    let seen = 0;
    t.forEachRangeRawBackward(
      null,
      (b, ko, kl) => {
        keys.push(codec.decode(b.slice(ko, ko + kl))[0] as number);
        expect(store.pins.every((p) => p === 0)).toBe(true);
        // inserts on both sides of the walk: below it (leaves not yet reached split) and above it
        if (seen < 1500) {
          t.insert(k(((seen * 7919) % 2000) * 2 + 1), Uint8Array.of(7));
          t.insert(k(5000 + seen), Uint8Array.of(8));
        }
        seen++;
        return undefined;
      },
      true,
    );
    for (let i = 1; i < keys.length; i++) expect(keys[i]!).toBeLessThan(keys[i - 1]!);
    for (let i = 0; i < 4000; i += 2) expect(keys).toContain(i);
    expect(keys.every((x) => x < 5000)).toBe(true);
    expect(store.pins.every((p) => p === 0)).toBe(true);
    t.checkValid();
  });

  it('a callback that throws leaves no page fixed', () => {
    const store = new MemoryStore(512, 4096);
    const t = BTree.create(store, { unique: true });
    for (let i = 0; i < 2000; i++) t.insert(k(i), Uint8Array.of(i & 255));
    for (const detached of [false, true]) {
      let seen = 0;
      expect(() =>
        t.forEachRangeRawBackward(
          k(1500),
          () => {
            if (++seen === 700) throw new Error('stop here');
            return true;
          },
          detached,
        ),
      ).toThrow('stop here');
      expect(store.pins.every((p) => p === 0)).toBe(true);
    }
    expect(() => t.forEachRangeRawBackward(null, 42 as never)).toThrow(TypeError);
  });
});
