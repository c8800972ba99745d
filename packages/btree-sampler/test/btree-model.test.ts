// Model tests: the tree against a sorted array, with 512-byte pages (the smallest the envelope allows) so that splits, merges,
// root raises and root lifts happen within a few dozen operations. checkValid() and the
// store's pin count are verified after every command.
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BTree, compareKeys, DuplicateKeyError, KeyCodec } from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const key = (i: number): Uint8Array => codec.encode([i]);
const val = (i: number, len: number): Uint8Array =>
  Uint8Array.from({ length: len }, (_, j) => (i * 31 + j) & 255);

type Entry = [Uint8Array, Uint8Array];
interface Model {
  entries: Entry[];
  unique: boolean;
}
interface Real {
  tree: BTree;
  /** The test double counts pins; the real pool is checked by its own tests. */
  store: MemoryStore | null;
}

const cmpEntry = (a: Entry, b: Entry, unique: boolean): number => {
  const c = compareKeys(a[0], b[0]);
  return c !== 0 || unique ? c : compareKeys(a[1], b[1]);
};
const lowerBound = (m: Model, e: Entry): number => {
  let lo = 0;
  let hi = m.entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmpEntry(m.entries[mid]!, e, m.unique) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
const firstWithKey = (m: Model, k: Uint8Array): number =>
  m.entries.findIndex((e) => compareKeys(e[0], k) === 0);

const after = (r: Real): void => {
  r.tree.checkValid();
  if (r.store !== null) expect(r.store.pinned()).toBe(0);
};

class InsertCmd implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly v: number,
    readonly len: number,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const e: Entry = [key(this.k), val(this.v, this.len)];
    const at = lowerBound(m, e);
    const dup = at < m.entries.length && cmpEntry(m.entries[at]!, e, m.unique) === 0;
    if (dup) expect(() => r.tree.insert(e[0], e[1])).toThrow(DuplicateKeyError);
    else {
      r.tree.insert(e[0], e[1]);
      m.entries.splice(at, 0, e);
    }
    after(r);
  }
  toString(): string {
    return `insert(${this.k}, ${this.v}/${this.len})`;
  }
}

class DeleteCmd implements fc.Command<Model, Real> {
  constructor(readonly k: number) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const at = firstWithKey(m, key(this.k));
    expect(r.tree.delete(key(this.k))).toBe(at >= 0);
    if (at >= 0) m.entries.splice(at, 1);
    after(r);
  }
  toString(): string {
    return `delete(${this.k})`;
  }
}

class UpdateCmd implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly v: number,
    readonly len: number,
  ) {}
  check(m: Model): boolean {
    return m.unique;
  }
  run(m: Model, r: Real): void {
    const at = firstWithKey(m, key(this.k));
    const nv = val(this.v, this.len);
    expect(r.tree.update(key(this.k), nv)).toBe(at >= 0);
    if (at >= 0) m.entries[at]![1] = nv;
    after(r);
  }
  toString(): string {
    return `update(${this.k}, ${this.v}/${this.len})`;
  }
}

class GetCmd implements fc.Command<Model, Real> {
  constructor(readonly k: number) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const at = firstWithKey(m, key(this.k));
    expect(r.tree.get(key(this.k))).toEqual(at >= 0 ? m.entries[at]![1] : undefined);
  }
  toString(): string {
    return `get(${this.k})`;
  }
}

class ScanCmd implements fc.Command<Model, Real> {
  constructor(
    readonly lo: number,
    readonly hi: number,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const lo = key(Math.min(this.lo, this.hi));
    const hi = key(Math.max(this.lo, this.hi));
    const want = m.entries.filter((e) => compareKeys(e[0], lo) >= 0 && compareKeys(e[0], hi) < 0);
    const got: Entry[] = [];
    r.tree.forEachRange(lo, hi, (k, v) => {
      got.push([k.slice(), v.slice()]);
      return undefined;
    });
    expect(got).toEqual(want);
    expect([...r.tree.entries(lo, hi)]).toEqual(want);
    // Backwards with a cursor from the last entry below hi.
    const c = r.tree.cursor();
    const back: Entry[] = [];
    let ok = c.seek(hi, 'ge') ? c.prev() : c.last();
    while (ok && compareKeys(c.key(), lo) >= 0) {
      back.push([c.key(), c.value()]);
      ok = c.prev();
    }
    expect(back.reverse()).toEqual(want);
    if (r.store !== null) expect(r.store.pinned()).toBe(0);
  }
  toString(): string {
    return `scan(${this.lo}, ${this.hi})`;
  }
}

const commands = (keySpace: number, maxLen: number) => [
  fc
    .tuple(fc.integer({ min: -keySpace, max: keySpace }), fc.nat(5), fc.integer({ min: 0, max: maxLen }))
    .map(([k, v, l]) => new InsertCmd(k, v, l)),
  fc
    .tuple(fc.integer({ min: -keySpace, max: keySpace }), fc.nat(5), fc.integer({ min: 0, max: maxLen }))
    .map(([k, v, l]) => new InsertCmd(k, v, l)),
  fc
    .tuple(fc.integer({ min: -keySpace, max: keySpace }), fc.nat(5), fc.integer({ min: 0, max: maxLen }))
    .map(([k, v, l]) => new InsertCmd(k, v, l)),
  fc.integer({ min: -keySpace, max: keySpace }).map((k) => new DeleteCmd(k)),
  fc.integer({ min: -keySpace, max: keySpace }).map((k) => new DeleteCmd(k)),
  fc
    .tuple(fc.integer({ min: -keySpace, max: keySpace }), fc.nat(5), fc.integer({ min: 0, max: maxLen }))
    .map(([k, v, l]) => new UpdateCmd(k, v, l)),
  fc.integer({ min: -keySpace, max: keySpace }).map((k) => new GetCmd(k)),
  fc
    .tuple(fc.integer({ min: -keySpace, max: keySpace }), fc.integer({ min: -keySpace, max: keySpace }))
    .map(([a, b]) => new ScanCmd(a, b)),
];

describe('BTree against a sorted-array model (512-byte pages (the smallest the envelope allows))', () => {
  for (const unique of [true, false]) {
    it(`${unique ? 'unique' : 'non-unique'}: insert/delete/update/get/scan keep checkValid()`, () => {
      fc.assert(
        fc.property(fc.commands(commands(120, 20), { maxCommands: 300, size: 'max' }), (cmds) => {
          const store = new MemoryStore(512, 4096);
          const tree = BTree.create(store, { unique });
          fc.modelRun(() => ({ model: { entries: [], unique }, real: { tree, store } }), cmds);
        }),
        { numRuns: Number(process.env.MODEL_RUNS ?? 40) },
      );
    });
  }

  it('bulk load then mutate, at random fill factors', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -500, max: 500 }), { maxLength: 300 }),
        fc.integer({ min: 10, max: 100 }),
        fc.boolean(),
        fc.commands(commands(500, 12), { maxCommands: 120, size: 'max' }),
        (keys, fillFactor, unique, cmds) => {
          keys.sort((a, b) => a - b);
          const store = new MemoryStore(512, 4096);
          const tree = BTree.create(store, { unique });
          const loader = tree.bulkLoader({ innodb_fill_factor: fillFactor });
          const entries: Entry[] = [];
          for (const x of keys) {
            const e: Entry = [key(x), val(x, x & 7)];
            loader.add(e[0], e[1]);
            entries.push(e);
          }
          const res = loader.finish();
          expect(res.records).toBe(keys.length);
          const st = tree.checkValid();
          expect(st.records).toBe(keys.length);
          expect(st.height).toBe(res.height);
          fc.modelRun(() => ({ model: { entries, unique }, real: { tree, store } }), cmds);
        },
      ),
      { numRuns: Number(process.env.MODEL_RUNS ?? 30) },
    );
  });
});

describe('the same model on the real BufferPool (512-byte pages, 12 frames: pages are evicted and re-read)', () => {
  it('unique and non-unique', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.commands(commands(300, 40), { maxCommands: 300, size: 'max' }),
        (unique, cmds) => {
          const pool = new BufferPool({
            innodb_page_size: 512,
            innodb_buffer_pool_size: 12 * 512,
            device: new MemoryDevice({ pageSize: 512 }),
          });
          const tree = BTree.create(pool, { unique });
          fc.modelRun(() => ({ model: { entries: [], unique }, real: { tree, store: null } }), cmds);
        },
      ),
      { numRuns: Number(process.env.MODEL_RUNS ?? 15) },
    );
  });
});
