import { arr, identText, obj, type Obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { coerce } from '../exec/convert.js';
import { type SqlType, T_DBL, T_INT, T_NULL, unify } from '../exec/types.js';
import type { FrameBound, WindowCall, WindowFrame } from '../exec/window.js';
import { aggregate } from './bind-aggregate.js';
import { type BindCtx, bindExpr, unsupported, arity } from './bind-expr.js';
import { rawArgExpr } from './bind-func.js';
import type { Bound } from '../exec/bound.js';
import { keyBound } from '../exec/collation-keys.js';

/**
 * Window function calls (`f(…) OVER (PARTITION BY … ORDER BY … frame)` or `OVER name` of the
 * query's WINDOW clause): bound in the select list or ORDER BY of their block, read from a slot
 * of the block's frame that exec/window.ts fills once the block's rows are known.
 */

const RANKING = new Set(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile']);
const VALUE = new Set(['lag', 'lead', 'first_value', 'last_value', 'nth_value']);
const AGGREGATES = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'bit_and',
  'bit_or',
  'bit_xor',
  'std',
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'variance',
  'var_pop',
  'var_samp',
]);

/** The window specification `over` names or holds, with its base window's parts where it refers to one. */
function specOf(over: unknown, ctx: BindCtx): Obj {
  const [t, v] = tagOf(over);
  const named = ctx.block.namedWindows;
  if (t === 'NamedWindow') {
    const spec = named.get(identText(v).toLowerCase());
    if (spec === undefined)
      throw new SqlError(
        'ER_WRONG_WINDOW_SPEC_NAME',
        `Window specification with name '${identText(v)}' is not defined`,
      );
    return specOf(spec, ctx);
  }
  const o = obj(t === 'WindowSpec' ? v : over);
  if (o.window_name !== undefined && o.window_name !== null) {
    const base = named.get(identText(o.window_name).toLowerCase());
    if (base === undefined)
      throw new SqlError(
        'ER_WRONG_WINDOW_SPEC_NAME',
        `Window specification with name '${identText(o.window_name)}' is not defined`,
      );
    const b = specOf(base, ctx);
    return {
      partition_by: arr(b.partition_by).length > 0 ? b.partition_by : o.partition_by,
      order_by: arr(o.order_by).length > 0 ? o.order_by : b.order_by,
      window_frame: o.window_frame ?? b.window_frame,
    };
  }
  return o;
}

function bound(n: unknown, ctx: BindCtx, start: boolean): FrameBound {
  const [t, v] = tagOf(n);
  if (t === 'CurrentRow') return { kind: 'current' };
  const kind = t === 'Preceding' ? 'preceding' : 'following';
  if (v === undefined || v === null) {
    // UNBOUNDED FOLLOWING cannot start a frame, nor UNBOUNDED PRECEDING end one
    if ((start && kind === 'following') || (!start && kind === 'preceding'))
      throw new SqlError(
        'ER_BAD_COMBINATION_OF_WINDOW_FRAME_BOUND_SPECS',
        'Unacceptable combination of window frame bound specifications',
      );
    return { kind };
  }
  const e = bindExpr(v, { ...ctx, allowAgg: false });
  return {
    kind,
    offset: () => {
      const x = e.ev();
      const d = x === null ? Number.NaN : Number(coerce(x, e.t, T_DBL));
      if (!(d >= 0))
        throw new SqlError(
          'ER_WRONG_TYPE_FOR_RANGE_FRAME',
          'Numeric datatype is required for RANGE-type frame',
        );
      return d;
    },
  };
}

function frameOf(f: unknown, ctx: BindCtx): WindowFrame | undefined {
  if (f === undefined || f === null) return undefined;
  const o = obj(f);
  const units = String(o.units).toLowerCase();
  if (units !== 'rows' && units !== 'range') throw unsupported(`${String(o.units).toUpperCase()} frames`, f);
  const start = bound(o.start_bound, ctx, true);
  // a frame given by its start alone ends at the current row
  const end =
    o.end_bound === undefined || o.end_bound === null
      ? { kind: 'current' as const }
      : bound(o.end_bound, ctx, false);
  return { units, start, end };
}

/** A window function call `name(rawArgs) OVER over`. */
export function bindWindow(
  name: string,
  rawArgs: unknown[],
  argList: Obj,
  over: unknown,
  ctx: BindCtx,
  text: string,
  n: unknown,
): Bound {
  if (ctx.clause !== 'field list' && ctx.clause !== 'order clause')
    throw new SqlError(
      'ER_WRONG_PLACEMENT_OF_WINDOW_FUNCTION',
      'Window function is allowed only in SELECT list and ORDER BY clause',
    );
  const spec = specOf(over, ctx);
  const inner: BindCtx = { ...ctx, clause: 'window specification' };
  const partition = arr(spec.partition_by).map((p) => keyBound(bindExpr(p, { ...inner, allowAgg: true })));
  const order = arr(spec.order_by).map((o) => {
    const oo = obj(o);
    return {
      b: keyBound(bindExpr(oo.expr, { ...inner, allowAgg: true })),
      desc: obj(oo.options).asc === false,
    };
  });
  const frame = frameOf(spec.window_frame, inner);
  if (
    frame?.units === 'range' &&
    (frame.start.offset !== undefined || frame.end.offset !== undefined) &&
    order.length !== 1
  )
    throw new SqlError(
      'ER_RANGE_FRAME_NEEDS_SIMPLE_ORDERBY',
      'RANGE-type frame requires ORDER BY clause with single sort key',
    );
  const block = ctx.block;
  const slot = block.slot();
  let t: SqlType;
  let args: Bound[] = [];
  let agg: WindowCall['agg'];
  if (RANKING.has(name)) {
    arity(name, rawArgs, name === 'ntile' ? 1 : 0);
    args = rawArgs.map((a) => bindExpr(rawArgExpr(a), inner));
    // MariaDB gives PERCENT_RANK and CUME_DIST ten decimals
    t = name === 'percent_rank' || name === 'cume_dist' ? { ...T_DBL, scale: 10 } : T_INT;
  } else if (VALUE.has(name)) {
    arity(
      name,
      rawArgs,
      name === 'first_value' || name === 'last_value' ? 1 : name === 'nth_value' ? 2 : 1,
      name === 'lag' || name === 'lead' ? 3 : name === 'nth_value' ? 2 : 1,
    );
    args = rawArgs.map((a) => bindExpr(rawArgExpr(a), { ...inner, allowAgg: true }));
    t = name === 'lag' || name === 'lead' ? unify([args[0]!.t, args[2]?.t ?? T_NULL]) : args[0]!.t;
  } else if (AGGREGATES.has(name)) {
    if (argList.duplicate_treatment === 'Distinct')
      throw unsupported(`${name.toUpperCase()}(DISTINCT) as a window function`, n);
    // bound as an aggregate of this block, then taken out of its GROUP BY aggregates: it is
    // computed over the window's frame instead
    const before = block.aggs.length;
    const b = aggregate(name, rawArgs, false, { ...inner, allowAgg: true }, text, n, argList);
    const spec0 = block.aggs.splice(before, 1)[0]!;
    agg = { ...spec0, slot };
    args = spec0.arg === null ? [] : [spec0.arg];
    t = b.t;
  } else throw unsupported(`window function ${name.toUpperCase()}`, n);
  const call: WindowCall = { fn: name, args, partition, order, frame, slot, t, ...(agg ? { agg } : {}) };
  block.windows.push(call);
  const parts = [...args, ...partition, ...order.map((o) => o.b)];
  const fr = block.frame;
  return {
    t: t.kind === 'null' ? T_INT : t,
    ev: () => fr.v[slot],
    refs: [...new Set(parts.flatMap((p) => p.refs))].sort((a, b) => a - b),
    outer: parts.some((p) => p.outer),
    agg: parts.some((p) => p.agg),
    text,
  };
}
