import { arr, obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { comparisonType, converter } from '../exec/compare.js';
import { type SqlType, T_BOOL } from '../exec/types.js';
import { type BindCtx, mk, type SubPlan } from './bind-expr.js';
import { bindCompare, keyOf } from './bind-ops.js';
import { parseSwitches } from './optimizer/settings.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * Subqueries in expressions: uncorrelated ones run once per statement execution (cached by the
 * run's epoch), correlated ones through the subquery cache; IN (subquery) builds the set of the
 * subquery's values with MySQL's NULL rules.
 */

/** Misses after which a cache whose hit rate is below {@link MIN_HIT_RATE} is switched off. */
const CHECK_HIT_RATE_AFTER = 200;
/** The hit rate below which a cache is switched off (at that check, or when it fills). */
const MIN_HIT_RATE = 0.2;
/** Bytes charged per cache entry besides its values (a heap table row's overhead, roughly). */
const ENTRY_BYTES = 32;

export function subCache(ctx: BindCtx, plan: SubPlan): (f: () => unknown) => Ev {
  const run = ctx.block.run;
  return (f) => {
    if (plan.correlated) return expressionCache(ctx, plan.outerValues, f);
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
 * MariaDB's subquery cache (`optimizer_switch` subquery_cache, sql_expression_cache.cc) around a
 * correlated subquery `f`: its result kept per set of `params` — the outer values it reads, and
 * for IN the left operand's value too — for the statement execution (null params: not cached).
 * A key with a NULL never hits. After 200 misses a hit rate below 20 % switches the cache off for
 * the rest of the execution (the subquery then runs every time, uncounted); when
 * the entries outgrow min(tmp_table_size, max_heap_table_size), a rate below 20 % switches it off
 * and any other empties it (MariaDB moves a cache above 70 % to disk instead). Hits and misses
 * go to Subquery_cache_hit / Subquery_cache_miss, and the cache's table counts as MariaDB's does:
 * Created_tmp_tables once per execution, Handler_read_key per lookup, Handler_tmp_write per miss
 * written. A subquery whose result is not a function of outer columns alone (a user variable,
 * LAST_INSERT_ID(), an outer reference that is not a column) is not cached.
 */
export function expressionCache(ctx: BindCtx, params: readonly Ev[] | null, f: () => unknown): Ev {
  const on = parseSwitches(String(ctx.env.sysVar('optimizer_switch', 'session').v)).subquery_cache === true;
  if (params === null || params.length === 0 || !on) return f;
  const run = ctx.block.run;
  const status = ctx.env.status;
  const limit = Math.min(
    Number(ctx.env.sysVar('tmp_table_size', 'session').v),
    Number(ctx.env.sysVar('max_heap_table_size', 'session').v),
  );
  const one = params.length === 1 ? params[0]! : null;
  const cache = new Map<unknown, unknown>();
  let epoch = -1;
  let enabled = true;
  let hits = 0;
  let misses = 0;
  let bytes = 0;
  return () => {
    if (epoch !== run.epoch) {
      // the cache is an internal temporary table made at its first use in each execution
      epoch = run.epoch;
      cache.clear();
      enabled = true;
      hits = 0;
      misses = 0;
      bytes = 0;
      status.add('Created_tmp_tables', 1);
    }
    if (!enabled) return f();
    // a lookup in the cache's table (none for a key with a NULL), counted as MariaDB counts it
    const key = one === null ? compositeKey(params) : plainKey(one());
    if (key !== undefined) {
      status.add('Handler_read_key', 1);
      if (cache.has(key)) {
        hits++;
        status.add('Subquery_cache_hit', 1);
        return cache.get(key);
      }
    }
    misses++;
    status.add('Subquery_cache_miss', 1);
    if (misses === CHECK_HIT_RATE_AFTER && hits / (hits + misses) < MIN_HIT_RATE) {
      enabled = false;
      cache.clear();
      return f();
    }
    const value = f();
    // every miss is written to the table; a key with a NULL is never found again
    status.add('Handler_tmp_write', 1);
    if (key === undefined) return value;
    bytes += ENTRY_BYTES + sizeOf(key) + sizeOf(value);
    if (bytes > limit) {
      cache.clear();
      bytes = 0;
      if (hits / (hits + misses) < MIN_HIT_RATE) {
        enabled = false;
        return value;
      }
    }
    cache.set(key, value);
    return value;
  };
}

/** One outer value as a cache key (a set's {@link keyOf}): undefined for NULL (never found) or a value with no exact key. */
function plainKey(v: unknown): unknown {
  if (v === null || v === undefined || typeof v === 'object') return undefined;
  return keyOf(v);
}

/** Several outer values as one key (each part typed and length-prefixed), or undefined as {@link plainKey}. */
function compositeKey(params: readonly Ev[]): string | undefined {
  let key = '';
  for (const p of params) {
    const k = plainKey(p());
    if (k === undefined) return undefined;
    const part = typeof k === 'number' ? `d${k}` : (k as string);
    key += `${part.length}:${part}`;
  }
  return key;
}

function sizeOf(v: unknown): number {
  return typeof v === 'string' ? v.length * 2 : 8;
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

/**
 * A subquery predicate's evaluation: `fill` (which reads the subquery) runs before `test` once per
 * statement execution, or every time for a correlated subquery, whose answer is then kept by the
 * subquery cache keyed by `left` (the predicate's own operands) and the outer values it reads.
 * The result is a truth value over `parts`.
 */
export function subqueryPredicate(
  ctx: BindCtx,
  plan: SubPlan,
  left: readonly Bound[],
  fill: () => void,
  test: () => number | null,
  text: string,
): Bound {
  const run = ctx.block.run;
  let epoch = -1;
  const ev: Ev = () => {
    if (plan.correlated || epoch !== run.epoch) {
      fill();
      epoch = run.epoch;
    }
    return test();
  };
  const answer = plan.correlated
    ? expressionCache(
        ctx,
        plan.outerValues === null ? null : [...left.map((b) => b.ev), ...plan.outerValues],
        ev,
      )
    : ev;
  const sb = subBound(ctx, plan, T_BOOL, answer, text);
  return mk(T_BOOL, answer, [...left, sb], text);
}

/** A bound value read from `read` (a slot the caller fills), of type `t`. */
export function slotBound(t: SqlType, read: Ev): Bound {
  return { t, ev: read, refs: [], outer: false, agg: false, text: '' };
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
  // the subquery's values as a set
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
  const test = (): number | null => {
    const v = ee();
    if (v === null) return set.size === 0 && !hasNull ? 0 : null;
    if (set.has(keyOf(ce === null ? v : ce(v)))) return 1;
    return hasNull ? null : 0;
  };
  return subqueryPredicate(ctx, plan, [e], fill, test, text);
}

/**
 * `e op ANY (subquery)` and `e op ALL (subquery)` for an order comparison `op`: the comparison of
 * `e` with each of the subquery's values under the usual rules (collation, number or text), ANY
 * true when one is true, ALL false when one is false, otherwise NULL when one was NULL, else
 * ANY false and ALL true (so over no rows ANY is false and ALL true, whatever `e` is).
 */
export function bindQuantified(
  e: Bound,
  op: string,
  all: boolean,
  q: unknown,
  ctx: BindCtx,
  text: string,
): Bound {
  const plan = ctx.env.bindSubquery(q, ctx.block);
  if (plan.columns.length !== 1)
    throw new SqlError('ER_OPERAND_COLUMNS', 'Operand should contain 1 column(s)');
  // the comparison is bound once over two slots: the left value of this row, one subquery value
  let left: unknown = null;
  let right: unknown = null;
  const cmp = bindCompare(
    op,
    slotBound(e.t, () => left),
    slotBound(plan.types[0]!, () => right),
    '',
  ).ev;
  let values: unknown[] = [];
  const fill = (): void => {
    values = [];
    plan.run((row) => {
      values.push(row[0]);
      return true;
    });
  };
  const ee = e.ev;
  const test = (): number | null => {
    left = ee();
    let unknown = false;
    for (const v of values) {
      right = v;
      const r = cmp();
      if (r === null) unknown = true;
      else if ((r === 1) !== all) return all ? 0 : 1;
    }
    if (unknown) return null;
    return all ? 1 : 0;
  };
  return subqueryPredicate(ctx, plan, [e], fill, test, text);
}
