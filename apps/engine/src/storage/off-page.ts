import type { PageStore } from '@enginekit/buffer-pool';
import {
  EXTERN_MIN_FIELD_BYTES,
  EXTERN_REF_BYTES,
  externFirstPage,
  externPages,
  freeExtern,
  markExternFreed,
  readExtern,
  writeExtern,
} from './external.js';
import type { RowBuffer, RowCodec } from './row.js';
import { FIL_NULL, LATCH_X } from '@enginekit/buffer-pool';

/**
 * One table's off-page TEXT and BLOB values (storage/external.ts has the page format): which of a
 * row's values leave its record, writing them, reading them back, freeing them. As InnoDB's
 * DYNAMIC format (`dtuple_convert_big_rec`): while the clustered record is longer than a page
 * takes, its longest TEXT or BLOB value still in the record (and longer than 40 bytes) moves to
 * BLOB pages and leaves a 20-byte reference behind.
 */
export class OffPageFields {
  readonly #codec: RowCodec;
  readonly #store: PageStore;
  /** References of one encode: 20 bytes per column. */
  readonly #refs: Uint8Array;

  /** `file` names the table in the errors of a damaged chain. */
  constructor(codec: RowCodec, store: PageStore, file: string) {
    this.#codec = codec;
    this.#store = store;
    this.#refs = new Uint8Array(codec.columns.length * EXTERN_REF_BYTES);
    codec.readExternal = (bytes, at) => readExtern(store, bytes, at, file);
  }

  /**
   * Which values of `row` go off-page so that its record, with `fixed` bytes beside the row (key
   * and hidden fields), takes at most `limit` bytes: a mask by column, or null when the whole row
   * fits (or nothing can move; the caller's size check then refuses the row).
   */
  plan(row: RowBuffer, fixed: number, limit: number): Uint8Array | null {
    const codec = this.#codec;
    let size = fixed + codec.encodedSize(row, null);
    if (size <= limit) return null;
    const stored = new Uint8Array(codec.columns.length);
    let any = false;
    while (size > limit) {
      let best = -1;
      for (let c = 0; c < stored.length; c++) {
        if (codec.external[c] !== 1 || stored[c] === 1 || row.nulls[c] === 1) continue;
        if (row.len[c]! <= EXTERN_MIN_FIELD_BYTES) continue;
        if (best < 0 || row.len[c]! > row.len[best]!) best = c;
      }
      if (best < 0) break;
      stored[best] = 1;
      any = true;
      size -= row.len[best]! - EXTERN_REF_BYTES;
    }
    return any ? stored : null;
  }

  /**
   * The row's record value with the values `plan` names as references still to be written, and
   * copies of those values: everything the row's buffers point to is copied here, before the
   * pages of the values are allocated (which may evict the frames a decoded row's text points into).
   */
  prepare(row: RowBuffer, plan: Uint8Array): PendingValue {
    const value = this.#codec.encode(row, { stored: plan, bytes: this.#refs }).slice();
    const parts: Uint8Array[] = [];
    for (let c = 0; c < plan.length; c++)
      if (plan[c] === 1) parts.push(row.src[c]!.slice(row.off[c]!, row.off[c]! + row.len[c]!));
    return { value, parts };
  }

  /**
   * Writes the values of `pending` to new BLOB pages, inside the caller's mini-transaction, and
   * their references into `pending.value`.
   */
  write(pending: PendingValue): void {
    const at = this.#codec.externalRefs(pending.value, 0, pending.value.length);
    for (const [i, part] of pending.parts.entries())
      writeExtern(this.#store, part, 0, part.length, pending.value, at[i]!);
  }

  /**
   * Frees (inside the caller's mini-transaction) the chains the record value `bytes[off, off+len)`
   * refers to, except those the value `keep[keepOff, keepOff+keepLen)` refers to as well (a
   * version that stays). Returns the offsets in `bytes` of the references freed.
   */
  free(
    bytes: Uint8Array,
    off: number,
    len: number,
    keep: Uint8Array | null = null,
    keepOff = 0,
    keepLen = 0,
  ): number[] {
    const refs = this.#codec.externalRefs(bytes, off, len);
    if (refs.length === 0) return refs;
    const kept = new Set<number>();
    if (keep !== null)
      for (const at of this.#codec.externalRefs(keep, keepOff, keepLen)) kept.add(externFirstPage(keep, at));
    const freed: number[] = [];
    for (const at of refs) {
      const first = externFirstPage(bytes, at);
      if (first === FIL_NULL || kept.has(first)) continue;
      freeExtern(this.#store, bytes, at);
      freed.push(at);
    }
    return freed;
  }

  /** Whether the row value `row` (no hidden fields) still refers to off-page values. */
  holdsValues(row: Uint8Array): boolean {
    for (const at of this.#codec.externalRefs(row, 0, row.length))
      if (externFirstPage(row, at) !== FIL_NULL) return true;
    return false;
  }

  /** Whether some reference of the row value `row` (no hidden fields) was marked freed. */
  freedSome(row: Uint8Array): boolean {
    for (const at of this.#codec.externalRefs(row, 0, row.length))
      if (externFirstPage(row, at) === FIL_NULL) return true;
    return false;
  }

  /**
   * Marks freed, inside the caller's mini-transaction, the references at offsets `freed` of a row
   * value that starts at byte `rowAt` of page `pageNo` (an undo record's copy of a version).
   */
  markFreed(pageNo: number, rowAt: number, freed: readonly number[]): void {
    if (freed.length === 0) return;
    const st = this.#store;
    const f = st.fix(0, pageNo, LATCH_X);
    for (const at of freed) markExternFreed(st.bytes, f * st.pageSize + rowAt + at);
    st.markDirty(f);
    st.unfix(f, LATCH_X);
  }

  /** The BLOB pages the record value `bytes[off, off+len)` refers to. */
  pages(bytes: Uint8Array, off: number, len: number): number[] {
    const out: number[] = [];
    for (const at of this.#codec.externalRefs(bytes, off, len))
      out.push(...externPages(this.#store, bytes, at));
    return out;
  }
}

/** A record value whose off-page values are still to be written ({@link OffPageFields.prepare}). */
export interface PendingValue {
  readonly value: Uint8Array;
  /** The off-page values, in column order. */
  readonly parts: readonly Uint8Array[];
}
