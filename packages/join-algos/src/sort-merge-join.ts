import { checkSpec, countingEmit } from './internal/spec.js';
import { checkSource } from './internal/validate.js';
import type { ScanJoinSpec } from './nested-loop.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, JoinKey, RowSource } from './types.js';

/**
 * A total order on non-NULL keys that keeps `===`-equal keys together: numbers, then bigints,
 * then strings (by UTF-16 code units); within a type by value.
 */
export function compareKeys(a: Exclude<JoinKey, null>, b: Exclude<JoinKey, null>): number {
  const ta = typeof a;
  const tb = typeof b;
  if (ta !== tb) return typeRank(ta) - typeRank(tb);
  return a < b ? -1 : a > b ? 1 : 0;
}

function typeRank(t: string): number {
  return t === 'number' ? 0 : t === 'bigint' ? 1 : 2;
}

/**
 * Sort-merge join: read both inputs once, sort each by key (in memory), then merge: for each run
 * of equal keys on both sides, join the two runs. Outer rows with a NULL key match nothing.
 * REQUIRES: no key is NaN.
 */
export function sortMergeJoin<O, I>(spec: ScanJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  checkSource('spec.inner', spec.inner);
  const stats = createJoinStats();
  const out = countingEmit(emit, stats);
  const { type, condition } = spec;
  const left = type === 'left' || type === 'anti';
  const outerNull: O[] = [];
  const o = readSorted(spec.outer, spec.outerKey, stats, outerNull);
  stats.innerScans++;
  const i = readSorted(spec.inner, spec.innerKey, stats, null);
  if (left) for (const row of outerNull) out(row, null);
  let a = 0;
  let b = 0;
  while (a < o.keys.length) {
    const ka = o.keys[a]!;
    while (b < i.keys.length && compareKeys(i.keys[b]!, ka) < 0) b++;
    // The run of equal keys on each side: [a, aEnd) and [b, bEnd).
    let aEnd = a + 1;
    while (aEnd < o.keys.length && o.keys[aEnd] === ka) aEnd++;
    let bEnd = b;
    while (bEnd < i.keys.length && i.keys[bEnd] === ka) bEnd++;
    for (let x = a; x < aEnd; x++) {
      const orow = o.rows[x]!;
      let matched = false;
      for (let y = b; y < bEnd; y++) {
        const irow = i.rows[y]!;
        if (condition !== undefined && !condition(orow, irow)) continue;
        matched = true;
        if (type === 'semi' || type === 'anti') break;
        out(orow, irow);
      }
      if (matched ? type === 'semi' : left) out(orow, null);
    }
    a = aEnd;
    b = bEnd;
  }
  return stats;
}

/** Read a whole source; return its non-NULL-key rows sorted by key (stable). */
function readSorted<R>(
  src: RowSource<R>,
  keyOf: (row: R) => JoinKey,
  stats: JoinStats,
  nullRows: R[] | null,
): { keys: Exclude<JoinKey, null>[]; rows: R[] } {
  const rows: R[] = [];
  const keys: Exclude<JoinKey, null>[] = [];
  src.rewind();
  for (;;) {
    stats.Handler_read_rnd_next++;
    const r = src.next();
    if (r === undefined) break;
    const k = keyOf(r);
    if (k === null) {
      nullRows?.push(r);
      continue;
    }
    rows.push(r);
    keys.push(k);
  }
  const order = Int32Array.from(keys, (_, n) => n).sort((x, y) => compareKeys(keys[x]!, keys[y]!) || x - y);
  return { keys: Array.from(order, (n) => keys[n]!), rows: Array.from(order, (n) => rows[n]!) };
}
