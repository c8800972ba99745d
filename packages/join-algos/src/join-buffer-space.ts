import type { IndexReader } from '@enginekit/mrr';
import { bkaAuxBufferIncrement } from './batched-key-access.js';
import { HASH_ENTRY_BYTES, JOIN_BUFFER_SIZE_DEFAULT } from './block-nested-loop.js';
import type { RowCodec } from './codec.js';
import { joinLayout } from './internal/buffered.js';
import { checkBufferSize } from './internal/validate.js';
import { recordHeaderBytes } from './join-buffer.js';
import type { JoinType } from './types.js';

/** MariaDB 10.0's `join_buffer_space_limit` default: 2 MiB for all join buffers of one query. */
export const JOIN_BUFFER_SPACE_LIMIT_DEFAULT = 2097152;

/** One join buffer's sizes, as `JOIN_CACHE` computes them before allocating. */
export interface JoinBufferNeeds {
  /** `get_min_join_buffer_size`: one average record, one maximal record, and their extras. */
  readonly minBytes: number;
  /** `space_per_record`: an average record with its header, key entry and MRR share. */
  readonly bytesPerRecord: number;
  /** `pack_length_with_blob_ptrs`: the largest record with its header. */
  readonly maxRecordBytes: number;
  /** Rows the buffer is expected to take (`get_partial_join_cardinality`); unknown: no cap. */
  readonly expectedRecords?: number;
}

/** What {@link joinBufferNeeds} needs to know about one buffered table. */
export interface JoinBufferNeedsInput {
  /** The buffered rows' codec; its `maxByteLength` is the maximal row (required if `maxRowBytes` is not given). */
  readonly outerCodec: RowCodec<unknown>;
  readonly type: JoinType;
  readonly algorithm: 'BNL' | 'BNLH' | 'BKA' | 'BKAH';
  /** BKA / BKAH: the inner index reader (its row id length, key length and `recordsPerKey`). */
  readonly reader?: IndexReader<unknown>;
  /** Largest encoded row, bytes. Default `outerCodec.maxByteLength`. */
  readonly maxRowBytes?: number;
  /** Average encoded row, bytes (`get_used_fieldlength`). Default the maximal row. */
  readonly avgRowBytes?: number;
  /** Estimated rows of the partial join before this table. */
  readonly expectedRecords?: number;
}

/**
 * A table's join-buffer sizes for {@link allocateJoinBuffers}, after MariaDB 10.0's
 * `JOIN_CACHE::get_min_join_buffer_size` with `min_records = 1`:
 *
 *   min = (avg row + header + key entry) + (max row + header) + aux_buffer_incr(1)
 *
 * and `space_per_record = avg row + header + key entry + aux_buffer_incr(1)` (MariaDB's
 * `avg_aux_buffer_incr` is the first record's increment when `min_records` is 1). The key entry
 * is the hash entry of BNLH / BKAH ({@link HASH_ENTRY_BYTES}); `aux_buffer_incr` is BKA's MRR
 * reservation ({@link bkaAuxBufferIncrement}), 0 otherwise.
 */
export function joinBufferNeeds(input: JoinBufferNeedsInput): JoinBufferNeeds {
  const { outerCodec, type, algorithm, reader } = input;
  const maxRow = input.maxRowBytes ?? outerCodec.maxByteLength;
  if (maxRow === undefined || !Number.isFinite(maxRow) || maxRow < 0) {
    throw new RangeError(
      `joinBufferNeeds: give maxRowBytes or a codec with a finite maxByteLength, got ${String(maxRow)}`,
    );
  }
  const avgRow = input.avgRowBytes ?? maxRow;
  const keyAccess = algorithm !== 'BNL';
  const hashed = algorithm === 'BNLH' || algorithm === 'BKAH';
  const bka = algorithm === 'BKA' || algorithm === 'BKAH';
  if (bka && (reader === undefined || reader === null)) {
    throw new TypeError(`joinBufferNeeds: ${algorithm} needs the inner reader, got ${String(reader)}`);
  }
  const header = recordHeaderBytes(outerCodec, joinLayout(type, keyAccess));
  const keyEntry = hashed ? HASH_ENTRY_BYTES : 0;
  const aux1 = bka ? bkaAuxBufferIncrement(reader as IndexReader<unknown>, 1) : 0;
  const avg = avgRow + header + keyEntry;
  const maxRecordBytes = maxRow + header;
  return {
    minBytes: Math.max(1, avg + maxRecordBytes + aux1),
    bytesPerRecord: avg + aux1,
    maxRecordBytes,
    ...(input.expectedRecords !== undefined ? { expectedRecords: input.expectedRecords } : {}),
  };
}

/** The variables that size a query's join buffers (MariaDB 10.0 names and defaults). */
export interface JoinBufferSpaceOptions {
  /** `join_buffer_size`: the most one buffer may take, bytes. Default 131072. */
  readonly join_buffer_size?: number;
  /** `join_buffer_space_limit`: the most all buffers of the query may take together. Default 2097152. */
  readonly join_buffer_space_limit?: number;
  /**
   * `optimizer_switch` `optimize_join_buffer_size`: size each buffer for its expected records and
   * shrink earlier buffers so the total fits the limit. Default off (MariaDB 10.0's default):
   * every buffer is `join_buffer_size`, and a buffer that would take the total over the limit
   * is not allocated.
   */
  readonly optimize_join_buffer_size?: boolean;
}

/**
 * Size the join buffers of one query, table by table in join order, as MariaDB 10.0's
 * `JOIN_CACHE::alloc_buffer` (sql/sql_join_cache.cc) with `JOIN::shrink_join_buffers`
 * (sql/sql_select.cc) does. `needs[j]` is table j's buffer, `null` for a table without one.
 * Returns the bytes each table gets; 0 means the table gets NO join buffer (MariaDB then runs
 * it without join caching: plain nested loop, or index nested loop for `ref` access). Earlier
 * buffers shrunk to make room keep their smaller size.
 *
 * - `buff_size = get_max_join_buffer_size`: `join_buffer_size` when `optimize_join_buffer_size`
 *   is off; when on, `bytesPerRecord · max_records + maxRecordBytes` capped at
 *   `join_buffer_size` (`max_records` = expected records, at most the space limit, at least 10);
 *   never below `minBytes`.
 * - Fail (0) if the buffers' minimums together exceed `join_buffer_space_limit`, or their sizes
 *   do and the optimizer flag is off, or the shrink cannot make them fit.
 * - Shrink: each earlier buffer to `⌊size · needed / current⌋` (at least its minimum), then this
 *   one gets what is left of the limit.
 */
export function allocateJoinBuffers(
  needs: readonly (JoinBufferNeeds | null)[],
  options: JoinBufferSpaceOptions = {},
): number[] {
  if (!Array.isArray(needs)) throw new TypeError(`needs must be an array, got ${String(needs)}`);
  const space = new JoinBufferSpace(options);
  needs.forEach((n, j) => {
    if (n !== null && n !== undefined) space.allocate(n, `needs[${j}]`);
    else space.skip();
  });
  // Earlier buffers may have been shrunk to make room for later ones.
  return [...space.sizes];
}

/**
 * The join buffers of one query so far, in join order: {@link allocateJoinBuffers} one table at
 * a time, for a planner that decides each table's algorithm knowing whether the previous table
 * got a buffer (an incremental buffer needs one to link to).
 */
export class JoinBufferSpace {
  readonly #joinBufferSize: number;
  readonly #limit: number;
  readonly #optimize: boolean;
  readonly #sizes: number[] = [];
  readonly #mins: number[] = [];

  constructor(options: JoinBufferSpaceOptions = {}) {
    this.#joinBufferSize = checkBufferSize(
      'join_buffer_size',
      options.join_buffer_size ?? JOIN_BUFFER_SIZE_DEFAULT,
      128,
    );
    const limit = options.join_buffer_space_limit ?? JOIN_BUFFER_SPACE_LIMIT_DEFAULT;
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 2048) {
      throw new RangeError(`join_buffer_space_limit must be an integer ≥ 2048 bytes, got ${String(limit)}`);
    }
    this.#limit = limit;
    this.#optimize = options.optimize_join_buffer_size === true;
  }

  /** Current size of every buffer allocated so far (earlier ones may have been shrunk), 0 for none. */
  get sizes(): readonly number[] {
    return this.#sizes;
  }

  /** `JOIN_CACHE::alloc_buffer` for the next table: its buffer's bytes, or 0 for no buffer. */
  allocate(n: JoinBufferNeeds, name = 'needs'): number {
    checkNeeds(n, name);
    const sizes = this.#sizes;
    const mins = this.#mins;
    const limit = this.#limit;
    const j = sizes.length;
    const min = n.minBytes;
    const want = Math.max(
      min,
      this.#optimize ? optimizedSize(n, this.#joinBufferSize, limit) : this.#joinBufferSize,
    );
    let currMin = min;
    let curr = want;
    for (let t = 0; t < j; t++) {
      if (sizes[t]! > 0) {
        currMin += mins[t]!;
        curr += sizes[t]!;
      }
    }
    let got = 0;
    if (currMin <= limit) {
      if (curr <= limit) got = want;
      else if (this.#optimize) got = shrink(sizes, mins, j, min, curr, limit);
    }
    sizes.push(got);
    mins.push(got > 0 ? min : 0);
    return got;
  }

  /** A table without a join buffer (keeps positions aligned with the join order). */
  skip(): void {
    this.#sizes.push(0);
    this.#mins.push(0);
  }
}

/** `get_max_join_buffer_size(optimize_buff_size = true)`. */
function optimizedSize(n: JoinBufferNeeds, limitSize: number, spaceLimit: number): number {
  let records = Math.floor(n.expectedRecords ?? spaceLimit);
  if (records > spaceLimit) records = spaceLimit;
  if (records < 10) records = 10;
  let size = Math.floor(limitSize / records) > n.bytesPerRecord ? n.bytesPerRecord * records : limitSize;
  size += n.maxRecordBytes;
  return Math.min(size, limitSize);
}

/**
 * `JOIN::shrink_join_buffers(jt, curr_space, needed_space)`: shrink every earlier buffer in the
 * ratio needed / current, then give table j what is left. Returns table j's size, or 0 when a
 * buffer would fall below its minimum (earlier buffers keep what was already done to them).
 */
function shrink(
  sizes: number[],
  mins: number[],
  j: number,
  min: number,
  curr: number,
  needed: number,
): number {
  for (let t = 0; t < j; t++) {
    if (sizes[t]! === 0) continue;
    if (needed < mins[t]!) return 0;
    // shrink_join_buffer_in_ratio(curr_space, needed_space)
    if (curr >= needed) sizes[t] = Math.max(mins[t]!, Math.floor((sizes[t]! / curr) * needed));
    curr -= sizes[t]!;
    needed -= sizes[t]!;
  }
  if (needed < min) return 0;
  return needed;
}

function checkNeeds(n: JoinBufferNeeds, name: string): void {
  if (typeof n !== 'object' || n === null) throw new TypeError(`${name} must be an object, got ${String(n)}`);
  for (const k of ['minBytes', 'bytesPerRecord', 'maxRecordBytes'] as const) {
    const v = n[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(`${name}.${k} must be a non-negative integer, got ${String(v)}`);
    }
  }
}
