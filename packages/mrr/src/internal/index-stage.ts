import { sortRecords } from './sort.js';
import type { MrrCounters } from '../counters.js';
import type { IndexReader, MrrRange } from '../types.js';

/** `pull()` results. */
export const PULL_END = 0; // the input ranges are exhausted
export const PULL_ENTRY = 1; // the reader is on a new index entry
export const PULL_SAME_ENTRY = 2; // the same index entry again, for another association
export const PULL_DRAINED = 3; // key buffer used up: refill() before pulling again

/**
 * The index stage: walks the input ranges through the index reader and yields
 * (index entry, association) pairs one at a time. The reader stays positioned on the
 * current entry, so the consumer reads the row id from the reader itself.
 */
export interface IndexStage {
  /** Association of the pair just pulled. */
  association: number;
  pull(): number;
  /** Key stage only: load the next batch of keys; `false` when the input is exhausted. */
  refill(): boolean;
}

function isKeyRange<K>(range: MrrRange<K>): range is { readonly key: K; readonly association?: number } {
  return 'key' in range;
}

/**
 * `Mrr_simple_index_reader`: ranges in input order, one `seek` per range, then `next`
 * until the range ends (no `next` after an equality hit on a unique index).
 */
export class SimpleIndexStage<K> implements IndexStage {
  association = 0;
  readonly #reader: IndexReader<K>;
  readonly #ranges: Iterator<MrrRange<K>>;
  readonly #counters: MrrCounters;
  readonly #assoc: boolean;
  #sequence = 0;
  #inRange = false;
  #done = false;

  constructor(reader: IndexReader<K>, ranges: Iterator<MrrRange<K>>, counters: MrrCounters, assoc: boolean) {
    this.#reader = reader;
    this.#ranges = ranges;
    this.#counters = counters;
    this.#assoc = assoc;
  }

  pull(): number {
    const reader = this.#reader;
    if (this.#inRange) {
      this.#counters.Handler_read_next++;
      if (reader.next()) return PULL_ENTRY;
      this.#inRange = false;
    }
    while (!this.#done) {
      const step = this.#ranges.next();
      if (step.done === true) {
        this.#done = true;
        break;
      }
      const range = step.value;
      const seq = this.#sequence++;
      this.association = this.#assoc ? (range.association ?? seq) : 0;
      this.#counters.Handler_read_key++;
      if (reader.seek(range)) {
        this.#inRange = !(reader.unique === true && isKeyRange(range));
        return PULL_ENTRY;
      }
    }
    return PULL_END;
  }

  refill(): boolean {
    return false;
  }
}

/**
 * `Mrr_ordered_index_reader` (MariaDB, `mrr_sort_keys`): fill the key buffer with
 * (key, association), sort by key, then probe the index once per distinct key
 * (`Key_value_records_iterator`) and hand out each entry once per association sharing the key.
 * Keys are held by reference in a JS array; associations in a Float64Array.
 */
export class KeyOrderedIndexStage<K> implements IndexStage {
  association = 0;
  readonly #reader: IndexReader<K>;
  readonly #ranges: Iterator<MrrRange<K>>;
  readonly #counters: MrrCounters;
  readonly #compare: (a: K, b: K) => number;
  readonly #assoc: boolean;
  readonly #keys: (MrrRange<K> | undefined)[];
  #assocs: Float64Array; // grows (doubling) up to capacity as keys arrive
  readonly #capacity: number;
  #count = 0;
  #groupStart = 0; // first key of the current distinct-key group
  #groupEnd = 0; // one past its last key
  #at = 0; // association index inside the group
  #onEntry = false;
  #inputDone = false;
  #sequence = 0;
  #fills = 0;
  /** Non-empty key batches loaded so far. */
  batches = 0;

  constructor(
    reader: IndexReader<K>,
    ranges: Iterator<MrrRange<K>>,
    counters: MrrCounters,
    assoc: boolean,
    capacity: number,
  ) {
    if (reader.compareKeys === undefined) {
      throw new TypeError('mrr_sort_keys needs reader.compareKeys(a, b), got undefined');
    }
    const compare = reader.compareKeys.bind(reader);
    this.#reader = reader;
    this.#ranges = ranges;
    this.#counters = counters;
    this.#compare = compare;
    this.#assoc = assoc;
    this.#capacity = capacity;
    this.#keys = [];
    this.#assocs = new Float64Array(Math.min(capacity, 1024));
  }

  refill(): boolean {
    const keys = this.#keys;
    let assocs = this.#assocs;
    let n = 0;
    while (n < this.#capacity && !this.#inputDone) {
      const step = this.#ranges.next();
      if (step.done === true) {
        this.#inputDone = true;
        break;
      }
      const range = step.value;
      if (!isKeyRange(range)) {
        throw new TypeError(
          `mrr_sort_keys: range #${this.#sequence} is an interval, but the key-ordered stage takes equality keys only`,
        );
      }
      const seq = this.#sequence++;
      if (n === assocs.length) {
        const grown = new Float64Array(Math.min(this.#capacity, assocs.length * 2));
        grown.set(assocs);
        assocs = grown;
        this.#assocs = grown;
      }
      keys[n] = range;
      assocs[n] = this.#assoc ? (range.association ?? seq) : 0;
      n++;
    }
    keys.length = n; // drop stale references
    this.#count = n;
    this.#groupStart = 0;
    this.#groupEnd = 0;
    this.#onEntry = false;
    if (n === 0) return false;
    const compare = this.#compare;
    sortRecords(
      {
        less: (i, j) => compare((keys[i] as { key: K }).key, (keys[j] as { key: K }).key) < 0,
        swap: (i, j) => {
          const k = keys[i];
          keys[i] = keys[j];
          keys[j] = k;
          const a = assocs[i] as number;
          assocs[i] = assocs[j] as number;
          assocs[j] = a;
        },
      },
      n,
    );
    if (this.#fills++ > 0) this.#counters.Handler_mrr_key_refills++;
    this.batches++;
    return true;
  }

  pull(): number {
    const reader = this.#reader;
    if (this.#onEntry) {
      if (++this.#at < this.#groupEnd) {
        this.association = this.#assocs[this.#at] as number;
        return PULL_SAME_ENTRY;
      }
      if (reader.unique !== true) {
        this.#counters.Handler_read_next++;
        if (reader.next()) {
          this.#at = this.#groupStart;
          this.association = this.#assocs[this.#at] as number;
          return PULL_ENTRY;
        }
      }
      this.#onEntry = false;
    }
    const keys = this.#keys;
    const compare = this.#compare;
    while (this.#groupEnd < this.#count) {
      const start = this.#groupEnd;
      const first = keys[start] as { key: K };
      let end = start + 1;
      while (end < this.#count && compare((keys[end] as { key: K }).key, first.key) === 0) end++;
      this.#groupStart = start;
      this.#groupEnd = end;
      this.#counters.Handler_read_key++;
      if (reader.seek(first)) {
        this.#onEntry = true;
        this.#at = start;
        this.association = this.#assocs[start] as number;
        return PULL_ENTRY;
      }
    }
    return this.#inputDone ? PULL_END : PULL_DRAINED;
  }
}
