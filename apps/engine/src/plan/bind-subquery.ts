import { arr, obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { comparisonType, converter } from '../exec/compare.js';
import { type SqlType, T_INT } from '../exec/types.js';
import { type BindCtx, mk, type SubPlan } from './bind-expr.js';
import { keyOf } from './bind-ops.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * Subqueries in expressions: uncorrelated ones run once per statement execution (cached by the
 * run's epoch), correlated ones each time; IN (subquery) builds the set of the subquery's values
 * with MySQL's NULL rules.
 */

export function subCache(ctx: BindCtx, plan: SubPlan): (f: () => unknown) => Ev {
  const run = ctx.block.run;
  return (f) => {
    if (plan.correlated) return f;
    let epoch = -1;
    let val: unknown;
    return () => {
      if (epoch !== run.epoch) {
        val = f();
        epoch = run.epoch;
      }
      return val;
    };
  };
}

/**
 * The query EXISTS runs: it reads no column of the rows, so a select list of wildcards (`*`,
 * `t.*`) with no GROUP BY, HAVING or ORDER BY to refer to them is read as `SELECT 1`, as MariaDB
 * replaces it; then an index holding the columns WHERE reads covers the subquery (TPC-H Q22's
 * `NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)` reads i_o_custkey alone). The
 * parsed tree is shared (and frozen): the rewrite is a copy.
 */
export function existsQuery(q: unknown): unknown {
  const qo = obj(q);
  const [tag, body] = tagOf(qo.body);
  if (tag !== 'Select' || arr(obj(obj(qo.order_by).kind).Expressions).length > 0) return q;
  const sel = obj(body);
  const projection = arr(sel.projection);
  const wildcards =
    projection.length > 0 &&
    projection.every((p) => {
      const t = tagOf(p)[0];
      return t === 'Wildcard' || t === 'QualifiedWildcard';
    });
  const [groupTag, groupBy] = tagOf(sel.group_by);
  const grouped = groupTag !== 'Expressions' || arr(arr(groupBy)[0]).length > 0;
  if (!wildcards || grouped || (sel.having !== undefined && sel.having !== null)) return q;
  const one = { UnnamedExpr: { Value: { value: { Number: ['1', false] } } } };
  return { ...qo, body: { Select: { ...sel, projection: [one] } } };
}

export function subBound(ctx: BindCtx, plan: SubPlan, t: SqlType, ev: Ev, text: string): Bound {
  const refs = [...(plan.outerRefs.get(ctx.block) ?? [])].sort((a, b) => a - b);
  const outer = [...plan.outerRefs.keys()].some((b) => b !== ctx.block);
  return { t, ev, refs, outer, agg: false, text, sub: true };
}

export function bindInSubquery(e: Bound, q: unknown, ctx: BindCtx, text: string): Bound {
  const plan = ctx.env.bindSubquery(q, ctx.block);
  if (plan.columns.length !== 1)
    throw new SqlError('ER_OPERAND_COLUMNS', 'Operand should contain 1 column(s)');
  const st = plan.types[0]!;
  const ct = comparisonType(e.t, st);
  const ce = converter(e.t, ct);
  const cs = converter(st, ct);
  const ee = e.ev;
  const run = ctx.block.run;
  // the subquery's values as a set (once per execution when uncorrelated)
  let epoch = -1;
  let set = new Set<unknown>();
  let hasNull = false;
  const fill = (): void => {
    set = new Set();
    hasNull = false;
    plan.run((row) => {
      const v = row[0];
      if (v === null) hasNull = true;
      else set.add(keyOf(cs === null ? v : cs(v)));
      return true;
    });
  };
  const ev: Ev = () => {
    if (plan.correlated || epoch !== run.epoch) {
      fill();
      epoch = run.epoch;
    }
    const v = ee();
    if (v === null) return set.size === 0 && !hasNull ? 0 : null;
    if (set.has(keyOf(ce === null ? v : ce(v)))) return 1;
    return hasNull ? null : 0;
  };
  const sb = subBound(ctx, plan, T_INT, ev, text);
  return mk(T_INT, ev, [e, sb], text);
}
