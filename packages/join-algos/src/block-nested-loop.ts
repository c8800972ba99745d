import type { RowCodec } from './codec.js';
import { BufferedJoin } from './internal/buffered.js';
import { KeyHash } from './internal/key-hash.js';
import { checkSpec, countingEmit } from './internal/spec.js';
import { checkSource } from './internal/validate.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, JoinSpec, RowSource } from './types.js';

/** Options of the join-buffer operators (BNL, BNLH, BKA, BKAH). */
export interface JoinBufferOptions<O> {
  /** How outer rows are packed into the join buffer. */
  outerCodec: RowCodec<O>;
  /**
   * `join_buffer_size` in bytes: this join's buffer (what {@link allocateJoinBuffers} granted
   * it when several buffers share `join_buffer_space_limit`). Default
   * {@link JOIN_BUFFER_SIZE_DEFAULT} (MariaDB 10.0: 128 KiB).
   */
  join_buffer_size?: number;
}

/** MariaDB 10.0's `join_buffer_size` default, bytes (MySQL 5.6: 262144). */
export const JOIN_BUFFER_SIZE_DEFAULT = 131072;

/** A block join whose inner side is rescanned once per buffer fill. */
export interface BlockJoinSpec<O, I> extends JoinSpec<O, I>, JoinBufferOptions<O> {
  inner: RowSource<I>;
}

/**
 * Bytes a hashed join buffer charges per record for its hash table (a 4-byte chain link and
 * about 8 bytes of key entry / bucket, cf. MariaDB's `hash_entries = records / 0.7` at the
 * buffer's end).
 */
export const HASH_ENTRY_BYTES = 12;

/**
 * Block nested loop (BNL, `join_cache_level` 1–2): fill the join buffer with outer records, then
 * scan the inner table ONCE and compare every inner row with every buffered record. Inner scans =
 * buffer fills, instead of one per outer row.
 */
export function blockNestedLoopJoin<O, I>(spec: BlockJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  checkSource('spec.inner', spec.inner);
  const stats = createJoinStats();
  const join = new BufferedJoin(
    spec,
    spec.outerCodec,
    spec.join_buffer_size ?? JOIN_BUFFER_SIZE_DEFAULT,
    false,
    {},
    countingEmit(emit, stats),
    stats,
  );
  const { inner, innerKey } = spec;
  const buf = join.buffer;
  join.run(
    () => {},
    () => {
      inner.rewind();
      stats.innerScans++;
      for (;;) {
        stats.Handler_read_rnd_next++;
        const i = inner.next();
        if (i === undefined) break;
        const k = innerKey(i);
        if (k === null) continue;
        const n = buf.count;
        for (let r = 0; r < n; r++) if (buf.key(r) === k) join.match(r, i);
      }
    },
    () => {},
  );
  return stats;
}

/**
 * Block nested loop hash (BNLH, `join_cache_level` 3–4): as BNL, but the buffered records are
 * chained by key in a hash table kept inside the buffer's budget ({@link HASH_ENTRY_BYTES} per
 * record), so each inner row visits only the records with its key. The inner table is still
 * scanned once per buffer fill.
 */
export function blockNestedLoopHashJoin<O, I>(spec: BlockJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  checkSource('spec.inner', spec.inner);
  const stats = createJoinStats();
  const join = new BufferedJoin(
    spec,
    spec.outerCodec,
    spec.join_buffer_size ?? JOIN_BUFFER_SIZE_DEFAULT,
    true,
    { perRecord: HASH_ENTRY_BYTES },
    countingEmit(emit, stats),
    stats,
  );
  const { inner, innerKey } = spec;
  const hash = new KeyHash();
  join.run(
    (r, k) => hash.add(k, r),
    () => {
      inner.rewind();
      stats.innerScans++;
      for (;;) {
        stats.Handler_read_rnd_next++;
        const i = inner.next();
        if (i === undefined) break;
        const k = innerKey(i);
        if (k === null) continue;
        for (let r = hash.head(k); r >= 0; r = hash.next(r)) join.match(r, i);
      }
    },
    () => hash.clear(),
  );
  return stats;
}
