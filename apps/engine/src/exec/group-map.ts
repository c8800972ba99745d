import { hashKey } from './compare.js';
import type { SqlType } from './types.js';

/** The key of NULL in a group column (an object: equal only to itself). */
const NULL_KEY = Object.freeze({ null: true });

/** A group found below a Map level: the key parts of all its columns, and the group. */
class Leaf<G> {
  readonly parts: readonly unknown[];
  readonly g: G;
  constructor(parts: readonly unknown[], g: G) {
    this.parts = parts;
    this.g = g;
  }
}

/**
 * The in-memory part of a GROUP BY's temporary table: a trie over the group columns with one Map
 * level per column, keyed by the column's value itself where the type makes that exact (strings,
 * DECIMAL bigints, dates and doubles with −0 as 0; integers through {@link hashKey}, which maps a
 * bigint that is a safe integer to its number), so finding a row's group builds no key string.
 * Paths are compressed: a group alone below a level is a leaf holding its remaining key parts,
 * split into deeper levels only when a second group shares the prefix (a nearly unique first
 * column costs one Map entry per group, not a Map per column). Groups are kept in insertion
 * order as well, for the output.
 */
export class GroupMap<G> {
  readonly list: G[] = [];
  readonly #kinds: readonly string[];
  #root = new Map<unknown, unknown>();
  /** The key parts of the last `find` (reused). */
  readonly #parts: unknown[];
  /** Where the last `find` missed: the level, the column, and the leaf that differed (or null). */
  #missAt: Map<unknown, unknown> = this.#root;
  #missCol = 0;
  #missLeaf: Leaf<G> | null = null;
  /**
   * The group the last `find` or `insert` ended on and its key parts: rows of one group tend to
   * come together (lineitems of one order), and such a row is then found with no Map lookup.
   */
  #last: G | undefined = undefined;
  readonly #lastParts: unknown[];

  constructor(types: readonly SqlType[]) {
    this.#kinds = types.map((t) => t.kind);
    this.#parts = new Array<unknown>(Math.max(1, types.length)).fill(NULL_KEY);
    this.#lastParts = this.#parts.slice();
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
    // no GROUP BY: one group, found without a Map
    if (n === 0 && this.list.length === 1) return this.list[0];
    const parts = this.#parts;
    const lastParts = this.#lastParts;
    let same = this.#last !== undefined;
    for (let i = 0; i < n; i++) {
      const p = this.#part(values[i], i);
      parts[i] = p;
      if (p !== lastParts[i]) same = false;
    }
    if (same) return this.#last;
    const g = this.#walk(n);
    if (g !== undefined) this.#remember(g, n);
    return g;
  }

  #remember(g: G, n: number): void {
    this.#last = g;
    const parts = this.#parts;
    const lastParts = this.#lastParts;
    for (let i = 0; i < n; i++) lastParts[i] = parts[i];
  }

  /** The trie walk of {@link GroupMap.find} for the parts in `#parts`. */
  #walk(n: number): G | undefined {
    const parts = this.#parts;
    const width = Math.max(1, n);
    let m = this.#root;
    for (let i = 0; i < width; i++) {
      const e = m.get(parts[i]);
      if (e === undefined) {
        this.#miss(m, i, null);
        return undefined;
      }
      if (e instanceof Leaf) {
        const leaf = e as Leaf<G>;
        for (let j = i + 1; j < width; j++)
          if (leaf.parts[j] !== parts[j]) {
            this.#miss(m, i, leaf);
            return undefined;
          }
        return leaf.g;
      }
      m = e as Map<unknown, unknown>;
    }
    throw new RangeError('group trie: a key ended on a level');
  }

  /** Add `g` as the group of the values the last `find` did not find. */
  insert(g: G): void {
    const parts = this.#parts.slice();
    const leaf = new Leaf(parts, g);
    let m = this.#missAt;
    let k = this.#missCol;
    const other = this.#missLeaf;
    if (other === null) m.set(parts[k], leaf);
    else {
      // the two share parts[0..k]: deeper levels down to the first part where they differ
      for (;;) {
        const next = new Map<unknown, unknown>();
        m.set(parts[k], next);
        m = next;
        k++;
        if (other.parts[k] !== parts[k]) {
          m.set(other.parts[k], other);
          m.set(parts[k], leaf);
          break;
        }
      }
    }
    this.list.push(g);
    this.#remember(g, this.#kinds.length);
  }

  clear(): void {
    this.#root = new Map();
    this.#missAt = this.#root;
    this.#missCol = 0;
    this.#missLeaf = null;
    this.#last = undefined;
    this.list.length = 0;
  }

  #miss(m: Map<unknown, unknown>, col: number, leaf: Leaf<G> | null): void {
    this.#missAt = m;
    this.#missCol = col;
    this.#missLeaf = leaf;
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
