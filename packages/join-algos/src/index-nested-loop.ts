import { checkSpec, countingEmit } from './internal/spec.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, IndexAccess, JoinSpec } from './types.js';

/** A join whose inner side is reached through an index. */
export interface IndexJoinSpec<O, I> extends JoinSpec<O, I> {
  inner: IndexAccess<I>;
}

/**
 * Index nested loop (NLJ, MySQL 5.5's only join method): one `readKey` per outer row, then
 * `nextSame` until the key's rows run out (MySQL `join_read_always_key` / `join_read_next_same`).
 * An outer row with a NULL key does no lookup (a NULL-rejecting ref access). SEMI and ANTI stop
 * at the first match.
 */
export function indexNestedLoopJoin<O, I>(spec: IndexJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  const idx = spec.inner as Partial<IndexAccess<I>> | null;
  if (
    typeof idx !== 'object' ||
    idx === null ||
    typeof idx.readKey !== 'function' ||
    typeof idx.nextSame !== 'function'
  ) {
    throw new TypeError(
      `spec.inner must be an IndexAccess with readKey() and nextSame(), got ${String(idx)}`,
    );
  }
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
      stats.Handler_read_key++;
      for (let i = inner.readKey(k); i !== undefined; stats.Handler_read_next++, i = inner.nextSame()) {
        // The index guarantees the key; the check keeps a sloppy IndexAccess honest.
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
