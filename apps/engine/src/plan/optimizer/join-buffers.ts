import { chooseJoinCache, type JoinCacheChoice, JoinBufferSpace } from '@enginekit/join-algos';
import type { StageJoin } from '../../exec/planned-stage.js';
import type { OptimizerSettings } from './settings.js';

/** A stage as the join-buffer pass sees it. */
export interface BufferCandidate {
  readonly access: 'ALL' | 'ref' | 'eq_ref' | 'hash';
  readonly outerJoinInner: boolean;
  readonly clusteredKey: boolean;
  /** Bytes of one partial row before this stage (the buffered record). */
  readonly recordBytes: number;
  /** Partial rows expected before this stage. */
  readonly expectedRecords: number;
  /** The stage takes no join buffer whatever the level (a range read inside a join). */
  readonly unbuffered?: boolean;
  /** A `ref` stage that BKA could read: what MariaDB sizes a BKA buffer by. */
  readonly bka?: BkaSizing;
}

/** A BKA buffer's sizes as MariaDB reckons them (`JOIN_CACHE_BKA`, `JOIN_TAB_SCAN_MRR`). */
export interface BkaSizing {
  /** The longest record of a flat or an incremental buffer (`pack_length`), bytes. */
  readonly recordBytes: (incremental: boolean) => number;
  /** `ref.key_length`: bytes of the lookup key. */
  readonly keyLength: number;
  /** `ref_length`: bytes of the inner table's row reference (its primary key). */
  readonly refLength: number;
  /** `rec_per_key` of the key prefix looked up. */
  readonly recordsPerKey: number;
}

/**
 * `JOIN_TAB_SCAN_MRR::aux_buffer_incr(1)`: the first record's MRR share, MariaDB's
 * `avg_aux_buffer_incr` when the buffer must hold one record: the key and a row reference, and
 * `(ref_length + 8) · rec_per_key` (InnoDB's `mrr_length_per_rec`).
 */
function bkaFirstIncrement(b: BkaSizing): number {
  return b.keyLength + b.refLength + (b.refLength + 8) * Math.max(1, Math.floor(b.recordsPerKey));
}

const NONE: StageJoin = {
  algorithm: 'none',
  incremental: false,
  bufferBytes: 0,
  keyOrdered: false,
  rowidOrdered: false,
};

/** Per join buffer record: MariaDB's record header (length + flags), bytes. */
const RECORD_HEADER = 8;
/** A hash table entry of BNLH/BKAH, bytes (join-algos' HASH_ENTRY_BYTES). */
const HASH_ENTRY = 16;

/**
 * Join buffers for a join order as MariaDB's `check_join_cache_usage` and
 * `JOIN_CACHE::alloc_buffer`: join-algos' `chooseJoinCache` picks BNL/BNLH/BKA/BKAH from
 * `join_cache_level` and the `optimizer_switch` flags; the buffers of one query then share
 * `join_buffer_space_limit` (sized for their expected records and shrunk when
 * `optimize_join_buffer_size` is on), and a table whose minimum no longer fits gets no buffer.
 */
export function planBuffers(
  stages: readonly BufferCandidate[],
  settings: OptimizerSettings,
): Array<{ join: StageJoin; choice: JoinCacheChoice | undefined }> {
  const sw = settings.switches;
  const switches = {
    join_cache_incremental: sw.join_cache_incremental !== false,
    join_cache_hashed: sw.join_cache_hashed !== false,
    join_cache_bka: sw.join_cache_bka !== false,
    outer_join_with_cache: sw.outer_join_with_cache !== false,
    semijoin_with_cache: sw.semijoin_with_cache !== false,
    mrr: sw.mrr === true,
    mrr_cost_based: sw.mrr_cost_based === true,
    mrr_sort_keys: sw.mrr_sort_keys === true,
  };
  const space = new JoinBufferSpace({
    join_buffer_size: settings.join_buffer_size,
    join_buffer_space_limit: settings.join_buffer_space_limit,
    optimize_join_buffer_size: sw.optimize_join_buffer_size === true,
  });
  const out: Array<{ join: StageJoin; choice: JoinCacheChoice | undefined }> = [];
  let prevCached = false;
  for (const [j, st] of stages.entries()) {
    if (st.unbuffered === true) {
      space.skip();
      out.push({ join: NONE, choice: undefined });
      prevCached = false;
      continue;
    }
    const choice = chooseJoinCache(
      settings.join_cache_level,
      {
        access: st.access,
        first: j === 0,
        prevCached,
        outerJoinInner: st.outerJoinInner,
        clusteredKey: st.clusteredKey,
      },
      switches,
    );
    if (choice.algorithm === 'none') {
      space.skip();
      out.push({ join: NONE, choice: undefined });
      prevCached = false;
      continue;
    }
    const hashed = choice.algorithm === 'BNLH' || choice.algorithm === 'BKAH';
    const bka = choice.algorithm === 'BKA' || choice.algorithm === 'BKAH';
    let rec = st.recordBytes + RECORD_HEADER;
    let aux = 0;
    // BKA as JOIN_CACHE::get_min_join_buffer_size / get_max_join_buffer_size reckon it: the
    // record's packed length, and the first record's MRR share for every record
    if (bka) {
      if (st.bka === undefined) throw new RangeError(`stage ${j}: a BKA buffer needs the ref's sizes`);
      rec = st.bka.recordBytes(choice.incremental);
      aux = bkaFirstIncrement(st.bka);
    }
    const perRecord = rec + (hashed ? HASH_ENTRY : 0) + aux;
    const bytes = space.allocate(
      {
        minBytes: perRecord + rec,
        bytesPerRecord: perRecord,
        maxRecordBytes: rec,
        expectedRecords: Math.max(1, Math.ceil(st.expectedRecords)),
      },
      `stage ${j}`,
    );
    if (bytes === 0) {
      out.push({ join: NONE, choice: undefined });
      prevCached = false;
      continue;
    }
    out.push({
      join: {
        algorithm: choice.algorithm,
        incremental: choice.incremental,
        bufferBytes: bytes,
        keyOrdered: choice.keyOrdered,
        rowidOrdered: choice.rowidOrdered,
        ...(bka && st.bka !== undefined
          ? { keyLength: st.bka.keyLength, recordsPerKey: st.bka.recordsPerKey }
          : {}),
      },
      choice,
    });
    prevCached = true;
  }
  // earlier buffers may have been shrunk for later ones
  const sizes = space.sizes;
  return out.map((o, j) =>
    o.join.algorithm === 'none' || o.join.bufferBytes === sizes[j]
      ? o
      : { ...o, join: { ...o.join, bufferBytes: sizes[j]! } },
  );
}
