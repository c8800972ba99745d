import { type RecordSorter, sortRecords } from './sort.js';
import type { IndexReader } from '../types.js';

/**
 * The rowid buffer: (row id, association) entries packed in typed arrays over one
 * ArrayBuffer, sorted by row id before reading.
 *
 * Layout for numeric row ids (`capacity` entries): `ids` Float64Array [0, 8·cap), then
 * `assocs` Float64Array [8·cap, 16·cap). For byte row ids: fixed-width records of
 * `rowIdLength` bytes followed by an 8-byte association (a float64, native byte order),
 * compared by memcmp on the row id bytes only.
 *
 * `limit` (entries) may be lowered below `capacity` by the buffer sharing, never raised above.
 */
export class RowIdBuffer {
  readonly capacity: number;
  limit: number;
  count = 0;
  readonly #numeric: boolean;
  readonly #ids: Float64Array;
  readonly #assocs: Float64Array;
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #idLength: number;
  readonly #record: number;
  readonly #sorter: RecordSorter;
  /** Scratch copy of one byte row id handed to the fetcher. */
  readonly scratch: Uint8Array;

  constructor(numeric: boolean, idLength: number, capacity: number) {
    this.capacity = capacity;
    this.limit = capacity;
    this.#numeric = numeric;
    this.#idLength = idLength;
    if (numeric) {
      const ab = new ArrayBuffer(capacity * 16);
      this.#ids = new Float64Array(ab, 0, capacity);
      this.#assocs = new Float64Array(ab, capacity * 8, capacity);
      this.#bytes = new Uint8Array(0);
      this.#record = 16;
      const ids = this.#ids;
      const assocs = this.#assocs;
      this.#sorter = {
        less: (i, j) => (ids[i] as number) < (ids[j] as number),
        swap: (i, j) => {
          const t = ids[i] as number;
          ids[i] = ids[j] as number;
          ids[j] = t;
          const a = assocs[i] as number;
          assocs[i] = assocs[j] as number;
          assocs[j] = a;
        },
      };
    } else {
      this.#record = idLength + 8;
      this.#ids = new Float64Array(0);
      this.#assocs = new Float64Array(0);
      this.#bytes = new Uint8Array(capacity * this.#record);
      const bytes = this.#bytes;
      const rec = this.#record;
      const temp = new Uint8Array(rec);
      this.#sorter = {
        less: (i, j) => {
          const a = i * rec;
          const b = j * rec;
          for (let k = 0; k < idLength; k++) {
            const d = (bytes[a + k] as number) - (bytes[b + k] as number);
            if (d !== 0) return d < 0;
          }
          return false;
        },
        swap: (i, j) => {
          const a = i * rec;
          const b = j * rec;
          temp.set(bytes.subarray(a, a + rec));
          bytes.copyWithin(a, b, b + rec);
          bytes.set(temp, b);
        },
      };
    }
    this.#view = new DataView(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.byteLength);
    this.scratch = new Uint8Array(numeric ? 0 : idLength);
  }

  /** Append the reader's current row id with `association`. REQUIRES: count < limit. */
  push<K>(reader: IndexReader<K>, association: number): void {
    const i = this.count++;
    if (reader.rowIdKind === 'number') {
      this.#ids[i] = reader.rowId();
      this.#assocs[i] = association;
    } else {
      const off = i * this.#record;
      reader.copyRowId(this.#bytes, off);
      this.#view.setFloat64(off + this.#idLength, association, true);
    }
  }

  sort(): void {
    sortRecords(this.#sorter, this.count);
  }

  /** Does entry i carry the same row id as entry i − 1? REQUIRES: i ≥ 1. */
  sameAsPrevious(i: number): boolean {
    if (this.#numeric) return this.#ids[i] === this.#ids[i - 1];
    const bytes = this.#bytes;
    const a = i * this.#record;
    const b = a - this.#record;
    for (let k = 0; k < this.#idLength; k++) if (bytes[a + k] !== bytes[b + k]) return false;
    return true;
  }

  numericId(i: number): number {
    return this.#ids[i] as number;
  }

  /** Copy entry i's row id into `scratch` and return it. */
  bytesId(i: number): Uint8Array {
    const bytes = this.#bytes;
    const scratch = this.scratch;
    const off = i * this.#record;
    for (let k = 0; k < this.#idLength; k++) scratch[k] = bytes[off + k] as number;
    return scratch;
  }

  association(i: number): number {
    if (this.#numeric) return this.#assocs[i] as number;
    return this.#view.getFloat64(i * this.#record + this.#idLength, true);
  }
}
