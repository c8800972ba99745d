// The page search's prefix cache (src/internal/search-cache.ts) must never answer from a page
// that changed: writes by the same tree on a store that stamps no LSN (the test double), writes
// through a second tree object on a BufferPool (seen only through the page LSN), eviction, keys
// shorter and longer than the six cached bytes, and non-unique trees whose order includes values;
// pages whose records share a key prefix (the numbers skip it) searched with keys below, inside
// and above it.
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import { createGenerator } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import { BTree, KeyCodec } from '../src/index.js';
import { keyCode, prefixOf } from '../src/internal/search-cache.js';
import { MemoryStore } from './support/memory-store.js';

const int = new KeyCodec([{ type: 'int32' }]);
const k = (i: number): Uint8Array => int.encode([i]);
const v = (i: number): Uint8Array => Uint8Array.of(i & 255, (i >> 8) & 255, 3);

describe('search cache', () => {
  it('prefixOf orders like memcmp (ties allowed only for equal first six bytes)', () => {
    const rng = createGenerator('xoshiro128**', { seed: 11 });
    const rand = (): Uint8Array =>
      Uint8Array.from({ length: rng.nextBelow(9) }, () => (rng.nextBelow(4) === 0 ? 0 : rng.nextBelow(256)));
    for (let i = 0; i < 3000; i++) {
      const a = rand();
      const b = rand();
      const pa = prefixOf(a, 0, a.length);
      const pb = prefixOf(b, 0, b.length);
      const c = Buffer.compare(a, b);
      if (pa < pb) expect(c).toBeLessThan(0);
      if (pa > pb) expect(c).toBeGreaterThan(0);
      if (pa === pb)
        expect(Buffer.compare(a.subarray(0, 6), b.subarray(0, 6)) === 0 || a.length < 6 || b.length < 6).toBe(
          true,
        );
    }
  });

  it('keyCode orders like memcmp, and equal codes below the length code 7 are equal keys', () => {
    const rng = createGenerator('xoshiro128**', { seed: 12 });
    const rand = (): Uint8Array =>
      Uint8Array.from({ length: rng.nextBelow(10) }, () => (rng.nextBelow(3) === 0 ? 0 : rng.nextBelow(4)));
    for (let i = 0; i < 20000; i++) {
      const a = rand();
      const b = rand();
      const ca = keyCode(a, 0, a.length);
      const cb = keyCode(b, 0, b.length);
      const c = Buffer.compare(a, b);
      if (ca < cb) expect(c).toBeLessThan(0);
      if (ca > cb) expect(c).toBeGreaterThan(0);
      if (ca === cb && ca % 8 < 7) expect(c).toBe(0);
      if (ca === cb && ca % 8 === 7) expect(Buffer.compare(a.subarray(0, 6), b.subarray(0, 6))).toBe(0);
    }
    // "ab" < "ab\0" < "ab\0\0\0\0\0": equal six-byte prefixes, ordered by the length part
    expect(keyCode(Uint8Array.of(1, 2), 0, 2)).toBeLessThan(keyCode(Uint8Array.of(1, 2, 0), 0, 3));
    expect(keyCode(Uint8Array.of(1, 2, 0), 0, 3)).toBeLessThan(
      keyCode(Uint8Array.of(1, 2, 0, 0, 0, 0, 0), 0, 7),
    );
  });

  it('16 KiB pages of ~900 records: every block level of the cached search, runs of equal codes, misses', () => {
    const pool = new BufferPool({
      innodb_page_size: 16384,
      innodb_buffer_pool_size: 64 * 16384,
      device: new MemoryDevice({ pageSize: 16384 }),
    });
    const t = BTree.create(pool);
    const n = new KeyCodec([{ type: 'int32' }]);
    for (let i = 0; i < 30000; i += 3) t.insert(n.encode([i]), v(i));
    // duplicates of a short key in a non-unique tree: one code for a run of 700 entries
    const dup = BTree.create(pool, { unique: false });
    for (let i = 0; i < 2000; i++)
      dup.insert(Uint8Array.of(1 + (i % 3 === 0 ? 1 : 0)), Uint8Array.of(i >> 8, i & 255));
    for (let r = 0; r < 3; r++) {
      for (let i = -3; i < 30003; i++) {
        const got = t.get(n.encode([i]));
        if (i >= 0 && i < 30000 && i % 3 === 0) expect(got).toEqual(v(i));
        else expect(got).toBeUndefined();
      }
      expect(dup.has(Uint8Array.of(2), Uint8Array.of(0, 3))).toBe(true);
      expect(dup.has(Uint8Array.of(1), Uint8Array.of(0, 3))).toBe(false);
      expect(dup.get(Uint8Array.of(1))).toEqual(Uint8Array.of(0, 1));
      expect(dup.get(Uint8Array.of(0))).toBeUndefined();
      const c = dup.cursor();
      expect(c.seek(Uint8Array.of(1), 'gt')).toBe(true);
      expect(c.key()).toEqual(Uint8Array.of(2));
      expect(c.value()).toEqual(Uint8Array.of(0, 0));
    }
    expect(t.stats().recordsPerLevel[0]).toBe(10000);
    t.checkValid();
    dup.checkValid();
    // 2-byte keys, empty values: ~2000 records a leaf, so level 2 of the cached index is bisected
    const wide = BTree.create(pool);
    for (let i = 0; i < 12000; i += 2) wide.insert(Uint8Array.of(i >> 8, i & 255), new Uint8Array(0));
    const ws = wide.stats();
    expect(ws.recordsPerLevel[0]! / ws.pagesPerLevel[0]!).toBeGreaterThan(1100);
    for (let r = 0; r < 3; r++)
      for (let i = 0; i < 12001; i++)
        expect(wide.has(Uint8Array.of(i >> 8, i & 255))).toBe(i % 2 === 0 && i < 12000);
  });

  it('gets after writes by the same tree on a store without LSN stamps match a Map model', () => {
    const t = BTree.create(new MemoryStore(512, 8192));
    const model = new Map<number, Uint8Array>();
    const rng = createGenerator('xoshiro128**', { seed: 3 });
    for (let step = 0; step < 8000; step++) {
      const x = rng.nextBelow(1500);
      const op = rng.nextBelow(10);
      if (op < 3) {
        if (!model.has(x)) {
          t.insert(k(x), v(step));
          model.set(x, v(step));
        } else {
          t.update(k(x), v(step));
          model.set(x, v(step));
        }
      } else if (op < 4) expect(t.delete(k(x))).toBe(model.delete(x));
      // Gets twice, so pages reach the cache between writes.
      else for (let r = 0; r < 2; r++) expect(t.get(k(x))).toEqual(model.get(x));
    }
    t.checkValid();
  });

  it('a second tree object on the same BufferPool sees the writes of the first (page LSN), with eviction', () => {
    const pool = new BufferPool({
      innodb_page_size: 1024,
      innodb_buffer_pool_size: 40 * 1024,
      device: new MemoryDevice({ pageSize: 1024 }),
    });
    const writer = BTree.create(pool);
    const reader = BTree.open(pool, { rootPage: writer.rootPage });
    const model = new Map<number, Uint8Array>();
    for (let i = 0; i < 2000; i += 2) {
      writer.insert(k(i), v(i));
      model.set(i, v(i));
    }
    const rng = createGenerator('xoshiro128**', { seed: 5 });
    for (let round = 0; round < 40; round++) {
      // Reader warms its cache on a range, the writer changes that range, the reader checks it.
      const lo = rng.nextBelow(1900);
      for (let r = 0; r < 2; r++)
        for (let i = lo; i < lo + 60; i++) expect(reader.get(k(i))).toEqual(model.get(i));
      for (let i = lo; i < lo + 60; i++) {
        if (model.has(i)) {
          if (rng.nextBelow(2) === 0) {
            writer.delete(k(i));
            model.delete(i);
          } else {
            writer.update(k(i), v(i + 7));
            model.set(i, v(i + 7));
          }
        } else {
          writer.insert(k(i), v(i + 1));
          model.set(i, v(i + 1));
        }
      }
      for (let i = lo; i < lo + 60; i++) expect(reader.get(k(i))).toEqual(model.get(i));
    }
    writer.checkValid();
  });

  it('pages whose keys share a prefix: numbers of the bytes after it; keys below, in and above it', () => {
    // BIGINT-like keys: eight bytes, the first five the same on every page below 2^24
    const big = new KeyCodec([{ type: 'int64' }, { type: 'int32' }]);
    const key = (x: number, y: number): Uint8Array => big.encode([BigInt(x), y]);
    const t = BTree.create(new MemoryStore(1024, 8192));
    const model: Array<[Uint8Array, number]> = [];
    for (let x = 0; x < 300_000; x += 97)
      for (let y = 0; y < 3; y++) {
        const k1 = key(x, y);
        t.insert(k1, v(x + y));
        model.push([k1, x + y]);
      }
    model.sort((a, b) => Buffer.compare(a[0], b[0]));
    const rng = createGenerator('xoshiro128**', { seed: 21 });
    // probes: exact keys, keys between, and keys cut or grown around the shared prefix
    const probes: Uint8Array[] = [];
    for (let i = 0; i < 3000; i++) {
      const [k1] = model[rng.nextBelow(model.length)]!;
      const cut = rng.nextBelow(k1.length + 1);
      switch (rng.nextBelow(5)) {
        case 0:
          probes.push(k1);
          break;
        case 1:
          probes.push(key(rng.nextBelow(300_100), rng.nextBelow(4)));
          break;
        case 2:
          probes.push(k1.subarray(0, cut));
          break;
        case 3: {
          const g = Uint8Array.from(k1);
          const at = Math.min(cut, g.length - 1);
          g[at] = g[at]! ^ (1 << rng.nextBelow(8));
          probes.push(g);
          break;
        }
        default:
          probes.push(Uint8Array.of(...k1, rng.nextBelow(256)));
      }
    }
    /** Index of the first model key ≥ p (`strict`: > p), −1 past the end. */
    const firstFrom = (p: Uint8Array, strict: boolean): number => {
      let lo = 0;
      let hi = model.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const c = Buffer.compare(model[mid]![0], p);
        if (c < 0 || (strict && c === 0)) lo = mid + 1;
        else hi = mid;
      }
      return lo === model.length ? -1 : lo;
    };
    const c = t.cursor();
    for (let r = 0; r < 3; r++)
      for (const p of probes) {
        const at = firstFrom(p, false);
        const after = firstFrom(p, true);
        expect(c.seek(p, 'ge')).toBe(at >= 0);
        if (at >= 0) expect(c.key()).toEqual(model[at]![0]);
        expect(c.seek(p, 'gt')).toBe(after >= 0);
        if (after >= 0) expect(c.key()).toEqual(model[after]![0]);
        const hit = at >= 0 && Buffer.compare(model[at]![0], p) === 0;
        expect(t.get(p)).toEqual(hit ? v(model[at]![1]) : undefined);
      }
    t.checkValid();
  });

  it('long keys tied on six bytes and a non-unique tree ordered by value', () => {
    const str = new KeyCodec([{ type: 'string' }, { type: 'int32' }]);
    const t = BTree.create(new MemoryStore(1024, 4096), { unique: false, tupleKeys: true });
    const entries: [Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < 1500; i++) {
      // Same first six bytes for whole groups: 'prefix-' + group, then a number.
      const key = str.encode([`prefix-${i % 7}`, i % 50]);
      const val = Uint8Array.of(i >> 8, i & 255);
      t.insert(key, val);
      entries.push([key, val]);
    }
    for (let r = 0; r < 2; r++) {
      for (const [key, val] of entries) {
        expect(t.has(key, val)).toBe(true);
        expect(t.has(key, Uint8Array.of(255, 255))).toBe(false);
      }
    }
    // Every (key, value) again through a cursor seek, in order.
    const sorted = [...entries].sort((a, b) => Buffer.compare(a[0], b[0]) || Buffer.compare(a[1], b[1]));
    const seen = [...t.entries()];
    expect(seen.length).toBe(sorted.length);
    for (let i = 0; i < seen.length; i++) {
      expect(seen[i]![0]).toEqual(sorted[i]![0]);
      expect(seen[i]![1]).toEqual(sorted[i]![1]);
    }
    t.checkValid();
  });
});
