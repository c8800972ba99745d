import {
  addMrrCounters,
  createMrrCounters,
  createMultiRangeRead,
  type IndexReader,
  KEY_REFERENCE_BYTES,
  type MrrCounters,
  type MrrKeyRange,
  type RowFetcher,
} from '@enginekit/mrr';
import { HASH_ENTRY_BYTES, JOIN_BUFFER_SIZE_DEFAULT, type JoinBufferOptions } from './block-nested-loop.js';
import { BufferedJoin } from './internal/buffered.js';
import { KeyHash } from './internal/key-hash.js';
import { checkSpec, countingEmit } from './internal/spec.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, JoinKey, JoinSpec } from './types.js';

/** MRR settings a BKA join passes through (MariaDB names). */
export interface BkaMrrOptions {
  /** `optimizer_switch` `mrr_sort_keys`: Key-ordered scan (needs `reader.compareKeys`). Default false. */
  mrr_sort_keys?: boolean;
  /** Rowid-ordered scan; `false` for a clustered-key or index-only inner access. Default true. */
  sortRowIds?: boolean;
}

/** A BKA / BKAH join: the inner side is an MRR index reader and row fetcher (`@enginekit/mrr`). */
export interface BkaJoinSpec<O, I, K> extends JoinSpec<O, I>, JoinBufferOptions<O>, BkaMrrOptions {
  /** Secondary-index cursor of the inner table; keys are the outer rows' join keys. */
  reader: IndexReader<K>;
  /** Row id → inner row. */
  fetcher: RowFetcher<I>;
}

/**
 * InnoDB's `stats.mrr_length_per_rec` beyond the row id: `ref_length + 8` bytes of MRR buffer
 * per expected row (`ha_innobase::info`; 8 = the largest `sizeof(void*)`, the association).
 */
export const MRR_ASSOCIATION_BYTES = 8;

/**
 * MRR bytes a BKA join buffer reserves for its `recno`-th record (1-based), MariaDB 10.0's
 * `JOIN_TAB_SCAN_MRR::aux_buffer_incr`: `mrr_length_per_rec · rec_per_key` per record, and for
 * the first record also one lookup key and one row id (`ref->key_length + ref_length`).
 * `mrr_length_per_rec` is InnoDB's `ref_length + 8`; `ref_length` is the reader's `refLength`
 * (default its `rowIdLength`; 8 for numeric row ids); `keyLength` is `ref->key_length`, by
 * default the reader's `keyLength` (default 8) — give it when MRR's key buffer holds keys by
 * reference but the key itself is longer or shorter.
 * `rec_per_key` is the reader's `recordsPerKey` rounded down, at least 1.
 */
export function bkaAuxBufferIncrement(
  reader: IndexReader<unknown>,
  recno: number,
  keyLength: number = reader.keyLength ?? KEY_REFERENCE_BYTES,
): number {
  const refLength = reader.rowIdKind === 'bytes' ? (reader.refLength ?? reader.rowIdLength) : 8;
  const rpk = Math.max(1, Math.floor(reader.recordsPerKey ?? 1));
  const perRecord = (refLength + MRR_ASSOCIATION_BYTES) * rpk;
  return recno === 1 ? keyLength + refLength + perRecord : perRecord;
}

/**
 * Batched Key Access (BKA, `join_cache_level` 5–6): fill the join buffer with outer records,
 * then hand their keys to multi-range read, each with its record number as the association
 * (MariaDB `bka_range_seq_next`, range_id = the record's buffer position). Every returned inner
 * row is checked against exactly the record it was asked for. With a rowid-ordered MRR the inner
 * rows come back in primary-key order: sequential page reads instead of one random lookup per
 * outer row. `Handler_read_key/_next/_rnd` and `Handler_mrr_*` come from MRR's counters.
 *
 * The MRR buffer is the join buffer's free tail (`JOIN_TAB_SCAN_MRR::init_mrr_buff`): each
 * record reserves {@link bkaAuxBufferIncrement} bytes for it, so a full buffer still leaves MRR
 * room for the batch. When the tail cannot hold one MRR entry, MRR runs its default
 * implementation, as MariaDB's `dsmrr_init` does.
 */
export function batchedKeyAccessJoin<O, I, K>(spec: BkaJoinSpec<O, I, K>, emit: Emit<O, I>): JoinStats {
  return runBka(spec, emit, false);
}

/**
 * BKAH (`join_cache_level` 7–8): as BKA, but the buffered records are chained by key in a hash
 * table ({@link HASH_ENTRY_BYTES} per record) and each DISTINCT key is sent to MRR once; a
 * returned inner row is matched against every record on its key's chain.
 */
export function batchedKeyAccessHashJoin<O, I, K>(spec: BkaJoinSpec<O, I, K>, emit: Emit<O, I>): JoinStats {
  return runBka(spec, emit, true);
}

function runBka<O, I, K>(spec: BkaJoinSpec<O, I, K>, emit: Emit<O, I>, hashed: boolean): JoinStats {
  checkSpec(spec, emit);
  const { reader, fetcher } = spec;
  if (typeof reader !== 'object' || reader === null || typeof reader.seek !== 'function') {
    throw new TypeError(`spec.reader must be an MRR IndexReader, got ${String(reader)}`);
  }
  if (typeof fetcher !== 'object' || fetcher === null || typeof fetcher.rndPos !== 'function') {
    throw new TypeError(`spec.fetcher must be a RowFetcher, got ${String(fetcher)}`);
  }
  const stats = createJoinStats();
  const perRecord = bkaAuxBufferIncrement(reader, 2);
  const firstExtra = bkaAuxBufferIncrement(reader, 1) - perRecord;
  const join = new BufferedJoin(
    spec,
    spec.outerCodec,
    spec.join_buffer_size ?? JOIN_BUFFER_SIZE_DEFAULT,
    true,
    { perRecord: perRecord + (hashed ? HASH_ENTRY_BYTES : 0), first: firstExtra },
    countingEmit(emit, stats),
    stats,
  );
  const buf = join.buffer;
  const hash = hashed ? new KeyHash() : null;
  const counters: MrrCounters = createMrrCounters();
  // One reusable range object per buffer slot: MRR reads the batch before the next one is built.
  const ranges: { key: K; association: number }[] = [];
  const innerKey = spec.innerKey;
  const mrrOptions = {
    mrr: true,
    mrr_sort_keys: spec.mrr_sort_keys === true,
    sortRowIds: spec.sortRowIds !== false,
    singlePoint: true,
    associations: true,
    counters,
  };
  const rangeAt = (n: number, key: JoinKey, association: number): void => {
    const r = ranges[n];
    if (r === undefined) ranges.push({ key: key as K, association });
    else {
      r.key = key as K;
      r.association = association;
    }
  };
  join.run(
    hash === null ? () => {} : (r, k) => hash.add(k, r),
    () => {
      let n = 0;
      if (hash === null) for (let r = 0; r < buf.count; r++) rangeAt(n++, buf.key(r), r);
      else for (const [k, head] of hash.heads) rangeAt(n++, k, head);
      const batch: MrrKeyRange<K>[] = ranges.length === n ? ranges : ranges.slice(0, n);
      // The MRR buffer: the records' reservations plus whatever the fill left unused.
      const mrrBytes = buf.sizeBytes - buf.usedBytes - (hashed ? buf.count * HASH_ENTRY_BYTES : 0);
      const scan = createMultiRangeRead(reader, fetcher, batch, { ...mrrOptions, bufferSize: mrrBytes });
      while (scan.next()) {
        const inner = scan.row;
        const first = scan.association;
        const k = innerKey(inner);
        if (hash === null) {
          if (k === buf.key(first)) join.match(first, inner);
        } else {
          for (let r = first; r >= 0; r = hash.next(r)) if (k === buf.key(r)) join.match(r, inner);
        }
      }
    },
    () => hash?.clear(),
  );
  return addMrrCounters(stats, counters);
}
