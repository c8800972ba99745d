import { BkaJoinCache } from '@enginekit/join-algos';
import { createMrrCounters } from '@enginekit/mrr';
import { HandlerIndexReader, HandlerRowFetcher } from '../handler/index-reader.js';
import { flushMrrCounters } from '../handler/multi-range.js';
import type { PlannedStage } from './planned-stage.js';
import type { Frame, RunState } from './scope.js';
import type { RowBuffer } from '../storage/row.js';
import type { FieldValue } from '../storage/types.js';
import { entryCheck, recordCheck } from './index-read.js';
import { joinRecordLength } from './join-record.js';
import { keyValue, rowDecoder } from './pipeline.js';
import type { StatusCounters } from './status.js';
import { truthOf } from './truth.js';

/** What a BKA stage needs beside the pipeline's state. */
export interface BkaStageOptions {
  /** The stage's join buffer, bytes (the planner's grant). */
  readonly bufferBytes: number;
  /** The session's `join_buffer_size`: an incremental record's link is as wide as it needs. */
  readonly joinBufferSize: number;
  /**
   * Called after each fill is joined: joins the next stage's buffer when its records link to
   * this one's (an incremental buffer), as MariaDB must before it empties this buffer.
   */
  readonly joinNext: () => boolean;
}

/** A byte key's identity for chaining equal keys: its bytes as a latin1 string. */
const keyIdentity = (k: Uint8Array): string =>
  Buffer.from(k.buffer, k.byteOffset, k.length).toString('latin1');

/**
 * A `ref` stage joined by Batched Key Access (MariaDB's JOIN_CACHE_BKA / JOIN_CACHE_BKAH) through
 * join-algos' {@link BkaJoinCache}: each partial row of the stages before is kept as a record of
 * the stage's join buffer (`bufferBytes`), charged the bytes MariaDB's record would take
 * ({@link joinRecordLength}); when the buffer is full (and at the end) the records' keys go to the
 * inner index as one multi-range read whose buffer is the join buffer's tail. Each inner row is
 * checked against its record's conditions with the record restored, so the rows are the nested
 * loop's (in another order); a LEFT JOIN's unmatched records are NULL-extended after the fill.
 *
 * A condition pushed to the index: on this table's columns alone it is checked by the reader on
 * each entry ("Using index condition"); reading earlier tables too ("Using index condition(BKA)")
 * it is checked per buffered record wanting the entry, and an entry no record accepts costs no
 * row read. Its records are sent one range per distinct key for that (BKA as well as BKAH).
 */
export function batchedKeyStage(
  st: PlannedStage,
  k: number,
  stages: readonly PlannedStage[],
  frame: Frame,
  run: RunState,
  status: StatusCounters,
  next: () => boolean,
  options: BkaStageOptions,
): { push: () => boolean; flush: () => boolean } {
  const access = st.access;
  if (access.kind !== 'ref') throw new RangeError('batched key access needs a ref access');
  const src = st.src;
  const table = src.table!;
  const join = st.join!;
  const hashed = join.algorithm === 'BKAH';
  const index = table.index(access.index);
  const match = st.match.map(truthOf);
  const post = st.post.map(truthOf);
  const left = src.joinType === 'left';
  const off = src.offset;
  const width = src.columns.length;
  const keys = access.keys;
  const kev = keys.map((p) => p.expr.ev);
  const dec = rowDecoder(src, frame);
  const ir = st.indexRead;
  const pushed = ir !== undefined && ir.pushed.length > 0;
  // "Using index condition": this table's columns only, checked by the reader per entry
  const icp = pushed && !ir.otherTables ? entryCheck(st, frame, status) : undefined;
  // "Using index condition(BKA)": checked per record wanting the entry, and again on the row
  const perRecord = pushed && ir.otherTables ? recordCheck(st, frame) : undefined;
  const recheck = perRecord !== undefined ? ir!.pushed.map(truthOf) : [];
  let cache: BkaJoinCache<unknown[], RowBuffer | null, Uint8Array> | null = null;
  const wanting: unknown[][] = [];
  const ids: number[] = [];
  // the reader checks each entry before its row id is kept; for "(BKA)" the records its range
  // stands for (the association) are restored in turn, and one accepting it is enough
  const reader: HandlerIndexReader = new HandlerIndexReader(table, index, {
    recordsPerKey: join.recordsPerKey ?? 1,
    unique: index.unique && keys.length >= index.columns.length,
    check:
      icp?.check != null
        ? icp.check
        : perRecord !== undefined
          ? (b, ko, kl) => {
              wanting.length = 0;
              ids.length = 0;
              cache!.recordsOf(reader.association, (rec) => {
                ids.push(wanting.length);
                wanting.push(rec);
              });
              const saved = frame.v;
              const ok = perRecord(b, ko, kl, wanting, ids).length > 0;
              frame.v = saved;
              return ok;
            }
          : null,
  });
  const { joinNext } = options;
  const counters = createMrrCounters();
  const length = joinRecordLength(
    stages.map((s) => s.src),
    k,
    join.incremental,
    options.joinBufferSize,
    left,
  );
  const conditionsHold = (): boolean => {
    for (const m of match) if (m() !== true) return false;
    for (const m of recheck) if (m() !== true) return false;
    return true;
  };
  const postOk = (): boolean => {
    for (const m of post) if (m() !== true) return false;
    return true;
  };
  cache = new BkaJoinCache<unknown[], RowBuffer | null, Uint8Array>({
    reader,
    fetcher: new HandlerRowFetcher(table),
    join_buffer_size: options.bufferBytes,
    ...(join.keyLength !== undefined ? { keyLength: join.keyLength } : {}),
    hashed,
    type: left ? 'left' : 'inner',
    recordBytes: length.bytes,
    maxRecordBytes: length.maxBytes,
    keyIdentity,
    groupKeys: perRecord !== undefined,
    mrr_sort_keys: join.keyOrdered,
    sortRowIds: join.rowidOrdered && !index.primary,
    counters,
    poll: () => run.interrupt.poll(),
    onJoined: joinNext,
    matches: (rec, row) => {
      // a row the read no longer sees (deleted since its entry was read) matches nothing
      if (row === null) return false;
      frame.v = rec;
      dec(row);
      return conditionsHold();
    },
    emit: (rec, row) => {
      if (row === null) {
        frame.v = rec;
        for (let c = 0; c < width; c++) rec[off + c] = null;
      }
      return !postOk() || next();
    },
  });
  const c = cache;
  const prefix: FieldValue[] = new Array(keys.length);
  const flush = (): boolean => {
    const saved = frame.v;
    try {
      return c.flush();
    } finally {
      icp?.flush();
      flushMrrCounters(table, counters, status);
      frame.v = saved;
    }
  };
  const push = (): boolean => {
    let key: Uint8Array | null = null;
    let i = 0;
    for (; i < keys.length; i++) {
      const kv = keyValue(src, keys[i]!.column, keys[i]!.expr, kev[i]!());
      if (kv === undefined) break;
      prefix[i] = kv;
    }
    if (i === keys.length) key = table.keyPrefix(access.index, prefix);
    const saved = frame.v;
    try {
      return c.put(frame.v.slice(), key);
    } finally {
      icp?.flush();
      flushMrrCounters(table, counters, status);
      frame.v = saved;
    }
  };
  return { push, flush };
}
