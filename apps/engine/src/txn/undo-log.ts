/**
 * A transaction's undo log: one logical record per row write, newest last, enough to put the
 * row and every index entry back as they were.
 *
 * | op | written after | `key` | `before` | undone by |
 * |---|---|---|---|---|
 * | UNDO_INSERT (1) | an insert | the new row's clustered key | empty | deleting the row with `key` |
 * | UNDO_UPDATE (2) | an update | the row's clustered key after it (it may have changed) | the whole row before, in the row codec | replacing the row with `key` by `before` |
 * | UNDO_DELETE (3) | a delete | the deleted row's clustered key | the whole row, in the row codec | inserting `before` |
 *
 * Byte format of one record (little-endian), records back to back in append order:
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | table id (u32) |
 * | 4 | 1 | op |
 * | 5 | 4 | key length K (u32) |
 * | 9 | 4 | before length V (u32) |
 * | 13 | K | clustered-key bytes (the B+tree key, as `RowKeyEncoder` writes it) |
 * | 13+K | V | row bytes (the clustered record's value, as `RowCodec.encode` writes it) |
 *
 * A savepoint is a record count: rolling back to it undoes the records after it, newest first,
 * and drops them. The log is the transaction's private memory; nothing here is shared.
 */
export const UNDO_INSERT = 1;
export const UNDO_UPDATE = 2;
export const UNDO_DELETE = 3;
const HEADER = 13;

export interface UndoRecord {
  readonly tableId: number;
  readonly op: number;
  readonly key: Uint8Array;
  readonly before: Uint8Array;
}

export class UndoLog {
  #bytes = new Uint8Array(4096);
  #view = new DataView(this.#bytes.buffer);
  #end = 0;
  /** Byte offset of each record. */
  #offsets = new Int32Array(64);
  #n = 0;

  /** Records in the log (a savepoint). */
  get length(): number {
    return this.#n;
  }

  /** Bytes the log holds. */
  get byteLength(): number {
    return this.#end;
  }

  /** The encoded bytes of the newest record (a view, valid until the next append). */
  lastRecord(): Uint8Array {
    if (this.#n === 0) throw new RangeError('the undo log is empty');
    return this.#bytes.subarray(this.#offsets[this.#n - 1]!, this.#end);
  }

  append(rec: UndoRecord): void {
    if (rec.op !== UNDO_INSERT && rec.op !== UNDO_UPDATE && rec.op !== UNDO_DELETE)
      throw new RangeError(`op must be UNDO_INSERT, UNDO_UPDATE or UNDO_DELETE, got ${rec.op}`);
    const need = HEADER + rec.key.length + rec.before.length;
    if (this.#end + need > this.#bytes.length) {
      let size = this.#bytes.length * 2;
      while (size < this.#end + need) size *= 2;
      const b = new Uint8Array(size);
      b.set(this.#bytes.subarray(0, this.#end));
      this.#bytes = b;
      this.#view = new DataView(b.buffer);
    }
    if (this.#n === this.#offsets.length) {
      const o = new Int32Array(this.#n * 2);
      o.set(this.#offsets);
      this.#offsets = o;
    }
    const at = this.#end;
    const v = this.#view;
    v.setUint32(at, rec.tableId, true);
    v.setUint8(at + 4, rec.op);
    v.setUint32(at + 5, rec.key.length, true);
    v.setUint32(at + 9, rec.before.length, true);
    this.#bytes.set(rec.key, at + HEADER);
    this.#bytes.set(rec.before, at + HEADER + rec.key.length);
    this.#offsets[this.#n++] = at;
    this.#end = at + need;
  }

  /** Record `i` (0 = oldest) as views of the log's bytes, valid until the log changes. */
  record(i: number): UndoRecord {
    if (!Number.isInteger(i) || i < 0 || i >= this.#n) throw new RangeError(`record ${i} of ${this.#n}`);
    return decodeAt(this.#bytes, this.#view, this.#offsets[i]!);
  }

  /**
   * Undoes the records after `savepoint`, newest first, through `apply`, and drops them.
   * REQUIRES: 0 <= savepoint <= length.
   */
  rollbackTo(savepoint: number, apply: (rec: UndoRecord) => void): void {
    if (!Number.isInteger(savepoint) || savepoint < 0 || savepoint > this.#n)
      throw new RangeError(`savepoint must be in 0..${this.#n}, got ${savepoint}`);
    while (this.#n > savepoint) {
      const i = this.#n - 1;
      apply(this.record(i));
      this.#n = i;
      this.#end = this.#offsets[i]!;
    }
  }

  /** Forgets every record (commit). */
  clear(): void {
    this.#n = 0;
    this.#end = 0;
    if (this.#bytes.length > 1 << 20) {
      this.#bytes = new Uint8Array(4096);
      this.#view = new DataView(this.#bytes.buffer);
      this.#offsets = new Int32Array(64);
    }
  }

  /** The encoded records, oldest first (a copy). */
  bytes(): Uint8Array {
    return this.#bytes.slice(0, this.#end);
  }
}

function decodeAt(bytes: Uint8Array, v: DataView, at: number): UndoRecord {
  const kl = v.getUint32(at + 5, true);
  const bl = v.getUint32(at + 9, true);
  const k0 = at + HEADER;
  return {
    tableId: v.getUint32(at, true),
    op: v.getUint8(at + 4),
    key: bytes.subarray(k0, k0 + kl),
    before: bytes.subarray(k0 + kl, k0 + kl + bl),
  };
}

/** Every record of an encoded log (from {@link UndoLog.bytes}), oldest first. Throws on a truncated one. */
export function decodeUndoLog(bytes: Uint8Array): UndoRecord[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: UndoRecord[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + HEADER > bytes.length) throw new RangeError(`undo record at ${at} is truncated`);
    const need = HEADER + v.getUint32(at + 5, true) + v.getUint32(at + 9, true);
    if (at + need > bytes.length) throw new RangeError(`undo record at ${at} is truncated`);
    out.push(decodeAt(bytes, v, at));
    at += need;
  }
  return out;
}
