import { compareKeys, KeyWriter } from '@enginekit/btree-sampler';
import {
  H_READ_FIRST,
  H_READ_KEY,
  H_READ_NEXT,
  H_READ_RND,
  H_READ_RND_NEXT,
  H_ROWS_READ,
} from '../storage/counters.js';
import type { RowBuffer } from '../storage/row.js';
import type { Table, TableIndex } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import type { ConsistentRead, RowFn } from './hooks.js';
import { type ReadView, SEES_NOTHING, SEES_TREE, visibleVersion } from './read-view.js';
import {
  compareRaw,
  lowerBound,
  type TableVersions,
  type VersionChain,
  type VersionStore,
} from './version-store.js';

/**
 * Where an index entry lies against a read's bounds: before them (skip it), in them, or past
 * them (stop).
 */
type Classify = (b: Uint8Array, off: number, len: number) => number;
const BEFORE = -1;
const IN = 0;
const PAST = 1;

/** Per-table scratch of the reader: row buffers by nesting depth, a full row for key checks. */
interface Scratch {
  readonly rows: RowBuffer[];
  depth: number;
  /** Never narrowed: versions are decoded here to encode their index entries. */
  readonly full: RowBuffer;
  readonly pk: KeyWriter;
}

/** A version of a row found only in the store (its current index entry differs or is gone). */
interface Extra {
  readonly entry: Uint8Array;
  readonly bytes: Uint8Array;
}

/**
 * Consistent (non-locking) reads of tables that have versions in the store, as InnoDB's
 * `row_search_for_mysql` with a read view: each row the B+tree holds is replaced by the version
 * the view sees (`row_vers_build_for_consistent_read`), and rows the tree no longer holds
 * (deleted, or moved to another key, by a writer the view does not see) are merged in, in key
 * order. A table without versions never comes here (its reads are the table's own code).
 *
 * Secondary-index reads take each entry's clustered row at the visible version and keep it only
 * when that version still has this entry (`row_sel_get_clust_rec_for_mysql` re-checks the
 * secondary key on the old version); visible versions whose entry the tree lacks come from the
 * store, sorted by entry and merged.
 */
export class ConsistentReader implements ConsistentRead {
  readonly #store: VersionStore;
  readonly #counts: Float64Array;
  readonly #scratch = new WeakMap<Table, Scratch>();
  readonly #extraCache = new Map<TableIndex, { gen: number; view: ReadView; list: readonly Extra[] }>();
  view: ReadView | null = null;

  constructor(store: VersionStore, counts: Float64Array) {
    this.#store = store;
    this.#counts = counts;
  }

  #s(t: Table): Scratch {
    let s = this.#scratch.get(t);
    if (s === undefined) {
      s = { rows: [], depth: 0, full: t.newRow(), pk: new KeyWriter(256) };
      this.#scratch.set(t, s);
    }
    return s;
  }

  #tv(t: Table): TableVersions {
    const tv = this.#store.table(t.id);
    if (tv === undefined) return { buckets: new Map(), sorted: [], pending: [], live: 0, dead: 0 };
    return tv;
  }

  #visible(tv: TableVersions, b: Uint8Array, off: number, len: number): Uint8Array | number {
    const c = this.#store.chain(tv, b, off, len);
    return c === null ? SEES_TREE : visibleVersion(this.view!, c);
  }

  get(t: Table, pk: Uint8Array): FieldValue[] | undefined {
    this.#counts[H_READ_KEY]!++;
    const vis = this.#visible(this.#tv(t), pk, 0, pk.length);
    const bytes =
      vis === SEES_TREE ? t.primary.tree.get(pk) : vis === SEES_NOTHING ? undefined : (vis as Uint8Array);
    if (bytes === undefined) return undefined;
    const row = t.newRow();
    t.codec.decode(bytes, 0, bytes.length, row);
    return row.toArray();
  }

  fetchRowid(t: Table, pk: Uint8Array, fn: RowFn): boolean | undefined {
    const counts = this.#counts;
    counts[H_READ_RND]!++;
    counts[H_ROWS_READ]!++;
    const vis = this.#visible(this.#tv(t), pk, 0, pk.length);
    if (vis === SEES_NOTHING) throw new RangeError(`a row id of ${t.name} points at a missing row`);
    return this.#withRow(t, (row) => {
      if (vis !== SEES_TREE) {
        const b = vis as Uint8Array;
        t.codec.decode(b, 0, b.length, row);
        return fn(row);
      }
      let found = false;
      let go: boolean | undefined;
      t.primary.tree.forEachRangeRaw(pk, null, (b, ko, kl, vo, vl) => {
        if (kl === pk.length && compareRaw(pk, b, ko, kl) === 0) {
          found = true;
          t.codec.decode(b, vo, vl, row);
          go = fn(row);
        }
        return false;
      });
      if (!found) throw new RangeError(`a row id of ${t.name} points at a missing row`);
      return go;
    });
  }

  scan(t: Table, fn: RowFn): number {
    const counts = this.#counts;
    counts[H_READ_FIRST]!++;
    const n = this.#withRow(t, (row) => this.#walkPrimary(t, null, () => IN, row, fn, H_READ_RND_NEXT));
    counts[H_READ_RND_NEXT]!++;
    return n;
  }

  lookup(t: Table, ix: TableIndex, lo: Uint8Array, fullPk: boolean, fn: RowFn): number {
    const counts = this.#counts;
    counts[H_READ_KEY]!++;
    if (fullPk) {
      // one row by its whole primary key: its visible version or nothing
      const vis = this.#visible(this.#tv(t), lo, 0, lo.length);
      if (vis === SEES_NOTHING) return 0;
      const bytes = vis === SEES_TREE ? t.primary.tree.get(lo) : (vis as Uint8Array);
      if (bytes === undefined) return 0;
      counts[H_ROWS_READ]!++;
      this.#withRow(t, (row) => {
        t.codec.decode(bytes, 0, bytes.length, row);
        return fn(row);
      });
      return 1;
    }
    const cls: Classify = (b, o, l) => {
      const c = comparePrefixRaw(b, o, l, lo);
      return c < 0 ? BEFORE : c === 0 ? IN : PAST;
    };
    const n = this.#withRow(t, (row) =>
      ix.primary
        ? this.#walkPrimary(t, lo, cls, row, fn, H_READ_NEXT)
        : this.#walkSecondary(t, ix, lo, cls, row, fn),
    );
    counts[H_READ_NEXT]!++;
    return n;
  }

  range(
    t: Table,
    ix: TableIndex,
    loKey: Uint8Array,
    skipEqual: boolean,
    hiKey: Uint8Array | null,
    hiInclusive: boolean,
    fn: RowFn,
  ): number {
    const counts = this.#counts;
    counts[H_READ_KEY]!++;
    const cls: Classify = (b, o, l) => {
      const c = comparePrefixRaw(b, o, l, loKey);
      if (c < 0 || (c === 0 && skipEqual)) return BEFORE;
      if (hiKey === null) return IN;
      const h = comparePrefixRaw(b, o, l, hiKey);
      return h < 0 || (h === 0 && hiInclusive) ? IN : PAST;
    };
    const n = this.#withRow(t, (row) =>
      ix.primary
        ? this.#walkPrimary(t, loKey, cls, row, fn, H_READ_NEXT)
        : this.#walkSecondary(t, ix, loKey, cls, row, fn),
    );
    counts[H_READ_NEXT]!++;
    return n;
  }

  prefixRowids(t: Table, ix: TableIndex, lo: Uint8Array, fn: (pk: Uint8Array) => void): number {
    const enc = t.primary.encoder;
    // the rows' primary keys come from the full rows the walk decodes
    return this.lookup(t, ix, lo, false, (row) => {
      fn(enc.encode(row));
      return true;
    });
  }

  /**
   * The visible versions of `t` whose `ix` entries the tree lacks (an older version whose entry
   * was changed or deleted since), sorted by entry. Kept per index until the store changes or the
   * view does, so the lookups of a join into one table compute it once.
   */
  #extras(t: Table, ix: TableIndex, tv: TableVersions): readonly Extra[] {
    const view = this.view!;
    const gen = this.#store.generation;
    const hit = this.#extraCache.get(ix);
    if (hit !== undefined && hit.gen === gen && hit.view === view) return hit.list;
    const codec = t.codec;
    const full = this.#s(t).full;
    const clustered = t.primary.tree;
    const list: Extra[] = [];
    for (const c of this.#store.ordered(tv)) {
      const vis = visibleVersion(view, c);
      if (vis === SEES_TREE || vis === SEES_NOTHING) continue;
      const bytes = vis as Uint8Array;
      codec.decode(bytes, 0, bytes.length, full);
      const entry = ix.encoder.encode(full).slice();
      const cur = clustered.get(c.key);
      if (cur !== undefined) {
        codec.decode(cur, 0, cur.length, full);
        if (compareKeys(ix.encoder.encode(full), entry) === 0) continue; // the tree's entry leads to it
      }
      list.push({ entry, bytes });
    }
    list.sort((a, b) => compareKeys(a.entry, b.entry));
    if (this.#extraCache.size > 64) this.#extraCache.clear();
    this.#extraCache.set(ix, { gen, view, list });
    return list;
  }

  /** Runs `f` with this table's row buffer of the next nesting depth (all columns wanted). */
  #withRow<R>(t: Table, f: (row: RowBuffer) => R): R {
    const s = this.#s(t);
    const d = s.depth++;
    const row = s.rows[d] ?? (s.rows[d] = t.newRow());
    row.wantOnly(null);
    try {
      return f(row);
    } finally {
      s.depth--;
    }
  }

  /**
   * The clustered index from `from` (null: the start) in key order, each row at its visible
   * version, merged with the table's chains whose rows the tree does not hold.
   */
  #walkPrimary(
    t: Table,
    from: Uint8Array | null,
    cls: Classify,
    row: RowBuffer,
    fn: RowFn,
    stepCounter: number,
  ): number {
    const counts = this.#counts;
    const view = this.view!;
    const codec = t.codec;
    const sorted = this.#store.ordered(this.#tv(t));
    let j = from === null ? 0 : lowerBound(sorted, from, 0, from.length);
    let n = 0;
    let stopped = false;
    let past = false;
    /** A row only the store has (the tree lacks its key): its visible version, if any. */
    const onlyInStore = (c: VersionChain): void => {
      const r = cls(c.key, 0, c.key.length);
      if (r !== IN) {
        if (r === PAST) past = true;
        return;
      }
      const vis = visibleVersion(view, c);
      if (vis === SEES_TREE || vis === SEES_NOTHING) return;
      const b = vis as Uint8Array;
      codec.decode(b, 0, b.length, row);
      n++;
      counts[stepCounter]!++;
      counts[H_ROWS_READ]!++;
      if (fn(row) === false) stopped = true;
    };
    t.primary.tree.forEachRangeRaw(from, null, (b, ko, kl, vo, vl) => {
      const r = cls(b, ko, kl);
      if (r === BEFORE) return true;
      if (r === PAST) return false;
      let vis: Uint8Array | number = SEES_TREE;
      while (j < sorted.length) {
        const c = sorted[j]!;
        const d = compareRaw(c.key, b, ko, kl);
        if (d > 0) break;
        j++;
        if (d < 0) {
          onlyInStore(c);
          if (stopped) return false;
          continue;
        }
        vis = visibleVersion(view, c);
        break;
      }
      if (vis === SEES_NOTHING) return true;
      if (vis === SEES_TREE) codec.decode(b, vo, vl, row);
      else {
        const v = vis as Uint8Array;
        codec.decode(v, 0, v.length, row);
      }
      n++;
      counts[stepCounter]!++;
      counts[H_ROWS_READ]!++;
      if (fn(row) === false) {
        stopped = true;
        return false;
      }
      return true;
    });
    while (!stopped && !past && j < sorted.length) onlyInStore(sorted[j++]!);
    return n;
  }

  /**
   * A secondary index from `from`: each entry's row at its visible version when that version
   * still has the entry, merged with the visible versions whose entries the tree lacks.
   */
  #walkSecondary(
    t: Table,
    ix: TableIndex,
    from: Uint8Array,
    cls: Classify,
    row: RowBuffer,
    fn: RowFn,
  ): number {
    const counts = this.#counts;
    const view = this.view!;
    const codec = t.codec;
    const s = this.#s(t);
    const full = s.full;
    const tv = this.#tv(t);
    const store = this.#store;
    const clustered = t.primary.tree;
    const extras = this.#extras(t, ix, tv);
    let x = lowerBoundEntry(extras, from);
    let n = 0;
    let stopped = false;
    const emit = (): void => {
      n++;
      counts[H_READ_NEXT]!++;
      counts[H_ROWS_READ]!++;
      if (fn(row) === false) stopped = true;
    };
    const flushBefore = (b: Uint8Array | null, ko: number, kl: number): void => {
      while (!stopped && x < extras.length && (b === null || compareRaw(extras[x]!.entry, b, ko, kl) < 0)) {
        const e = extras[x++]!;
        const r = cls(e.entry, 0, e.entry.length);
        if (r === BEFORE) continue;
        if (r === PAST) {
          x = extras.length;
          return;
        }
        codec.decode(e.bytes, 0, e.bytes.length, row);
        emit();
      }
    };
    let pk: Uint8Array = EMPTY;
    let found = false;
    const fetch = (b: Uint8Array, ko: number, kl: number, vo: number, vl: number): boolean => {
      if (kl === pk.length && compareRaw(pk, b, ko, kl) === 0) {
        found = true;
        codec.decode(b, vo, vl, row);
        emit();
      }
      return false;
    };
    ix.tree.forEachRangeRaw(from, null, (b, ko, kl) => {
      const r = cls(b, ko, kl);
      if (r === BEFORE) return true;
      if (r === PAST) return false;
      flushBefore(b, ko, kl);
      if (stopped) return false;
      pk = s.pk.reset().project(b, ko, kl, ix.pkFields).key();
      const c = store.chain(tv, pk, 0, pk.length);
      const vis = c === null ? SEES_TREE : visibleVersion(view, c);
      if (vis === SEES_NOTHING) return true;
      if (vis === SEES_TREE) {
        found = false;
        clustered.forEachRangeRaw(pk, null, fetch);
        if (!found) throw new RangeError(`index ${ix.name} of ${t.name} points at a missing row`);
      } else {
        // the older version counts only if it has this very entry
        const v = vis as Uint8Array;
        codec.decode(v, 0, v.length, full);
        if (compareRaw(ix.encoder.encode(full), b, ko, kl) !== 0) return true;
        codec.decode(v, 0, v.length, row);
        emit();
      }
      return !stopped;
    });
    flushBefore(null, 0, 0);
    return n;
  }
}

const EMPTY = new Uint8Array(0);

/** First of `list` whose entry is >= `key`. */
function lowerBoundEntry(list: readonly Extra[], key: Uint8Array): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(list[mid]!.entry, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** memcmp of `b[off, off + min(len, key.length))` with `key`: <0, 0 (key is a prefix of it), >0. */
function comparePrefixRaw(b: Uint8Array, off: number, len: number, key: Uint8Array): number {
  const n = Math.min(len, key.length);
  for (let i = 0; i < n; i++) {
    const d = b[off + i]! - key[i]!;
    if (d !== 0) return d;
  }
  return len >= key.length ? 0 : -1;
}
