import type { JoinKey } from '../types.js';

/**
 * Chains of record numbers by key: the hash table of a hashed join buffer (BNLH, BKAH) and of
 * the in-memory hash join. `head(k)` is the newest record with key k, `next(r)` the one before it,
 * −1 ends a chain. One Map entry per distinct key; the links are one Int32Array.
 */
export class KeyHash {
  readonly heads: Map<JoinKey, number> = new Map();
  #next: Int32Array = new Int32Array(64);

  add(key: JoinKey, record: number): void {
    if (record >= this.#next.length) {
      const grown = new Int32Array(Math.max(record + 1, this.#next.length * 2));
      grown.set(this.#next);
      this.#next = grown;
    }
    this.#next[record] = this.heads.get(key) ?? -1;
    this.heads.set(key, record);
  }

  head(key: JoinKey): number {
    return this.heads.get(key) ?? -1;
  }

  next(record: number): number {
    return this.#next[record]!;
  }

  clear(): void {
    this.heads.clear();
  }
}
