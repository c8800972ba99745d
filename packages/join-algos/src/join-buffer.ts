import type { RowCodec } from './codec.js';
import { offsetSize } from './internal/offset-size.js';
import { checkBufferSize } from './internal/validate.js';
import type { JoinKey } from './types.js';

/** What a join buffer's records carry besides the row, as MariaDB decides it per cache. */
export interface JoinBufferLayout {
  /**
   * Prefix each record with its length (MariaDB `JOIN_CACHE::set_constants`: `with_length` is on
   * for key access — BNLH, BKA, BKAH — and for the inner table of an outer join or a semi-join).
   */
  readonly withLength: boolean;
  /**
   * Keep a 1-byte match flag per record (`JOIN_TAB::use_match_flag`: the first inner table of an
   * outer join or of a semi-join), needed by LEFT, SEMI and ANTI joins.
   */
  readonly withMatchFlag: boolean;
  /** Bytes in front of the row for a link to the previous buffer's record (incremental buffers). Default 0. */
  readonly linkBytes?: number;
  /** Bytes charged per record outside the record (hash entries, BKA's MRR space). Default 0. */
  readonly auxBytesPerRecord?: number;
  /** Bytes charged once, with the first record (BKA: the lookup key and one row id). Default 0. */
  readonly auxBytesFirst?: number;
}

/**
 * Bytes of a record's length field: `offset_size(len)` where `len` bounds the record as
 * `JOIN_CACHE::set_constants` does — the largest row plus flag bytes, 4 bytes per field
 * (`fields·sizeof(uint)`), the link, and 8 (`sizeof(ulong)`). A codec that does not say how long
 * its rows can be gets 4 bytes.
 */
export function recordLengthBytes(codec: RowCodec<unknown>, layout: JoinBufferLayout): number {
  const max = codec.maxByteLength;
  if (max === undefined || !Number.isFinite(max)) return 4;
  const flags = layout.withMatchFlag ? 1 : 0;
  const fields = (codec.fieldCount ?? 1) + flags;
  return offsetSize(max + flags + 4 * fields + (layout.linkBytes ?? 0) + 8);
}

/** The header in front of every record: `lengthBytes` of length, then `flagBytes` of match flag. */
export function recordHeaderBytes(codec: RowCodec<unknown>, layout: JoinBufferLayout): number {
  return (layout.withLength ? recordLengthBytes(codec, layout) : 0) + (layout.withMatchFlag ? 1 : 0);
}

/**
 * The join buffer: outer records packed one after another into ONE byte buffer of
 * `join_buffer_size` bytes (MariaDB `JOIN_CACHE`, `write_record_data`).
 *
 * ```
 * offset  size          field
 * 0       L (0/1/2/4)   data length n, little-endian, when the layout has `withLength`
 *                       (L = {@link recordLengthBytes}: 1 below 256, 2 below 65536, else 4)
 * L       F (0/1)       match flag when the layout has `withMatchFlag`: 0 none yet, 1 MATCH_FOUND
 * L+F     n             the record, as the row codec writes it
 * ```
 *
 * So a BNL inner join stores bare rows, a BNLH / BKA inner join a length and the row, a LEFT or
 * SEMI join also the flag. Records fill the buffer from the front; `auxBytesPerRecord` (and
 * `auxBytesFirst` once) are charged per record for what MariaDB keeps at the buffer's end (hash
 * entries, BKA's MRR space). Beside the bytes the buffer keeps an index (record number → offset)
 * and each record's join key, so joining never decodes a record whose key does not match, and a
 * record's length is known without reading the length field.
 *
 * A record larger than an empty buffer grows the buffer to hold exactly that record (MariaDB
 * sizes the buffer to at least one record of maximal length); `grows` counts it.
 *
 * Invariant: `usedBytes + auxBytesFirst + count·auxBytesPerRecord ≤ sizeBytes` when count > 0.
 */
export class JoinBuffer<R> {
  /** Bytes of the length field (0 without `withLength`). */
  readonly lengthBytes: number;
  /** Bytes of the match flag (0 or 1). */
  readonly flagBytes: number;
  readonly #codec: RowCodec<R>;
  readonly #auxPerRecord: number;
  readonly #auxFirst: number;
  readonly #header: number;
  #bytes: Uint8Array;
  #view: DataView;
  #used = 0;
  #count = 0;
  #offsets: Int32Array = new Int32Array(64);
  #keys: JoinKey[] = [];
  /** Times a record larger than the empty buffer made it grow. */
  grows = 0;

  constructor(
    codec: RowCodec<R>,
    joinBufferSize: number,
    layout: JoinBufferLayout = { withLength: true, withMatchFlag: true },
  ) {
    checkBufferSize('join_buffer_size', joinBufferSize, 1);
    this.#codec = codec;
    this.#auxPerRecord = layout.auxBytesPerRecord ?? 0;
    this.#auxFirst = layout.auxBytesFirst ?? 0;
    this.lengthBytes = layout.withLength ? recordLengthBytes(codec as RowCodec<unknown>, layout) : 0;
    this.flagBytes = layout.withMatchFlag ? 1 : 0;
    this.#header = this.lengthBytes + this.flagBytes;
    this.#bytes = new Uint8Array(joinBufferSize);
    this.#view = new DataView(this.#bytes.buffer);
  }

  /** Records in the buffer. */
  get count(): number {
    return this.#count;
  }

  /** Bytes taken by records (headers included). */
  get usedBytes(): number {
    return this.#used;
  }

  /** Bytes charged outside the records so far: `auxBytesFirst + count·auxBytesPerRecord` (0 when empty). */
  get auxBytes(): number {
    return this.#count === 0 ? 0 : this.#auxFirst + this.#count * this.#auxPerRecord;
  }

  /** Bytes neither records nor aux charges use: where BKA's MRR buffer lives. */
  get freeBytes(): number {
    return this.#bytes.length - this.#used - this.auxBytes;
  }

  /** The buffer's size in bytes: `join_buffer_size`, or more after a grow. */
  get sizeBytes(): number {
    return this.#bytes.length;
  }

  /** Bytes of the header in front of each record. */
  get headerBytes(): number {
    return this.#header;
  }

  /**
   * Append `row` with join key `key`. Returns its record number, or −1 when it does not fit
   * (the caller joins the buffer, resets it and puts the row again). Never −1 on an empty buffer.
   */
  put(row: R, key: JoinKey): number {
    const len = this.#codec.byteLength(row);
    const need = this.#header + len;
    const aux = this.#auxFirst + (this.#count + 1) * this.#auxPerRecord;
    if (this.#used + need + aux > this.#bytes.length) {
      if (this.#count > 0) return -1;
      this.#bytes = new Uint8Array(need + aux);
      this.#view = new DataView(this.#bytes.buffer);
      this.grows++;
    }
    const at = this.#used;
    const lb = this.lengthBytes;
    if (lb === 1) {
      if (len > 0xff)
        throw new RangeError(`record of ${len} bytes exceeds the 1-byte length field (codec maxByteLength)`);
      this.#bytes[at] = len;
    } else if (lb === 2) {
      if (len > 0xffff)
        throw new RangeError(`record of ${len} bytes exceeds the 2-byte length field (codec maxByteLength)`);
      this.#view.setUint16(at, len, true);
    } else if (lb === 4) this.#view.setUint32(at, len, true);
    if (this.flagBytes === 1) this.#bytes[at + lb] = 0;
    const start = at + this.#header;
    const end = this.#codec.write(row, this.#bytes, this.#view, start);
    if (end !== start + len) {
      throw new RangeError(`codec wrote ${end - start} bytes, byteLength said ${len}`);
    }
    const i = this.#count++;
    if (i === this.#offsets.length) {
      const grown = new Int32Array(i * 2);
      grown.set(this.#offsets);
      this.#offsets = grown;
    }
    this.#offsets[i] = at;
    this.#keys[i] = key;
    this.#used = end;
    return i;
  }

  /** The join key of record `i`. */
  key(i: number): JoinKey {
    return this.#keys[i]!;
  }

  /** Decode record `i`. */
  row(i: number): R {
    const at = this.#offsets[i]!;
    const end = i + 1 < this.#count ? this.#offsets[i + 1]! : this.#used;
    const start = at + this.#header;
    return this.#codec.read(this.#bytes, this.#view, start, end - start);
  }

  /** Whether record `i` has its match flag set (always false without a flag). */
  matched(i: number): boolean {
    return this.flagBytes === 1 && this.#bytes[this.#offsets[i]! + this.lengthBytes] === 1;
  }

  /** Set record `i`'s match flag (nothing to set without one). */
  setMatched(i: number): void {
    if (this.flagBytes === 1) this.#bytes[this.#offsets[i]! + this.lengthBytes] = 1;
  }

  /** The raw bytes (for tests and inspection; valid until the next `put` that grows the buffer). */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** Byte offset of record `i` (its header's first byte). */
  offset(i: number): number {
    return this.#offsets[i]!;
  }

  /** Empty the buffer for the next fill (the bytes are reused; a grown buffer stays grown). */
  reset(): void {
    this.#used = 0;
    this.#count = 0;
    this.#keys.length = 0;
  }
}
