import { hashKey } from './compare.js';
import type { SqlType } from './types.js';

/** The key of NULL in a group column (an object: equal only to itself). */
const NULL_KEY = Object.freeze({ null: true });

/**
 * The in-memory part of a GROUP BY's temporary table: one Map level per group column, keyed by
 * the column's value itself where the type makes that exact (strings, DECIMAL bigints, dates and
 * doubles with −0 as 0; integers through {@link hashKey}, which maps a bigint that is a safe
 * integer to its number), so finding a row's group builds no key string. Groups are kept in
 * insertion order as well, for the output.
 */
export class GroupMap<G> {
  readonly list: G[] = [];
  readonly #kinds: readonly string[];
  #root = new Map<unknown, unknown>();
  /** How deep the last `find` got, and the level it reached (for `insert`). */
  #depth = 0;
  #level: Map<unknown, unknown> = this.#root;

  constructor(types: readonly SqlType[]) {
    this.#kinds = types.map((t) => t.kind);
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * The group of `values` (one per group column), or undefined, creating nothing (a row whose
   * group went to disk leaves no trace here); `insert` may follow with the same values.
   */
  find(values: ArrayLike<unknown>): G | undefined {
    const n = this.#kinds.length;
    let m = this.#root;
    for (let i = 0; i < n - 1; i++) {
      const next = m.get(this.#part(values[i], i)) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        this.#depth = i;
        this.#level = m;
        return undefined;
      }
      m = next;
    }
    this.#depth = n - 1;
    this.#level = m;
    return m.get(n === 0 ? NULL_KEY : this.#part(values[n - 1], n - 1)) as G | undefined;
  }

  /** Add `g` as the group of `values`, which the last `find` did not find. */
  insert(values: ArrayLike<unknown>, g: G): void {
    const n = this.#kinds.length;
    let m = this.#level;
    for (let i = this.#depth; i < n - 1; i++) {
      const next = new Map<unknown, unknown>();
      m.set(this.#part(values[i], i), next);
      m = next;
    }
    m.set(n === 0 ? NULL_KEY : this.#part(values[n - 1], n - 1), g);
    this.list.push(g);
  }

  clear(): void {
    this.#root = new Map();
    this.#level = this.#root;
    this.#depth = 0;
    this.list.length = 0;
  }

  #part(v: unknown, i: number): unknown {
    if (v === null || v === undefined) return NULL_KEY;
    switch (this.#kinds[i]) {
      case 'str':
      case 'dec':
        return v;
      case 'int':
        return hashKey(v);
      default:
        return v === 0 ? 0 : v;
    }
  }
}

/** One text for a group's values (equal groups, equal texts): for the rows that go to disk. */
export function groupKeyText(values: ArrayLike<unknown>, types: readonly SqlType[]): string {
  let s = '';
  for (let i = 0; i < types.length; i++) {
    const v = values[i];
    s += v === null ? '\u0001N' : types[i]!.kind === 'dec' ? `d${String(v)}` : String(hashKey(v));
    s += '\u0000';
  }
  return s;
}
