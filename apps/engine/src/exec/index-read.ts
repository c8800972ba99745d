import type { Bound } from './bound.js';
import type { PlannedStage } from './planned-stage.js';
import type { Frame } from './scope.js';
import type { RowBuffer } from '../storage/row.js';
import type { KeyRange } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { RowidOrderedScan } from '../handler/multi-range.js';
import { TableHandler } from '../handler/table-handler.js';
import { EqRefMemory } from './eq-ref-memory.js';
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
  /** The stage is the inner side of an outer join (its NULL-extension overwrites the row). */
  readonly outer: boolean;
  /** Run `fn` at the start of each execution of the pipeline. */
  readonly onReset: (fn: () => void) => void;
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
  const handler = new TableHandler(table);
  let stop = false;
  const onRow = (r: RowBuffer | null): boolean => {
    if (r !== null) dec(r);
    if (!hooks.emit()) {
      stop = true;
      return false;
    }
    return true;
  };
  // a descending order walks the ranges backward, from the last; a read that locks walks them
  // forward (the locks of a forward walk) and the statement sorts (see select.ts)
  const backward = st.backward === true;
  const read = (ranges: readonly KeyRange[], fullScan: boolean): boolean => {
    stop = false;
    try {
      if (backward && !table.readsLock())
        handler.readRanges(
          ir.index,
          [...ranges].reverse(),
          check,
          indexOnly,
          onRow,
          fullScan,
          true,
          dec.mask,
        );
      else handler.readRanges(ir.index, ranges, check, indexOnly, onRow, fullScan, false, dec.mask);
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
    // eq_ref's memory of its last key (a pushed condition on other tables may answer otherwise)
    const ix = table.index(access.index);
    const memory =
      ix.unique && keys.length >= ix.columns.length && !hooks.outer && !ir.otherTables
        ? new EqRefMemory(keys.length)
        : null;
    if (memory !== null) hooks.onReset(() => memory.forget());
    let found = false;
    const emitFound = (r: RowBuffer | null): boolean => {
      found = true;
      return onRow(r);
    };
    return () => {
      hooks.begin();
      for (let i = 0; i < keys.length; i++) {
        const kv = keyValue(src, keys[i]!.column, keys[i]!.expr, kev[i]!());
        if (kv === undefined) {
          memory?.forget();
          return hooks.finish();
        }
        prefix[i] = kv;
      }
      if (memory === null) return read([prefixRange(table, access.index, prefix)], false);
      if (memory.same(prefix)) {
        if (memory.found) {
          memory.restore(frame.v, src.offset, src.columns.length);
          if (!hooks.emit()) return false;
        }
        return hooks.finish();
      }
      found = false;
      stop = false;
      try {
        handler.readRanges(
          ir.index,
          [prefixRange(table, access.index, prefix)],
          check,
          indexOnly,
          emitFound,
          false,
          false,
          dec.mask,
        );
      } finally {
        ec.flush();
      }
      memory.remember(prefix, found, frame.v);
      if (stop) return false;
      return hooks.finish();
    };
  }
  if (access.kind !== 'range') throw new RangeError(`an index read cannot serve a ${access.kind} access`);
  const intervals = access.intervals;
  if (intervals !== undefined) {
    const ix = table.index(access.index);
    const now = (b: Bound): unknown => b.ev();
    const mrr = st.mrrBufferBytes;
    const mrrScan =
      mrr === undefined || indexOnly || ix.primary ? null : new RowidOrderedScan(table, ir.index);
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
      if (mrrScan === null) return read(ordered, false);
      stop = false;
      try {
        mrrScan.run(ordered, check, mrr!, status, onRow);
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
  const mrrScan =
    mrrBytes === undefined || indexOnly || table.index(ir.index).primary
      ? null
      : new RowidOrderedScan(table, ir.index);
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
    if (mrrScan === null) return read([range], false);
    stop = false;
    try {
      mrrScan.run([range], check, mrrBytes!, status, onRow);
    } finally {
      ec.flush();
    }
    if (stop) return false;
    return hooks.finish();
  };
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
  const handler = new TableHandler(table);
  return (fn) => {
    handler.readRanges(ir.index, ALL, ec.check, true, () => fn(), true);
  };
}
