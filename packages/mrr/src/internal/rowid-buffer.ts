import { type RecordSorter, sortRecords } from './sort.js';
import type { IndexReader } from '../types.js';

/** Entries allocated up front; the arrays double on demand up to `capacity`. */
const INITIAL_ENTRIES = 4096;

/**
 * The rowid buffer: (row id, association) entries packed in typed arrays over one
 * ArrayBuffer, sorted by row id before reading.
 *
 * Layout for numeric row ids (`n` entries allocated): `ids` Float64Array [0, 8n), then
 * `assocs` Float64Array [8n, 16n). For byte row ids: fixed-width records of `rowIdLength`
 * bytes followed by an 8-byte association (a float64, little-endian), compared by memcmp on
 * the row id bytes only.
 *
 * `capacity` is what the byte budget allows; memory is allocated as entries arrive (doubling),
 * so a 4 MiB budget costs nothing for a scan of ten rows.
 */
export class RowIdBuffer {
  readonly capacity: number;
  count = 0;
  /** Scratch copy of one byte row id handed to the fetcher. */
  readonly scratch: Uint8Array;
  readonly #numeric: boolean;
  readonly #idLength: number;
  readonly #record: number;
  #allocated = 0;
  #ids = new Float64Array(0);
  #assocs = new Float64Array(0);
  #bytes = new Uint8Array(0);
  #view = new DataView(new ArrayBuffer(0));
  #sorter: RecordSorter = { less: () => false, swap: () => {} };

  constructor(numeric: boolean, idLength: number, capacity: number) {
    this.capacity = capacity;
    this.#numeric = numeric;
    this.#idLength = idLength;
    this.#record = numeric ? 16 : idLength + 8;
    this.scratch = new Uint8Array(numeric ? 0 : idLength);
    this.#allocate(Math.min(capacity, INITIAL_ENTRIES));
  }

  #allocate(entries: number): void {
    const keep = this.count;
    if (this.#numeric) {
      const ab = new ArrayBuffer(entries * 16);
      const ids = new Float64Array(ab, 0, entries);
      const assocs = new Float64Array(ab, entries * 8, entries);
      ids.set(this.#ids.subarray(0, keep));
      assocs.set(this.#assocs.subarray(0, keep));
      this.#ids = ids;
      this.#assocs = assocs;
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
      const rec = this.#record;
      const idLength = this.#idLength;
      const bytes = new Uint8Array(entries * rec);
      bytes.set(this.#bytes.subarray(0, keep * rec));
      this.#bytes = bytes;
      this.#view = new DataView(bytes.buffer);
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
    this.#allocated = entries;
  }

  /** Append the reader's current row id with `association`. REQUIRES: count < capacity. */
  push<K>(reader: IndexReader<K>, association: number): void {
    const i = this.count++;
    if (i === this.#allocated) this.#allocate(Math.min(this.capacity, this.#allocated * 2));
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
