import {
  createMrrCounters,
  createMultiRangeRead,
  type IndexReader,
  type MrrCounters,
  type MrrKeyRange,
  type RowFetcher,
} from '@enginekit/mrr';
import { HASH_ENTRY_BYTES, JOIN_BUFFER_SIZE_DEFAULT, type JoinBufferOptions } from './block-nested-loop.js';
import { BufferedJoin } from './internal/buffered.js';
import { KeyHash } from './internal/key-hash.js';
import { checkSpec, countingEmit } from './internal/spec.js';
import { checkBufferSize } from './internal/validate.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, JoinKey, JoinSpec } from './types.js';

/** MRR settings a BKA join passes through (MariaDB names). */
export interface BkaMrrOptions {
  /** `optimizer_switch` `mrr_sort_keys`: Key-ordered scan (needs `reader.compareKeys`). Default false. */
  mrr_sort_keys?: boolean;
  /** Rowid-ordered scan; `false` for a clustered-key or index-only inner access. Default true. */
  sortRowIds?: boolean;
  /**
   * Bytes MRR may use per batch. Default: what the join buffer has left after the records, at
   * least {@link MIN_BKA_MRR_BUFFER} (MariaDB carves the MRR buffer out of the join buffer's
   * tail, reserving `ref_length + 8` bytes per record, §5.4 of the reference).
   */
  mrrBufferSize?: number;
}

/** A BKA / BKAH join: the inner side is an MRR index reader and row fetcher (`@enginekit/mrr`). */
export interface BkaJoinSpec<O, I, K> extends JoinSpec<O, I>, JoinBufferOptions<O>, BkaMrrOptions {
  /** Secondary-index cursor of the inner table; keys are the outer rows' join keys. */
  reader: IndexReader<K>;
  /** Row id → inner row. */
  fetcher: RowFetcher<I>;
}

/** Bytes of one (numeric row id, association) MRR entry: 8 + 8. */
export const MRR_BYTES_PER_RECORD = 16;
/** The least MRR buffer a BKA batch is given, in bytes. */
export const MIN_BKA_MRR_BUFFER = 256;

/**
 * Batched Key Access (BKA, `join_cache_level` 5–6): fill the join buffer with outer records,
 * then hand their keys to multi-range read, each with its record number as the association
 * (MariaDB `bka_range_seq_next`, range_id = the record's buffer position). Every returned inner
 * row is checked against exactly the record it was asked for. With a rowid-ordered MRR the inner
 * rows come back in primary-key order: sequential page reads instead of one random lookup per
 * outer row. `Handler_read_key/_next/_rnd` come from MRR's counters.
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
  if (spec.mrrBufferSize !== undefined)
    checkBufferSize('mrrBufferSize', spec.mrrBufferSize, MIN_BKA_MRR_BUFFER);
  const stats = createJoinStats();
  const rpk = Math.max(1, Math.floor(reader.recordsPerKey ?? 1));
  const aux = MRR_BYTES_PER_RECORD * rpk + (hashed ? HASH_ENTRY_BYTES : 0);
  const join = new BufferedJoin(
    spec,
    spec.outerCodec,
    spec.joinBufferSize ?? JOIN_BUFFER_SIZE_DEFAULT,
    aux,
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
      const free = buf.sizeBytes - buf.usedBytes - (hashed ? buf.count * HASH_ENTRY_BYTES : 0);
      const scan = createMultiRangeRead(reader, fetcher, batch, {
        ...mrrOptions,
        mrr_buffer_size: spec.mrrBufferSize ?? Math.max(MIN_BKA_MRR_BUFFER, free),
      });
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
  stats.Handler_read_key += counters.Handler_read_key;
  stats.Handler_read_next += counters.Handler_read_next;
  stats.Handler_read_rnd += counters.Handler_read_rnd;
  stats.Handler_mrr_init += counters.Handler_mrr_init;
  stats.Handler_mrr_key_refills += counters.Handler_mrr_key_refills;
  stats.Handler_mrr_rowid_refills += counters.Handler_mrr_rowid_refills;
  return stats;
}
