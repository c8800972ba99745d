import type { Bound } from '../../exec/bound.js';
import type { Source } from '../../exec/scope.js';

/**
 * Which columns of which FROM source each bound expression reads, recorded while it is bound
 * (MySQL walks an Item's tree for this: `uses_index_fields_only`). The binder calls
 * {@link trackReads} around every expression it binds and {@link recordRead} for every column
 * reference; the optimizer asks {@link columnsRead} whether an index entry holds all a condition
 * needs (index condition pushdown). An expression bound any other way has no record, and the
 * optimizer then treats it as reading everything.
 */

const reads = new WeakMap<Bound, Map<Source, Set<number>>>();
const stack: Array<Map<Source, Set<number>>> = [];

function mergeInto(to: Map<Source, Set<number>>, from: ReadonlyMap<Source, ReadonlySet<number>>): void {
  for (const [src, cols] of from) {
    let set = to.get(src);
    if (set === undefined) to.set(src, (set = new Set()));
    for (const c of cols) set.add(c);
  }
}

/** Column `c` of `src` is read by every expression being bound right now. */
export function recordRead(src: Source, c: number): void {
  const top = stack[stack.length - 1];
  if (top === undefined) return;
  let set = top.get(src);
  if (set === undefined) top.set(src, (set = new Set()));
  set.add(c);
}

/** Bind one expression with `bind`, recording the columns it reads. */
export function trackReads(bind: () => Bound): Bound {
  const mine = new Map<Source, Set<number>>();
  stack.push(mine);
  let b: Bound;
  try {
    b = bind();
  } finally {
    stack.pop();
  }
  const parent = stack[stack.length - 1];
  // an expression bound before (a select alias) keeps its own record
  const prior = reads.get(b);
  if (prior !== undefined) {
    if (parent !== undefined) mergeInto(parent, prior);
    return b;
  }
  reads.set(b, mine);
  if (parent !== undefined) mergeInto(parent, mine);
  return b;
}

/** The columns of `src` that `b` reads, or undefined when `b` was not bound under a record. */
export function columnsRead(b: Bound, src: Source): ReadonlySet<number> | undefined {
  const r = reads.get(b);
  if (r === undefined) return undefined;
  return r.get(src) ?? new Set();
}
