import { compareKeys } from '@enginekit/btree-sampler';
import type { PlannedStage } from './planned-stage.js';
import type { Frame, RunState } from './scope.js';
import type { RowBuffer } from '../storage/row.js';
import type { FieldValue } from '../storage/types.js';
import { entryCheck, recordCheck } from './index-read.js';
import { prefixRange } from './key-range.js';
import { keyValue, rowDecoder } from './pipeline.js';
import type { StatusCounters } from './status.js';
import { truthOf } from './truth.js';

/** Bytes a frame snapshot takes in the join buffer: 8 per number, the length of a string. */
function snapshotBytes(v: readonly unknown[], slots: readonly number[]): number {
  let b = 8;
  for (const s of slots) {
    const x = v[s];
    b += x === null || x === undefined ? 1 : typeof x === 'string' ? 2 + x.length : 8;
  }
  return b;
}

function compareValues(a: readonly FieldValue[], b: readonly FieldValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number | string;
    const y = b[i] as number | string;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/**
 * A `ref` stage joined by Batched Key Access (MariaDB's JOIN_CACHE_BKA / JOIN_CACHE_BKAH): partial
 * rows from the stages before are kept in a join buffer of `bufferBytes`; when it is full (and at
 * the end) their lookup keys go to the index as one multi-range read. Key-ordered: the keys are
 * sorted first (MRR's key-ordered scan); BKAH looks each distinct key up once (the buffer's hash
 * table groups equal keys). Rowid-ordered (a secondary index): the primary keys of all matches are
 * gathered and sorted, and the rows fetched in primary-key order. Each match is checked against
 * the stage's conditions with its partial row restored, so the rows are exactly the nested loop's
 * (in another order); a LEFT JOIN's unmatched partial rows are NULL-extended after the lookups.
 */
export function batchedKeyStage(
  st: PlannedStage,
  k: number,
  stages: readonly PlannedStage[],
  frame: Frame,
  run: RunState,
  status: StatusCounters,
  next: () => boolean,
  bufferBytes: number,
): { push: () => boolean; flush: () => boolean } {
  const access = st.access;
  if (access.kind !== 'ref') throw new RangeError('batched key access needs a ref access');
  const src = st.src;
  const table = src.table!;
  const join = st.join!;
  const hashed = join.algorithm === 'BKAH';
  const index = table.index(access.index);
  const rowidOrdered = join.rowidOrdered && !index.primary;
  const match = st.match.map(truthOf);
  const post = st.post.map(truthOf);
  const left = src.joinType === 'left';
  const off = src.offset;
  const width = src.columns.length;
  const keys = access.keys;
  const kev = keys.map((p) => p.expr.ev);
  const slots: number[] = [];
  for (let j = 0; j < k; j++) for (const c of stages[j]!.src.used) slots.push(stages[j]!.src.offset + c);
  let records: unknown[][] = [];
  let recordKeys: Array<FieldValue[] | null> = [];
  let bytes = 0;
  let matchedFlags: Uint8Array = new Uint8Array(0);
  const saved = { v: frame.v };
  const STOP = {};
  const dec = rowDecoder(src, frame);
  // an index condition on this table's columns, checked on each entry before its row is read
  const ir = st.indexRead;
  const icp =
    ir !== undefined && ir.pushed.length > 0 && !ir.otherTables ? entryCheck(st, frame, status) : undefined;
  // "Using index condition(BKA)": the condition reads earlier tables, so each entry is checked
  // with every buffered record of its key restored (MariaDB's JOIN_CACHE_BKA::skip_index_tuple);
  // an entry no record accepts costs no row read
  const perRecord =
    ir !== undefined && ir.pushed.length > 0 && ir.otherTables ? recordCheck(st, frame) : undefined;
  let passing: number[] = [];
  let groupIds: readonly number[] = [];
  const recordEntry = (b: Uint8Array, ko: number, kl: number): boolean => {
    passing = perRecord!(b, ko, kl, records, groupIds);
    return passing.length > 0;
  };
  const entryOk = icp !== undefined ? icp.check : perRecord !== undefined ? recordEntry : null;
  const check = (): boolean => {
    for (const m of match) if (m() !== true) return false;
    return true;
  };
  const postOk = (): boolean => {
    for (const m of post) if (m() !== true) return false;
    return true;
  };
  /** One inner row for the outer records `ids`: restore each, check, go on. */
  let row: RowBuffer | null = null;
  const deliver = (ids: readonly number[]): void => {
    for (const o of ids) {
      run.interrupt.poll();
      frame.v = records[o]!;
      dec(row!);
      if (!check()) continue;
      matchedFlags[o] = 1;
      if (!postOk()) continue;
      if (!next()) throw STOP;
    }
  };
  const flush = (): boolean => {
    if (records.length === 0) return true;
    const n = records.length;
    matchedFlags = new Uint8Array(n);
    saved.v = frame.v;
    status.add('Handler_mrr_init', 1);
    // the lookup order: records grouped by key (BKAH), sorted by key when key-ordered
    const ids: number[] = [];
    for (let o = 0; o < n; o++) if (recordKeys[o] !== null) ids.push(o);
    if (join.keyOrdered || hashed) ids.sort((a, b) => compareValues(recordKeys[a]!, recordKeys[b]!) || a - b);
    const groups: number[][] = [];
    for (const o of ids) {
      const g = groups.at(-1);
      if (hashed && g !== undefined && compareValues(recordKeys[g[0]!]!, recordKeys[o]!) === 0) g.push(o);
      else groups.push([o]);
    }
    try {
      if (rowidOrdered) {
        const pairs: Array<[Uint8Array, number[]]> = [];
        for (const g of groups) {
          const key = recordKeys[g[0]!]!;
          if (entryOk === null)
            table.prefixRowids(access.index, key, (pk) => void pairs.push([pk.slice(), g]));
          else {
            groupIds = g;
            table.rowidsInRanges(access.index, [prefixRange(table, access.index, key)], entryOk, (pk) => {
              pairs.push([pk.slice(), perRecord === undefined ? g : passing]);
              return true;
            });
          }
        }
        pairs.sort((a, b) => compareKeys(a[0], b[0]));
        for (const [pk, g] of pairs)
          table.fetchRowid(pk, (r) => {
            row = r;
            deliver(g);
          });
      } else {
        for (const g of groups) {
          const key = recordKeys[g[0]!]!;
          const each = (r: RowBuffer | null): boolean => {
            row = r;
            deliver(perRecord === undefined ? g : passing);
            return true;
          };
          groupIds = g;
          if (entryOk === null) table.lookup(access.index, key, each);
          else table.readRanges(access.index, [prefixRange(table, access.index, key)], entryOk, false, each);
        }
      }
      if (left) {
        for (let o = 0; o < n; o++) {
          if (matchedFlags[o] === 1) continue;
          frame.v = records[o]!;
          for (let c = 0; c < width; c++) frame.v[off + c] = null;
          if (postOk() && !next()) throw STOP;
        }
      }
    } catch (e) {
      if (e === STOP) return false;
      throw e;
    } finally {
      icp?.flush();
      frame.v = saved.v;
      records = [];
      recordKeys = [];
      bytes = 0;
    }
    return true;
  };
  const push = (): boolean => {
    const snap = frame.v.slice();
    let key: FieldValue[] | null = [];
    for (let i = 0; i < keys.length; i++) {
      const kv = keyValue(src, keys[i]!.column, keys[i]!.expr, kev[i]!());
      if (kv === undefined) {
        key = null;
        break;
      }
      key.push(kv);
    }
    records.push(snap);
    recordKeys.push(key);
    bytes += snapshotBytes(snap, slots);
    if (bytes >= bufferBytes) return flush();
    return true;
  };
  return { push, flush };
}
