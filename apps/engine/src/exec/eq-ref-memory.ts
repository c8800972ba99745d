import type { FieldValue } from '../storage/types.js';

/**
 * What an eq_ref stage remembers of its last lookup, as MariaDB's `join_read_key` does
 * (`cmp_buffer_with_ref`): the key and whether it found a row. The same key again reads nothing —
 * the row is still in the stage's slots of the frame it was read into — and counts no handler
 * call. When the frame's array was swapped meanwhile (a join buffer restores its records as other
 * arrays), {@link restore} copies the row's slots over. Forgotten at each execution of the
 * pipeline and whenever a key cannot be formed.
 */
export class EqRefMemory {
  readonly #key: FieldValue[];
  #valid = false;
  #slots: unknown[] = [];
  /** Whether the remembered lookup found a row. */
  found = false;

  constructor(parts: number) {
    this.#key = new Array<FieldValue>(parts).fill(null);
  }

  /** Whether `key` is the remembered key. */
  same(key: readonly FieldValue[]): boolean {
    if (!this.#valid) return false;
    const last = this.#key;
    for (let i = 0; i < key.length; i++) {
      const x = key[i];
      const y = last[i];
      if (x === y) continue;
      if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== y.length) return false;
      for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
    }
    return true;
  }

  /** Keep `key` (copied), the lookup's outcome and the frame array the row was read into. */
  remember(key: readonly FieldValue[], found: boolean, slots: unknown[]): void {
    for (let i = 0; i < key.length; i++) this.#key[i] = key[i]!;
    this.#valid = true;
    this.found = found;
    this.#slots = slots;
  }

  /** Put the remembered row's slots `[off, off + width)` into `slots` if it is another array. */
  restore(slots: unknown[], off: number, width: number): void {
    const from = this.#slots;
    if (from === slots) return;
    for (let i = off; i < off + width; i++) slots[i] = from[i];
  }

  forget(): void {
    this.#valid = false;
  }
}
