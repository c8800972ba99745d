import { checkSpec, countingEmit } from './internal/spec.js';
import { checkSource } from './internal/validate.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, JoinSpec, RowSource } from './types.js';

/** A join whose inner side is a rescannable row source. */
export interface ScanJoinSpec<O, I> extends JoinSpec<O, I> {
  inner: RowSource<I>;
}

/**
 * Simple nested loop: for every outer row, scan the whole inner table. O(outer × inner) and
 * one inner scan per outer row; the property suite's oracle. An outer row with a NULL key skips
 * the scan (it cannot match). SEMI and ANTI stop scanning at the first match (first-match).
 *
 * @example
 * ```ts
 * const out: [number[], number[] | null][] = [];
 * simpleNestedLoopJoin(
 *   { type: 'inner', outer: arraySource([[1], [2]]), inner: arraySource([[2], [2]]),
 *     outerKey: (o) => o[0]!, innerKey: (i) => i[0]! },
 *   (o, i) => out.push([o, i]),
 * ); // out: [[2], [2]] twice
 * ```
 */
export function simpleNestedLoopJoin<O, I>(spec: ScanJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  checkSource('spec.inner', spec.inner);
  const stats = createJoinStats();
  const out = countingEmit(emit, stats);
  const { type, outer, inner, outerKey, innerKey, condition } = spec;
  const firstMatchOnly = type === 'semi' || type === 'anti';
  outer.rewind();
  for (;;) {
    stats.Handler_read_rnd_next++;
    const o = outer.next();
    if (o === undefined) break;
    const k = outerKey(o);
    let matched = false;
    if (k !== null) {
      inner.rewind();
      stats.innerScans++;
      for (;;) {
        stats.Handler_read_rnd_next++;
        const i = inner.next();
        if (i === undefined) break;
        if (innerKey(i) !== k || (condition !== undefined && !condition(o, i))) continue;
        matched = true;
        if (firstMatchOnly) break;
        out(o, i);
      }
    }
    if (matched ? type === 'semi' : type === 'left' || type === 'anti') out(o, null);
  }
  return stats;
}
