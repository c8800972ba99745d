import { arr, obj, tagOf } from '../sql/ast.js';
import { asNumber } from './bind-members.js';
import { SqlError } from '../sql/errors.js';
import { type SqlType, T_BIN, T_DBL, T_INT, T_NULL, T_STR, decType } from '../exec/types.js';
import { type BindCtx, bindExpr, castEv, mk, unsupported } from './bind-expr.js';
import { rawArgExpr } from './bind-func.js';
import type { Bound } from '../exec/bound.js';
import { keyBound, keyValueOf } from '../exec/collation-keys.js';
import { hashKey } from '../exec/compare.js';

/**
 * Aggregate calls: the argument is bound in the same block (no aggregate inside), the result
 * type is MySQL's (see exec/aggregate.ts), and the call becomes a read of the aggregate's slot,
 * which the grouping writes after each group.
 */

export function aggregate(
  name: string,
  rawArgs: unknown[],
  distinct: boolean,
  ctx: BindCtx,
  text: string,
  n: unknown,
  argList: Record<string, unknown>,
): Bound {
  if (!ctx.allowAgg) throw new SqlError('ER_INVALID_GROUP_FUNC_USE', 'Invalid use of group function');
  const inner: BindCtx = { ...ctx, allowAgg: false };
  let arg: Bound | null = null;
  if (rawArgs.length > 0) {
    const [t, av] = tagOf(rawArgs[0]);
    const a = t === 'Unnamed' ? av : obj(av).arg;
    const [it, iv] = tagOf(a);
    if (it === 'Expr') {
      const args = rawArgs.map((r) => bindExpr(rawArgExpr(r), inner));
      arg = args[0]!;
      if (args.length > 1 && name === 'count' && distinct) arg = distinctTuple(args, text);
      else if (args.length > 1) {
        if (name !== 'group_concat')
          throw new SqlError(
            'ER_PARSE_ERROR',
            `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${text}' at line 1`,
          );
        // GROUP_CONCAT(a, b): concatenation of the arguments
        const evs = args.map((x) => castEv(x, T_STR));
        arg = mk(
          T_STR,
          () => {
            let s = '';
            for (const e of evs) {
              const x = e();
              if (x === null) return null;
              s += x as string;
            }
            return s;
          },
          args,
          text,
        );
      }
    } else if (it !== 'Wildcard' && it !== 'QualifiedWildcard') throw unsupported(`argument of ${name}()`, n);
    void iv;
  }
  if (arg === null && name !== 'count') throw unsupported(`${name}(*)`, n);
  // the numeric aggregates read an ENUM or SET by its number (MIN, MAX, COUNT and GROUP_CONCAT by its text)
  if (arg !== null && name !== 'count' && name !== 'min' && name !== 'max' && name !== 'group_concat')
    arg = asNumber(arg);
  // SUM and AVG read a date or time as its number, exactly: a DECIMAL with its fractional digits
  // (SUM of two DATETIME(3) values is 40470731335960.124, not a double's approximation)
  if (arg !== null && (name === 'sum' || name === 'avg')) arg = temporalAsDecimal(arg);
  const slot = ctx.block.slot();
  let t: SqlType;
  const at = arg?.t ?? T_INT;
  switch (name) {
    case 'count':
      t = T_INT;
      break;
    case 'sum':
      t =
        at.kind === 'int' || at.kind === 'null'
          ? decType(at.prec + 22, 0)
          : at.kind === 'dec'
            ? decType(at.prec + 22, at.scale, at.iscale)
            : T_DBL;
      break;
    case 'avg': {
      const inc = ctx.env.divPrecisionIncrement;
      if (at.kind === 'int' || at.kind === 'null' || at.kind === 'dec') {
        const s = at.kind === 'dec' ? at.iscale : 0;
        const shown = at.kind === 'dec' ? at.scale : 0;
        t = decType(at.prec + inc, shown + inc, Math.ceil((s + inc) / 9) * 9);
      } else t = T_DBL;
      break;
    }
    case 'min':
    case 'max':
      t = at.kind === 'null' ? T_NULL : at;
      break;
    case 'group_concat':
      t = T_STR;
      break;
    case 'bit_and':
    case 'bit_or':
    case 'bit_xor':
      t = T_INT;
      break;
    default:
      // the deviations and variances: a DOUBLE shown with four decimals past an exact argument's
      t =
        at.kind === 'int' || at.kind === 'dec'
          ? { ...T_DBL, scale: Math.min(at.scale + 4, T_DBL.scale) }
          : T_DBL;
  }
  const clauses = arr(argList.clauses).map((c) => tagOf(c));
  const sepNode = clauses.find(([k]) => k === 'Separator');
  // SEPARATOR 'x' is a Value node: { value: { SingleQuotedString: 'x' } }
  const sepValue = sepNode === undefined ? undefined : tagOf(obj(sepNode[1]).value ?? sepNode[1])[1];
  const sep = typeof sepValue === 'string' ? sepValue : ',';
  // GROUP_CONCAT(… ORDER BY …): the values are sorted before they are joined
  const orderNode = clauses.find(([k]) => k === 'OrderBy');
  // GROUP_CONCAT(DISTINCT …) without ORDER BY joins its values in their sorted order, the order
  // of the tree MariaDB keeps them distinct in
  const order =
    orderNode === undefined
      ? name === 'group_concat' && distinct && arg !== null
        ? [{ b: keyBound(arg), desc: false }]
        : undefined
      : arr(orderNode[1]).map((o) => ({
          b: keyBound(bindExpr(obj(o).expr, inner)),
          desc: obj(obj(o).options).asc === false,
        }));
  // GROUP_CONCAT's text is cut at group_concat_max_len bytes, with warning 1260
  const cut =
    name === 'group_concat'
      ? {
          maxLen: Number(ctx.env.sysVar('group_concat_max_len', undefined).v),
          warn: (row: number) => ctx.env.warn(1260, `Row ${row} was cut by GROUP_CONCAT()`),
        }
      : undefined;
  ctx.block.aggs.push({
    fn: name,
    arg,
    distinct,
    slot,
    t,
    sep,
    ...(order ? { order } : {}),
    ...(cut ? { cut } : {}),
  });
  const frame = ctx.block.frame;
  return { t, ev: () => frame.v[slot], refs: [], outer: arg?.outer ?? false, agg: true, text };
}

/**
 * COUNT(DISTINCT a, b, …)'s argument: NULL when any part is NULL (such rows are not counted), else
 * one key naming the tuple — each part by its comparison key (weights under its collation, a
 * DECIMAL by its scaled digits), so two tuples are one key exactly when every part compares equal.
 */
function distinctTuple(args: readonly Bound[], text: string): Bound {
  const evs = args.map((a) => a.ev);
  const types = args.map((a) => a.t);
  return mk(
    T_BIN,
    () => {
      const parts: (string | number)[] = [];
      for (let i = 0; i < evs.length; i++) {
        const v = evs[i]!();
        if (v === null) return null;
        const t = types[i]!;
        parts.push(t.kind === 'dec' ? `d${String(v)}` : hashKey(keyValueOf(v, t)));
      }
      return JSON.stringify(parts);
    },
    args,
    text,
  );
}

/** A DATE, DATETIME or TIME operand as the DECIMAL of its number form (other operands as they are). */
function temporalAsDecimal(b: Bound): Bound {
  const k = b.t.kind;
  if (k !== 'date' && k !== 'datetime' && k !== 'time') return b;
  const fsp = k === 'date' ? 0 : b.t.scale;
  const t = decType((k === 'date' ? 8 : k === 'datetime' ? 14 : 7) + fsp, fsp);
  return mk(t, castEv(b, t), [b], b.text);
}
