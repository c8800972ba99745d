import { isDeleteMarked } from '@enginekit/btree-sampler';
import type { Table, TableIndex } from './table.js';
import { REC_GAP, REC_NOT_GAP, REC_ORDINARY, type TrxHooks } from './trx-hooks.js';
import { recordTrxId } from './undo-format.js';

/**
 * The record locks of one locking read of an index range, chosen as InnoDB's `row_search_mvcc`
 * chooses them (the transaction then picks the mode and drops the gaps its isolation level does
 * not take):
 * - every entry the read reaches in its range: a next-key lock (LOCK_ORDINARY), delete-marked
 *   entries included;
 * - a unique search of the clustered index (the full primary key) that finds its record not
 *   delete-marked: LOCK_REC_NOT_GAP only; a delete-marked match ends the search after its
 *   next-key lock. A unique secondary index found by its full key keeps the next-key lock on
 *   the entry and looks no further (MariaDB 10.11 does so: an insert into the gap before that
 *   entry waits, one after it does not; test/data/gap-locks-mariadb.json);
 * - a range that starts at a full primary key (>=) and finds exactly that record first: the
 *   record only (LOCK_REC_NOT_GAP), no phantom can go before it;
 * - the first entry past the range: LOCK_GAP when the search is an equality (the entry does not
 *   match the searched prefix), else a next-key lock; past a secondary range, UPDATE and DELETE
 *   also lock the row behind that entry (they push no index condition: the row is read before
 *   the range's end is seen);
 * - the end of the index: the supremum (a next-key lock on it is the gap after the last entry).
 * A read stopped by its consumer (LIMIT) takes no further locks.
 */
export class RangeLocks {
  readonly #h: TrxHooks;
  readonly #table: Table;
  readonly #ix: TableIndex;
  readonly #equality: boolean;
  readonly #unique: boolean;
  readonly #geKey: Uint8Array | null;
  /** Whether the read locks gaps ({@link TrxHooks.locksGaps}): its walks then guard them (GapGuard). */
  readonly gaps: boolean;
  #first = true;
  #done = false;

  /**
   * `equality`: the range is one searched prefix (ref, eq_ref, a point of a range read);
   * `unique`: a full-key search of a unique index; `geKey`: the full primary key a clustered
   * range starts at inclusively, if it has one.
   */
  constructor(
    h: TrxHooks,
    table: Table,
    ix: TableIndex,
    equality: boolean,
    unique: boolean,
    geKey: Uint8Array | null,
  ) {
    this.#h = h;
    this.#table = table;
    this.#ix = ix;
    this.#equality = equality;
    this.#unique = unique;
    this.#geKey = geKey !== null && ix.primary ? geKey : null;
    this.gaps = h.locksGaps(table);
  }

  /** The read found an entry in a gap it walked past before locking it: run the statement again. */
  gapMoved(): never {
    return this.#h.restartStatement();
  }

  /**
   * An entry in the range, before it is used (and before any pushed condition looks at it);
   * `vo`: where a clustered record's value starts (its DB_TRX_ID names an implicit lock). Returns
   * whether the lock covers the gap before the entry.
   */
  entry(b: Uint8Array, ko: number, kl: number, vo: number): boolean {
    if (this.#done) return false;
    const deleted = isDeleteMarked(b, ko);
    let type: typeof REC_ORDINARY | typeof REC_NOT_GAP = REC_ORDINARY;
    if (this.#unique && !deleted && this.#ix.primary) type = REC_NOT_GAP;
    else if (this.#first && this.#geKey !== null && sameBytes(b, ko, kl, this.#geKey)) type = REC_NOT_GAP;
    this.#first = false;
    const primary = this.#ix.primary;
    const owner = primary ? recordTrxId(b, vo) : 0;
    const semi = this.#h.read(this.#table, this.#ix, b, ko, kl, type, false, owner, primary && !this.#unique);
    if (semi !== null) this.#table.readCommittedVersionOnce(semi);
    if (this.#unique && primary) this.#done = true;
    return type === REC_ORDINARY && this.gaps;
  }

  /** The first entry past the range (`vo` as in {@link entry}); returns whether a gap was locked. */
  past(b: Uint8Array, ko: number, kl: number, vo: number): boolean {
    if (this.#done) return false;
    this.#done = true;
    const ix = this.#ix;
    const owner = ix.primary ? recordTrxId(b, vo) : 0;
    this.#h.read(this.#table, ix, b, ko, kl, this.#equality ? REC_GAP : REC_ORDINARY, true, owner);
    if (!ix.primary && !this.#equality && this.#h.locksRowPastRange(this.#table)) {
      const pk = this.#table.entryPrimaryKey(ix, b, ko, kl);
      this.#h.readRow(this.#table, pk, 0, pk.length, ownerOf(this.#table, pk));
    }
    return this.gaps;
  }

  /** The read ran off the end of the index; returns whether the gap after the last entry was locked. */
  end(): boolean {
    if (this.#done) return false;
    this.#done = true;
    this.#h.read(this.#table, this.#ix, null, 0, 0, REC_ORDINARY);
    return this.gaps;
  }
}

/** Whether `b[ko, ko+kl)` holds exactly the bytes of `key`. */
export function sameBytes(b: Uint8Array, ko: number, kl: number, key: Uint8Array): boolean {
  if (kl !== key.length) return false;
  for (let i = 0; i < kl; i++) if (b[ko + i] !== key[i]) return false;
  return true;
}

/**
 * Where entry `key` goes in `ix`: whether an entry with exactly its bytes is there (a
 * delete-marked one an insert takes over) and the first entry after it (a copy; null: the
 * supremum).
 */
export function placeOf(ix: TableIndex, key: Uint8Array): { exists: boolean; next: Uint8Array | null } {
  let exists = false;
  let next: Uint8Array | null = null;
  ix.tree.forEachRangeRaw(key, null, (b, ko, kl) => {
    if (sameBytes(b, ko, kl, key)) {
      exists = true;
      return true;
    }
    next = b.slice(ko, ko + kl);
    return false;
  });
  return { exists, next };
}

/**
 * The insert intention of each new entry (before anything changes): for each [index, entry]
 * that is not in its index yet, waits (throws) while another transaction holds a gap on the
 * entry's successor. Returns the entries that will be new, with their successors, for
 * {@link inheritGaps} after the change.
 */
export function intendInserts(
  h: TrxHooks,
  table: Table,
  entries: ReadonlyArray<readonly [TableIndex, Uint8Array]>,
): Array<[TableIndex, Uint8Array, Uint8Array | null]> {
  const out: Array<[TableIndex, Uint8Array, Uint8Array | null]> = [];
  for (const [ix, e] of entries) {
    const p = placeOf(ix, e);
    if (p.exists) continue;
    h.insert(table, ix, p.next);
    out.push([ix, e, p.next]);
  }
  return out;
}

/** After an insert: each new entry inherits the gap locks of its successor (`lock_update_insert`). */
export function inheritGaps(
  table: Table,
  added: ReadonlyArray<readonly [TableIndex, Uint8Array, Uint8Array | null]>,
): void {
  const m = table.mvcc?.trxSys.lockMoves;
  if (m == null) return;
  for (const [ix, e, next] of added) m.inheritFromNext(table.id, ix.id, e, next);
}

/**
 * After entry `key` left `ix` for good (purge, the rollback of an insert): its locks move to
 * the entry after it as gap locks (`lock_update_delete`).
 */
export function entryRemoved(table: Table, ix: TableIndex, key: Uint8Array): void {
  const m = table.mvcc?.trxSys.lockMoves;
  if (m == null) return;
  m.inheritToGap(table.id, ix.id, key, () => placeOf(ix, key).next);
}

/** The DB_TRX_ID of the clustered record with key `pk` (0: none), whose writer may hold it implicitly. */
export function ownerOf(table: Table, pk: Uint8Array): number {
  table.beforeDescent(table.primary);
  const r = table.primary.tree.getRecord(pk);
  return r === undefined ? 0 : recordTrxId(r.value, 0);
}

/**
 * Again, inside the mini-transaction that made the new entry of `ix` (its leaf X-latched until it
 * commits): the insert intention of each of `added` in that index. The request before the change may have come before a
 * locking read, walking along another leaf, locked the successor's gap; asked again here, with
 * the entry in place but not yet visible, either the read's lock is there (the change is undone
 * and the statement waits) or the read will see the entry (GapGuard).
 */
export function recheckInserts(
  h: TrxHooks,
  table: Table,
  added: ReadonlyArray<readonly [TableIndex, Uint8Array, Uint8Array | null]>,
  ix: TableIndex,
): void {
  for (const [x, , next] of added) if (x === ix) h.insert(table, ix, next);
}

/**
 * Guards the gaps one walk of a locking read (one that locks gaps) enters without holding the page
 * before them: at its first entry (reached from where the walk was positioned, perhaps past an
 * earlier leaf), at the first entry of each further leaf, and at the end of the index. Between
 * leaving a leaf and locking the next entry, another thread may insert at the end of the leaf left
 * behind: the read did not see that entry, and its lock on the successor came after the
 * inserter's check. (InnoDB has no such window: a read locks the page supremum while it still
 * holds the page.) So the walk stops at such an entry once it is locked, before using it, and
 * looks at the gap again with no page latched: still empty, the walk goes on from the entry; an
 * entry there, the statement runs again with its locks kept (every row it produced before the gap
 * is the same the second time, and the second walk meets the new entry, or the inserter waits).
 */
export class GapGuard {
  readonly #ix: TableIndex;
  readonly #ps: number;
  readonly #from: Uint8Array;
  readonly #after: boolean;
  /** The walk reads copies of its leaves: every entry counts as entered from another leaf. */
  readonly #detached: boolean;
  #frame = -1;
  #prev = new Uint8Array(64);
  /** Length of the last entry passed; −1: none yet (the gap starts where the walk started). */
  #prevLen = -1;

  constructor(ix: TableIndex, from: Uint8Array, after: boolean, detached = false) {
    this.#ix = ix;
    this.#detached = detached;
    this.#ps = ix.tree.pageSize;
    this.#from = from;
    this.#after = after;
  }

  /**
   * Whether entry `b[ko, …)` is the walk's first or lies on another leaf than the last one passed
   * (always, for a detached walk).
   */
  crosses(ko: number): boolean {
    return this.#detached || ((ko / this.#ps) | 0) !== this.#frame;
  }

  /** The walk passed entry `b[ko, ko+kl)`. */
  passed(b: Uint8Array, ko: number, kl: number): void {
    this.#frame = (ko / this.#ps) | 0;
    if (this.#prev.length < kl) this.#prev = new Uint8Array(Math.max(kl, this.#prev.length * 2));
    this.#prev.set(b.subarray(ko, ko + kl));
    this.#prevLen = kl;
  }

  /**
   * Whether the first entry after the last one passed (or after where the walk started) is still
   * `key` (null: the end of the index). Call with no page latched.
   */
  holds(key: Uint8Array | null): boolean {
    const found = this.#firstAfter();
    return found === null ? key === null : key !== null && sameBytes(found, 0, found.length, key);
  }

  #firstAfter(): Uint8Array | null {
    const start = this.#prevLen < 0;
    const from = start ? this.#from : this.#prev.subarray(0, this.#prevLen);
    const skipPrefix = start && this.#after;
    let found: Uint8Array | null = null;
    this.#ix.tree.forEachRangeRaw(from.length === 0 ? null : from, null, (b, ko, kl) => {
      if (!start && sameBytes(b, ko, kl, from)) return true;
      if (skipPrefix && kl >= from.length && sameBytes(b, ko, from.length, from)) return true;
      found = b.slice(ko, ko + kl);
      return false;
    });
    return found as Uint8Array | null;
  }
}
