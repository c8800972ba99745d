import { inInt64, inUint64, normInt, toDecimal, toDouble } from './convert.js';
import { pow10, truncScale } from './decimal.js';
import { type NumNode, pow10Num, scaledBy } from './scaled.js';
import { SqlError } from '../sql/errors.js';
import { decType, MAX_SCALE, type SqlType, T_DBL, T_INT, T_UINT } from './types.js';

/**
 * MySQL's arithmetic result types and operations (Item_func_plus/minus/mul/div/int_div/mod):
 * integer ⊕ integer is BIGINT (an overflow is error 1690, never a wrap); with a DECIMAL the result
 * is DECIMAL with scale max(s1, s2) for + and −, s1 + s2 for ×, s1 + div_precision_increment for
 * /; with a DOUBLE or a string it is DOUBLE. Division and modulo by zero give NULL. An integer
 * operation with an unsigned operand (the first one for MOD) is BIGINT UNSIGNED, and a result
 * below 0 or past 2^64 − 1 is error 1690 (`BIGINT UNSIGNED value is out of range in '…'`).
 */

export type BinOp = '+' | '-' | '*' | '/' | 'DIV' | '%';

export interface Arith {
  readonly t: SqlType;
  /** On two non-null operands (already of the operands' own types); may return null. */
  readonly f: (a: unknown, b?: unknown) => unknown;
}

/** How an operand takes part in arithmetic: DATE, and DATETIME and TIME without a fraction, as their integer number form (20240229, 20240229120000, 120000); with one, as a DECIMAL. */
function numKind(t: SqlType): 'int' | 'dec' | 'dbl' {
  if (t.kind === 'int' || t.kind === 'null') return 'int';
  if (t.kind === 'dec') return 'dec';
  if (t.kind === 'date') return 'int';
  if (t.kind === 'datetime' || t.kind === 'time') return t.scale === 0 ? 'int' : 'dec';
  return 'dbl';
}

function outOfRange(text: string, unsigned = false): SqlError {
  return new SqlError(
    'ER_DATA_OUT_OF_RANGE',
    `BIGINT${unsigned ? ' UNSIGNED' : ''} value is out of range in '${text}'`,
  );
}

/** The range check of an integer result: signed or unsigned 64-bit. */
function rangeCheck(unsigned: boolean, text: string): (r: bigint) => number | bigint {
  return unsigned
    ? (r) => {
        if (!inUint64(r)) throw outOfRange(text, true);
        return normInt(r);
      }
    : (r) => {
        if (!inInt64(r)) throw outOfRange(text);
        return normInt(r);
      };
}

/** Digits before the point that MySQL's decimal buffer holds (9 words of 9 digits). */
const DECIMAL_INT_DIGITS = 81;

function decimalOutOfRange(text: string): SqlError {
  return new SqlError('ER_DATA_OUT_OF_RANGE', `DECIMAL value is out of range in '${text}'`);
}

function big(v: unknown): bigint {
  return typeof v === 'bigint' ? v : BigInt(v as number);
}

/** Integer values of an int-or-date operand. */
function intOf(t: SqlType): (v: unknown) => number | bigint {
  if (t.kind === 'date' || t.kind === 'datetime' || t.kind === 'time')
    return (v) => toDouble(v, t.kind) as number;
  return (v) => v as number | bigint;
}

export function makeArith(op: BinOp, lt: SqlType, rt: SqlType, text: string, divIncrement: number): Arith {
  const lk = numKind(lt);
  const rk = numKind(rt);
  if (op === 'DIV') return intDiv(lt, rt, lk, rk, text);
  if (lk === 'dbl' || rk === 'dbl') {
    const la = (v: unknown): number => toDouble(v, lt.kind, lt) as number;
    const ra = (v: unknown): number => toDouble(v, rt.kind, rt) as number;
    switch (op) {
      case '+':
        return { t: T_DBL, f: (a, b) => checkDbl(la(a) + ra(b), text) };
      case '-':
        return { t: T_DBL, f: (a, b) => checkDbl(la(a) - ra(b), text) };
      case '*':
        return { t: T_DBL, f: (a, b) => checkDbl(la(a) * ra(b), text) };
      case '/':
        return {
          t: T_DBL,
          f: (a, b) => {
            const d = ra(b);
            return d === 0 ? null : checkDbl(la(a) / d, text);
          },
        };
      default:
        return {
          t: T_DBL,
          f: (a, b) => {
            const d = ra(b);
            return d === 0 ? null : la(a) % d;
          },
        };
    }
  }
  if (lk === 'int' && rk === 'int' && op !== '/') {
    const li = intOf(lt);
    const ri = intOf(rt);
    const uns = op === '%' ? lt.unsigned === true : lt.unsigned === true || rt.unsigned === true;
    const check = rangeCheck(uns, text);
    const t = uns ? T_UINT : T_INT;
    // the number path may not leave the result's range: an unsigned result below 0 is an error
    const ok = uns ? (r: number) => Number.isSafeInteger(r) && r >= 0 : Number.isSafeInteger;
    switch (op) {
      case '+':
        return {
          t,
          f: (a, b) => {
            const x = li(a);
            const y = ri(b);
            if (typeof x === 'number' && typeof y === 'number') {
              const r = x + y;
              if (ok(r)) return r;
            }
            return check(big(x) + big(y));
          },
        };
      case '-':
        return {
          t,
          f: (a, b) => {
            const x = li(a);
            const y = ri(b);
            if (typeof x === 'number' && typeof y === 'number') {
              const r = x - y;
              if (ok(r)) return r;
            }
            return check(big(x) - big(y));
          },
        };
      case '*':
        return {
          t,
          f: (a, b) => {
            const x = li(a);
            const y = ri(b);
            if (typeof x === 'number' && typeof y === 'number') {
              const r = x * y;
              if (ok(r)) return r === 0 ? 0 : r;
            }
            return check(big(x) * big(y));
          },
        };
      default:
        return {
          t,
          f: (a, b) => {
            const x = li(a);
            const y = ri(b);
            if (typeof x === 'number' && typeof y === 'number') {
              if (y === 0) return null;
              const r = x % y;
              if (!uns || r >= 0) return r === 0 ? 0 : r;
            }
            if (big(y) === 0n) return null;
            return check(big(x) % big(y));
          },
        };
    }
  }
  // DECIMAL arithmetic (at least one DECIMAL operand, or integer division '/')
  const ls = lk === 'dec' ? lt.iscale : 0;
  const rs = rk === 'dec' ? rt.iscale : 0;
  const lshow = lk === 'dec' ? lt.scale : 0;
  const rshow = rk === 'dec' ? rt.scale : 0;
  const lint = lt.prec - lshow;
  const rint = rt.prec - rshow;
  // operands already DECIMAL at their own scale need no conversion (the common case); others
  // remember their last conversion, so a constant operand (`1 - l_discount`) converts once
  const la: (v: unknown) => bigint = lt.kind === 'dec' ? (v) => v as bigint : lastConversion(lt, ls);
  const ra: (v: unknown) => bigint = rt.kind === 'dec' ? (v) => v as bigint : lastConversion(rt, rs);
  switch (op) {
    case '+':
    case '-': {
      const s = Math.max(ls, rs);
      const t = decType(Math.max(lint, rint) + 1 + Math.max(lshow, rshow), Math.max(lshow, rshow), s);
      const lu = pow10(s - ls);
      const ru = pow10(s - rs);
      if (lu === 1n && ru === 1n)
        return op === '+' ? { t, f: (a, b) => la(a) + ra(b) } : { t, f: (a, b) => la(a) - ra(b) };
      return op === '+'
        ? { t, f: (a, b) => la(a) * lu + ra(b) * ru }
        : { t, f: (a, b) => la(a) * lu - ra(b) * ru };
    }
    case '*': {
      const s = ls + rs;
      const t = decType(lint + rint + lshow + rshow, lshow + rshow, Math.min(s, MAX_SCALE));
      // a product past MySQL's decimal buffer (81 digits before the point) is error 1690
      const kept = Math.min(s, MAX_SCALE);
      const hi = pow10(DECIMAL_INT_DIGITS + kept);
      const lo = -hi;
      const check = (r: bigint): bigint => {
        if (r >= hi || r <= lo) throw decimalOutOfRange(text);
        return r;
      };
      if (s <= MAX_SCALE) return { t, f: (a, b) => check(la(a) * ra(b)) };
      return { t, f: (a, b) => check(truncScale(la(a) * ra(b), s, MAX_SCALE)) };
    }
    case '/': {
      // decimal_div keeps ROUND_UP(frac1 + frac2 + increment) 9-digit words of fraction
      const words = Math.ceil((ls + rs + divIncrement) / 9);
      const s = Math.min(words * 9, MAX_SCALE);
      const t = decType(lint + rshow + divIncrement + lshow, lshow + divIncrement, s);
      // q = a/b at scale s: (a·10^-ls)/(b·10^-rs) = a·10^(s - ls + rs) / b, truncated
      const up = s - ls + rs;
      return {
        t,
        f: (a, b) => {
          const d = ra(b);
          if (d === 0n) return null;
          const n = la(a);
          return up >= 0 ? (n * pow10(up)) / d : n / (d * pow10(-up));
        },
      };
    }
    default: {
      // MOD: scale max(s1, s2), sign of the dividend
      const s = Math.max(ls, rs);
      const t = decType(Math.max(lint, rint) + Math.max(lshow, rshow), Math.max(lshow, rshow), s);
      const lu = pow10(s - ls);
      const ru = pow10(s - rs);
      return {
        t,
        f: (a, b) => {
          const d = ra(b) * ru;
          if (d === 0n) return null;
          return (la(a) * lu) % d;
        },
      };
    }
  }
}

/** A value of type `t` as a DECIMAL at scale `s`, the last input and result remembered. */
function lastConversion(t: SqlType, s: number): (v: unknown) => bigint {
  let lastIn: unknown;
  let lastOut = 0n;
  let primed = false;
  return (v) => {
    if (primed && v === lastIn) return lastOut;
    lastOut = toDecimal(v, t.kind, t, s) as bigint;
    lastIn = v;
    primed = true;
    return lastOut;
  };
}

function intDiv(lt: SqlType, rt: SqlType, lk: string, rk: string, text: string): Arith {
  if (lk === 'int' && rk === 'int') {
    const li = intOf(lt);
    const ri = intOf(rt);
    const uns = lt.unsigned === true || rt.unsigned === true;
    const check = rangeCheck(uns, text);
    return {
      t: uns ? T_UINT : T_INT,
      f: (a, b) => {
        const x = li(a);
        const y = ri(b);
        if (typeof x === 'number' && typeof y === 'number') {
          if (y === 0) return null;
          const q = Math.trunc(x / y);
          if (Number.isSafeInteger(q) && Math.abs(x) < 2 ** 52 && (!uns || q >= 0)) return q === 0 ? 0 : q;
        }
        if (big(y) === 0n) return null;
        return check(big(x) / big(y));
      },
    };
  }
  if (lk === 'dbl' || rk === 'dbl') {
    return {
      t: T_INT,
      f: (a, b) => {
        const y = toDouble(b, rt.kind, rt) as number;
        if (y === 0) return null;
        const q = Math.trunc((toDouble(a, lt.kind, lt) as number) / y);
        if (!Number.isFinite(q) || Math.abs(q) > 9.223372036854776e18) throw outOfRange(text);
        return Number.isSafeInteger(q) ? q : normInt(BigInt(q));
      },
    };
  }
  const s = Math.max(lk === 'dec' ? lt.iscale : 0, rk === 'dec' ? rt.iscale : 0);
  return {
    t: T_INT,
    f: (a, b) => {
      const y = toDecimal(b, rt.kind, rt, s) as bigint;
      if (y === 0n) return null;
      const r = (toDecimal(a, lt.kind, lt, s) as bigint) / y;
      if (!inInt64(r)) throw outOfRange(text);
      return normInt(r);
    },
  };
}

function checkDbl(x: number, text: string): number {
  if (!Number.isFinite(x))
    throw new SqlError('ER_DATA_OUT_OF_RANGE', `DOUBLE value is out of range in '${text}'`);
  return x;
}

/** Unary minus. */
export function makeNeg(t: SqlType, text: string): Arith {
  if (t.kind === 'dec') return { t, f: (a) => -(a as bigint) };
  if (t.kind === 'int' || t.kind === 'null')
    return {
      t: T_INT,
      f: (a) => {
        if (typeof a === 'number') return a === 0 ? 0 : -a;
        const r = -(a as bigint);
        if (!inInt64(r)) throw outOfRange(text);
        return normInt(r);
      },
    };
  return { t: T_DBL, f: (a) => -(toDouble(a, t.kind, t) as number) };
}

/**
 * `+ − ×` on the scaled-integer fast path (exec/scaled.ts), for INT and DECIMAL operands whose
 * fast paths are `ln` and `rn`: the result's fast path and the scale it is at (the same `iscale`
 * {@link makeArith} gives the result), or undefined where the operation has none (division,
 * modulo, DOUBLE or string or DATE operands, a product scale past 30).
 */
export function makeNumArith(
  op: BinOp,
  lt: SqlType,
  rt: SqlType,
  ln: NumNode,
  rn: NumNode,
): { num: NumNode; iscale: number } | undefined {
  const lk = lt.kind;
  const rk = rt.kind;
  if ((lk !== 'int' && lk !== 'dec') || (rk !== 'int' && rk !== 'dec')) return undefined;
  // an unsigned result has a lower bound of 0 the fast path does not check
  if (lt.unsigned === true || rt.unsigned === true) return undefined;
  const ls = lk === 'dec' ? lt.iscale : 0;
  const rs = rk === 'dec' ? rt.iscale : 0;
  switch (op) {
    case '+':
    case '-': {
      const s = Math.max(ls, rs);
      const l = scaledBy(ln, pow10Num(s - ls));
      const r = scaledBy(rn, pow10Num(s - rs));
      if (l === undefined || r === undefined) return undefined;
      return { iscale: s, num: { k: op, l, r } };
    }
    case '*': {
      const s = ls + rs;
      if (s > MAX_SCALE) return undefined;
      return { iscale: s, num: { k: '*', l: ln, r: rn } };
    }
    default:
      return undefined;
  }
}
