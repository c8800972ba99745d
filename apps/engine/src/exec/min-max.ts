import type { Bound } from './bound.js';
import type { MinMaxRead, PlannedStage } from './planned-stage.js';
import type { Frame } from './scope.js';
import type { KeyRange } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { TableHandler } from '../handler/table-handler.js';
import { entryDecoder } from './index-entry.js';
import { keyValue } from './pipeline.js';
import { truthOf } from './truth.js';

/**
 * The reads of a stage planned as MIN/MAX from index ends ({@link PlannedStage.minMax}): `run(step)`
 * reads, for each aggregate, the first entry at its end of its range that the read sees and its
 * bounds accept, decodes the entry's fields into the frame and calls `step` (one aggregation step
 * over the frame). Each found row is a row WHERE keeps, and each aggregate's own row holds its
 * extreme, so MIN and MAX over the found rows are MIN and MAX over all of them; no row found: the
 * aggregates stay NULL. Counted as MariaDB counts them: Handler_read_first (MIN from the index's
 * start), Handler_read_last (MAX from its end) or Handler_read_key per aggregate, nothing more.
 */
export function minMaxReads(st: PlannedStage, frame: Frame): (step: () => void) => void {
  const src = st.src;
  const table = src.table!;
  const handler = new TableHandler(table);
  const reads = st.minMax!.map((r) => prepared(st, r, frame));
  return (step) => {
    for (const r of reads) {
      const range = r.range();
      if (range === null) continue;
      let found = false;
      const take = (): boolean => {
        found = true;
        return false;
      };
      if (r.fn === 'min')
        handler.readRanges(r.index, [range], r.check, true, take, range.lo.length === 0 && range.hi === null);
      else handler.readRanges(r.index, [range], r.check, true, take, false, true);
      // the entries passed over were decoded too: a read that finds none leaves its column NULL,
      // so another aggregate's row does not carry a value no visible row of WHERE has
      if (found) step();
      else frame.v[r.slot] = null;
    }
  };
}

/**
 * Whether WHERE keeps any row the read sees, NULLs of the aggregated columns included (what
 * MariaDB's EXPLAIN tells apart as `No matching min/max row`): the first aggregate's range read
 * from its start without skipping NULLs, its bounds checked, stopped at the first visible row.
 */
export function minMaxRowsExist(st: PlannedStage, frame: Frame): boolean {
  const r = prepared(st, st.minMax![0]!, frame);
  const range = r.range(false);
  if (range === null) return false;
  let found = false;
  new TableHandler(st.src.table!).readRanges(r.index, [range], r.checkAny, true, () => {
    found = true;
    return false;
  });
  return found;
}

interface Prepared {
  readonly fn: 'min' | 'max';
  readonly index: string;
  /** The aggregated column's frame slot. */
  readonly slot: number;
  readonly check: (b: Uint8Array, ko: number, kl: number) => boolean;
  /** {@link Prepared.check} without its NULL test. */
  readonly checkAny: (b: Uint8Array, ko: number, kl: number) => boolean;
  /**
   * The range now (its constants evaluated), or null when no row can match; `skipNulls` false:
   * from the prefix's first entry, the aggregated column's NULLs included.
   */
  readonly range: (skipNulls?: boolean) => KeyRange | null;
}

function prepared(st: PlannedStage, r: MinMaxRead, frame: Frame): Prepared {
  const src = st.src;
  const table = src.table!;
  const ix = table.index(r.index);
  const column = r.column;
  const slot = src.offset + column;
  const decode = entryDecoder(src, ix, frame, new Set([column]));
  const conds = r.conds.map(truthOf);
  const n = conds.length;
  // NULLs sort first: a MIN of a nullable column starts past them
  const nullable = table.columns[column]?.nullable === true;
  const checkAny = (b: Uint8Array, ko: number, kl: number): boolean => {
    decode(b, ko, kl);
    for (let i = 0; i < n; i++) if (conds[i]!() !== true) return false;
    return true;
  };
  const check = (b: Uint8Array, ko: number, kl: number): boolean =>
    checkAny(b, ko, kl) && frame.v[slot] !== null;
  /** A bound's key value; null: the bound is NULL (no row matches); undefined: the column cannot hold it. */
  const value = (b: { expr: Bound }, c: number): FieldValue | null | undefined => {
    const v = b.expr.ev();
    return v === null ? null : keyValue(src, c, b.expr, v);
  };
  const range = (skipNulls = true): KeyRange | null => {
    const pv: FieldValue[] = [];
    for (const [i, b] of r.prefix.entries()) {
      // a fixed field equal to NULL, or to a value it cannot hold (1.5 for an INT): no row
      const v = value({ expr: b }, ix.entryColumns[i]!);
      if (v === null || v === undefined) return null;
      pv.push(v);
    }
    // A bound the column cannot hold (1.5 or 2^40 for an INT) does not narrow the read: it
    // starts or ends with the prefix, and the conditions, checked on every entry, decide.
    let lo = pv.length === 0 ? new Uint8Array(0) : table.keyPrefix(r.index, pv);
    let loExclusive = false;
    const loValue = r.lo === undefined ? undefined : value(r.lo, column);
    if (loValue === null) return null;
    if (loValue !== undefined) {
      lo = table.keyPrefix(r.index, [...pv, loValue]);
      loExclusive = !r.lo!.inclusive;
    } else if (nullable && skipNulls) {
      lo = table.keyPrefix(r.index, [...pv, null]);
      loExclusive = true;
    }
    let hi: Uint8Array | null = pv.length === 0 ? null : table.keyPrefix(r.index, pv);
    let hiInclusive = true;
    const hiValue = r.hi === undefined ? undefined : value(r.hi, column);
    if (hiValue === null) return null;
    if (hiValue !== undefined) {
      hi = table.keyPrefix(r.index, [...pv, hiValue]);
      hiInclusive = r.hi!.inclusive;
    }
    return { lo, loExclusive, hi, hiInclusive, unique: false };
  };
  return { fn: r.fn, index: r.index, slot, check, checkAny, range };
}
