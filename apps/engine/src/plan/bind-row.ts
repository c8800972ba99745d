import { arr, obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { T_BOOL } from '../exec/types.js';
import { type BindCtx, bindExpr, mk } from './bind-expr.js';
import { anyTrue, bindCompare } from './bind-ops.js';
import { slotBound, subqueryPredicate } from './bind-subquery.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * Row constructors: `(a, b) = (1, 2)`, `ROW(a, b) < ROW(x, y)`, `(a, b) IN ((1, 2), (3, 4))` and
 * `(a, b) IN (SELECT x, y …)`, compared element by element as MySQL's Arg_comparator::compare_row:
 * `=` is false at the first pair that differs and NULL when no pair differs but one was NULL; `<>`
 * the opposite; `<=>` true when every pair is equal or both NULL; `<`, `<=`, `>` and `>=` order the
 * rows by their first differing pair and are NULL when a NULL pair comes first.
 */

/** The elements of a row constructor node (a parenthesized list or ROW(…)), or undefined. */
export function rowNodes(n: unknown): unknown[] | undefined {
  const [tag, v] = tagOf(n);
  if (tag === 'Tuple') return arr(v);
  if (tag === 'Nested') return rowNodes(v);
  if (tag === 'Function') {
    const o = obj(v);
    const name = arr(o.name).map((p) => String(obj(tagOf(p)[1]).value ?? ''));
    if (name.length !== 1 || name[0]!.toUpperCase() !== 'ROW') return undefined;
    return arr(obj(tagOf(o.args)[1]).args).map((a) => {
      const [, av] = tagOf(a);
      return tagOf(av)[0] === 'Expr' ? tagOf(av)[1] : av;
    });
  }
  return undefined;
}

function operandColumns(n: number): SqlError {
  return new SqlError('ER_OPERAND_COLUMNS', `Operand should contain ${n} column(s)`);
}

/**
 * The three-way comparison of two bound values under MySQL's rules for the pair (their
 * comparison type, collation): -1, 0 or 1, or null when either is NULL.
 */
function pairOrder(l: Bound, r: Bound): () => number | null {
  const eq = bindCompare('=', l, r, '').ev;
  const lt = bindCompare('<', l, r, '').ev;
  return () => {
    const e = eq();
    if (e === null) return null;
    if (e === 1) return 0;
    return lt() === 1 ? -1 : 1;
  };
}

function nullSafeEqual(l: Bound, r: Bound): Ev {
  return bindCompare('<=>', l, r, '').ev;
}

/** `op` over the elements of two rows of the same width, as the module comment says. */
function rowOrder(op: string, ls: readonly Bound[], rs: readonly Bound[]): Ev {
  if (op === '<=>') {
    const evs = ls.map((l, i) => nullSafeEqual(l, rs[i]!));
    return () => (evs.every((e) => e() === 1) ? 1 : 0);
  }
  const orders = ls.map((l, i) => pairOrder(l, rs[i]!));
  if (op === '=' || op === '<>' || op === '!=') {
    const equal = op === '=';
    return () => {
      let sawNull = false;
      for (const o of orders) {
        const c = o();
        if (c === null) sawNull = true;
        else if (c !== 0) return equal ? 0 : 1;
      }
      if (sawNull) return null;
      return equal ? 1 : 0;
    };
  }
  const holds = (c: number): boolean =>
    op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  return () => {
    for (const o of orders) {
      const c = o();
      if (c === null) return null;
      if (c !== 0) return holds(c) ? 1 : 0;
    }
    return holds(0) ? 1 : 0;
  };
}

/**
 * A row's elements bound, nested rows flattened (`((1, 2), 3)` compares as `(1, 2, 3)` against a
 * row of the same shape), with its shape: the widths, nested ones in brackets.
 */
function bindRow(nodes: readonly unknown[], ctx: BindCtx): { items: Bound[]; shape: string } {
  const items: Bound[] = [];
  const walk = (ns: readonly unknown[]): string =>
    `(${ns
      .map((x) => {
        const inner = rowNodes(x);
        if (inner !== undefined) return walk(inner);
        items.push(bindExpr(x, ctx));
        return '.';
      })
      .join('')})`;
  const shape = walk(nodes);
  return { items, shape };
}

/** The two sides of a row operation, refused with MySQL's errors when their shapes differ. */
function bindOther(
  left: { items: Bound[]; shape: string; width: number },
  right: unknown,
  ctx: BindCtx,
  operation: string,
): Bound[] {
  const rn = rowNodes(right);
  if (rn === undefined) throw rowAndScalar(bindExpr(right, ctx), operation, true);
  const r = bindRow(rn, ctx);
  if (left.shape !== r.shape) throw operandColumns(left.width);
  return r.items;
}

/** 4078 for a single value IN a list of rows (`1 IN ((1, 2))`). */
export function scalarInRows(e: Bound): SqlError {
  return rowAndScalar(e, 'in', false);
}

/** 4078: a row against a single value (`(1, 2) = 1`), naming the value's type as MariaDB does. */
function rowAndScalar(scalar: Bound, operation: string, rowFirst: boolean): SqlError {
  const k = scalar.t.kind;
  const name =
    k === 'int'
      ? scalar.t.prec > 11
        ? 'bigint'
        : 'int'
      : k === 'dec'
        ? 'decimal'
        : k === 'dbl'
          ? 'double'
          : k === 'str'
            ? 'varchar'
            : k;
  const [a, b] = rowFirst ? ['row', name] : [name, 'row'];
  return new SqlError(
    'ER_ILLEGAL_PARAMETER_DATA_TYPES2_FOR_OPERATION',
    `Illegal parameter data types ${a} and ${b} for operation '${operation}'`,
  );
}

/** `left op right` where one side is a row constructor. */
export function bindRowCompare(op: string, left: unknown, right: unknown, ctx: BindCtx, text: string): Bound {
  const ln = rowNodes(left);
  if (ln === undefined) throw rowAndScalar(bindExpr(left, ctx), op, false);
  const l = { ...bindRow(ln, ctx), width: ln.length };
  const rs = bindOther(l, right, ctx, op);
  return mk(T_BOOL, rowOrder(op, l.items, rs), [...l.items, ...rs], text);
}

/** `(a, b) IN ((…), …)`: true when one row is equal, else NULL when one comparison was NULL. */
export function bindRowInList(left: unknown, list: readonly unknown[], ctx: BindCtx, text: string): Bound {
  const ln = rowNodes(left)!;
  const l = { ...bindRow(ln, ctx), width: ln.length };
  const rows = list.map((item) => bindOther(l, item, ctx, 'in'));
  const evs = rows.map((rs) => rowOrder('=', l.items, rs));
  return mk(T_BOOL, () => anyTrue(evs), [...l.items, ...rows.flat()], text);
}

/** `(a, b) IN (SELECT x, y …)`: the rows of the subquery compared as a list of rows. */
export function bindRowInSubquery(left: unknown, q: unknown, ctx: BindCtx, text: string): Bound {
  const ln = rowNodes(left)!;
  const { items: ls, shape } = bindRow(ln, ctx);
  const plan = ctx.env.bindSubquery(q, ctx.block);
  if (plan.columns.length !== ln.length || shape !== `(${'.'.repeat(ln.length)})`)
    throw operandColumns(ln.length);
  // the comparison is bound once over slots that hold one subquery row at a time
  let current: readonly unknown[] = [];
  const equal = rowOrder(
    '=',
    ls,
    plan.types.map((t, i) => slotBound(t, () => current[i] ?? null)),
  );
  let rows: unknown[][] = [];
  const fill = (): void => {
    rows = [];
    plan.run((row) => {
      rows.push([...row]);
      return true;
    });
  };
  const test = (): number | null => {
    let sawNull = false;
    for (const row of rows) {
      current = row;
      const r = equal();
      if (r === 1) return 1;
      if (r === null) sawNull = true;
    }
    return sawNull ? null : 0;
  };
  return subqueryPredicate(ctx, plan, ls, fill, test, text);
}
