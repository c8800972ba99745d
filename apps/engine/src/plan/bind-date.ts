import { obj, tagOf } from '../sql/ast.js';
import { dateFromParts } from '../exec/convert.js';
import { T_DATE, T_INT } from '../exec/types.js';
import { type BindCtx, bindExpr, castEv, mk, unsupported } from './bind-expr.js';
import type { Bound } from './bound.js';
import type { Ev } from './scope.js';

/** Date functions of the binder: EXTRACT and its shorthands, and `± INTERVAL` arithmetic. */

export function dateField(field: string, e: Bound, text: string, n: unknown): Bound {
  const ev = castEv(e, T_DATE);
  let f: (d: Date) => number;
  switch (field) {
    case 'YEAR':
      f = (d) => d.getUTCFullYear();
      break;
    case 'MONTH':
      f = (d) => d.getUTCMonth() + 1;
      break;
    case 'DAY':
      f = (d) => d.getUTCDate();
      break;
    case 'QUARTER':
      f = (d) => Math.floor(d.getUTCMonth() / 3) + 1;
      break;
    default:
      throw unsupported(`EXTRACT(${field})`, n);
  }
  return mk(
    T_INT,
    () => {
      const x = ev();
      return x === null ? null : f(new Date((x as number) * 86_400_000));
    },
    [e],
    text,
  );
}

export function intervalOf(iv: unknown, ctx: BindCtx): { amount: Bound; unit: string } {
  const o = obj(iv);
  const unit = String(tagOf(o.leading_field)[0] || o.leading_field || 'Day').toUpperCase();
  return { amount: bindExpr(o.value, ctx), unit };
}

export function dateArith(date: Bound, iv: unknown, sign: number, ctx: BindCtx, text: string): Bound {
  const { amount, unit } = intervalOf(iv, ctx);
  const d = castEv(date, T_DATE);
  const a = castEv(amount, T_INT);
  let months = 0;
  let days = 0;
  switch (unit) {
    case 'DAY':
      days = 1;
      break;
    case 'WEEK':
      days = 7;
      break;
    case 'MONTH':
      months = 1;
      break;
    case 'QUARTER':
      months = 3;
      break;
    case 'YEAR':
      months = 12;
      break;
    default:
      throw unsupported(`INTERVAL … ${unit}`, iv);
  }
  const ev: Ev = () => {
    const x = d();
    if (x === null) return null;
    const k = a();
    if (k === null) return null;
    const q = Number(k) * sign;
    if (days !== 0) return (x as number) + q * days;
    return addMonths(x as number, q * months);
  };
  return mk(T_DATE, ev, [date, amount], text);
}

export function dateArithDays(date: Bound, n: Bound, sign: number, text: string): Bound {
  const d = castEv(date, T_DATE);
  const a = castEv(n, T_INT);
  return mk(
    T_DATE,
    () => {
      const x = d();
      const k = a();
      return x === null || k === null ? null : (x as number) + Number(k) * sign;
    },
    [date, n],
    text,
  );
}

/** MySQL's month arithmetic: the day is clamped to the last day of the target month. */
export function addMonths(days: number, months: number): number | null {
  const dt = new Date(days * 86_400_000);
  const total = dt.getUTCFullYear() * 12 + dt.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  if (y < 0 || y > 9999) return null;
  const last = new Date(Date.UTC(2000, m + 1, 0)).getUTCDate();
  const lastDay = m === 1 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : last;
  return dateFromParts(y, m + 1, Math.min(dt.getUTCDate(), lastDay));
}
