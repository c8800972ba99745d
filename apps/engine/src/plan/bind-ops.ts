import { arr, obj, type Obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { type BinOp, makeArith } from '../exec/arith.js';
import { cmpValues, comparisonType, converter } from '../exec/compare.js';
import { coerce } from '../exec/convert.js';
import { type SqlType, T_DATE, T_DBL, T_INT, T_STR, decType, unify as unifyTypes } from '../exec/types.js';
import { truthOf } from '../exec/truth.js';
import { type BindCtx, bindExpr, literal, mk, normU64, unsupported } from './bind-expr.js';
import { bindFunction } from './bind-func.js';
import type { Bound } from './bound.js';
import type { Ev } from './scope.js';

/**
 * Operators of the binder: logic (three-valued), comparisons with MySQL's conversions,
 * arithmetic, bit operators, IN lists, LIKE, CASE and CAST. Each returns a Bound whose closure is
 * built once here.
 */

export function bindNot(e: Bound, text: string): Bound {
  const tr = truthOf(e);
  return mk(
    T_INT,
    () => {
      const x = tr();
      return x === null ? null : x ? 0 : 1;
    },
    [e],
    text,
  );
}

export function bindLogic(op: 'And' | 'Or' | 'Xor', a: Bound, b: Bound, text: string): Bound {
  const ta = truthOf(a);
  const tb = truthOf(b);
  let ev: Ev;
  if (op === 'And')
    ev = () => {
      const x = ta();
      if (x === false) return 0;
      const y = tb();
      if (y === false) return 0;
      return x === null || y === null ? null : 1;
    };
  else if (op === 'Or')
    ev = () => {
      const x = ta();
      if (x === true) return 1;
      const y = tb();
      if (y === true) return 1;
      return x === null || y === null ? null : 0;
    };
  else
    ev = () => {
      const x = ta();
      const y = tb();
      return x === null || y === null ? null : x !== y ? 1 : 0;
    };
  return mk(T_INT, ev, [a, b], text, op === 'Or' ? { or: [a, b] } : op === 'And' ? { and: [a, b] } : {});
}

/** A comparison with MySQL's conversions; returns 1, 0 or NULL. */
export function bindCompare(op: string, l: Bound, r: Bound, text: string): Bound {
  const ct = comparisonType(l.t, r.t);
  const cl = converter(l.t, ct);
  const cr = converter(r.t, ct);
  const le = l.ev;
  const re = r.ev;
  const get = (side: Bound, e: Ev, c: ((v: unknown) => unknown) | null): Ev => {
    if (c === null) return e;
    // a literal side is converted once, here, not per row (a DATE column against '1995-03-15')
    if (side.lit !== undefined) {
      const x = side.lit.v;
      try {
        const v = x === null ? null : c(x);
        return () => v;
      } catch {
        // a conversion that fails fails when run, as written
      }
    }
    return () => {
      const x = e();
      return x === null ? null : c(x);
    };
  };
  const a = get(l, le, cl);
  const b = get(r, re, cr);
  let ev: Ev;
  switch (op) {
    case '=':
      ev = () => {
        const x = a();
        if (x === null) return null;
        const y = b();
        if (y === null) return null;
        return cmpValues(x, y) === 0 ? 1 : 0;
      };
      break;
    case '<>':
      ev = () => {
        const x = a();
        if (x === null) return null;
        const y = b();
        if (y === null) return null;
        return cmpValues(x, y) !== 0 ? 1 : 0;
      };
      break;
    case '<=>':
      ev = () => {
        const x = a();
        const y = b();
        if (x === null || y === null) return x === y ? 1 : 0;
        return cmpValues(x, y) === 0 ? 1 : 0;
      };
      break;
    default: {
      const test: (c: number) => boolean =
        op === '<' ? (c) => c < 0 : op === '<=' ? (c) => c <= 0 : op === '>' ? (c) => c > 0 : (c) => c >= 0;
      ev = () => {
        const x = a();
        if (x === null) return null;
        const y = b();
        if (y === null) return null;
        return test(cmpValues(x, y)) ? 1 : 0;
      };
    }
  }
  return mk(T_INT, ev, [l, r], text, { cmp: { op, l, r } });
}

export function bindArith(
  op: BinOp,
  l: Bound,
  r: Bound,
  text: string,
  ctx: BindCtx,
  rightNode: unknown,
): Bound {
  if (
    (op === '+' || op === '-') &&
    (tagOf(rightNode)[0] === 'Interval' || (l.t.kind === 'date' && r.t.kind === 'null'))
  ) {
    const [, iv] = tagOf(rightNode);
    if (tagOf(rightNode)[0] === 'Interval')
      return bindFunction('DateArith', { date: l, interval: iv, sign: op === '+' ? 1 : -1 }, ctx, rightNode);
  }
  const a = makeArith(
    op,
    l.t.kind === 'null' ? T_INT : l.t,
    r.t.kind === 'null' ? T_INT : r.t,
    text,
    ctx.env.divPrecisionIncrement,
  );
  const f = a.f;
  const le = l.ev;
  const re = r.ev;
  const ev: Ev = () => {
    const x = le();
    if (x === null) return null;
    const y = re();
    if (y === null) return null;
    return f(x, y);
  };
  if (l.lit !== undefined && r.lit !== undefined) return literal(a.t, ev(), text);
  return mk(a.t, ev, [l, r], text);
}

export function bindBitwise(op: string, l: Bound, r: Bound, text: string): Bound {
  const le = l.ev;
  const re = r.ev;
  const u = (b: Bound, x: unknown): bigint =>
    BigInt.asUintN(64, BigInt(coerce(x, b.t, T_INT) as number | bigint));
  const f: (a: bigint, b: bigint) => bigint =
    op === 'BitwiseOr'
      ? (a, b) => a | b
      : op === 'BitwiseAnd'
        ? (a, b) => a & b
        : op === 'BitwiseXor'
          ? (a, b) => a ^ b
          : op === 'PGBitwiseShiftLeft'
            ? (a, b) => BigInt.asUintN(64, a << b)
            : (a, b) => a >> b;
  return mk(
    T_INT,
    () => {
      const x = le();
      if (x === null) return null;
      const y = re();
      if (y === null) return null;
      return normU64(f(u(l, x), u(r, y)));
    },
    [l, r],
    text,
  );
}

export function bindIn(e: Bound, list: Bound[], text: string): Bound {
  const eqs = list.map((x) => bindCompare('=', e, x, ''));
  const evs = eqs.map((q) => q.ev);
  const allConst = list.every((x) => x.lit !== undefined);
  // constant lists of one comparison type: a Set lookup
  if (allConst && list.length > 4) {
    const ct = list.reduce((t, x) => comparisonType(t, x.t), e.t);
    const conv = converter(e.t, ct);
    const set = new Set<unknown>();
    let hasNull = false;
    for (const x of list) {
      if (x.lit!.v === null) hasNull = true;
      else {
        const c = converter(x.t, ct);
        set.add(keyOf(c === null ? x.lit!.v : c(x.lit!.v)));
      }
    }
    const ee = e.ev;
    return mk(
      T_INT,
      () => {
        const v = ee();
        if (v === null) return null;
        if (set.has(keyOf(conv === null ? v : conv(v)))) return 1;
        return hasNull ? null : 0;
      },
      [e, ...list],
      text,
    );
  }
  return mk(
    T_INT,
    () => {
      let sawNull = false;
      for (const q of evs) {
        const r = q();
        if (r === 1) return 1;
        if (r === null) sawNull = true;
      }
      return sawNull ? null : 0;
    },
    [e, ...list],
    text,
  );
}

export function keyOf(v: unknown): unknown {
  if (typeof v === 'bigint') return `n${v}`;
  if (typeof v === 'number') return v === 0 ? 0 : v;
  return `s${String(v)}`;
}

/** Uncorrelated subqueries run once per statement execution. */
export function bindLike(
  e: Bound,
  p: Bound,
  escNode: unknown,
  negated: boolean,
  text: string,
  ci: boolean,
): Bound {
  let esc = '\\';
  if (escNode !== undefined && escNode !== null) {
    const [, ev] = tagOf(obj(escNode).value ?? escNode);
    if (typeof ev === 'string') esc = ev;
  }
  const toS = (b: Bound): Ev => {
    if (b.t.kind === 'str') return b.ev;
    const ev = b.ev;
    return () => {
      const x = ev();
      return x === null ? null : coerce(x, b.t, T_STR);
    };
  };
  const se = toS(e);
  const pe = toS(p);
  let lastPat: string | undefined;
  let re: RegExp = /$^/;
  const compilePat = (pat: string): RegExp => {
    let out = '';
    for (let i = 0; i < pat.length; i++) {
      const c = pat[i]!;
      if (c === esc && i + 1 < pat.length) {
        out += escapeRe(pat[++i]!);
      } else if (c === '%') out += '[\\s\\S]*';
      else if (c === '_') out += '[\\s\\S]';
      else out += escapeRe(c);
    }
    return new RegExp(`^${out}$`, ci ? 'iu' : 'u');
  };
  return mk(
    T_INT,
    () => {
      const s = se();
      if (s === null) return null;
      const pat = pe();
      if (pat === null) return null;
      if (pat !== lastPat) {
        re = compilePat(pat as string);
        lastPat = pat as string;
      }
      const m = re.test(s as string);
      return m !== negated ? 1 : 0;
    },
    [e, p],
    text,
  );
}

function escapeRe(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

export function bindCase(o: Obj, ctx: BindCtx, text: string): Bound {
  const operand = o.operand === undefined || o.operand === null ? undefined : bindExpr(o.operand, ctx);
  const conds = arr(o.conditions).map((c) => {
    const co = obj(c);
    const w = bindExpr(co.condition, ctx);
    return {
      when: operand === undefined ? w : bindCompare('=', operand, w, ''),
      result: bindExpr(co.result, ctx),
    };
  });
  const els =
    o.else_result === undefined || o.else_result === null ? undefined : bindExpr(o.else_result, ctx);
  const results = [...conds.map((c) => c.result), ...(els === undefined ? [] : [els])];
  const t = unifyTypes(results.map((r) => r.t));
  const whens = conds.map((c) => truthOf(c.when));
  const thens = conds.map((c) => castEv(c.result, t));
  const elseEv = els === undefined ? () => null : castEv(els, t);
  const n = whens.length;
  const ev: Ev = () => {
    for (let i = 0; i < n; i++) if (whens[i]!() === true) return thens[i]!();
    return elseEv();
  };
  return mk(
    t,
    ev,
    [
      ...conds.flatMap((c) => [c.when, c.result]),
      ...(els === undefined ? [] : [els]),
      ...(operand ? [operand] : []),
    ],
    text,
  );
}

/** A closure giving `b`'s value as type `t`. */
export function castEv(b: Bound, t: SqlType): Ev {
  if (b.t.kind === t.kind && (t.kind !== 'dec' || b.t.iscale === t.iscale)) return b.ev;
  if (b.t.kind === 'null') return () => null;
  const ev = b.ev;
  const from = b.t;
  return () => {
    const x = ev();
    return x === null ? null : coerce(x, from, t);
  };
}

export function bindCast(o: Obj, ctx: BindCtx, text: string): Bound {
  const e = bindExpr(o.expr, ctx);
  const [dt, dv] = tagOf(o.data_type);
  let t: SqlType;
  switch (dt) {
    case 'Signed':
    case 'SignedInteger':
    case 'Integer':
    case 'Int':
    case 'BigInt':
      t = T_INT;
      break;
    case 'Unsigned':
    case 'UnsignedInteger': {
      const ev = e.ev;
      const from = e.t;
      return mk(
        T_INT,
        () => {
          const x = ev();
          if (x === null) return null;
          const i = coerce(x, from, T_INT) as number | bigint;
          return normU64(BigInt.asUintN(64, BigInt(i)));
        },
        [e],
        text,
      );
    }
    case 'Decimal':
    case 'Numeric':
    case 'Dec': {
      const [pt, pv] = tagOf(dv);
      let p = 10;
      let s = 0;
      if (pt === 'PrecisionAndScale') [p, s] = arr(pv) as [number, number];
      else if (pt === 'Precision') p = pv as number;
      if (p > 65)
        throw new SqlError(
          'ER_TOO_BIG_PRECISION',
          `Too big precision ${p} specified for '${e.text}'. Maximum is 65.`,
        );
      t = decType(p, s);
      const ev = e.ev;
      const from = e.t;
      const lim = 10n ** BigInt(p);
      return mk(
        t,
        () => {
          const x = ev();
          if (x === null) return null;
          const d = coerce(x, from, t) as bigint;
          // out of range: the largest value of the type, as MySQL (with a warning)
          if (d >= lim) return lim - 1n;
          if (d <= -lim) return -(lim - 1n);
          return d;
        },
        [e],
        text,
      );
    }
    case 'Double':
    case 'Float':
    case 'Real':
    case 'DoublePrecision':
      t = T_DBL;
      break;
    case 'Char':
    case 'Varchar':
    case 'Text':
    case 'Binary':
    case 'Nchar':
      t = T_STR;
      break;
    case 'Date':
      t = T_DATE;
      break;
    default:
      throw unsupported(`CAST AS ${dt}`, o);
  }
  return mk(t, castEv(e, t), [e], text);
}
