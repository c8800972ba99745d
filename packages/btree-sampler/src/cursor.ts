import { FIL_NULL, FIL_PAGE_LSN, FIL_PAGE_TYPE } from '@enginekit/buffer-pool';
import { LATCH_S } from '@enginekit/buffer-pool';
import type { TreeAccess } from './internal/tree-access.js';
import {
  PAGE_TYPE_INDEX,
  nRecs,
  pageLevel,
  pageMaxTrxId,
  pageNo,
  REC_HEADER,
  recChild,
  recDeleted,
  recKeyLen,
  recValLen,
  slotRec,
} from './page.js';

/** `'ge'`: first entry with key ≥ the target; `'gt'`: key > target; `'eq'`: first entry whose key equals it. */
export type SeekMode = 'ge' | 'gt' | 'eq';

/**
 * A position in the tree's leaf level. Between calls it holds no page fixed: it remembers the
 * page, the slot and a copy of the entry, and when the tree was written meanwhile
 * (the tree's write counter moved) it searches for the remembered entry again, as InnoDB restores a
 * persistent cursor (`btr_pcur_restore_position`).
 *
 * @example
 * ```ts
 * const c = tree.cursor();
 * for (let ok = c.seek(lo, 'ge'); ok; ok = c.next()) console.log(c.key(), c.value());
 * ```
 */
export class Cursor {
  readonly #tree: TreeAccess;
  #page = FIL_NULL;
  #slot = 0;
  #version = -1;
  #key = new Uint8Array(64);
  #keyLen = 0;
  #val = new Uint8Array(64);
  #valLen = 0;
  #deleted = false;
  #pageMaxTrxId = 0;
  #valid = false;
  readonly #out = new Int32Array(1);
  #lsn = new Uint8Array(8);

  /** Made by `tree.cursor()`. */
  constructor(tree: TreeAccess) {
    this.#tree = tree;
  }

  /** Whether the cursor stands on an entry. */
  get valid(): boolean {
    return this.#valid;
  }

  /** Position on the first entry matching `mode` relative to `key`; false if there is none. */
  seek(key: Uint8Array, mode: SeekMode = 'ge'): boolean {
    return this.#seek(key, mode);
  }

  #seek(key: Uint8Array, mode: SeekMode = 'ge'): boolean {
    this.#valid = false;
    if (!(key instanceof Uint8Array)) throw new TypeError(`key must be a Uint8Array, got ${String(key)}`);
    if (mode !== 'ge' && mode !== 'gt' && mode !== 'eq')
      throw new RangeError(`mode must be 'ge', 'gt' or 'eq', got ${String(mode)}`);
    const frame = this.#tree.descendS(key, null, mode === 'gt', this.#out);
    if (!this.#settleForward(frame, this.#out[0]!, key, null, mode === 'gt')) return false;
    if (mode === 'eq' && !this.#keyEquals(key)) {
      this.#valid = false;
      return false;
    }
    return true;
  }

  /** Position on the smallest entry. */
  first(): boolean {
    return this.#first();
  }

  #first(): boolean {
    this.#valid = false;
    const t = this.#tree;
    const b = t.b;
    const ps = t.ps;
    let frame = t.fixPage(t.rootPage, LATCH_S);
    while (pageLevel(b, frame * ps) > 0) {
      const base = frame * ps;
      const next = t.fixPage(recChild(b, base, slotRec(b, base, ps, 0)), LATCH_S);
      t.unfixPage(frame, LATCH_S);
      frame = next;
    }
    return this.#settleForward(frame, 0, null, null, false);
  }

  /** Position on the largest entry. */
  last(): boolean {
    return this.#last();
  }

  #last(): boolean {
    this.#valid = false;
    const t = this.#tree;
    const b = t.b;
    const ps = t.ps;
    let frame = t.fixPage(t.rootPage, LATCH_S);
    while (pageLevel(b, frame * ps) > 0) {
      const base = frame * ps;
      const next = t.fixPage(recChild(b, base, slotRec(b, base, ps, nRecs(b, base) - 1)), LATCH_S);
      t.unfixPage(frame, LATCH_S);
      frame = next;
    }
    return this.#settleBackward(frame, nRecs(b, frame * ps) - 1);
  }

  /** Move to the next entry; false (and invalid) past the last. */
  next(): boolean {
    return this.#next();
  }

  #next(): boolean {
    if (!this.#valid) return false;
    const t = this.#tree;
    if (t.version === this.#version) {
      const frame = t.fixPage(this.#page, LATCH_S);
      if (this.#unchanged(frame)) return this.#settleForward(frame, this.#slot + 1, ...this.#bound(), true);
      t.unfixPage(frame, LATCH_S);
    }
    const frame = t.descendS(
      this.#key.subarray(0, this.#keyLen),
      t.unique ? null : this.#val.subarray(0, this.#valLen),
      true,
      this.#out,
    );
    return this.#settleForward(frame, this.#out[0]!, ...this.#bound(), true);
  }

  /** Move to the previous entry; false (and invalid) before the first. */
  prev(): boolean {
    return this.#prev();
  }

  #prev(): boolean {
    if (!this.#valid) return false;
    const t = this.#tree;
    if (t.version === this.#version) {
      const frame = t.fixPage(this.#page, LATCH_S);
      if (this.#unchanged(frame)) return this.#settleBackward(frame, this.#slot - 1);
      t.unfixPage(frame, LATCH_S);
    }
    const frame = t.descendS(
      this.#key.subarray(0, this.#keyLen),
      t.unique ? null : this.#val.subarray(0, this.#valLen),
      false,
      this.#out,
    );
    return this.#settleBackward(frame, this.#out[0]! - 1);
  }

  /** A copy of the current key. REQUIRES: valid. */
  key(): Uint8Array {
    if (!this.#valid) throw new RangeError('cursor is not positioned on an entry');
    return this.#key.slice(0, this.#keyLen);
  }

  /** A copy of the current value. REQUIRES: valid. */
  value(): Uint8Array {
    if (!this.#valid) throw new RangeError('cursor is not positioned on an entry');
    return this.#val.slice(0, this.#valLen);
  }

  /** Whether the current entry carries the delete mark (as it was read). REQUIRES: valid. */
  deleted(): boolean {
    if (!this.#valid) throw new RangeError('cursor is not positioned on an entry');
    return this.#deleted;
  }

  /**
   * PAGE_MAX_TRX_ID of the leaf the current entry was read from, as it was then: a consistent
   * read whose view sees every transaction up to it needs no older version of the entry
   * (`lock_sec_rec_cons_read_sees`). REQUIRES: valid.
   */
  pageMaxTrxId(): number {
    if (!this.#valid) throw new RangeError('cursor is not positioned on an entry');
    return this.#pageMaxTrxId;
  }

  /** Page number of the current leaf (for tests and read-ahead experiments). */
  get pageNo(): number {
    return this.#page;
  }

  /**
   * The page still holds what the cursor saw: same newest-modification LSN in the envelope
   * (FIL_PAGE_LSN; the pool stamps a new one on every markDirty, so a write by another worker shows here)
   * and still a B+tree page.
   */
  #unchanged(frame: number): boolean {
    const b = this.#tree.b;
    const base = frame * this.#tree.ps;
    for (let i = 0; i < 8; i++) if (b[base + FIL_PAGE_LSN + i] !== this.#lsn[i]) return false;
    return ((b[base + FIL_PAGE_TYPE]! << 8) | b[base + FIL_PAGE_TYPE + 1]!) === PAGE_TYPE_INDEX;
  }

  #keyEquals(key: Uint8Array): boolean {
    if (key.length !== this.#keyLen) return false;
    for (let i = 0; i < key.length; i++) if (key[i] !== this.#key[i]) return false;
    return true;
  }

  /** The remembered entry as a search bound (views into the cursor's own buffers). */
  #bound(): [Uint8Array, Uint8Array | null] {
    return [
      this.#key.subarray(0, this.#keyLen),
      this.#tree.unique ? null : this.#val.subarray(0, this.#valLen),
    ];
  }

  /**
   * From an S-fixed leaf and a slot (possibly past the end), find the first entry at or after it;
   * unfixes. Crossing to the right sibling releases the page first; on the new page it skips what
   * is not past the bound (≥ bKey, or > with `strict`), and if the sibling was freed meanwhile it
   * searches for the bound from the root.
   */
  #settleForward(
    frame: number,
    slot: number,
    bKey: Uint8Array | null,
    bVal: Uint8Array | null,
    strict: boolean,
  ): boolean {
    const t = this.#tree;
    const b = t.b;
    const ps = t.ps;
    for (;;) {
      const base = frame * ps;
      if (slot < nRecs(b, base)) {
        this.#capture(base, slot);
        t.unfixPage(frame, LATCH_S);
        return true;
      }
      const nf = t.siblingLeafS(frame, true);
      if (nf === -1) {
        this.#valid = false;
        return false;
      }
      if (nf === -2) {
        if (bKey === null) return this.#first();
        frame = t.descendS(bKey, bVal, strict, this.#out);
        slot = this.#out[0]!;
        continue;
      }
      frame = nf;
      slot = bKey === null ? 0 : t.searchPage(frame * ps, bKey, bVal, strict);
    }
  }

  /**
   * From an S-fixed leaf and a slot (possibly −1), find the last entry at or before it; unfixes.
   * Crossing to the left sibling releases the page first and keeps only entries below the
   * remembered one.
   */
  #settleBackward(frame: number, slot: number): boolean {
    const t = this.#tree;
    const b = t.b;
    const ps = t.ps;
    const hasBound = this.#valid;
    const [bKey, bVal] = this.#bound();
    for (;;) {
      const base = frame * ps;
      if (slot >= 0) {
        this.#capture(base, slot);
        t.unfixPage(frame, LATCH_S);
        return true;
      }
      const nf = t.siblingLeafS(frame, false);
      if (nf === -1) {
        this.#valid = false;
        return false;
      }
      if (nf === -2) {
        if (!hasBound) return this.#last();
        frame = t.descendS(bKey, bVal, false, this.#out);
        slot = this.#out[0]! - 1;
        continue;
      }
      frame = nf;
      slot = (hasBound ? t.searchPage(frame * ps, bKey, bVal, false) : nRecs(b, frame * ps)) - 1;
    }
  }

  #capture(base: number, slot: number): void {
    const t = this.#tree;
    const b = t.b;
    const rec = slotRec(b, base, t.ps, slot);
    const kl = recKeyLen(b, base, rec);
    const vl = recValLen(b, base, rec);
    if (this.#key.length < kl) this.#key = new Uint8Array(Math.max(kl, this.#key.length * 2));
    if (this.#val.length < vl) this.#val = new Uint8Array(Math.max(vl, this.#val.length * 2));
    const p = base + rec + REC_HEADER;
    this.#key.set(b.subarray(p, p + kl));
    this.#val.set(b.subarray(p + kl, p + kl + vl));
    this.#keyLen = kl;
    this.#valLen = vl;
    this.#deleted = recDeleted(b, base, rec);
    this.#pageMaxTrxId = pageMaxTrxId(b, base);
    this.#page = pageNo(b, base);
    this.#slot = slot;
    this.#version = t.version;
    this.#lsn.set(b.subarray(base + FIL_PAGE_LSN, base + FIL_PAGE_LSN + 8));
    this.#valid = true;
  }
}
