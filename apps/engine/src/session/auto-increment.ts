import type { Table } from '../storage/table.js';
import { HIDDEN_PK } from '../storage/table-meta.js';

/** Most table ids the counters hold (table ids of one database file are below it). */
export const MAX_TABLE_IDS = 65536;

/** Bytes of the counters' memory ({@link AutoIncrementCounters}): two counters per table id. */
export const AUTO_INCREMENT_BYTES: number = MAX_TABLE_IDS * 16;

/**
 * The next AUTO_INCREMENT value of every table, and apart from it the next hidden DB_ROW_ID of a
 * table without a primary key (which may have an AUTO_INCREMENT column too), one Int64 each per
 * table id (row ids from {@link MAX_TABLE_IDS} on) in memory every session of the server shares — an
 * ArrayBuffer of one thread, or a SharedArrayBuffer the session workers all map — and changed
 * only by atomic operations, so two sessions never take the same value (InnoDB's
 * `dict_table_t::autoinc` under its `autoinc_mutex`).
 *
 * 0 means "not known yet": the first session that needs a table's value reads the largest one
 * stored ({@link Table.maxStoredValue}) and installs the next by compare-and-swap, so when two
 * start it at once, one count wins. After a DDL statement, while it still holds the metadata lock
 * exclusively, the counters of ids no table has are forgotten ({@link retainOnly}). Values are
 * kept while the server runs and recomputed after a restart, as InnoDB before 8.0.
 */
export class AutoIncrementCounters {
  readonly #next: BigInt64Array;

  /** `memory`: {@link AUTO_INCREMENT_BYTES} bytes (default: this thread's own). */
  constructor(memory: ArrayBufferLike = new ArrayBuffer(AUTO_INCREMENT_BYTES), offset = 0) {
    this.#next = new BigInt64Array(memory, offset, MAX_TABLE_IDS * 2);
  }

  /**
   * The least first value of a table's counter: its AUTO_INCREMENT table option (CREATE / ALTER
   * TABLE … AUTO_INCREMENT = n), kept in the dictionary, so a restart starts there too.
   */
  floor: (t: Table) => number = () => 1;

  /** The value column `c` of `t` gives next, without taking it. */
  peek(t: Table, c: number): number {
    const id = slotOf(t, c);
    const now = Atomics.load(this.#next, id);
    if (now !== 0n) return Number(now);
    // the table's AUTO_INCREMENT option is where its counter starts, not its row ids
    const floor = id < MAX_TABLE_IDS ? this.floor(t) : 1;
    const first = BigInt(Math.max(t.maxStoredValue(c) + 1, floor));
    const was = Atomics.compareExchange(this.#next, id, 0n, first);
    return Number(was === 0n ? first : was);
  }

  /** Takes the next value of column `c` of `t`. */
  take(t: Table, c: number): number {
    return this.takeBlock(t, c, 1);
  }

  /** Takes the next `n` values of column `c` of `t`; returns the first. */
  takeBlock(t: Table, c: number, n: number): number {
    this.peek(t, c);
    return Number(Atomics.add(this.#next, slotOf(t, c), BigInt(n)));
  }

  /** An explicit value `v` was stored in column `c` of `t`: the next one given is above it. */
  raise(t: Table, c: number, v: number): void {
    const id = slotOf(t, c);
    let now = BigInt(this.peek(t, c));
    const want = BigInt(Math.floor(v)) + 1n;
    while (now < want) {
      const was = Atomics.compareExchange(this.#next, id, now, want);
      if (was === now) return;
      now = was;
    }
  }

  /** Forgets the counter of `t` (TRUNCATE, ALTER TABLE … AUTO_INCREMENT): it starts again from the rows and the floor. */
  reset(t: Table): void {
    const id = slotOf(t, -1);
    Atomics.store(this.#next, id, 0n);
    Atomics.store(this.#next, id + MAX_TABLE_IDS, 0n);
  }

  /**
   * Forgets the counter of every id but `ids` (the tables that exist). REQUIRES: no other session
   * runs a statement (the metadata lock in X).
   */
  retainOnly(ids: Iterable<number>): void {
    const keep = new Set(ids);
    const next = this.#next;
    for (let i = 0; i < next.length; i++) if (next[i] !== 0n && !keep.has(i % MAX_TABLE_IDS)) next[i] = 0n;
  }
}

/** The counter of column `c` of `t`: its AUTO_INCREMENT one, or its row ids' for the hidden DB_ROW_ID. */
function slotOf(t: Table, c: number): number {
  const id = t.id;
  if (!(Number.isInteger(id) && id >= 0 && id < MAX_TABLE_IDS))
    throw new RangeError(`table id ${id} is past the ${MAX_TABLE_IDS} AUTO_INCREMENT counters`);
  return t.columns[c]?.name === HIDDEN_PK ? id + MAX_TABLE_IDS : id;
}
