import { crc32 } from 'node:zlib';
import { arr, obj, objectName, posOf, tagOf } from '../sql/ast.js';
import { syntaxErrorAt } from '../sql/syntax-error.js';
import { SqlError } from '../sql/errors.js';
import { normInt, parseDate, toInteger } from '../exec/convert.js';
import { pow10, rescale } from '../exec/decimal.js';
import {
  MAX_SCALE,
  type SqlType,
  T_DATE,
  T_DBL,
  T_INT,
  T_NULL,
  T_STR,
  dateTimeType,
  decType,
  isNumeric,
  timeType,
  unify,
} from '../exec/types.js';
import { parseDateTime, parseTime } from '../storage/temporal.js';
import { stringComparison } from '../exec/compare.js';
import { weightText } from '../storage/collation.js';
import type { Bound } from '../exec/bound.js';
import {
  type BindCtx,
  bindCompare,
  bindExpr,
  castEv,
  literal,
  markUncacheable,
  mk,
  nodeText,
  textReading,
  textResultType,
  unsupported,
} from './bind-expr.js';
import { aggregate } from './bind-aggregate.js';
import { dateArith, dateArithDays, dateField, extractField } from './bind-date.js';
import { truthOf } from '../exec/truth.js';
import { infoFunction } from './bind-func-info.js';
import { timeFunction } from './bind-func-time.js';
import { stringFunction } from './bind-func-string.js';
import { jsonFunction } from './bind-func-json.js';
import { withinPacket } from './packet-bound.js';
import { bindWindow } from './bind-window.js';

const AGGS = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'group_concat',
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

/** Bind function-like nodes: calls, EXTRACT, SUBSTRING, INTERVAL arithmetic, DATE '…'. */
export function bindFunction(tag: string, v: unknown, ctx: BindCtx, n: unknown): Bound {
  const text = tag === 'DateArith' ? '' : nodeText(ctx.env, n);
  switch (tag) {
    case 'TypedString': {
      const o = obj(v);
      const [dt] = tagOf(o.data_type);
      const [, sv] = tagOf(obj(o.value).value ?? o.value);
      if (dt === 'Date') {
        const d = parseDate(String(sv));
        if (d === null)
          throw new SqlError('ER_TRUNCATED_WRONG_VALUE', `Incorrect DATE value: '${String(sv)}'`);
        return literal(T_DATE, d, `DATE '${String(sv)}'`);
      }
      if (dt === 'Timestamp' || dt === 'Datetime' || dt === 'Time') {
        // TIMESTAMP '…' / TIME '…': the literal's fractional digits are its precision
        const text2 = String(sv);
        const fsp = Math.min(6, (/\.(\d*)\s*$/.exec(text2)?.[1] ?? '').length);
        const time = dt === 'Time';
        const v = time ? parseTime(text2) : parseDateTime(text2);
        if (v === null)
          throw new SqlError(
            'ER_TRUNCATED_WRONG_VALUE',
            `Incorrect ${time ? 'TIME' : 'DATETIME'} value: '${text2}'`,
          );
        return literal(
          time ? timeType(fsp) : dateTimeType(fsp),
          v,
          `${time ? 'TIME' : 'TIMESTAMP'} '${text2}'`,
        );
      }
      return literal(T_STR, String(sv), text);
    }
    case 'Extract': {
      const o = obj(v);
      const field = String(tagOf(o.field)[0] || o.field).toUpperCase();
      return extractField(field, bindExpr(o.expr, ctx), text, n, (c, m) => ctx.env.warn(c, m));
    }
    case 'Substring': {
      const o = obj(v);
      const args = [bindExpr(o.expr, ctx)];
      if (o.substring_from !== undefined && o.substring_from !== null)
        args.push(bindExpr(o.substring_from, ctx));
      if (o.substring_for !== undefined && o.substring_for !== null)
        args.push(bindExpr(o.substring_for, ctx));
      return substring(args, text);
    }
    case 'Ceil':
    case 'Floor': {
      const o = obj(v);
      return roundLike(tag === 'Ceil' ? 'ceil' : 'floor', [bindExpr(o.expr, ctx)], text);
    }
    case 'Trim': {
      // TRIM([BOTH | LEADING | TRAILING] [remstr] FROM str): whole copies of remstr (a space by
      // default), compared byte for byte whatever the collation, as MariaDB does
      const o = obj(v);
      const e = bindExpr(o.expr, ctx);
      const where = String(o.trim_where ?? 'Both');
      const lead = where !== 'Trailing';
      const trail = where !== 'Leading';
      if (o.trim_what === undefined || o.trim_what === null)
        return strFn([e], text, (a) => trimCopies(a[0] as string, ' ', lead, trail));
      const what = bindExpr(o.trim_what, ctx);
      return strFn([e, what], text, (a) => trimCopies(a[0] as string, a[1] as string, lead, trail));
    }
    case 'Position': {
      // POSITION(substr IN str) is LOCATE(substr, str)
      const o = obj(v);
      return locate([bindExpr(o.expr, ctx), bindExpr(o.in, ctx)], text, 0);
    }
    case 'Interval':
      throw unsupported('INTERVAL outside date arithmetic', n);
    case 'ConcatOp':
      return strFn(v as Bound[], text, (a) => a.join(''));
    case 'DateArith': {
      const o = v as { date: Bound; interval: unknown; sign: number };
      return dateArith(o.date, o.interval, o.sign, ctx, o.date.text);
    }
    default:
      break;
  }
  const o = obj(v);
  const written = objectName(o.name).join('.');
  const name = written.toLowerCase();
  if (UNCACHEABLE.has(name)) markUncacheable(ctx.block);
  const argList = obj(obj(o.args).List);
  const rawArgs = arr(argList.args);
  if (o.over !== undefined && o.over !== null)
    return bindWindow(name, rawArgs, argList, o.over, ctx, text, n);
  const distinct = argList.duplicate_treatment === 'Distinct';
  if (AGGS.has(name)) return aggregate(name, rawArgs, distinct, ctx, text, n, argList);
  if (name === 'values') {
    // VALUES(col) of ON DUPLICATE KEY UPDATE; elsewhere it is NULL, as in MariaDB
    const [, col] = tagOf(rawArgExpr(rawArgs[0]));
    const parts = Array.isArray(col) ? col.map((p) => String(obj(p).value)) : [String(obj(col).value)];
    if (ctx.insertValues !== undefined) return ctx.insertValues(parts.at(-1)!);
    // MariaDB reads VALUES(…) only in ON DUPLICATE KEY UPDATE (elsewhere VALUE(…))
    throw syntaxErrorAt(ctx.env.sql, posOf(n), 0);
  }
  // TIMESTAMPDIFF(unit, …) and TIMESTAMPADD(unit, …) take a bare unit word first
  const unitFirst = name === 'timestampdiff' || name === 'timestampadd';
  const args = rawArgs.map((a, i) => {
    if (unitFirst && i === 0) return literal(T_NULL, null, 'unit');
    const [t, av] = tagOf(a);
    const inner = t === 'Unnamed' ? av : obj(av).arg;
    const [it, iv] = tagOf(inner);
    if (it === 'Expr')
      return tagOf(iv)[0] === 'Interval' ? literal(T_NULL, null, 'INTERVAL') : bindExpr(iv, ctx);
    throw unsupported(`argument ${it} of ${name}()`, n);
  });
  const need = (lo: number, hi = lo): void => {
    if (args.length < lo || args.length > hi)
      throw new SqlError(
        'ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT',
        `Incorrect parameter count in the call to native function '${written}'`,
      );
  };
  switch (name) {
    case 'abs': {
      need(1);
      const a = args[0]!;
      const t = a.t.kind === 'str' ? T_DBL : a.t.kind === 'null' ? T_INT : a.t;
      const ev = castEv(a, t);
      return mk(
        t,
        () => {
          const x = ev();
          if (x === null) return null;
          if (typeof x === 'bigint') {
            // the least BIGINT has no BIGINT absolute value (Item_func_abs::int_op)
            if (x === -9223372036854775808n && t.kind === 'int' && t.unsigned !== true)
              throw new SqlError('ER_DATA_OUT_OF_RANGE', `BIGINT value is out of range in 'abs(${a.text})'`);
            return t.kind === 'int' ? normInt(x < 0n ? -x : x) : x < 0n ? -x : x;
          }
          return Math.abs(x as number);
        },
        args,
        text,
      );
    }
    case 'coalesce':
    case 'ifnull': {
      if (name === 'ifnull') need(2);
      else need(1, 1000);
      const t = unify(args.map((a) => a.t));
      const evs = args.map((a) => castEv(a, t));
      return mk(
        t,
        () => {
          for (const e of evs) {
            const x = e();
            if (x !== null) return x;
          }
          return null;
        },
        args,
        text,
      );
    }
    case 'interval': {
      // INTERVAL(n, n1, n2, …): how many of n1, n2, … (ascending) are at most n, counted until
      // the first that is larger; NULL bounds are passed over; n NULL is -1 (MariaDB's linear scan)
      need(2, 1000);
      const evs = args.map((a) => castEv(a, T_DBL));
      return mk(
        T_INT,
        () => {
          const v = evs[0]!() as number | null;
          if (v === null) return -1;
          for (let i = 1; i < evs.length; i++) {
            const b = evs[i]!() as number | null;
            if (b !== null && b > v) return i - 1;
          }
          return evs.length - 1;
        },
        args,
        text,
      );
    }
    case 'nullif': {
      need(2);
      const eq = bindCompare('=', args[0]!, args[1]!, '').ev;
      const a = args[0]!.ev;
      return mk(args[0]!.t, () => (eq() === 1 ? null : a()), args, text);
    }
    case 'if': {
      need(3);
      const c = truthOf(args[0]!);
      const t = unify([args[1]!.t, args[2]!.t]);
      const a = castEv(args[1]!, t);
      const b = castEv(args[2]!, t);
      return mk(t, () => (c() === true ? a() : b()), args, text);
    }
    case 'round':
    case 'truncate':
    case 'ceil':
    case 'ceiling':
    case 'floor':
      return roundLike(name === 'ceiling' ? 'ceil' : name, args, text);
    case 'sign': {
      need(1);
      const ev = castEv(args[0]!, T_DBL);
      return mk(
        T_INT,
        () => {
          const x = ev() as number | null;
          return x === null ? null : x > 0 ? 1 : x < 0 ? -1 : 0;
        },
        args,
        text,
      );
    }
    case 'sqrt':
    case 'exp':
    case 'ln':
    case 'log':
    case 'log10':
    case 'log2':
    case 'sin':
    case 'cos':
    case 'tan':
    case 'asin':
    case 'acos':
    case 'atan':
    case 'atan2':
    case 'cot':
    case 'degrees':
    case 'radians':
    case 'pi':
    case 'power':
    case 'pow': {
      if (name === 'pi') need(0);
      else if (name === 'log' || name === 'atan') need(1, 2);
      else if (name === 'atan2' || name === 'pow' || name === 'power') need(2);
      else need(1);
      const evs = args.map((a) => castEv(a, T_DBL));
      // an infinite result of these is out of range (1690, as MariaDB); of the others, NULL
      const grows = name === 'exp' || name === 'pow' || name === 'power' || name === 'cot';
      const f: (xs: number[]) => number = {
        sqrt: (x: number[]) => Math.sqrt(x[0]!),
        exp: (x: number[]) => Math.exp(x[0]!),
        ln: (x: number[]) => Math.log(x[0]!),
        log: (x: number[]) => (x.length === 2 ? Math.log(x[1]!) / Math.log(x[0]!) : Math.log(x[0]!)),
        log10: (x: number[]) => Math.log10(x[0]!),
        log2: (x: number[]) => Math.log2(x[0]!),
        sin: (x: number[]) => Math.sin(x[0]!),
        cos: (x: number[]) => Math.cos(x[0]!),
        tan: (x: number[]) => Math.tan(x[0]!),
        asin: (x: number[]) => Math.asin(x[0]!),
        acos: (x: number[]) => Math.acos(x[0]!),
        atan: (x: number[]) => (x.length === 2 ? Math.atan2(x[0]!, x[1]!) : Math.atan(x[0]!)),
        atan2: (x: number[]) => Math.atan2(x[0]!, x[1]!),
        cot: (x: number[]) => 1 / Math.tan(x[0]!),
        degrees: (x: number[]) => (x[0]! * 180) / Math.PI,
        radians: (x: number[]) => (x[0]! * Math.PI) / 180,
        pi: () => Math.PI,
        power: (x: number[]) => x[0]! ** x[1]!,
        pow: (x: number[]) => x[0]! ** x[1]!,
      }[name]!;
      const logarithm = name === 'ln' || name === 'log' || name === 'log2' || name === 'log10';
      // PI() shows six decimals, as MariaDB's (its value keeps every digit)
      return mk(
        name === 'pi' ? { ...T_DBL, scale: 6 } : T_DBL,
        () => {
          const xs: number[] = [];
          for (const e of evs) {
            const x = e();
            if (x === null) return null;
            xs.push(x as number);
          }
          // a logarithm of 0 or less, or to base 1, is NULL with warning 1365, as MariaDB's
          if (logarithm && (xs.some((x) => x <= 0) || (xs.length === 2 && xs[0] === 1))) {
            ctx.env.warn(1365, 'Division by 0');
            return null;
          }
          const r = f(xs);
          // an infinite exp or pow is out of range (1690, as MariaDB), and so is pow's NaN (a
          // negative base to a fractional power); other NaNs and a logarithm's infinity are NULL
          const power = name === 'pow' || name === 'power';
          if (r === Infinity || r === -Infinity || (power && Number.isNaN(r))) {
            if (grows) throw doubleOutOfRange(`${name}(${args.map((a) => a.text).join(',')})`);
            return null;
          }
          return Number.isNaN(r) ? null : r;
        },
        args,
        text,
      );
    }
    case 'mod': {
      need(2);
      return bindExpr(
        { BinaryOp: { left: rawArgExpr(rawArgs[0]), op: 'Modulo', right: rawArgExpr(rawArgs[1]) } },
        ctx,
      );
    }
    case 'greatest':
    case 'least': {
      need(2, 1000);
      // numbers among strings compare as DOUBLE, and the result is one, as in MariaDB
      const mixed = args.some((a) => isNumeric(a.t)) && args.some((a) => a.t.kind === 'str');
      const t = mixed ? T_DBL : unify(args.map((a) => a.t));
      const evs = args.map((a) => castEv(a, t));
      const g = name === 'greatest';
      // text compares as its collation does (the first of equal values wins, as in MariaDB)
      const coll =
        t.kind === 'str'
          ? args.map((a) => (a.t.kind === 'str' ? a.t : T_STR)).reduce(stringComparison).collation
          : undefined;
      const weigh =
        coll === undefined || coll === 'bytes' ? null : (x: unknown) => weightText(x as string, coll);
      return mk(
        t,
        () => {
          let best: unknown = null;
          let bestKey: unknown = null;
          for (const e of evs) {
            const x = e();
            if (x === null) return null;
            const k = weigh === null ? x : weigh(x);
            if (
              best === null ||
              (g ? (k as number) > (bestKey as number) : (k as number) < (bestKey as number))
            ) {
              best = x;
              bestKey = k;
            }
          }
          return best;
        },
        args,
        text,
      );
    }
    case 'length':
    case 'octet_length': {
      need(1);
      const binary = args[0]!.t.binary === true;
      return intFn(
        args,
        text,
        (a) => (binary ? (a[0] as string).length : Buffer.byteLength(a[0] as string)),
        [args[0]!.t.kind === 'str' ? args[0]!.t : T_STR],
      );
    }
    case 'bit_length': {
      need(1);
      const binary = args[0]!.t.binary === true;
      return intFn(
        args,
        text,
        (a) => 8 * (binary ? (a[0] as string).length : Buffer.byteLength(a[0] as string)),
        [args[0]!.t.kind === 'str' ? args[0]!.t : T_STR],
      );
    }
    case 'crc32': {
      // CRC-32 of the string's bytes, as zlib computes it
      need(1);
      const binary = args[0]!.t.binary === true;
      return intFn(args, text, (a) => crc32(Buffer.from(a[0] as string, binary ? 'latin1' : 'utf8')), [
        args[0]!.t.kind === 'str' ? args[0]!.t : T_STR,
      ]);
    }
    case 'bit_count': {
      // set bits of the value as a 64-bit two's complement integer
      need(1);
      return intFn(
        args,
        text,
        (a) => {
          let w = BigInt.asUintN(64, BigInt(a[0] as number | bigint));
          let n = 0;
          while (w !== 0n) {
            w &= w - 1n;
            n++;
          }
          return n;
        },
        [T_INT],
      );
    }
    case 'conv':
      need(3);
      // CONV's digits are text whatever its argument
      return {
        ...strFn(args, text, (a) => conv(a[0] as string, Number(a[1]), Number(a[2])), [T_STR, T_INT, T_INT]),
        t: T_STR,
      };
    case 'char_length':
    case 'character_length':
      need(1);
      return intFn(args, text, (a) => [...(a[0] as string)].length);
    case 'upper':
    case 'ucase':
      need(1);
      // a binary string has no letter case: it comes back as it was
      return strFn(args, text, (a) => (args[0]!.t.binary === true ? a[0] : upperCase(a[0] as string)));
    case 'lower':
    case 'lcase':
      need(1);
      return strFn(args, text, (a) => (args[0]!.t.binary === true ? a[0] : lowerCase(a[0] as string)));
    case 'concat':
      need(1, 1000);
      return strFn(args, text, (a) => withinPacket(ctx, 'concat', a.join('')));
    case 'concat_ws': {
      need(2, 1000);
      const evs = args.map((a) => castEv(a, T_STR));
      return mk(
        T_STR,
        () => {
          const sep = evs[0]!();
          if (sep === null) return null;
          const parts: string[] = [];
          for (let i = 1; i < evs.length; i++) {
            const x = evs[i]!();
            if (x !== null) parts.push(x as string);
          }
          return withinPacket(ctx, 'concat_ws', parts.join(sep as string));
        },
        args,
        text,
      );
    }
    case 'substring':
    case 'substr':
    case 'mid':
      need(2, 3);
      return substring(args, text);
    case 'left':
      need(2);
      return strFn(
        args,
        text,
        (a) => {
          const s = a[0] as string;
          const k = Math.max(0, Number(a[1]));
          return hasSurrogate(s) ? [...s].slice(0, k).join('') : s.slice(0, k);
        },
        [T_STR, T_INT],
      );
    case 'right':
      need(2);
      return strFn(
        args,
        text,
        (a) => {
          const s = a[0] as string;
          const k = Number(a[1]);
          if (k <= 0) return '';
          return hasSurrogate(s) ? [...s].slice(-k).join('') : s.slice(-k);
        },
        [T_STR, T_INT],
      );
    case 'trim':
      need(1);
      return strFn(args, text, (a) => (a[0] as string).replace(/^ +| +$/g, ''));
    case 'ltrim':
      need(1);
      return strFn(args, text, (a) => (a[0] as string).replace(/^ +/, ''));
    case 'rtrim':
      need(1);
      return strFn(args, text, (a) => (a[0] as string).replace(/ +$/, ''));
    case 'replace':
      need(3);
      // an empty search string leaves the text as it is, as MySQL
      return strFn(args, text, (a) =>
        a[1] === ''
          ? a[0]
          : withinPacket(ctx, 'replace', (a[0] as string).split(a[1] as string).join(a[2] as string)),
      );
    case 'reverse':
      need(1);
      return strFn(args, text, (a) => [...(a[0] as string)].reverse().join(''));
    case 'repeat':
      need(2);
      return strFn(
        args,
        text,
        (a) => {
          const s = a[0] as string;
          const times = Math.max(0, Number(a[1]));
          // past max_allowed_packet the result is NULL with warning 1301, as MySQL (and never a
          // string larger than the server may send)
          const max = Number(ctx.env.sysVar('max_allowed_packet', undefined).v);
          if (s.length > 0 && Buffer.byteLength(s) * times > max) {
            ctx.env.warn(1301, `Result of repeat() was larger than max_allowed_packet (${max}) - truncated`);
            return null;
          }
          return s.repeat(times);
        },
        [T_STR, T_INT],
      );
    case 'locate':
    case 'position':
      need(2, 3);
      return locate(args, text, 0);
    case 'instr':
      need(2);
      return locate(args, text, 1);
    case 'year':
    case 'month':
    case 'day':
    case 'dayofmonth':
      need(1);
      return dateField(name === 'dayofmonth' ? 'DAY' : name.toUpperCase(), args[0]!, text, n);
    case 'date': {
      need(1);
      return mk(T_DATE, castEv(args[0]!, T_DATE), args, text);
    }
    case 'date_add':
    case 'date_sub':
    case 'adddate':
    case 'subdate': {
      need(2);
      const sign = name === 'date_add' || name === 'adddate' ? 1 : -1;
      const [it, iv] = tagOf(rawArgExpr(rawArgs[1]));
      if (it === 'Interval') return dateArith(args[0]!, iv, sign, ctx, text);
      // ADDDATE(d, n): n days
      return dateArithDays(args[0]!, args[1]!, sign, text);
    }
    case 'isnull': {
      need(1);
      const e = args[0]!.ev;
      return mk(T_INT, () => (e() === null ? 1 : 0), args, text);
    }
    default: {
      const f =
        infoFunction(name, args, ctx, text) ??
        timeFunction(name, args, rawArgs.map(rawArgExpr), ctx, text, n) ??
        stringFunction(name, args, ctx, text) ??
        jsonFunction(name, args, ctx, text);
      if (f !== undefined) return f;
      throw new SqlError(
        'ER_SP_DOES_NOT_EXIST',
        `FUNCTION ${ctx.env.session.database === null ? name : `${ctx.env.session.database}.${name}`} does not exist`,
      );
    }
  }
}

export function rawArgExpr(a: unknown): unknown {
  const [t, av] = tagOf(a);
  const inner = t === 'Unnamed' ? av : obj(av).arg;
  return tagOf(inner)[1];
}

/** `f` over the arguments as text (or `types`), NULL if any is NULL; text in their character set. */
function strFn(args: Bound[], text: string, f: (a: unknown[]) => unknown, types?: SqlType[]): Bound {
  const reads = args.map((_, i) => types?.[i] ?? T_STR);
  const rt = textResultType(args, reads);
  const evs = args.map((a, i) => castEv(a, textReading(rt, reads[i]!)));
  return mk(
    rt,
    () => {
      const xs: unknown[] = [];
      for (const e of evs) {
        const x = e();
        if (x === null) return null;
        xs.push(x);
      }
      return f(xs);
    },
    args,
    text,
  );
}

function intFn(args: Bound[], text: string, f: (a: unknown[]) => number, types?: SqlType[]): Bound {
  const b = strFn(args, text, f, types);
  return { ...b, t: T_INT };
}

function substring(args: Bound[], text: string): Bound {
  return strFn(
    args,
    text,
    (a) => {
      const s = a[0] as string;
      let pos = Number(a[1]);
      const len = a.length > 2 ? Number(a[2]) : Number.POSITIVE_INFINITY;
      if (pos === 0 || len <= 0) return '';
      if (!hasSurrogate(s)) {
        // one UTF-16 unit per character: positions are string offsets, no array of characters
        if (pos < 0) pos = s.length + pos + 1;
        if (pos < 1) return '';
        return len === Number.POSITIVE_INFINITY ? s.slice(pos - 1) : s.slice(pos - 1, pos - 1 + len);
      }
      const cps = [...s];
      if (pos < 0) pos = cps.length + pos + 1;
      if (pos < 1) return '';
      return cps.slice(pos - 1, len === Number.POSITIVE_INFINITY ? undefined : pos - 1 + len).join('');
    },
    [T_STR, T_INT, T_INT],
  );
}

/**
 * LOCATE(substr, str[, pos]) (`needle` 0) or INSTR(str, substr) (`needle` 1): the first position of
 * substr, found as the collation compares (case-insensitive under utf8mb4_general_ci).
 */
function locate(args: Bound[], text: string, needle: 0 | 1): Bound {
  const hay = 1 - needle;
  const asText = (t: SqlType): SqlType => (t.kind === 'str' ? t : T_STR);
  const coll = stringComparison(asText(args[0]!.t), asText(args[1]!.t)).collation;
  const fold = (x: string): string => (coll === 'utf8mb4_general_ci' ? weightText(x, coll, false) : x);
  return intFn(
    args,
    text,
    (a) => fold(a[hay] as string).indexOf(fold(a[needle] as string), a.length > 2 ? Number(a[2]) - 1 : 0) + 1,
    [T_STR, T_STR, T_INT],
  );
}

/**
 * UPPER under utf8mb4_general_ci: one character for one, as MariaDB's case tables map them — a
 * character whose capital is several (ß, ŉ, ﬁ, ǰ) stays as it is.
 */
function upperCase(s: string): string {
  const u = s.toUpperCase();
  if (u.length === s.length) return u;
  let out = '';
  for (const ch of s) {
    const c = ch.toUpperCase();
    out += c.length === ch.length ? c : ch;
  }
  return out;
}

/** LOWER under utf8mb4_general_ci: one character for one (İ becomes i, as in MariaDB). */
function lowerCase(s: string): string {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = '';
  for (const ch of s) {
    const c = ch.toLowerCase();
    out += c.length === ch.length ? c : ch === '\u0130' ? 'i' : ch;
  }
  return out;
}

/** `s` without the whole copies of `r` at its start (`lead`) and then at its end (`trail`). */
function trimCopies(s: string, r: string, lead: boolean, trail: boolean): string {
  if (r.length === 0) return s;
  let from = 0;
  let to = s.length;
  if (lead) while (from + r.length <= to && s.startsWith(r, from)) from += r.length;
  if (trail) while (to - r.length >= from && s.endsWith(r, to)) to -= r.length;
  return from === 0 && to === s.length ? s : s.slice(from, to);
}

/**
 * Functions that keep a subquery calling them out of the subquery cache, as MariaDB 10.11 does
 * (checked one by one there: LAST_INSERT_ID, RAND and UUID are not cached; SYSDATE,
 * UNIX_TIMESTAMP, ROW_COUNT, FOUND_ROWS and CONNECTION_ID are). RAND or UUID join this set
 * when the engine has them.
 */
const UNCACHEABLE = new Set(['last_insert_id']);

/** True if `s` holds a surrogate (a character past U+FFFF): its characters are not its UTF-16 units. */
function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

function roundLike(name: string, args: Bound[], text: string): Bound {
  if (args.length < 1 || args.length > 2)
    throw new SqlError(
      'ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT',
      `Incorrect parameter count in the call to native function '${name}'`,
    );
  const a = args[0]!;
  const dArg = args[1];
  const dConst = dArg === undefined ? 0 : dArg.lit !== undefined ? Number(dArg.lit.v) : undefined;
  const dEv = dArg === undefined ? () => 0 : castEv(dArg, T_INT);
  if (a.t.kind === 'int' || a.t.kind === 'null') {
    const ev = a.ev;
    if (name === 'ceil' || name === 'floor' || (dConst !== undefined && dConst >= 0))
      return mk(T_INT, ev, args, text);
    return mk(
      T_INT,
      () => {
        const x = ev();
        if (x === null) return null;
        const d = Number(dEv());
        if (d >= 0) return x;
        const m = pow10(-d);
        const v = BigInt(x as number | bigint);
        const q = name === 'truncate' ? (v / m) * m : rescale(v, -d, 0) * m;
        return normInt(q);
      },
      args,
      text,
    );
  }
  if (a.t.kind === 'dec') {
    const s = a.t.iscale;
    // A constant D sets the result's scale (0 when negative, at most 38) and the precision
    // follows it, one digit more when rounding drops digits (MariaDB's Item_func_round); the
    // value is rounded from every digit the argument keeps, not from its shown ones.
    const outScale =
      name === 'ceil' || name === 'floor'
        ? 0
        : dConst === undefined
          ? a.t.scale
          : Math.min(Math.max(0, dConst), MAX_SCALE);
    const dropped = a.t.scale - outScale;
    const prec = a.t.prec - dropped + (dropped > 0 && name === 'round' ? 1 : 0);
    const t = name === 'ceil' || name === 'floor' ? T_INT : decType(Math.max(prec, 1), outScale);
    const ev = a.ev;
    return mk(
      t,
      () => {
        const x = ev() as bigint | null;
        if (x === null) return null;
        if (name === 'ceil' || name === 'floor') {
          const m = pow10(s);
          let q = x / m;
          if (name === 'floor' && x < 0n && q * m !== x) q -= 1n;
          if (name === 'ceil' && x > 0n && q * m !== x) q += 1n;
          return normInt(q);
        }
        const d = Number(dEv());
        if (d >= s) return rescale(x, s, outScale);
        if (name === 'truncate') {
          const m = pow10(s - d);
          return rescale((x / m) * m, s, outScale);
        }
        if (d >= 0) return rescale(rescale(x, s, d), d, outScale);
        const r = rescale(x, s, d === 0 ? 0 : 0);
        const m = pow10(-d);
        return rescale(rescale(r, -d, 0) * m, 0, outScale);
      },
      args,
      text,
    );
  }
  const ev = castEv(a, T_DBL);
  // a constant D fixes the decimals a DOUBLE result is shown with
  const t =
    name === 'ceil' || name === 'floor'
      ? T_INT
      : dConst === undefined
        ? T_DBL
        : { ...T_DBL, scale: Math.min(Math.max(0, dConst), T_DBL.scale) };
  return mk(
    t,
    () => {
      const x = ev() as number | null;
      if (x === null) return null;
      if (name === 'ceil') return toInteger(Math.ceil(x), 'dbl');
      if (name === 'floor') return toInteger(Math.floor(x), 'dbl');
      const d = Number(dEv());
      const m = 10 ** d;
      if (name === 'truncate') return Math.trunc(x * m) / m;
      // MySQL's my_double_round: rint(x · 10^d) / 10^d, rint rounding half to even
      const y = x * m;
      const f = Math.floor(y);
      const diff = y - f;
      const r = diff > 0.5 ? f + 1 : diff < 0.5 ? f : f % 2 === 0 ? f : f + 1;
      return d >= 0 ? r / m : r * 10 ** -d;
    },
    args,
    text,
  );
}

function doubleOutOfRange(text: string): SqlError {
  return new SqlError('ER_DATA_OUT_OF_RANGE', `DOUBLE value is out of range in '${text}'`);
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const U64 = 18446744073709551615n;

/**
 * CONV(text, from, to) as MariaDB's Item_func_conv: NULL for a base outside ±2..36 or empty text;
 * the text read as my_strntoull (a negative `from`: my_strntoll) reads it — leading spaces, a
 * sign, digits up to the first that is not one, saturating on overflow — then written in base
 * |to|, as a signed number when `to` is negative.
 */
export function conv(text: string, from: number, to: number): string | null {
  const fa = Math.abs(from);
  const ta = Math.abs(to);
  if (text.length === 0 || fa < 2 || fa > 36 || ta < 2 || ta > 36) return null;
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  let negative = false;
  if (text[i] === '-' || text[i] === '+') negative = text[i++] === '-';
  let v = 0n;
  let overflow = false;
  const base = BigInt(fa);
  for (; i < text.length; i++) {
    const d = DIGITS.indexOf(text[i]!.toUpperCase());
    if (d < 0 || d >= fa) break;
    v = v * base + BigInt(d);
    if (v > U64) overflow = true;
  }
  let word: bigint; // the 64-bit result, as unsigned
  if (from < 0) {
    // signed: saturates at the BIGINT bounds
    const limit = negative ? 9223372036854775808n : 9223372036854775807n;
    const s = overflow || v > limit ? (negative ? -limit : limit) : negative ? -v : v;
    word = BigInt.asUintN(64, s);
  } else word = overflow ? U64 : BigInt.asUintN(64, negative ? -v : v);
  if (to < 0 && word > 9223372036854775807n) return `-${(U64 + 1n - word).toString(ta).toUpperCase()}`;
  return word.toString(ta).toUpperCase();
}
