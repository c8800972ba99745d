// The two write descents on one thread, through an index latch that records its calls: a change
// that fits the leaf takes the latch in S only; one that needs a split, a merge, an emptied leaf
// or a value of another length takes S, gives it up, and takes X. Checked against a Map model
// over a seeded run of inserts, deletes, updates and delete marks on 512-byte pages.
import { describe, expect, it } from 'vitest';
import { BTree, DuplicateKeyError, type IndexLatch, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const key = (i: number): Uint8Array => codec.encode([i]);
const val = (i: number, len: number): Uint8Array => Uint8Array.from({ length: len }, (_, j) => (i + j) & 255);

/** An index latch that checks S/X pairing and logs 'S' and 'X' per acquisition. */
class RecordingLatch implements IndexLatch {
  log: string[] = [];
  #s = 0;
  #x = 0;
  sLock(): void {
    expect(this.#x).toBe(0);
    this.#s++;
    this.log.push('S');
  }
  sUnlock(): void {
    expect(this.#s).toBeGreaterThan(0);
    this.#s--;
  }
  xLock(): void {
    expect(this.#s + this.#x).toBe(0); // never an upgrade: S is released before X is asked for
    this.#x++;
    this.log.push('X');
  }
  xUnlock(): void {
    expect(this.#x).toBe(1);
    this.#x--;
  }
  get free(): boolean {
    return this.#s === 0 && this.#x === 0;
  }
  take(): string {
    const s = this.log.join('');
    this.log = [];
    return s;
  }
}

function setup(): { tree: BTree; latch: RecordingLatch; store: MemoryStore } {
  const latch = new RecordingLatch();
  const store = new MemoryStore(512, 4096);
  const tree = BTree.create(store, { indexLatch: latch });
  return { tree, latch, store };
}

describe('optimistic and pessimistic descents', () => {
  it('an insert that fits takes S only; the insert that splits the leaf restarts under X', () => {
    const { tree, latch } = setup();
    let i = 0;
    while (tree.stats().height === 1) {
      latch.take();
      tree.insert(key(i), val(i, 20));
      const modes = latch.take();
      if (tree.shape().height === 1) expect(modes).toBe('S');
      else expect(modes).toBe('SX'); // the root leaf split: restarted
      i++;
    }
    expect(tree.writeStats).toEqual({ optimistic: i - 1, restarts: 1, pessimistic: 1 });
  });

  it('a duplicate is refused under S, with nothing changed', () => {
    const { tree, latch } = setup();
    tree.insert(key(1), val(1, 4));
    latch.take();
    expect(() => tree.insert(key(1), val(2, 4))).toThrow(DuplicateKeyError);
    expect(latch.take()).toBe('S');
    expect(latch.free).toBe(true);
    expect(tree.get(key(1))).toEqual(val(1, 4));
  });

  it('a delete that would take a leaf below the merge threshold restarts; one that leaves it above does not', () => {
    const { tree, latch } = setup();
    for (let i = 0; i < 200; i++) tree.insert(key(i), val(i, 12));
    expect(tree.shape().height).toBeGreaterThan(1);
    let sawRestart = false;
    let sawOptimistic = false;
    for (let i = 0; i < 200; i++) {
      const before = tree.shape();
      latch.take();
      expect(tree.delete(key(i))).toBe(true);
      const modes = latch.take();
      const after = tree.shape();
      if (modes === 'S') {
        sawOptimistic = true;
        expect(after.indexPages).toBe(before.indexPages); // no page freed or merged
      } else {
        expect(modes).toBe('SX');
        sawRestart = true;
      }
      tree.checkValid();
    }
    expect(sawRestart && sawOptimistic).toBe(true);
    latch.take();
    expect(tree.delete(key(5))).toBe(false);
    expect(latch.take()).toBe('S');
  });

  it('an update of the same length stays on the leaf; another length restarts', () => {
    const { tree, latch } = setup();
    for (let i = 0; i < 50; i++) tree.insert(key(i), val(i, 8));
    latch.take();
    expect(tree.update(key(7), val(70, 8))).toBe(true);
    expect(latch.take()).toBe('S');
    expect(tree.update(key(7), val(71, 9))).toBe(true);
    expect(latch.take()).toBe('SX');
    expect(tree.update(key(999), val(1, 8))).toBe(false);
    expect(latch.take()).toBe('S');
    expect(tree.get(key(7))).toEqual(val(71, 9));
    expect(tree.setDeleteMark(key(7), undefined, true)).toBe(true);
    expect(latch.take()).toBe('S');
  });

  for (const latched of [true, false]) {
    it(`a seeded mixed run equals a Map model (${latched ? 'with' : 'without'} an index latch)`, () => {
      let x = 7; // xorshift32
      const pick = (n: number): number => {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return (x >>> 0) % n;
      };
      const latch = new RecordingLatch();
      const store = new MemoryStore(512, 4096);
      const tree = BTree.create(store, latched ? { indexLatch: latch } : {});
      const model = new Map<number, { v: Uint8Array; marked: boolean }>();
      for (let op = 0; op < 6000; op++) {
        const k = pick(600);
        const had = model.get(k);
        const r = pick(10);
        if (had === undefined) {
          const v = val(k + op, 4 + pick(12));
          tree.insert(key(k), v);
          model.set(k, { v, marked: false });
        } else if (r < 5 || op % 2000 > 1500) {
          expect(tree.delete(key(k))).toBe(true);
          model.delete(k);
        } else if (r < 8) {
          const v = val(k + op, r < 7 ? had.v.length : 4 + pick(12));
          expect(tree.update(key(k), v)).toBe(true);
          had.v = v;
        } else {
          expect(tree.setDeleteMark(key(k), undefined, !had.marked)).toBe(true);
          had.marked = !had.marked;
        }
        expect(latch.free).toBe(true);
      }
      const st = tree.checkValid();
      expect(st.records).toBe(model.size);
      for (const [k, { v, marked }] of model)
        expect(tree.getRecord(key(k))).toEqual({ value: v, deleted: marked });
      for (let i = 0; i < store.pins.length; i++) expect(store.pins[i]).toBe(0);
      const ws = tree.writeStats;
      expect(ws.restarts).toBeGreaterThan(50);
      expect(ws.optimistic).toBeGreaterThan(ws.restarts * 3);
    });
  }

  it('with optimisticWrites false every insert, delete and update goes straight to X, with the same tree', () => {
    const latch = new RecordingLatch();
    const tree = BTree.create(new MemoryStore(512, 4096), { indexLatch: latch, optimisticWrites: false });
    const model = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      tree.insert(key(i), val(i, 20));
      model.set(i, 20);
    }
    for (let i = 0; i < 300; i += 3) {
      tree.delete(key(i));
      model.delete(i);
    }
    for (let i = 1; i < 300; i += 3) {
      tree.update(key(i), val(i, 20));
      model.set(i, 20);
    }
    expect(latch.take()).toMatch(/^X+$/);
    expect(tree.writeStats.optimistic).toBe(0);
    expect(tree.writeStats.restarts).toBe(0);
    tree.checkValid();
    expect([...tree.entries()].map(([k]) => codec.decode(k)[0])).toEqual(
      [...model.keys()].sort((a, b) => a - b),
    );
    expect(() => BTree.create(new MemoryStore(512, 64), { optimisticWrites: 'no' as never })).toThrow(
      TypeError,
    );
  });
});
