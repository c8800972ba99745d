import {
  CorruptionError,
  FIL_NULL,
  FIL_PAGE_DATA,
  FIL_PAGE_DATA_END,
  type LatchMode,
  type PageStore,
  getPageType,
  readUint32BE,
  setPageType,
  writeUint32BE,
} from '@enginekit/buffer-pool';
import { freePage } from './fsp.js';

/**
 * Externally stored fields (InnoDB's off-page columns, btr0cur.cc `btr_store_big_rec_extern_fields`,
 * as the DYNAMIC row format keeps them): a TEXT or BLOB value that would make its clustered record
 * too large for a page is written to a chain of BLOB pages, and the record keeps only a 20-byte
 * reference to it.
 *
 * ## The field reference (20 bytes, `BTR_EXTERN_FIELD_REF_SIZE`; big-endian)
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | space id (0: the database file) |
 * | 4 | 4 | page number of the first BLOB page (FIL_NULL: the chain was freed by purge) |
 * | 8 | 4 | byte offset of the BLOB header in that page (always FIL_PAGE_DATA, 38) |
 * | 12 | 1 | flags: 0x80 `BTR_EXTERN_OWNER_FLAG` clear = this record owns the chain (always: every version owns its own) |
 * | 13 | 3 | 0 |
 * | 16 | 4 | the value's length in bytes |
 *
 * ## A BLOB page (page type 10, `FIL_PAGE_TYPE_BLOB`)
 *
 * | offset | size | field |
 * |---|---|---|
 * | 38 | 4 | `BTR_BLOB_HDR_PART_LEN`: bytes of the value on this page |
 * | 42 | 4 | `BTR_BLOB_HDR_NEXT_PAGE_NO`: the next page of the chain, FIL_NULL on the last |
 * | 46 | … | the bytes, up to the page trailer |
 *
 * A chain is written inside the caller's mini-transaction, the one that writes the record pointing
 * to it, so a crash keeps both or neither; it is freed inside the one that removes its last
 * reference (a purged version, a rolled-back insert or update, a dropped table). Every version of a
 * row owns its chains: an UPDATE writes the new version's long values anew, and the old chains go
 * when purge removes the old version. Chains are never changed in place.
 */

/** Bytes of a field reference in a record. */
export const EXTERN_REF_BYTES = 20;
/** `FIL_PAGE_TYPE_BLOB`: an uncompressed BLOB page. */
export const FIL_PAGE_TYPE_BLOB = 10;
/** A field at most this long stays in its record (`BTR_EXTERN_FIELD_REF_SIZE · 2`, as DYNAMIC). */
export const EXTERN_MIN_FIELD_BYTES = 40;

const BLOB_HDR_PART_LEN = FIL_PAGE_DATA;
const BLOB_HDR_NEXT_PAGE_NO = FIL_PAGE_DATA + 4;
const BLOB_HDR_SIZE = 8;
const REF_PAGE = 4;
const REF_OFFSET = 8;
const REF_LEN = 16;

const S: LatchMode = 1;
const X: LatchMode = 2;

/** Bytes of a value one BLOB page holds. */
export function blobPageCapacity(pageSize: number): number {
  return pageSize - FIL_PAGE_DATA - BLOB_HDR_SIZE - FIL_PAGE_DATA_END;
}

/** The value length a reference at `ref[at]` records. */
export function externLength(ref: Uint8Array, at: number): number {
  return readUint32BE(ref, at + REF_LEN);
}

/** The first page a reference names (FIL_NULL once purge freed its chain). */
export function externFirstPage(ref: Uint8Array, at: number): number {
  return readUint32BE(ref, at + REF_PAGE);
}

/** Marks the reference at `ref[at]` as freed: its page number becomes FIL_NULL. */
export function markExternFreed(ref: Uint8Array, at: number): void {
  writeUint32BE(ref, at + REF_PAGE, FIL_NULL);
}

/**
 * Writes `src[off, off+len)` to a new chain of BLOB pages of `store` and its reference at
 * `ref[at, at+20)`. Runs inside the caller's mini-transaction (the pages it allocates stay in it).
 */
export function writeExtern(
  store: PageStore,
  src: Uint8Array,
  off: number,
  len: number,
  ref: Uint8Array,
  at: number,
): void {
  const ps = store.pageSize;
  const b = store.bytes;
  const cap = blobPageCapacity(ps);
  let first = FIL_NULL;
  let prev = -1;
  let done = 0;
  do {
    const f = store.allocatePage(0);
    const base = f * ps;
    const page = readUint32BE(b, base + 4);
    const part = Math.min(cap, len - done);
    setPageType(b, base, FIL_PAGE_TYPE_BLOB);
    writeUint32BE(b, base + BLOB_HDR_PART_LEN, part);
    writeUint32BE(b, base + BLOB_HDR_NEXT_PAGE_NO, FIL_NULL);
    b.set(src.subarray(off + done, off + done + part), base + FIL_PAGE_DATA + BLOB_HDR_SIZE);
    store.markDirty(f);
    if (prev >= 0) {
      // link the page before to this one (still X-fixed by the mini-transaction, or fixed again)
      const p = store.fix(0, prev, X);
      writeUint32BE(b, p * ps + BLOB_HDR_NEXT_PAGE_NO, page);
      store.markDirty(p);
      store.unfix(p, X);
    } else first = page;
    store.unfix(f, X);
    prev = page;
    done += part;
  } while (done < len);
  ref.fill(0, at, at + EXTERN_REF_BYTES);
  writeUint32BE(ref, at + REF_PAGE, first);
  writeUint32BE(ref, at + REF_OFFSET, FIL_PAGE_DATA);
  writeUint32BE(ref, at + REF_LEN, len);
}

/**
 * The value the reference at `ref[at]` names, read from its chain into a new array
 * (`btr_copy_externally_stored_field`). A chain that is not what its reference says (a page of
 * another type, lengths that do not add up, a freed reference) is a CorruptionError naming the page.
 */
export function readExtern(store: PageStore, ref: Uint8Array, at: number, file = ''): Uint8Array {
  const len = externLength(ref, at);
  let page = externFirstPage(ref, at);
  const out = new Uint8Array(len);
  const ps = store.pageSize;
  const b = store.bytes;
  let done = 0;
  while (done < len) {
    if (page === FIL_NULL) throw new CorruptionError(file, 0, page, 'off-page value chain (ends early)');
    const f = store.fix(0, page, S);
    const base = f * ps;
    const type = getPageType(b, base);
    const part = readUint32BE(b, base + BLOB_HDR_PART_LEN);
    const next = readUint32BE(b, base + BLOB_HDR_NEXT_PAGE_NO);
    if (type !== FIL_PAGE_TYPE_BLOB || part === 0 || part > blobPageCapacity(ps) || done + part > len) {
      store.unfix(f, S);
      throw new CorruptionError(file, 0, page, `off-page value chain (page type ${type}, part ${part})`);
    }
    out.set(
      b.subarray(base + FIL_PAGE_DATA + BLOB_HDR_SIZE, base + FIL_PAGE_DATA + BLOB_HDR_SIZE + part),
      done,
    );
    store.unfix(f, S);
    done += part;
    page = next;
  }
  return out;
}

/** The pages of the chain the reference at `ref[at]` names, first to last (none once freed). */
export function externPages(store: PageStore, ref: Uint8Array, at: number): number[] {
  const pages: number[] = [];
  const ps = store.pageSize;
  let page = externFirstPage(ref, at);
  while (page !== FIL_NULL) {
    const f = store.fix(0, page, S);
    const base = f * ps;
    const type = getPageType(store.bytes, base);
    const next = readUint32BE(store.bytes, base + BLOB_HDR_NEXT_PAGE_NO);
    store.unfix(f, S);
    if (type !== FIL_PAGE_TYPE_BLOB)
      throw new CorruptionError('', 0, page, `off-page value chain (page type ${type})`);
    pages.push(page);
    page = next;
  }
  return pages;
}

/**
 * Hands the chain the reference at `ref[at]` names to the file's free list, inside the caller's
 * mini-transaction (`btr_free_externally_stored_field`). A freed reference is passed over.
 */
export function freeExtern(store: PageStore, ref: Uint8Array, at: number): void {
  for (const p of externPages(store, ref, at)) freePage(store, p);
}
