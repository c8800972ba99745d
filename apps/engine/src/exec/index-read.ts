import { compareKeys } from '@enginekit/btree-sampler';
import type { Bound } from './bound.js';
import type { PlannedStage } from './planned-stage.js';
import type { Frame } from './scope.js';
import type { RowBuffer } from '../storage/row.js';
import type { KeyRange, Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { entryDecoder } from './index-entry.js';
import { boundsRange, keyRangeOf, orderedRanges, prefixRange } from './key-range.js';
import { keyValue, rowDecoder } from './pipeline.js';
import type { StatusCounters } from './status.js';
import { truthOf } from './truth.js';

/** What the pipeline lends an index-read stage: reset its match flag, pass a row on, finish (LEFT JOIN). */
export interface StageHooks {
  readonly begin: () => void;
  readonly emit: () => boolean;
  readonly finish: () => boolean;
}

/** An entry check that counts as MariaDB's `handler_index_cond_check`: attempts and matches. */
export interface EntryCheck {
  /** Null when an entry needs neither decoding nor checking (COUNT(*) over an index). */
  readonly check: ((b: Uint8Array, ko: number, kl: number) => boolean) | null;
  /** Adds the attempts and matches since the last call to the status counters. */
  readonly flush: () => void;
}

/**
 * The per-entry work of a stage's {@link PlannedStage.indexRead}: decode the entry's columns into
 * the frame and, for a pushed index condition, evaluate it there (Handler_icp_attempts per entry,
 * Handler_icp_match per entry that passes). A covering read decodes every used column and accepts
 * every entry.
 */
export function entryCheck(st: PlannedStage, frame: Frame, status: StatusCounters): EntryCheck {
  const ir = st.indexRead!;
  const table = st.src.table!;
  const ix = table.index(ir.index);
  const decode = entryDecoder(st.src, ix, frame, ir.entryColumns);
  if ((ir.covering || ir.pushed.length === 0) && !ix.entryColumns.some((c) => ir.entryColumns.has(c)))
    return { check: null, flush: () => {} };
  if (ir.covering || ir.pushed.length === 0)
    return {
      check: (b, ko, kl) => {
        decode(b, ko, kl);
        return true;
      },
      flush: () => {},
    };
  const conds = ir.pushed.map(truthOf);
  const n = conds.length;
  let attempts = 0;
  let matches = 0;
  return {
    check: (b, ko, kl) => {
      attempts++;
      decode(b, ko, kl);
      for (let i = 0; i < n; i++) if (conds[i]!() !== true) return false;
      matches++;
      return true;
    },
    flush: () => {
      if (attempts > 0) status.add('Handler_icp_attempts', attempts);
      if (matches > 0) status.add('Handler_icp_match', matches);
      attempts = 0;
      matches = 0;
    },
  };
}

/**
 * A pushed condition that reads earlier tables, for a BKA stage: checks one entry against each
 * buffered partial row in `ids` (restored into the frame in turn) and returns those it accepts.
 * The caller restores the frame afterwards.
 */
export function recordCheck(
  st: PlannedStage,
  frame: Frame,
): (
  b: Uint8Array,
  ko: number,
  kl: number,
  records: readonly unknown[][],
  ids: readonly number[],
) => number[] {
  const ir = st.indexRead!;
  const decode = entryDecoder(st.src, st.src.table!.index(ir.index), frame, ir.entryColumns);
  const conds = ir.pushed.map(truthOf);
  const n = conds.length;
  return (b, ko, kl, records, ids) => {
    const out: number[] = [];
    next: for (const o of ids) {
      frame.v = records[o]!;
      decode(b, ko, kl);
      for (let i = 0; i < n; i++) if (conds[i]!() !== true) continue next;
      out.push(o);
    }
    return out;
  };
}

const ALL: readonly KeyRange[] = [
  { lo: new Uint8Array(0), loExclusive: false, hi: null, hiInclusive: true, unique: false },
];

/**
 * A ref, range or full-index-scan stage whose index read has an index condition pushed to it or
 * is covering (see {@link PlannedStage.indexRead}): the entries go through {@link entryCheck}, and
 * only those it accepts cost a clustered lookup — none for a covering read. A range under DS-MRR
 * gathers the accepted entries' row ids, sorts them and fetches in primary-key order, as MariaDB
 * pushes the condition below its MRR scan.
 */
export function indexReadStep(
  st: PlannedStage,
  k: number,
  frame: Frame,
  status: StatusCounters,
  hooks: StageHooks,
): () => boolean {
  const src = st.src;
  const table = src.table!;
  const ir = st.indexRead!;
  const access = st.access;
  const ec = entryCheck(st, frame, status);
  const check = ec.check;
  const dec = rowDecoder(src, frame);
  const indexOnly = ir.covering;
  let stop = false;
  const onRow = (r: RowBuffer | null): boolean => {
    if (r !== null) dec(r);
    if (!hooks.emit()) {
      stop = true;
      return false;
    }
    return true;
  };
  const read = (ranges: readonly KeyRange[], fullScan: boolean): boolean => {
    stop = false;
    try {
      table.readRanges(ir.index, ranges, check, indexOnly, onRow, fullScan);
    } finally {
      ec.flush();
    }
    if (stop) return false;
    return hooks.finish();
  };
  if (access.kind === 'scan')
    return () => {
      hooks.begin();
      if (k === 0) status.add('Select_scan', 1);
      return read(ALL, true);
    };
  if (access.kind === 'ref') {
    const keys = access.keys;
    const kev = keys.map((p) => p.expr.ev);
    const prefix: FieldValue[] = new Array(keys.length);
    return () => {
      hooks.begin();
      for (let i = 0; i < keys.length; i++) {
        const kv = keyValue(src, keys[i]!.column, keys[i]!.expr, kev[i]!());
        if (kv === undefined) return hooks.finish();
        prefix[i] = kv;
      }
      return read([prefixRange(table, access.index, prefix)], false);
    };
  }
  if (access.kind !== 'range') throw new RangeError(`an index read cannot serve a ${access.kind} access`);
  const intervals = access.intervals;
  if (intervals !== undefined) {
    const ix = table.index(access.index);
    const now = (b: Bound): unknown => b.ev();
    const mrr = st.mrrBufferBytes;
    return () => {
      hooks.begin();
      const ranges: KeyRange[] = [];
      for (const iv of intervals) {
        const r = keyRangeOf(src, ix, iv, now);
        if (r !== null) ranges.push(r);
      }
      if (ranges.length === 0) return hooks.finish();
      if (k === 0) status.add('Select_range', 1);
      const ordered = orderedRanges(ranges);
      if (mrr === undefined || indexOnly) return read(ordered, false);
      status.add('Handler_mrr_init', 1);
      stop = false;
      try {
        rowidOrdered(table, ir.index, ordered, check, mrr, onRow, () =>
          status.add('Handler_mrr_rowid_refills', 1),
        );
      } finally {
        ec.flush();
      }
      if (stop) return false;
      return hooks.finish();
    };
  }
  const loEv = access.lo?.expr.ev;
  const hiEv = access.hi?.expr.ev;
  const mrrBytes = st.mrrBufferBytes;
  return () => {
    hooks.begin();
    let lo: FieldValue | undefined;
    let hi: FieldValue | undefined;
    if (loEv !== undefined) {
      const v = loEv();
      if (v === null) return hooks.finish();
      lo = keyValue(src, access.column, access.lo!.expr, v);
    }
    if (hiEv !== undefined) {
      const v = hiEv();
      if (v === null) return hooks.finish();
      hi = keyValue(src, access.column, access.hi!.expr, v);
    }
    if (k === 0) status.add('Select_range', 1);
    const range = boundsRange(
      table,
      access.index,
      lo,
      access.lo?.inclusive ?? true,
      hi,
      access.hi?.inclusive ?? true,
    );
    if (mrrBytes === undefined || indexOnly) return read([range], false);
    status.add('Handler_mrr_init', 1);
    stop = false;
    try {
      rowidOrdered(table, ir.index, [range], check, mrrBytes, onRow, () =>
        status.add('Handler_mrr_rowid_refills', 1),
      );
    } finally {
      ec.flush();
    }
    if (stop) return false;
    return hooks.finish();
  };
}

/**
 * DS-MRR's rowid-ordered read with the index condition checked below it: the row ids of the
 * accepted entries fill a buffer of `bufferBytes` (each id plus 8 bytes, as
 * `Table.rangeRowidOrdered`), which is sorted and swept in primary-key order when full
 * (`onRefill` after each refill) and at the end.
 */
function rowidOrdered(
  table: Table,
  index: string,
  ranges: readonly KeyRange[],
  check: ((b: Uint8Array, ko: number, kl: number) => boolean) | null,
  bufferBytes: number,
  fn: (row: RowBuffer) => boolean,
  onRefill: () => void,
): void {
  let keys: Uint8Array[] = [];
  let bytes = 0;
  let go = true;
  const drain = (): boolean => {
    keys.sort(compareKeys);
    for (const pk of keys) {
      table.fetchRowid(pk, (r) => {
        go = fn(r);
        return go;
      });
      if (!go) return false;
    }
    keys = [];
    bytes = 0;
    return true;
  };
  let stopped = false;
  table.rowidsInRanges(index, ranges, check, (pk) => {
    if (bytes + pk.length + 8 > bufferBytes && keys.length > 0) {
      if (!drain()) {
        stopped = true;
        return false;
      }
      onRefill();
    }
    keys.push(pk.slice());
    bytes += pk.length + 8;
    return true;
  });
  if (!stopped) drain();
}

/**
 * For a full-scan (or hash-build) stage planned as a covering index scan (EXPLAIN `index`,
 * `hash_index`): a reader of the whole
 * index that decodes each entry into the frame and calls `fn` (false stops), as `index_first` /
 * `index_next` count (Handler_read_first once, Handler_read_next per entry and at the end).
 * Undefined for any other stage.
 */
export function coveringScan(
  st: PlannedStage,
  frame: Frame,
  status: StatusCounters,
): ((fn: () => boolean) => void) | undefined {
  const ir = st.indexRead;
  if (ir === undefined || !ir.covering || (st.access.kind !== 'scan' && st.access.kind !== 'hash'))
    return undefined;
  const table = st.src.table!;
  const ec = entryCheck(st, frame, status);
  return (fn) => {
    table.readRanges(ir.index, ALL, ec.check, true, () => fn(), true);
  };
}
