import type { RowCodec } from './codec.js';
import { checkBufferSize } from './internal/validate.js';
import type { JoinKey } from './types.js';

/** Bytes in front of every record: a 4-byte data length and a 1-byte match flag. */
export const RECORD_HEADER_BYTES = 5;

/**
 * The join buffer: outer records packed one after another into ONE byte buffer of
 * `join_buffer_size` bytes (MariaDB `JOIN_CACHE`, §5.3 of the reference).
 *
 * ```
 * offset  size  field
 * 0       4     data length n (little-endian; MariaDB's rec_len, here always 4 bytes)
 * 4       1     match flag: 0 = no match yet, 1 = matched (MariaDB's MATCH_FOUND)
 * 5       n     the record, as the row codec writes it
 * ```
 *
 * Records fill the buffer from the front. A hashed buffer (BNLH, BKAH) also charges
 * `auxBytesPerRecord` per record for its hash entries, as MariaDB keeps its hash table at the
 * buffer's end. Beside the bytes the buffer keeps an index (record number → offset) and each
 * record's join key, so joining never decodes a record whose key does not match.
 *
 * A record larger than an empty buffer grows the buffer to hold exactly that record (MariaDB
 * sizes the buffer to at least one record of maximal length); `grows` counts it.
 *
 * Invariant: `usedBytes + count·auxBytesPerRecord ≤ sizeBytes`.
 */
export class JoinBuffer<R> {
  readonly #codec: RowCodec<R>;
  readonly #auxPerRecord: number;
  #bytes: Uint8Array;
  #view: DataView;
  #used = 0;
  #count = 0;
  #offsets: Int32Array = new Int32Array(64);
  #keys: JoinKey[] = [];
  /** Times a record larger than the empty buffer made it grow. */
  grows = 0;

  constructor(codec: RowCodec<R>, joinBufferSize: number, auxBytesPerRecord = 0) {
    checkBufferSize('join_buffer_size', joinBufferSize, 1);
    this.#codec = codec;
    this.#auxPerRecord = auxBytesPerRecord;
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

  /** The buffer's size in bytes: `join_buffer_size`, or more after a grow. */
  get sizeBytes(): number {
    return this.#bytes.length;
  }

  /**
   * Append `row` with join key `key`. Returns its record number, or −1 when it does not fit
   * (the caller joins the buffer, resets it and puts the row again). Never −1 on an empty buffer.
   */
  put(row: R, key: JoinKey): number {
    const len = this.#codec.byteLength(row);
    const need = RECORD_HEADER_BYTES + len;
    if (this.#used + need + (this.#count + 1) * this.#auxPerRecord > this.#bytes.length) {
      if (this.#count > 0) return -1;
      this.#bytes = new Uint8Array(need + this.#auxPerRecord);
      this.#view = new DataView(this.#bytes.buffer);
      this.grows++;
    }
    const at = this.#used;
    this.#view.setUint32(at, len, true);
    this.#bytes[at + 4] = 0;
    const end = this.#codec.write(row, this.#bytes, this.#view, at + RECORD_HEADER_BYTES);
    if (end !== at + need) {
      throw new RangeError(`codec wrote ${end - at - RECORD_HEADER_BYTES} bytes, byteLength said ${len}`);
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
    const len = this.#view.getUint32(at, true);
    return this.#codec.read(this.#bytes, this.#view, at + RECORD_HEADER_BYTES, len);
  }

  /** Whether record `i` has its match flag set. */
  matched(i: number): boolean {
    return this.#bytes[this.#offsets[i]! + 4] === 1;
  }

  /** Set record `i`'s match flag. */
  setMatched(i: number): void {
    this.#bytes[this.#offsets[i]! + 4] = 1;
  }

  /** Empty the buffer for the next fill (the bytes are reused; a grown buffer stays grown). */
  reset(): void {
    this.#used = 0;
    this.#count = 0;
    this.#keys.length = 0;
  }
}
