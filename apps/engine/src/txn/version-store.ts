import { compareKeys } from '@enginekit/btree-sampler';
import type { ReadView } from './read-view.js';

/**
 * The versions a consistent read may need besides the rows in the B+trees, which are updated in
 * place. When a transaction first writes a row (insert, update or delete, before the page
 * changes) it publishes one {@link RowVersion}: its transaction number and the row's bytes
 * before its change (null: the row did not exist), as InnoDB's undo record holds the
 * before-image that `row_vers_build_for_consistent_read` rebuilds an old version from. At commit
 * each of its versions gets the transaction's commit number (one global counter, bumped once per
 * committing writer); at rollback they are removed once the rows are restored.
 *
 * Invariants (writes of one row are serialized by its X lock, held to commit):
 * - a row's versions (its {@link VersionChain}) are in write order, oldest first; at most the
 *   newest is uncommitted (commit number 0), and commit numbers increase along the chain;
 * - a chain's versions were published by distinct transactions, and the newest one's writer
 *   holds the row's X lock while it is active;
 * - every committed version is in the history queue, in commit order, until purge drops it.
 *
 * Purge (InnoDB's `trx_purge` of the history list) drops the versions whose commit number no
 * open read view is older than: with none open, every committed version goes.
 *
 * The store is the memory of the thread that owns its Database: sessions on worker threads do
 * not publish into it (they keep locking reads; see registry.ts).
 */
export interface RowVersion {
  /** Transaction number of the writer. */
  readonly trx: number;
  /** The writer's commit number; 0 while it is active. */
  commitNo: number;
  /** The row's clustered record value before the write, or null: it did not exist. */
  readonly before: Uint8Array | null;
  readonly chain: VersionChain;
}

/** The versions of one row (table id, clustered key), oldest first. */
export interface VersionChain {
  readonly tableId: number;
  readonly key: Uint8Array;
  readonly hash: number;
  readonly versions: RowVersion[];
  /** Next chain of the same table whose key hashes alike. */
  next: VersionChain | null;
  /** Dropped (no versions left); still in the table's key-order arrays until they are compacted. */
  dead: boolean;
}

/**
 * The chains of one table: by key hash, and in key order for scans. The key order is kept
 * lazily, so that a transaction writing many rows in random key order, or purge dropping them,
 * costs O(log n) per row and not a splice each: new chains wait in `pending`, dropped ones are
 * marked dead, and {@link VersionStore.ordered} sorts and merges them in when a reader needs the
 * order.
 */
export interface TableVersions {
  readonly buckets: Map<number, VersionChain>;
  /** Chains sorted by key (memcmp order of the clustered keys), dead ones included. */
  sorted: VersionChain[];
  /** Chains published since `sorted` was last merged, in publish order. */
  pending: VersionChain[];
  /** Live chains. */
  live: number;
  /** Dead chains still in `sorted` or `pending`. */
  dead: number;
}

interface HistoryGroup {
  readonly commitNo: number;
  readonly versions: readonly RowVersion[];
}

/** FNV-1a of `b[off, off+len)`. */
export function hashKey(b: Uint8Array, off: number, len: number): number {
  let h = 0x811c9dc5;
  for (let i = off; i < off + len; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h | 0;
}

function sameKey(key: Uint8Array, b: Uint8Array, off: number, len: number): boolean {
  if (key.length !== len) return false;
  for (let i = 0; i < len; i++) if (key[i] !== b[off + i]) return false;
  return true;
}

export class VersionStore {
  readonly #tables = new Map<number, TableVersions>();
  /** Committed versions not purged yet, one group per committed transaction, oldest first. */
  #history: HistoryGroup[] = [];
  #historyHead = 0;
  /** The last commit number given. */
  #commitNo = 0;
  #trxNo = 0;
  readonly #views = new Set<ReadView>();
  /** Versions in the store (committed or not). */
  #versions = 0;
  /**
   * Bumped by every change of the store and by every row write ({@link touch}): what a reader
   * derived from the store and the trees (consistent-read.ts's per-index cache) holds while it
   * stays the same.
   */
  generation = 0;

  /** A row is about to be written (a write that publishes nothing changes the trees too). */
  touch(): void {
    this.generation++;
  }

  /** A new transaction number (every transaction takes one at its start). */
  newTrxNo(): number {
    return ++this.#trxNo;
  }

  /** The last commit number given (a read view made now sees every commit up to it). */
  get commitNo(): number {
    return this.#commitNo;
  }

  /** Versions held (committed and not purged, plus those of active writers). */
  get size(): number {
    return this.#versions;
  }

  /** Committed transactions whose versions purge has not dropped yet (InnoDB's history list length). */
  get historyLength(): number {
    return this.#history.length - this.#historyHead;
  }

  /** Open read views. */
  get openViews(): number {
    return this.#views.size;
  }

  /** The chains of table `tableId`, or undefined when it has none (the fast path of every read). */
  table(tableId: number): TableVersions | undefined {
    return this.#tables.get(tableId);
  }

  /** The chain of the row with clustered key `b[off, off+len)`, or null. */
  chain(tv: TableVersions, b: Uint8Array, off: number, len: number): VersionChain | null {
    let c = tv.buckets.get(hashKey(b, off, len)) ?? null;
    while (c !== null && !sameKey(c.key, b, off, len)) c = c.next;
    return c;
  }

  /** Whether transaction `trx` has published a version of this row already. */
  publishedBy(trx: number, tableId: number, key: Uint8Array): boolean {
    const tv = this.#tables.get(tableId);
    if (tv === undefined) return false;
    const c = this.chain(tv, key, 0, key.length);
    return c !== null && c.versions[c.versions.length - 1]!.trx === trx;
  }

  /**
   * Publishes transaction `trx`'s first write of the row `key` (copied) of table `tableId`:
   * `before` is its value now (null: no row). REQUIRES: `trx` holds the row's X lock and has not
   * published it yet ({@link publishedBy}).
   */
  publish(trx: number, tableId: number, key: Uint8Array, before: Uint8Array | null): RowVersion {
    let tv = this.#tables.get(tableId);
    if (tv === undefined) {
      tv = { buckets: new Map(), sorted: [], pending: [], live: 0, dead: 0 };
      this.#tables.set(tableId, tv);
    }
    let c = this.chain(tv, key, 0, key.length);
    if (c === null) {
      const k = key.slice();
      const hash = hashKey(k, 0, k.length);
      c = { tableId, key: k, hash, versions: [], next: tv.buckets.get(hash) ?? null, dead: false };
      tv.buckets.set(hash, c);
      tv.pending.push(c);
      tv.live++;
    }
    const v: RowVersion = { trx, commitNo: 0, before, chain: c };
    c.versions.push(v);
    this.#versions++;
    this.generation++;
    return v;
  }

  /** Commits a writer's versions: they take the next commit number; then purge runs. */
  commit(versions: readonly RowVersion[]): void {
    if (versions.length === 0) return;
    this.generation++;
    const n = ++this.#commitNo;
    for (const v of versions) v.commitNo = n;
    this.#history.push({ commitNo: n, versions: versions.slice() });
    this.purge();
  }

  /** Drops a rolled-back writer's versions. REQUIRES: its rows are restored already. */
  discard(versions: readonly RowVersion[]): void {
    if (versions.length > 0) this.generation++;
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i]!;
      const vs = v.chain.versions;
      if (vs[vs.length - 1] !== v) throw new RangeError('a rolled-back version is not its row’s newest');
      vs.pop();
      this.#versions--;
      if (vs.length === 0) this.#dropChain(v.chain);
    }
  }

  /** A read view of transaction `owner` that sees every commit made so far (and `owner`'s writes). */
  openView(owner: number): ReadView {
    const v: ReadView = { commitNo: this.#commitNo, owner };
    this.#views.add(v);
    return v;
  }

  closeView(v: ReadView): void {
    if (this.#views.delete(v)) this.purge();
  }

  /** Drops every committed version that no open view can need (commit number <= the oldest view's). */
  purge(): void {
    let limit = Number.POSITIVE_INFINITY;
    for (const v of this.#views) if (v.commitNo < limit) limit = v.commitNo;
    const h = this.#history;
    if (this.#historyHead < h.length && h[this.#historyHead]!.commitNo <= limit) this.generation++;
    while (this.#historyHead < h.length && h[this.#historyHead]!.commitNo <= limit) {
      for (const v of h[this.#historyHead]!.versions) {
        const vs = v.chain.versions;
        // commit order along a chain is purge order: the version purged is its chain's oldest
        if (vs[0] !== v) throw new RangeError('a purged version is not its row’s oldest');
        vs.shift();
        this.#versions--;
        if (vs.length === 0) this.#dropChain(v.chain);
      }
      this.#historyHead++;
    }
    if (this.#historyHead === h.length) {
      this.#history = [];
      this.#historyHead = 0;
    } else if (this.#historyHead > 1024 && this.#historyHead * 2 > h.length) {
      this.#history = h.slice(this.#historyHead);
      this.#historyHead = 0;
    }
  }

  #dropChain(c: VersionChain): void {
    const tv = this.#tables.get(c.tableId)!;
    let p = tv.buckets.get(c.hash) ?? null;
    if (p === c) {
      if (c.next === null) tv.buckets.delete(c.hash);
      else tv.buckets.set(c.hash, c.next);
    } else {
      while (p !== null && p.next !== c) p = p.next;
      if (p !== null) p.next = c.next;
    }
    c.dead = true;
    tv.live--;
    tv.dead++;
    if (tv.live === 0) this.#tables.delete(c.tableId);
    else if (tv.dead > tv.live + 64) this.ordered(tv);
  }

  /** The table's live chains in key order (sorting in the ones published since the last call). */
  ordered(tv: TableVersions): readonly VersionChain[] {
    if (tv.pending.length === 0 && tv.dead === 0) return tv.sorted;
    const fresh = tv.pending.filter((c) => !c.dead).sort((a, b) => compareKeys(a.key, b.key));
    const old = tv.dead === 0 ? tv.sorted : tv.sorted.filter((c) => !c.dead);
    let out: VersionChain[];
    if (fresh.length === 0) out = old;
    else if (old.length === 0) out = fresh;
    else {
      out = new Array<VersionChain>(old.length + fresh.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < old.length && j < fresh.length)
        out[k++] = compareKeys(old[i]!.key, fresh[j]!.key) <= 0 ? old[i++]! : fresh[j++]!;
      while (i < old.length) out[k++] = old[i++]!;
      while (j < fresh.length) out[k++] = fresh[j++]!;
    }
    tv.sorted = out;
    tv.pending = [];
    tv.dead = 0;
    return out;
  }

  /** Throws RangeError if an invariant does not hold (for tests). */
  checkValid(): void {
    let n = 0;
    for (const [id, tv] of this.#tables) {
      let chains = 0;
      for (const head of tv.buckets.values()) for (let c: VersionChain | null = head; c; c = c.next) chains++;
      const sorted = this.ordered(tv);
      if (chains !== sorted.length || chains !== tv.live)
        throw new RangeError(
          `table ${id}: ${chains} chains hashed, ${sorted.length} sorted, ${tv.live} live`,
        );
      for (let i = 0; i < sorted.length; i++) {
        const c = sorted[i]!;
        if (i > 0 && compareKeys(sorted[i - 1]!.key, c.key) >= 0)
          throw new RangeError(`table ${id}: chains out of order`);
        if (c.versions.length === 0) throw new RangeError(`table ${id}: an empty chain`);
        let last = 0;
        for (const [j, v] of c.versions.entries()) {
          if (v.commitNo === 0 && j !== c.versions.length - 1)
            throw new RangeError('an uncommitted version is not the newest');
          if (v.commitNo !== 0 && v.commitNo <= last)
            throw new RangeError('commit numbers do not increase along a chain');
          if (v.commitNo !== 0) last = v.commitNo;
        }
        n += c.versions.length;
      }
    }
    if (n !== this.#versions) throw new RangeError(`${n} versions in chains, ${this.#versions} counted`);
  }
}

/** First chain of `sorted` whose key is >= `b[off, off+len)`. */
export function lowerBound(sorted: readonly VersionChain[], b: Uint8Array, off: number, len: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRaw(sorted[mid]!.key, b, off, len) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** memcmp order of `key` against `b[off, off+len)`. */
export function compareRaw(key: Uint8Array, b: Uint8Array, off: number, len: number): number {
  const n = Math.min(key.length, len);
  for (let i = 0; i < n; i++) {
    const d = key[i]! - b[off + i]!;
    if (d !== 0) return d;
  }
  return key.length - len;
}
