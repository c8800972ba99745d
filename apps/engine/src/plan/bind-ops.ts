import { arr, obj, type Obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { type BinOp, makeArith, makeNumArith } from '../exec/arith.js';
import { cmpValues, comparisonType, converter } from '../exec/compare.js';
import { coerce } from '../exec/convert.js';
import {
  type CmpOp,
  compileCompare,
  compileNum,
  type NumNode,
  numOf,
  numOfValue,
  pow10Num,
  scaledBy,
} from '../exec/scaled.js';
import {
  type SqlType,
  T_DATE,
  T_DBL,
  T_BOOL,
  T_INT,
  T_STR,
  T_UINT,
  T_BIN,
  dateTimeType,
  decType,
  timeType,
  unify as unifyTypes,
} from '../exec/types.js';
import { truthOf } from '../exec/truth.js';
import { truncateMicros } from '../storage/temporal.js';
import { timeEv } from './bind-date.js';
import { type BindCtx, bindExpr, literal, mk, normU64, unsupported } from './bind-expr.js';
import { bindFunction } from './bind-func.js';
import { asNumber, comparedAsNumbers } from './bind-members.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * Operators of the binder: logic (three-valued), comparisons with MySQL's conversions,
 * arithmetic, bit operators, IN lists, LIKE, CASE and CAST. Each returns a Bound whose closure is
 * built once here.
 */

export function bindNot(e: Bound, text: string): Bound {
  const tr = truthOf(e);
  const truth = (): boolean | null => {
    const x = tr();
    return x === null ? null : !x;
  };
  return mk(
    T_BOOL,
    () => {
      const x = tr();
      return x === null ? null : x ? 0 : 1;
    },
    [e],
    text,
    { truth },
  );
}

export function bindLogic(op: 'And' | 'Or' | 'Xor', a: Bound, b: Bound, text: string): Bound {
  const ta = truthOf(a);
  const tb = truthOf(b);
  let truth: () => boolean | null;
  if (op === 'And')
    truth = () => {
      const x = ta();
      if (x === false) return false;
      const y = tb();
      if (y === false) return false;
      return x === null || y === null ? null : true;
    };
  else if (op === 'Or')
    truth = () => {
      const x = ta();
      if (x === true) return true;
      const y = tb();
      if (y === true) return true;
      return x === null || y === null ? null : false;
    };
  else
    truth = () => {
      const x = ta();
      const y = tb();
      return x === null || y === null ? null : x !== y;
    };
  const pair: readonly [Bound, Bound] = [a, b];
  const extra: Partial<Bound> =
    op === 'Or' ? { truth, or: pair } : op === 'And' ? { truth, and: pair } : { truth };
  return mk(T_BOOL, truthValue(truth), [a, b], text, extra);
}

/** 1, 0 or NULL from a truth closure. */
function truthValue(truth: () => boolean | null): Ev {
  return () => {
    const x = truth();
    return x === null ? null : x ? 1 : 0;
  };
}

/** A comparison with MySQL's conversions; returns 1, 0 or NULL. */
export function bindCompare(op: string, l0: Bound, r0: Bound, text: string): Bound {
  const [l, r] = comparedAsNumbers(l0, r0);
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
  let slow: () => boolean | null;
  if (op === '<=>')
    slow = () => {
      const x = a();
      const y = b();
      if (x === null || y === null) return x === y;
      return cmpValues(x, y) === 0;
    };
  else {
    const test = cmpTest(op);
    slow = () => {
      const x = a();
      if (x === null) return null;
      const y = b();
      if (y === null) return null;
      return test(cmpValues(x, y));
    };
  }
  const truth = fastCompare(op, l, r, ct, slow) ?? slow;
  return mk(T_BOOL, truthValue(truth), [l, r], text, { cmp: { op, l, r }, truth });
}

function cmpTest(op: string): (c: number) => boolean {
  switch (op) {
    case '=':
      return (c) => c === 0;
    case '<>':
      return (c) => c !== 0;
    case '<':
      return (c) => c < 0;
    case '<=':
      return (c) => c <= 0;
    case '>':
      return (c) => c > 0;
    default:
      return (c) => c >= 0;
  }
}

/**
 * A side of a comparison on the scaled-integer fast path, at the comparison type's scale: a
 * literal converted once, a column or arithmetic through its `num` (exec/scaled.ts).
 */
function compareSide(side: Bound, ct: SqlType): NumNode | undefined {
  if (side.lit !== undefined) {
    const c = converter(side.t, ct);
    let v: unknown;
    try {
      v = side.lit.v === null || c === null ? side.lit.v : c(side.lit.v);
    } catch {
      return undefined;
    }
    return { k: 'const', x: numOfValue(v) };
  }
  const k = side.t.kind;
  const n = numOf(side);
  if (n === undefined) return undefined;
  if (ct.kind === 'date') return k === 'date' ? n : undefined;
  if (ct.kind === 'int') return k === 'int' ? n : undefined;
  if (ct.kind !== 'dec') return undefined;
  if (k === 'int') return scaledBy(n, pow10Num(ct.iscale));
  if (k === 'dec') return scaledBy(n, pow10Num(ct.iscale - side.t.iscale));
  return undefined;
}

/**
 * The comparison on doubles when both sides have a fast path (INT, DECIMAL, DATE), or on strings
 * directly for = and <> of two strings; `slow` (the exact path) answers whenever a side is NaN.
 */
function fastCompare(
  op: string,
  l: Bound,
  r: Bound,
  ct: SqlType,
  slow: () => boolean | null,
): (() => boolean | null) | undefined {
  if (op === '<=>') return undefined;
  if (
    ct.kind === 'str' &&
    (ct.collation === undefined || ct.collation === 'bytes') &&
    l.t.kind === 'str' &&
    r.t.kind === 'str' &&
    (op === '=' || op === '<>')
  ) {
    const le = l.ev;
    const re = r.ev;
    const eq = op === '=';
    return () => {
      const x = le();
      if (x === null) return null;
      const y = re();
      if (y === null) return null;
      return (x === y) === eq;
    };
  }
  if (ct.kind !== 'int' && ct.kind !== 'dec' && ct.kind !== 'date') return undefined;
  const a = compareSide(l, ct);
  const b = compareSide(r, ct);
  if (a === undefined || b === undefined) return undefined;
  return compileCompare(op as CmpOp, a, b, slow);
}

export function bindArith(
  op: BinOp,
  l0: Bound,
  r0: Bound,
  text: string,
  ctx: BindCtx,
  rightNode: unknown,
): Bound {
  const l = asNumber(l0);
  const r = asNumber(r0);
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
  // a division or modulo by zero is NULL with warning 1365, as MySQL
  const divides = op === '/' || op === 'DIV' || op === '%';
  const exact: Ev = () => {
    const x = le();
    if (x === null) return null;
    const y = re();
    if (y === null) return null;
    const v = f(x, y);
    if (v === null && divides) ctx.env.warn(1365, 'Division by 0');
    return v;
  };
  if (l.lit !== undefined && r.lit !== undefined) return literal(a.t, exact(), text);
  const ln = numOf(l);
  const rn = numOf(r);
  const fast =
    ln === undefined || rn === undefined
      ? undefined
      : makeNumArith(op, l.t.kind === 'null' ? T_INT : l.t, r.t.kind === 'null' ? T_INT : r.t, ln, rn);
  if (fast === undefined || (a.t.kind === 'dec' ? fast.iscale !== a.t.iscale : a.t.kind !== 'int'))
    return mk(a.t, exact, [l, r], text);
  const num = compileNum(fast.num);
  // the exact value when the fast path cannot vouch for it; one bigint at most otherwise
  const ev: Ev =
    a.t.kind === 'dec'
      ? () => {
          const x = num();
          return !Number.isNaN(x) ? BigInt(x) : exact();
        }
      : () => {
          const x = num();
          return !Number.isNaN(x) ? x : exact();
        };
  return mk(a.t, ev, [l, r], text, { num: fast.num });
}

/** An operand of a bit operator: its integer value as an unsigned 64-bit word. */
export function bitWord(b: Bound, x: unknown): bigint {
  return BigInt.asUintN(64, BigInt(coerce(x, b.t, T_INT) as number | bigint));
}

/** `| & ^ << >>` on unsigned 64-bit words (BIGINT UNSIGNED results); a shift by 64 or more gives 0. */
export function bindBitwise(op: string, l: Bound, r: Bound, text: string): Bound {
  const le = l.ev;
  const re = r.ev;
  const u = bitWord;
  const f: (a: bigint, b: bigint) => bigint =
    op === 'BitwiseOr'
      ? (a, b) => a | b
      : op === 'BitwiseAnd'
        ? (a, b) => a & b
        : op === 'BitwiseXor'
          ? (a, b) => a ^ b
          : op === 'PGBitwiseShiftLeft'
            ? (a, b) => (b >= 64n ? 0n : BigInt.asUintN(64, a << b))
            : (a, b) => (b >= 64n ? 0n : a >> b);
  return mk(
    T_UINT,
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
      T_BOOL,
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
  // one comparison per item, bound only here: a long constant list above never compiles them
  const evs = list.map((x) => bindCompare('=', e, x, '').ev);
  return mk(T_BOOL, () => anyTrue(evs), [e, ...list], text);
}

/** An OR of truth values under SQL's rules: 1 when one is 1, else NULL when one is NULL, else 0. */
export function anyTrue(evs: readonly Ev[]): number | null {
  let sawNull = false;
  for (const q of evs) {
    const r = q();
    if (r === 1) return 1;
    if (r === null) sawNull = true;
  }
  return sawNull ? null : 0;
}

export function keyOf(v: unknown): unknown {
  if (typeof v === 'bigint') return `n${v}`;
  if (typeof v === 'number') return v === 0 ? 0 : v;
  return `s${String(v)}`;
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
  // text read as a binary string becomes its UTF-8 bytes; a binary string read as text keeps its
  // bytes one per character (string functions work on them byte by byte)
  if (
    b.t.kind === t.kind &&
    (t.kind !== 'dec' || b.t.iscale === t.iscale) &&
    (t.kind !== 'str' || t.binary !== true || b.t.binary === true)
  )
    return b.ev;
  if (b.t.kind === 'null') return () => null;
  const ev = b.ev;
  const from = b.t;
  return () => {
    const x = ev();
    return x === null ? null : coerce(x, from, t);
  };
}

export function bindCast(o: Obj, ctx: BindCtx, text: string): Bound {
  const [dt, dv] = tagOf(o.data_type);
  // CAST to a number reads an ENUM or SET by its number
  const e0 = bindExpr(o.expr, ctx);
  const numericCast =
    /^(Signed|SignedInteger|Integer|Int|BigInt|Unsigned|UnsignedInteger|Decimal|Numeric|Dec|Double|Float|Real|DoublePrecision)/.test(
      dt,
    );
  const e = numericCast ? asNumber(e0) : e0;
  let t: SqlType;
  switch (dt) {
    case 'Signed':
    case 'SignedInteger':
    case 'Integer':
    case 'Int':
    case 'BigInt':
      t = T_INT;
      // a BIGINT UNSIGNED past 2^63 − 1 reads as its two's complement (CAST(2^64 − 1 AS SIGNED) is −1)
      if (e.t.unsigned === true) {
        const ev = e.ev;
        return mk(
          T_INT,
          () => {
            const x = ev();
            if (x === null) return null;
            const i = BigInt.asIntN(64, BigInt(x as number | bigint));
            return Number.isSafeInteger(Number(i)) ? Number(i) : i;
          },
          [e],
          text,
        );
      }
      break;
    case 'Unsigned':
    case 'UnsignedInteger': {
      const ev = e.ev;
      const from = e.t;
      return mk(
        T_UINT,
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
    case 'Nchar':
      t = T_STR;
      if (dt === 'Char' || dt === 'Nchar') {
        const n = obj(obj(dv)?.IntegerLength)?.length;
        if (typeof n === 'number') return castToLength(e, T_STR, n, ctx, text);
      }
      break;
    case 'Binary':
    case 'Varbinary':
      t = T_BIN;
      if (dt === 'Binary' && typeof dv === 'number') return castToLength(e, T_BIN, dv, ctx, text);
      break;
    case 'Date':
      t = T_DATE;
      break;
    case 'Datetime':
    case 'Timestamp':
    case 'Time': {
      // CAST(… AS DATETIME(n)) / TIME(n): n fractional digits (0 by default)
      const fsp = typeof dv === 'number' ? dv : Array.isArray(dv) && typeof dv[0] === 'number' ? dv[0] : 0;
      if (fsp > 6)
        throw new SqlError(
          'ER_TOO_BIG_PRECISION',
          `Too big precision ${fsp} specified for '${e.text}'. Maximum is 6.`,
        );
      t = dt === 'Time' ? timeType(fsp) : dateTimeType(fsp);
      if (dt === 'Time' && e.t.kind === 'str') {
        // text read as a TIME warns as the TIME functions do (clamped, or no time at all)
        const tv = timeEv(e, (c, m) => ctx.env.warn(c, m));
        return mk(
          t,
          () => {
            const v = tv() as number | null;
            return v === null ? null : truncateMicros(v, fsp, true);
          },
          [e],
          text,
        );
      }
      break;
    }
    default:
      throw unsupported(`CAST AS ${dt}`, o);
  }
  return mk(t, castEv(e, t), [e], text);
}

/**
 * CAST(x AS CHAR(n)) keeps the first n characters, CAST(x AS BINARY(n)) the first n bytes and
 * pads a shorter value with zero bytes; a value cut short warns 1292 with the value as it was.
 */
function castToLength(e: Bound, t: SqlType, n: number, ctx: BindCtx, text: string): Bound {
  const ev = castEv(e, t);
  const name = t === T_BIN ? 'BINARY' : 'CHAR';
  return mk(
    t,
    () => {
      const v = ev() as string | null;
      if (v === null) return null;
      if (t === T_BIN) {
        // a binary string holds one byte per UTF-16 unit
        if (v.length <= n) return v.padEnd(n, '\0');
      } else if (v.length <= n || [...v].length <= n) return v;
      ctx.env.warn(1292, `Truncated incorrect ${name}(${n}) value: '${v}'`);
      return t === T_BIN ? v.slice(0, n) : [...v].slice(0, n).join('');
    },
    [e],
    text,
  );
}
