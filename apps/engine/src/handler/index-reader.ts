import { compareKeys, fieldEnd } from '@enginekit/btree-sampler';
import {
  type BytesRowIdIndexReader,
  KEY_REFERENCE_BYTES,
  type MrrRange,
  type RowFetcher,
  type RowId,
} from '@enginekit/mrr';
import { indexKeyLength, keyImageBytes } from '../storage/key-length.js';
import type { RangeLocks } from '../storage/record-locks.js';
import type { RowBuffer } from '../storage/row.js';
import { H_ROWS_READ } from '../storage/counters.js';
import type { EntryTest, EntryVisit, Table, TableIndex } from '../storage/table.js';

const EMPTY = new Uint8Array(0);
/** Entries a reader takes per descent (one when it locks, so a stop locks nothing ahead). */
const STRETCH = 64;

/** An MRR range over an engine index; `unique`: a full key of a unique index (one entry at most). */
export type HandlerRange = MrrRange<Uint8Array> & { readonly unique?: boolean };

/** Options of a {@link HandlerIndexReader}. */
export interface IndexReaderOptions {
  /** A pushed index condition, checked on each entry before its row is read. */
  readonly check?: EntryTest | null;
  /** Every lookup is a full key of a unique index: at most one entry, no next call (eq_ref). */
  readonly unique?: boolean;
  /** `rec_per_key` of the looked-up prefix, for MRR's buffer split. */
  readonly recordsPerKey?: number;
  /** Bytes a lookup key takes in MRR's key buffer (MariaDB: the `ref`'s key length). */
  readonly keyLength?: number;
}

/**
 * A cursor on one index of a table, shaped as `@enginekit/mrr`'s byte row id reader: `seek` is
 * `index_read_map` on a range, `next` is `index_next_same` / `read_range_next` within it, and the
 * row id it hands out is the entry's primary key image (memcmp order = clustered order), padded
 * to the longest the primary key can be. A row id is charged InnoDB's `ref_length` (the primary
 * key's MariaDB key length) in MRR's buffers.
 *
 * The walk is `row_search_mvcc`'s without the row: a locking read locks each entry before its
 * pushed condition looks at it and the first entry past the range (or the supremum); a
 * consistent read passes over entries its view does not see. Entries are taken a stretch at a
 * time and the position kept as the last entry's key, so no page stays latched between calls.
 * It counts nothing: MRR counts Handler_read_key per `seek` and Handler_read_next per `next`.
 */
export class HandlerIndexReader implements BytesRowIdIndexReader<Uint8Array> {
  readonly rowIdKind = 'bytes' as const;
  readonly rowIdLength: number;
  readonly refLength: number;
  /** Whether the range being read is a unique point (set by each `seek`; MRR reads it after). */
  unique: boolean;
  readonly recordsPerKey: number;
  readonly keyLength: number;
  readonly indexKeyLength: number;
  readonly primaryKeyLength: number;
  /** The association of the range being read (-1 when the range named none). */
  association = -1;
  /** The pushed index condition (may be swapped between scans). */
  check: EntryTest | null;

  readonly #table: Table;
  readonly #ix: TableIndex;
  readonly #queue: Uint8Array;
  readonly #lens: Int32Array;
  #count = 0;
  #pos = 0;
  #last: Uint8Array = new Uint8Array(64);
  #lastLen = 0;
  #ended = true;
  #hi: Uint8Array | null = null;
  #hiInclusive = true;
  #locks: RangeLocks | null = null;
  /** What the read sees at an entry (asked at each seek: the statement's view). */
  #sees: EntryVisit = () => false;
  readonly #take: EntryVisit;
  #room = STRETCH;
  readonly #uniqueLookups: boolean;

  constructor(table: Table, ix: TableIndex, options: IndexReaderOptions = {}) {
    this.#table = table;
    this.#ix = ix;
    let image = 0;
    for (const c of table.primary.columns) image += keyImageBytes(table.columns[c]!);
    this.rowIdLength = image;
    this.refLength = indexKeyLength(table.columns, table.primary);
    this.primaryKeyLength = this.refLength;
    this.indexKeyLength = indexKeyLength(table.columns, ix);
    this.#uniqueLookups = options.unique === true;
    this.unique = this.#uniqueLookups;
    this.recordsPerKey = options.recordsPerKey ?? 1;
    this.keyLength = options.keyLength ?? KEY_REFERENCE_BYTES;
    this.check = options.check ?? null;
    this.#queue = new Uint8Array(STRETCH * image);
    this.#lens = new Int32Array(STRETCH);
    this.#take = (b, ko, kl, vo, vl) => {
      if (!this.#sees(b, ko, kl, vo, vl)) return true;
      const pk = table.entryPrimaryKey(ix, b, ko, kl);
      const pkl = pk.length;
      const at = this.#count * this.rowIdLength;
      this.#queue.set(pk, at);
      this.#queue.fill(0, at + pkl, at + this.rowIdLength);
      this.#lens[this.#count] = pkl;
      this.#count++;
      if (this.#last.length < kl) this.#last = new Uint8Array(kl * 2);
      this.#last.set(b.subarray(ko, ko + kl));
      this.#lastLen = kl;
      return this.#count < this.#room;
    };
  }

  seek(range: HandlerRange): boolean {
    let from: Uint8Array;
    let skipFrom: boolean;
    let equality = false;
    if ('key' in range) {
      from = range.key;
      skipFrom = false;
      this.#hi = range.key;
      this.#hiInclusive = true;
      equality = true;
      this.unique = this.#uniqueLookups || range.unique === true;
    } else {
      from = range.low ?? EMPTY;
      skipFrom = range.low !== undefined && range.lowInclusive === false;
      this.#hi = range.high ?? null;
      this.#hiInclusive = range.highInclusive !== false;
      this.unique = false;
    }
    this.association = range.association ?? -1;
    const ix = this.#ix;
    const geKey = ix.primary && !skipFrom && from.length > 0 ? from : null;
    this.#locks = this.#table.rangeLocks(ix, equality, equality && this.unique, geKey);
    this.#room = this.#locks === null ? STRETCH : 1;
    this.#sees = this.#table.rowReader(ix, null, false);
    this.#count = 0;
    this.#pos = 0;
    this.#lastLen = 0;
    this.#ended = this.#table.walkIndex(
      ix,
      from,
      skipFrom,
      this.#hi,
      this.#hiInclusive,
      this.check,
      this.#locks,
      this.#take,
    );
    return this.#count > 0;
  }

  next(): boolean {
    if (++this.#pos < this.#count) return true;
    if (this.#ended || this.unique) return false;
    this.#count = 0;
    this.#pos = 0;
    this.#ended = this.#table.walkIndex(
      this.#ix,
      this.#last.subarray(0, this.#lastLen),
      true,
      this.#hi,
      this.#hiInclusive,
      this.check,
      this.#locks,
      this.#take,
    );
    return this.#count > 0;
  }

  copyRowId(target: Uint8Array, offset: number): void {
    const n = this.rowIdLength;
    const at = this.#pos * n;
    target.set(this.#queue.subarray(at, at + n), offset);
  }

  compareKeys(a: Uint8Array, b: Uint8Array): number {
    return compareKeys(a, b);
  }
}

/**
 * `rnd_pos` over a table's clustered index for a {@link HandlerIndexReader}'s row ids: the row
 * the read sees (one reused buffer; Innodb_rows_read), or null when it sees none there any more.
 * MRR counts the call (Handler_read_rnd).
 */
export class HandlerRowFetcher implements RowFetcher<RowBuffer | null> {
  readonly #table: Table;
  readonly #fields: number;
  readonly #counts: Float64Array;
  readonly row: RowBuffer;

  constructor(table: Table) {
    this.#table = table;
    this.#fields = table.primary.columns.length;
    this.#counts = table.handlerStats.counts;
    this.row = table.newRow();
  }

  rndPos(rowId: RowId): RowBuffer | null {
    const id = rowId as Uint8Array;
    // the image is padded: its length is where the primary key's last field ends
    let end = 0;
    for (let f = 0; f < this.#fields; f++) end = fieldEnd(id, end, id.length);
    if (!this.#table.rowAt(id, end, this.row)) return null;
    this.#counts[H_ROWS_READ]!++;
    return this.row;
  }
}
