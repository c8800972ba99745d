import { obj, tagOf } from '../sql/ast.js';

/** Splitting WHERE into conjuncts, and pulling conjuncts common to every OR branch out. */

export function conjuncts(n: unknown, out: unknown[]): unknown[] {
  const [t, v] = tagOf(n);
  if (t === 'BinaryOp' && obj(v).op === 'And') {
    conjuncts(obj(v).left, out);
    conjuncts(obj(v).right, out);
  } else if (t === 'Nested' && tagOf(v)[0] === 'BinaryOp' && obj(tagOf(v)[1]).op === 'And') conjuncts(v, out);
  else out.push(n);
  return out;
}

function disjuncts(n: unknown, out: unknown[]): unknown[] {
  const [t, v] = tagOf(n);
  if (t === 'BinaryOp' && obj(v).op === 'Or') {
    disjuncts(obj(v).left, out);
    disjuncts(obj(v).right, out);
  } else if (t === 'Nested') disjuncts(v, out);
  else out.push(n);
  return out;
}

/** A node's shape without positions, to find equal sub-expressions. */
function shape(n: unknown): string {
  return JSON.stringify(n, (k, v) => (k === 'span' ? undefined : v));
}

/**
 * `(a AND x) OR (a AND y)` → `a AND (x OR y)`: conjuncts common to every disjunct are pulled out,
 * so a join condition repeated in each branch (TPC-H Q19) can drive a hash join or index lookup.
 */
export function factorOr(n: unknown): unknown[] {
  const ds = disjuncts(n, []);
  if (ds.length < 2) return [n];
  const lists = ds.map((d) => conjuncts(d, []));
  // each conjunct's shape once (a long OR of ANDs compares every pair)
  const shapes = new Map<unknown, string>();
  const shapeOf = (x: unknown): string => {
    let k = shapes.get(x);
    if (k === undefined) shapes.set(x, (k = shape(x)));
    return k;
  };
  const sets = lists.map((l) => new Set(l.map(shapeOf)));
  const common = lists[0]!.filter((c) => sets.every((set) => set.has(shapeOf(c))));
  if (common.length === 0) return [n];
  const keys = new Set(common.map(shapeOf));
  const rest = lists.map((l) => l.filter((x) => !keys.has(shapeOf(x))));
  if (rest.some((r) => r.length === 0)) return common;
  const and = (xs: unknown[]): unknown =>
    xs.reduce((a, b) => ({ BinaryOp: { left: a, op: 'And', right: b } }));
  const or = rest.map(and).reduce((a, b) => ({ BinaryOp: { left: a, op: 'Or', right: b } }));
  return [...common, { Nested: or }];
}
