// A cursor walked while the tree changes between its steps (splits, merges, freed pages): it must
// return strictly increasing (or, backwards, decreasing) keys and never skip a key that was in
// the tree for the whole walk.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BTree, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const key = (i: number): Uint8Array => codec.encode([i]);
const val = (i: number): Uint8Array => Uint8Array.from({ length: 10 }, (_, j) => (i + j) & 255);

describe('cursor restore across writes (512-byte pages (the smallest the envelope allows))', () => {
  for (const backwards of [false, true]) {
    it(`${backwards ? 'prev' : 'next'}: ordered, nothing stable skipped`, () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 200, size: 'max' }),
          fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 400 })), { maxLength: 400, size: 'max' }),
          (initial, writes) => {
            const tree = BTree.create(new MemoryStore(512, 4096));
            const present = new Set<number>();
            for (const k of initial) {
              tree.insert(key(k), val(k));
              present.add(k);
            }
            const stable = new Set(present); // keys never deleted during the walk
            const c = tree.cursor();
            const seen: number[] = [];
            let ok = backwards ? c.last() : c.first();
            let w = 0;
            while (ok) {
              seen.push(codec.decode(c.key())[0] as number);
              // one or two writes between steps
              for (let j = 0; j < 2 && w < writes.length; j++, w++) {
                const [ins, k] = writes[w]!;
                if (ins && !present.has(k)) {
                  tree.insert(key(k), val(k));
                  present.add(k);
                } else if (!ins && present.has(k)) {
                  tree.delete(key(k));
                  present.delete(k);
                  stable.delete(k);
                }
              }
              ok = backwards ? c.prev() : c.next();
            }
            for (let i = 1; i < seen.length; i++) {
              if (backwards) expect(seen[i]!).toBeLessThan(seen[i - 1]!);
              else expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
            }
            const seenSet = new Set(seen);
            for (const k of stable) expect(seenSet.has(k)).toBe(true);
            tree.checkValid();
          },
        ),
        { numRuns: Number(process.env.MODEL_RUNS ?? 40) },
      );
    });
  }
});
