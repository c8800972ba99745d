// Delete marks and PAGE_MAX_TRX_ID against a sorted-array model of (key, value, deleted) entries,
// on 512-byte pages so splits, merges, root raises and root lifts happen within a few dozen
// commands (each run starts from a bulk-loaded tree). After every command: checkValid(), the delete-marked count, a full scan's entries and
// flags, and, for every entry, that its leaf's PAGE_MAX_TRX_ID is at least the largest maxTrxId
// ever passed for that entry (the model tracks it per entry).
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BTree,
  compareKeys,
  DuplicateKeyError,
  isDeleteMarked,
  KeyCodec,
  pageBaseOf,
  pageMaxTrxId,
} from '../src/index.js';
import { MemoryStore } from './support/memory-store.js';

const codec = new KeyCodec([{ type: 'int32' }]);
const key = (i: number): Uint8Array => codec.encode([i]);
const val = (i: number, len: number): Uint8Array =>
  Uint8Array.from({ length: len }, (_, j) => (i * 31 + j) & 255);

interface Entry {
  k: Uint8Array;
  v: Uint8Array;
  deleted: boolean;
  /** Largest maxTrxId passed for this entry since it was inserted (0: none). */
  trx: number;
}
interface Model {
  entries: Entry[];
  unique: boolean;
}
interface Real {
  tree: BTree;
  store: MemoryStore | null;
}

/** What the runs reached, so the test can show splits, merges and root raises happened. */
const reached = { maxHeight: 0, freedPages: 0, marked: 0 };
let verifies = 0;

const cmp = (m: Model, a: Uint8Array, av: Uint8Array, b: Entry): number => {
  const c = compareKeys(a, b.k);
  return c !== 0 || m.unique ? c : compareKeys(av, b.v);
};
const lowerBound = (m: Model, k: Uint8Array, v: Uint8Array): number => {
  let lo = 0;
  let hi = m.entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(m, k, v, m.entries[mid]!) > 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
const withKey = (m: Model, k: Uint8Array): Entry[] => m.entries.filter((e) => compareKeys(e.k, k) === 0);
/** The key a command aims at: three times in four an existing entry's (chosen by `sel`), else key `k`. */
const aim = (m: Model, k: number, sel: number): Uint8Array =>
  m.entries.length > 0 && sel % 4 !== 0 ? m.entries[(sel >>> 2) % m.entries.length]!.k : key(k);
const hex = (a: Uint8Array): string => Buffer.from(a).toString('hex');

function verify(m: Model, r: Real): void {
  const st = r.tree.checkValid();
  if (r.store !== null) expect(r.store.pinned()).toBe(0);
  expect(st.records).toBe(m.entries.length);
  expect(st.deletedRecords).toBe(m.entries.filter((e) => e.deleted).length);
  reached.maxHeight = Math.max(reached.maxHeight, st.height);
  reached.freedPages = Math.max(reached.freedPages, st.freePages);
  const ps = r.tree.pageSize;
  const got: string[] = [];
  const pageTrx: number[] = [];
  r.tree.forEachRangeRaw(null, null, (b, ko, kl, vo, vl) => {
    got.push(
      `${hex(b.subarray(ko, ko + kl))}=${hex(b.subarray(vo, vo + vl))}${isDeleteMarked(b, ko) ? ' D' : ''}`,
    );
    pageTrx.push(pageMaxTrxId(b, pageBaseOf(ko, ps)));
    return undefined;
  });
  expect(got).toEqual(m.entries.map((e) => `${hex(e.k)}=${hex(e.v)}${e.deleted ? ' D' : ''}`));
  for (let i = 0; i < m.entries.length; i++) {
    if (pageTrx[i]! < m.entries[i]!.trx) {
      throw new Error(`entry ${i}: its leaf's PAGE_MAX_TRX_ID ${pageTrx[i]} < ${m.entries[i]!.trx}`);
    }
  }
  // The cursor reports the same flags and page field, backwards (every fourth check: it is slow).
  if (++verifies % 4 !== 0) return;
  const c = r.tree.cursor();
  let i = m.entries.length - 1;
  for (let ok = c.last(); ok; ok = c.prev(), i--) {
    expect(c.deleted()).toBe(m.entries[i]!.deleted);
    expect(c.pageMaxTrxId()).toBe(pageTrx[i]);
  }
  expect(i).toBe(-1);
}

class InsertCmd implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly v: number,
    readonly len: number,
    readonly trx: number | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const k = key(this.k);
    const v = val(this.v, this.len);
    const at = lowerBound(m, k, v);
    if (at < m.entries.length && cmp(m, k, v, m.entries[at]!) === 0) {
      expect(() => r.tree.insert(k, v, this.trx)).toThrow(DuplicateKeyError);
    } else {
      r.tree.insert(k, v, this.trx);
      m.entries.splice(at, 0, { k, v, deleted: false, trx: this.trx ?? 0 });
    }
    verify(m, r);
  }
  toString(): string {
    return `insert(${this.k}, ${this.v}/${this.len}, ${this.trx})`;
  }
}

class DeleteCmd implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly pick: number,
    readonly trx: number | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const k = aim(m, this.k, this.pick);
    const same = withKey(m, k);
    // Non-unique trees: half the time the exact entry, else the first with the key.
    const exact = !m.unique && ((this.pick >>> 12) & 1) === 1;
    const target = same.length === 0 ? undefined : exact ? same[(this.pick >>> 13) % same.length] : same[0];
    const byValue = exact && target !== undefined ? target.v : undefined;
    expect(r.tree.delete(k, byValue, this.trx)).toBe(target !== undefined);
    if (target !== undefined) m.entries.splice(m.entries.indexOf(target), 1);
    verify(m, r);
  }
  toString(): string {
    return `delete(${this.k}, #${this.pick}, ${this.trx})`;
  }
}

class MarkCmd implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly pick: number,
    readonly marked: boolean,
    readonly trx: number | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const k = aim(m, this.k, this.pick);
    const same = withKey(m, k);
    const target = same.length === 0 ? undefined : same[(this.pick >>> 12) % same.length];
    // A non-unique tree is asked for an absent value when the key has no entry.
    const v = m.unique ? undefined : (target?.v ?? val(this.pick & 255, 3));
    expect(r.tree.setDeleteMark(k, v, this.marked, this.trx)).toBe(target !== undefined);
    if (target !== undefined) {
      target.deleted = this.marked;
      target.trx = Math.max(target.trx, this.trx ?? 0);
      if (this.marked) reached.marked++;
      expect(r.tree.getRecord(k)).toEqual({ value: same[0]!.v, deleted: same[0]!.deleted });
      expect(r.tree.get(k)).toEqual(same[0]!.v);
      expect(r.tree.has(k, v)).toBe(true);
    }
    verify(m, r);
  }
  toString(): string {
    return `setDeleteMark(${this.k}, #${this.pick}, ${this.marked}, ${this.trx})`;
  }
}

class UpdateCmd implements fc.Command<Model, Real> {
  constructor(
    readonly k: number,
    readonly pick: number,
    readonly v: number,
    readonly len: number,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const k = aim(m, this.k, this.pick);
    const nv = val(this.v, this.len);
    const same = withKey(m, k);
    const target = same.length === 0 ? undefined : same[(this.pick >>> 12) % same.length];
    if (m.unique) {
      expect(r.tree.update(k, nv)).toBe(target !== undefined);
      if (target !== undefined) target.v = nv;
    } else {
      // The entry moves to its new (key, value) place; skip a value the key already has.
      if (target === undefined || same.some((e) => compareKeys(e.v, nv) === 0)) return;
      expect(r.tree.update(k, nv, target.v)).toBe(true);
      m.entries.splice(m.entries.indexOf(target), 1);
      target.v = nv;
      m.entries.splice(lowerBound(m, k, nv), 0, target);
    }
    verify(m, r);
  }
  toString(): string {
    return `update(${this.k}, #${this.pick}, ${this.v}/${this.len})`;
  }
}

const trxId = fc.option(
  fc.oneof(
    fc.integer({ min: 0, max: 1000 }),
    fc.constantFrom(2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 48 - 1),
    fc.integer({ min: 0, max: 2 ** 48 - 1 }),
  ),
  { nil: undefined },
);

const commands = (keySpace: number, maxLen: number) => {
  const k = fc.integer({ min: -keySpace, max: keySpace });
  const insert = fc
    .tuple(k, fc.nat(5), fc.integer({ min: 0, max: maxLen }), trxId)
    .map(([a, b, c, d]) => new InsertCmd(a, b, c, d));
  return [
    insert,
    insert,
    insert,
    fc.tuple(k, fc.nat(), trxId).map(([a, b, c]) => new DeleteCmd(a, b, c)),
    fc.tuple(k, fc.nat(), trxId).map(([a, b, c]) => new DeleteCmd(a, b, c)),
    fc.tuple(k, fc.nat(), fc.constant(true), trxId).map(([a, b, c, d]) => new MarkCmd(a, b, c, d)),
    fc.tuple(k, fc.nat(), fc.constant(true), trxId).map(([a, b, c, d]) => new MarkCmd(a, b, c, d)),
    fc.tuple(k, fc.nat(), fc.constant(false), trxId).map(([a, b, c, d]) => new MarkCmd(a, b, c, d)),
    fc
      .tuple(k, fc.nat(), fc.nat(5), fc.integer({ min: 0, max: maxLen }))
      .map(([a, b, c, d]) => new UpdateCmd(a, b, c, d)),
  ];
};

/**
 * A tree bulk-loaded with `n` entries (every third key from −600, values of 20–27 bytes, leaves
 * stamped with `loadTrx`), so the commands start on trees of height 2 or 3. A low MERGE_THRESHOLD
 * leaves pages of a single record, which an update or a delete then empties.
 */
function loaded(
  unique: boolean,
  store: MemoryStore | BufferPool,
  n: number,
  fill: number,
  loadTrx: number | undefined,
  mergeThreshold = 50,
) {
  const tree = BTree.create(store, { unique, mergeThreshold });
  const loader = tree.bulkLoader(
    loadTrx === undefined ? { innodb_fill_factor: fill } : { innodb_fill_factor: fill, maxTrxId: loadTrx },
  );
  const entries: Entry[] = [];
  for (let i = 0; i < n; i++) {
    const e: Entry = { k: key(3 * i - 600), v: val(i, 20 + (i % 8)), deleted: false, trx: loadTrx ?? 0 };
    loader.add(e.k, e.v);
    entries.push(e);
  }
  loader.finish();
  return { tree, model: { entries, unique } };
}

describe('delete marks and PAGE_MAX_TRX_ID against a model (512-byte pages)', () => {
  for (const unique of [true, false]) {
    it(`${unique ? 'unique' : 'non-unique'}: insert/delete/setDeleteMark/update with random maxTrxId`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 400 }),
          fc.integer({ min: 10, max: 100 }),
          trxId,
          fc.constantFrom(50, 1),
          fc.commands(commands(650, 24), { maxCommands: 150, size: 'max' }),
          (n, fill, loadTrx, mergeThreshold, cmds) => {
            const store = new MemoryStore(512, 4096);
            const { tree, model } = loaded(unique, store, n, fill, loadTrx, mergeThreshold);
            verify(model, { tree, store });
            fc.modelRun(() => ({ model, real: { tree, store } }), cmds);
          },
        ),
        { numRuns: Number(process.env.MODEL_RUNS ?? 25) },
      );
      expect(reached.maxHeight).toBeGreaterThanOrEqual(3);
      expect(reached.freedPages).toBeGreaterThan(0);
      expect(reached.marked).toBeGreaterThan(0);
    });
  }

  it('on the real BufferPool (12 frames: pages are evicted and re-read)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: 200 }),
        trxId,
        fc.commands(commands(650, 30), { maxCommands: 200, size: 'max' }),
        (unique, n, loadTrx, cmds) => {
          const pool = new BufferPool({
            innodb_page_size: 512,
            innodb_buffer_pool_size: 12 * 512,
            device: new MemoryDevice({ pageSize: 512 }),
          });
          const { tree, model } = loaded(unique, pool, n, 100, loadTrx);
          fc.modelRun(() => ({ model, real: { tree, store: null } }), cmds);
        },
      ),
      { numRuns: Number(process.env.MODEL_RUNS ?? 10) },
    );
  });
});
