import { KeyHash } from './internal/key-hash.js';
import { checkSpec, countingEmit } from './internal/spec.js';
import { checkSource } from './internal/validate.js';
import type { ScanJoinSpec } from './nested-loop.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit, JoinKey, JoinSpec } from './types.js';

/**
 * In-memory hash join: build a hash table on the inner input (scanned once), then probe it with
 * each outer row. The outer side stays the preserved side, so LEFT/SEMI/ANTI need no match flags.
 * Memory grows with the inner input; {@link graceHashJoin} bounds it.
 */
export function hashJoin<O, I>(spec: ScanJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  checkSource('spec.inner', spec.inner);
  const stats = createJoinStats();
  const table = new BuildTable<I>();
  const { inner, innerKey } = spec;
  inner.rewind();
  stats.innerScans++;
  for (;;) {
    stats.Handler_read_rnd_next++;
    const i = inner.next();
    if (i === undefined) break;
    const k = innerKey(i);
    if (k !== null) table.add(k, i);
  }
  const out = countingEmit(emit, stats);
  const { outer, outerKey } = spec;
  outer.rewind();
  for (;;) {
    stats.Handler_read_rnd_next++;
    const o = outer.next();
    if (o === undefined) break;
    probe(spec, table, o, outerKey(o), out);
  }
  return stats;
}

/** Build-side rows chained by key: rows in one array, chains in a {@link KeyHash}. */
export class BuildTable<I> {
  readonly rows: I[] = [];
  readonly hash: KeyHash = new KeyHash();

  add(key: JoinKey, row: I): void {
    this.hash.add(key, this.rows.length);
    this.rows.push(row);
  }

  clear(): void {
    this.rows.length = 0;
    this.hash.clear();
  }
}

/**
 * Probe `table` with outer row `o` (key `k`) and emit by join type. Returns whether `o` matched
 * (a grace hash join that probes one outer row against several chunks needs it).
 * With `emitUnmatched` false, LEFT/ANTI leave the null-complement to the caller.
 */
export function probe<O, I>(
  spec: JoinSpec<O, I>,
  table: BuildTable<I>,
  o: O,
  k: JoinKey,
  out: Emit<O, I>,
  emitUnmatched = true,
  alreadyMatched = false,
): boolean {
  const { type, condition } = spec;
  let matched = false;
  if (k !== null && !(alreadyMatched && (type === 'semi' || type === 'anti'))) {
    const rows = table.rows;
    for (let r = table.hash.head(k); r >= 0; r = table.hash.next(r)) {
      const i = rows[r]!;
      if (condition !== undefined && !condition(o, i)) continue;
      matched = true;
      if (type === 'semi' || type === 'anti') break;
      out(o, i);
    }
  }
  if (matched && type === 'semi') out(o, null);
  else if (!matched && emitUnmatched && (type === 'left' || type === 'anti')) out(o, null);
  return matched;
}
