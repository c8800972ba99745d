import { compareKeys } from '@enginekit/btree-sampler';
import type { Bound } from './bound.js';
import type { KeyInterval } from './planned-stage.js';
import type { RangeBound } from './planned-stage.js';
import type { Source } from './scope.js';
import type { KeyRange, Table, TableIndex } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { keyValue } from './pipeline.js';

/**
 * The encoded key ranges an index read walks ({@link KeyRange}): a ref's prefix, bounds on the
 * first column, one interval of a multi-part / IN-list / OR range, and a list of them put in key
 * order with overlaps merged.
 */

/** The key range of a `ref` prefix: every entry that starts with it (one, for a unique full key). */
export function prefixRange(table: Table, index: string, prefix: readonly FieldValue[]): KeyRange {
  const ix = table.index(index);
  const key = table.keyPrefix(index, prefix);
  return {
    lo: key,
    loExclusive: false,
    hi: key,
    hiInclusive: true,
    unique: ix.unique && prefix.length >= ix.columns.length,
  };
}

/** The key range of bounds on an index's first column (no lower bound: past the NULLs). */
export function boundsRange(
  table: Table,
  index: string,
  lo: FieldValue | undefined,
  loInclusive: boolean,
  hi: FieldValue | undefined,
  hiInclusive: boolean,
): KeyRange {
  return {
    lo: table.keyPrefix(index, [lo === undefined ? null : lo]),
    loExclusive: lo === undefined || !loInclusive,
    hi: hi === undefined ? null : table.keyPrefix(index, [hi]),
    hiInclusive,
    unique: false,
  };
}

/**
 * The {@link KeyRange} of one interval of a multi-part range, its values taken by `value` (a
 * bound's value now); null when it matches nothing (a NULL or unrepresentable equality value, or
 * a NULL bound). An unrepresentable bound (a fraction on an integer column) leaves that side open.
 */
export function keyRangeOf(
  src: Source,
  ix: TableIndex,
  interval: KeyInterval,
  value: (b: Bound) => unknown,
): KeyRange | null {
  const table = src.table!;
  const eqVals: FieldValue[] = [];
  for (let i = 0; i < interval.eq.length; i++) {
    const b = interval.eq[i]!;
    const v = value(b);
    if (v === null || v === undefined) return null;
    const kv = keyValue(src, ix.entryColumns[i]!, b, v);
    if (kv === undefined) return null;
    eqVals.push(kv);
  }
  const c = ix.entryColumns[eqVals.length];
  const side = (rb: RangeBound | undefined): FieldValue | undefined | null => {
    if (rb === undefined || c === undefined) return undefined;
    const v = value(rb.expr);
    if (v === null || v === undefined) return null;
    return keyValue(src, c, rb.expr, v);
  };
  const lo = side(interval.lo);
  const hi = side(interval.hi);
  if (lo === null || hi === null) return null;
  const bounded = interval.lo !== undefined || interval.hi !== undefined;
  const prefix = table.keyPrefix(ix.name, eqVals);
  let loKey: Uint8Array;
  let loExclusive: boolean;
  if (lo !== undefined) {
    loKey = table.keyPrefix(ix.name, [...eqVals, lo]);
    loExclusive = interval.lo!.inclusive !== true;
  } else if (bounded) {
    // a bound on the column excludes its NULLs, which sort first
    loKey = table.keyPrefix(ix.name, [...eqVals, null]);
    loExclusive = true;
  } else {
    loKey = prefix;
    loExclusive = false;
  }
  let hiKey: Uint8Array | null;
  let hiInclusive = true;
  if (hi !== undefined) {
    hiKey = table.keyPrefix(ix.name, [...eqVals, hi]);
    hiInclusive = interval.hi!.inclusive === true;
  } else hiKey = eqVals.length > 0 ? prefix : null;
  return {
    lo: loKey,
    loExclusive,
    hi: hiKey,
    hiInclusive,
    unique: ix.unique && !bounded && eqVals.length >= ix.columns.length,
  };
}

/** memcmp of `a` against `prefix` where any `a` that starts with `prefix` compares equal. */
function comparePrefixed(a: Uint8Array, prefix: Uint8Array): number {
  const n = Math.min(a.length, prefix.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - prefix[i]!;
    if (d !== 0) return d;
  }
  return a.length >= prefix.length ? 0 : -1;
}

/** Whether range `b` (starting at or after `a`'s start) begins inside or right at the end of `a`. */
function startsWithin(a: KeyRange, b: KeyRange): boolean {
  if (a.hi === null) return true;
  const c = comparePrefixed(b.lo, a.hi);
  return c < 0 || (c === 0 && (a.hiInclusive || !b.loExclusive));
}

/** The later of two upper ends (null: open). */
function laterEnd(a: KeyRange, b: KeyRange): { hi: Uint8Array | null; hiInclusive: boolean } {
  if (a.hi === null || b.hi === null) return { hi: null, hiInclusive: true };
  const c = compareKeys(a.hi, b.hi);
  if (c === 0) return { hi: a.hi, hiInclusive: a.hiInclusive || b.hiInclusive };
  // an inclusive end covers every longer key that starts with it
  if (c < 0) return a.hiInclusive && comparePrefixed(b.hi, a.hi) === 0 ? a : b;
  return b.hiInclusive && comparePrefixed(a.hi, b.hi) === 0 ? b : a;
}

/**
 * Ranges in key order, overlapping or touching ones merged into one (an IN list may name a value
 * twice; the disjuncts of an OR may overlap), so no entry is read twice. The ranges of one list
 * bound the same number of key parts, or are disjoint points.
 */
export function orderedRanges(ranges: KeyRange[]): KeyRange[] {
  ranges.sort((a, b) => compareKeys(a.lo, b.lo) || Number(a.loExclusive) - Number(b.loExclusive));
  const out: KeyRange[] = [];
  for (const r of ranges) {
    const prev = out[out.length - 1];
    if (prev !== undefined && startsWithin(prev, r)) {
      const end = laterEnd(prev, r);
      out[out.length - 1] = {
        lo: prev.lo,
        loExclusive: prev.loExclusive,
        hi: end.hi,
        hiInclusive: end.hiInclusive,
        unique: prev.unique && r.unique && end.hi === prev.hi,
      };
      continue;
    }
    out.push(r);
  }
  return out;
}
