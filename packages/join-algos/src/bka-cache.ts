import {
  createMrrCounters,
  createMultiRangeRead,
  type IndexReader,
  KEY_REFERENCE_BYTES,
  type MrrCounters,
  type MrrKeyRange,
  type RowFetcher,
} from '@enginekit/mrr';
import { type BkaMrrOptions, bkaAuxBufferIncrement } from './batched-key-access.js';
import { HASH_ENTRY_BYTES } from './block-nested-loop.js';
import { checkBufferSize, checkFunction, checkJoinType } from './internal/validate.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { JoinType } from './types.js';

/**
 * What a {@link BkaJoinCache} needs: the inner index (an MRR reader and row fetcher), the buffer's
 * size and how long the caller's records are, and what to do with each match.
 *
 * `Rec` is the caller's record (a partial row of the tables joined so far, in whatever form the
 * caller keeps it); `K` the lookup key the reader takes (a number, or an encoded multi-column key).
 */
export interface BkaCacheSpec<Rec, I, K> extends BkaMrrOptions {
  /** The inner table's index, read by equality keys. */
  readonly reader: IndexReader<K>;
  /** Row id → inner row. */
  readonly fetcher: RowFetcher<I>;
  /**
   * `ref.key_length`: bytes of one lookup key, charged once with the first record's MRR share
   * ({@link bkaAuxBufferIncrement}). Default the reader's `keyLength` (8: a key held by reference).
   */
  readonly keyLength?: number;
  /** Bytes of the join buffer (the planner's grant for this table), records and MRR space together. */
  readonly join_buffer_size: number;
  /** BKAH (`join_cache_level` 7–8): equal keys share one lookup, the records chained by key. Default false. */
  readonly hashed?: boolean;
  /** Default `'inner'`. `'left'` NULL-extends records without a match; `'semi'`/`'anti'` as the join types say. */
  readonly type?: JoinType;
  /**
   * Bytes a record takes in the buffer as written (MariaDB's packed record: length field, link,
   * flags, field images with CHAR stripped and VARCHAR at its length).
   */
  readonly recordBytes: (record: Rec) => number;
  /**
   * Bytes of the longest record this buffer can take (MariaDB's `pack_length`): the buffer is
   * full once the space left after a record, its MRR share taken, could not hold two more.
   */
  readonly maxRecordBytes: number;
  /**
   * The identity equal keys share, for chaining them (BKAH, {@link groupKeys}). Default the key
   * itself: right for numbers and strings; give one for keys that are objects or byte arrays.
   */
  readonly keyIdentity?: (key: K) => unknown;
  /**
   * Send each distinct key of a fill once, with its records chained, also for BKA (not hashed).
   * For a per-record index condition checked while the index is read: the check sees every
   * record that wants the entry ({@link BkaJoinCache.recordsOf}). The hash entries are not
   * charged: the buffer is BKA's. Default false.
   */
  readonly groupKeys?: boolean;
  /**
   * The rest of the join condition for a (record, inner row) pair whose keys are equal; a record
   * with one passing pair counts as matched (no NULL extension). Default: every pair matches.
   */
  readonly matches?: (record: Rec, inner: I) => boolean;
  /**
   * One joined pair, or `(record, null)` for a LEFT join's unmatched record, a SEMI join's match
   * and an ANTI join's record without one. Return `false` to stop the whole join (a LIMIT reached):
   * the cache runs no further lookup and {@link BkaJoinCache.stopped} turns true.
   */
  readonly emit: (record: Rec, inner: I | null) => boolean;
  /**
   * Called after each fill has been joined, before the buffer is emptied: for a chain of join
   * buffers whose next buffer's records link to this one's (MariaDB's incremental buffers), join
   * the next buffer here. Return false to stop the join.
   */
  readonly onJoined?: () => boolean;
  /** Called once per inner row MRR returns, before it is matched: throw from it to interrupt. */
  readonly poll?: () => void;
  /** Counters to add the MRR scans' counts into; a fresh set by default ({@link BkaJoinCache.counters}). */
  readonly counters?: MrrCounters;
}

const STOP: unique symbol = Symbol('bka-stop');

/**
 * A BKA / BKAH join buffer fed one record at a time (MariaDB's `JOIN_CACHE_BKA` /
 * `JOIN_CACHE_BKAH` under `sub_select_cache`), for a caller that owns its records: a query
 * engine's partial rows rather than codec-encoded rows ({@link batchedKeyAccessJoin} takes those).
 *
 * `put(record, key)` writes a record as `JOIN_CACHE::write_record_data` does: the record's MRR
 * share ({@link bkaAuxBufferIncrement}, plus {@link HASH_ENTRY_BYTES} for BKAH) is reserved at the
 * buffer's end, then the record is written at the front; when the space left could not hold two
 * more records of {@link BkaCacheSpec.maxRecordBytes} the buffer is full and is joined at once.
 * `flush()` joins what is buffered (the end of the outer rows).
 *
 * Joining a fill (`JOIN_TAB_SCAN_MRR::open`): every record with a key becomes one equality range
 * whose association is its record number (BKA), or every distinct key one range whose
 * association is the newest record of its chain (BKAH); a record whose key is `null` cannot
 * match and sends nothing. The MRR buffer is the buffer's tail after the records (for BKAH less
 * the hash entries), so `mrr_buffer_size` plays no part, as in MariaDB. Each returned inner row
 * is matched against its record (BKA) or every record of its key (BKAH).
 */
export class BkaJoinCache<Rec, I, K> {
  /** The counters the MRR scans add into (`Handler_read_key`/`_next`/`_rnd`, `Handler_mrr_*`). */
  readonly counters: MrrCounters;
  /** Fills joined and rows emitted; the MRR counts are in {@link counters}. */
  readonly stats: JoinStats = createJoinStats();
  readonly #spec: BkaCacheSpec<Rec, I, K>;
  readonly #size: number;
  readonly #maxRecord: number;
  readonly #hashed: boolean;
  readonly #grouped: boolean;
  readonly #type: JoinType;
  readonly #firstExtra: number;
  readonly #perRecord: number;
  readonly #identity: (key: K) => unknown;
  #records: Rec[] = [];
  #keys: (K | null)[] = [];
  #used = 0;
  #aux = 0;
  #matched: Uint8Array = new Uint8Array(64);
  /** Record → the next (older) record of its key's chain, −1 at the end. */
  #chain: Int32Array = new Int32Array(64);
  readonly #heads = new Map<unknown, number>();
  #stopped = false;

  constructor(spec: BkaCacheSpec<Rec, I, K>) {
    if (typeof spec !== 'object' || spec === null)
      throw new TypeError(`spec must be an object, got ${String(spec)}`);
    const { reader, fetcher } = spec;
    if (typeof reader !== 'object' || reader === null || typeof reader.seek !== 'function') {
      throw new TypeError(`spec.reader must be an MRR IndexReader, got ${String(reader)}`);
    }
    if (typeof fetcher !== 'object' || fetcher === null || typeof fetcher.rndPos !== 'function') {
      throw new TypeError(`spec.fetcher must be a RowFetcher, got ${String(fetcher)}`);
    }
    this.#size = checkBufferSize('join_buffer_size', spec.join_buffer_size, 1);
    const max = spec.maxRecordBytes;
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1) {
      throw new RangeError(`maxRecordBytes must be a positive integer, got ${String(max)}`);
    }
    checkFunction('recordBytes', spec.recordBytes);
    checkFunction('emit', spec.emit);
    if (spec.matches !== undefined) checkFunction('matches', spec.matches);
    if (spec.poll !== undefined) checkFunction('poll', spec.poll);
    if (spec.onJoined !== undefined) checkFunction('onJoined', spec.onJoined);
    if (spec.keyIdentity !== undefined) checkFunction('keyIdentity', spec.keyIdentity);
    const type = spec.type ?? 'inner';
    checkJoinType(type);
    this.#spec = spec;
    this.#maxRecord = max;
    this.#type = type;
    this.#hashed = spec.hashed === true;
    this.#grouped = this.#hashed || spec.groupKeys === true;
    const keyLength = spec.keyLength ?? reader.keyLength ?? KEY_REFERENCE_BYTES;
    if (!Number.isSafeInteger(keyLength) || keyLength < 0) {
      throw new RangeError(`keyLength must be a non-negative integer, got ${String(keyLength)}`);
    }
    this.#perRecord = bkaAuxBufferIncrement(reader, 2, keyLength) + (this.#hashed ? HASH_ENTRY_BYTES : 0);
    this.#firstExtra =
      bkaAuxBufferIncrement(reader, 1, keyLength) - bkaAuxBufferIncrement(reader, 2, keyLength);
    this.#identity = spec.keyIdentity ?? ((k: K) => k);
    this.counters = spec.counters ?? createMrrCounters();
  }

  /** Records buffered now. */
  get count(): number {
    return this.#records.length;
  }

  /** Bytes the buffered records take (the front of the buffer). */
  get usedBytes(): number {
    return this.#used;
  }

  /** Bytes reserved at the end of the buffer for MRR (and BKAH's hash entries). */
  get reservedBytes(): number {
    return this.#aux;
  }

  /** True once `emit` returned false: nothing more is joined. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Buffered record number `r` (an association, or one of {@link recordsOf}). */
  record(r: number): Rec {
    return this.#records[r] as Rec;
  }

  /**
   * The records an MRR association stands for, newest first: the record itself (BKA), or every
   * record of its key (BKAH, {@link BkaCacheSpec.groupKeys}). For a per-record index condition.
   */
  recordsOf(association: number, visit: (record: Rec, r: number) => void): void {
    if (!this.#grouped) {
      visit(this.#records[association] as Rec, association);
      return;
    }
    for (let r = association; r >= 0; r = this.#chain[r] as number) visit(this.#records[r] as Rec, r);
  }

  /**
   * Buffer one record with its lookup key (`null`: it cannot match). Joins the buffer when this
   * record fills it. Returns false if the join has stopped (see {@link BkaCacheSpec.emit}).
   */
  put(record: Rec, key: K | null): boolean {
    if (this.#stopped) return false;
    const n = this.#records.length;
    // JOIN_CACHE::write_record_data: the MRR share is reserved first (what is left, if less)
    const incr = this.#perRecord + (n === 0 ? this.#firstExtra : 0);
    const max = this.#maxRecord;
    const rem = this.#size - this.#used - this.#aux;
    this.#aux += max + incr < rem ? incr : Math.max(0, rem);
    const last = max + max > this.#size - this.#used - this.#aux;
    const bytes = this.#spec.recordBytes(record);
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0 || bytes > max) {
      throw new RangeError(
        `recordBytes must be an integer in [0, maxRecordBytes = ${max}], got ${String(bytes)}`,
      );
    }
    this.#used += bytes;
    this.#records.push(record);
    this.#keys.push(key);
    if (n >= this.#matched.length) {
      const m = new Uint8Array(this.#matched.length * 2);
      m.set(this.#matched);
      this.#matched = m;
      const c = new Int32Array(this.#chain.length * 2);
      c.set(this.#chain);
      this.#chain = c;
    }
    this.#matched[n] = 0;
    if (this.#grouped && key !== null) {
      const id = this.#identity(key);
      this.#chain[n] = this.#heads.get(id) ?? -1;
      this.#heads.set(id, n);
    }
    return last ? this.flush() : true;
  }

  /** Join the buffered records and empty the buffer. Returns false if the join has stopped. */
  flush(): boolean {
    if (this.#stopped) return false;
    const n = this.#records.length;
    if (n === 0) return true;
    this.stats.joinBufferFills++;
    try {
      this.#join();
      const type = this.#type;
      if (type === 'left' || type === 'anti') {
        const matched = this.#matched;
        const emit = this.#spec.emit;
        for (let r = 0; r < n; r++) {
          if (matched[r] === 1) continue;
          this.stats.rowsOut++;
          if (!emit(this.#records[r] as Rec, null)) throw STOP;
        }
      }
      if (this.#spec.onJoined !== undefined && !this.#spec.onJoined()) throw STOP;
    } catch (e) {
      if (e !== STOP) throw e;
      this.#stopped = true;
    } finally {
      this.#records = [];
      this.#keys = [];
      this.#heads.clear();
      this.#used = 0;
      this.#aux = 0;
    }
    return !this.#stopped;
  }

  /** One MRR scan over the fill's keys. */
  #join(): void {
    const spec = this.#spec;
    const keys = this.#keys;
    const ranges: MrrKeyRange<K>[] = [];
    if (this.#grouped) {
      for (const head of this.#heads.values()) ranges.push({ key: keys[head] as K, association: head });
    } else {
      for (let r = 0; r < keys.length; r++) {
        const k = keys[r];
        if (k !== null && k !== undefined) ranges.push({ key: k, association: r });
      }
    }
    if (ranges.length === 0) return;
    // JOIN_CACHE_BKA::init_mrr_buff: from the end of the records to the end of the buffer
    const hashBytes = this.#hashed ? this.#records.length * HASH_ENTRY_BYTES : 0;
    const tail = Math.max(1, this.#size - this.#used - hashBytes);
    const scan = createMultiRangeRead(spec.reader, spec.fetcher, ranges, {
      mrr: true,
      mrr_sort_keys: spec.mrr_sort_keys === true,
      sortRowIds: spec.sortRowIds !== false,
      singlePoint: true,
      associations: true,
      counters: this.counters,
      bufferSize: tail,
    });
    const poll = spec.poll;
    const grouped = this.#grouped;
    const chain = this.#chain;
    while (scan.next()) {
      poll?.();
      const inner = scan.row;
      const a = scan.association;
      if (!grouped) this.#match(a, inner);
      else for (let r = a; r >= 0; r = chain[r] as number) this.#match(r, inner);
    }
  }

  #match(r: number, inner: I): void {
    const type = this.#type;
    const matched = this.#matched;
    if ((type === 'semi' || type === 'anti') && matched[r] === 1) return;
    const rec = this.#records[r] as Rec;
    const spec = this.#spec;
    if (spec.matches !== undefined && !spec.matches(rec, inner)) return;
    matched[r] = 1;
    if (type === 'anti') return;
    this.stats.rowsOut++;
    if (!spec.emit(rec, type === 'semi' ? null : inner)) throw STOP;
  }
}
