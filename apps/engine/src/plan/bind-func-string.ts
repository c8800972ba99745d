import { createHash } from 'node:crypto';
import { coerce } from '../exec/convert.js';
import { stringComparison } from '../exec/compare.js';
import { decText, rescale } from '../exec/decimal.js';
import { type SqlType, T_BIN, T_INT, T_STR, decType } from '../exec/types.js';
import { DEFAULT_COLLATION, weightText } from '../storage/collation.js';
import { type BindCtx, bindCompare, castEv, mk, arity, textReading, textResultType } from './bind-expr.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';
import { padOverPacket, withinPacket } from './packet-bound.js';

/**
 * String functions MySQL users reach for beyond the basic ones of bind-func.ts: LPAD, RPAD, HEX,
 * UNHEX, FORMAT, FIELD, FIND_IN_SET, SUBSTRING_INDEX, ELT, SPACE, ASCII, ORD, CHAR, STRCMP,
 * INSERT, QUOTE, BIN, OCT, MD5, SHA1, SHA2. Lengths and positions count characters, not bytes.
 */

/**
 * `fn` over the arguments converted to `types` (the last type repeats), NULL if any is NULL; its
 * type `t`, or with `t` = ARGS_TEXT text in its text arguments' character set
 * ({@link textResultType}).
 */
function fn(
  t: SqlType | typeof ARGS_TEXT,
  args: readonly Bound[],
  types: readonly SqlType[],
  text: string,
  f: (xs: unknown[]) => unknown,
): Bound {
  const rt = t === ARGS_TEXT ? textResultType(args, types) : t;
  const evs: Ev[] = args.map((a, i) => castEv(a, textReading(rt, types[Math.min(i, types.length - 1)]!)));
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

/** A string function's result type taken from its arguments (see {@link fn}). */
const ARGS_TEXT = 'args';

const chars = (s: string): string[] => [...s];

/** An integer argument as a number (a BIGINT beyond 2^53 saturates; counts never get there). */
const int = (x: unknown): number => Number(x);

/** The unsigned 64-bit word of a number, as HEX, BIN and OCT write it. */
function word(v: unknown, t: SqlType): bigint {
  const i = coerce(v, t, T_INT) as number | bigint;
  return BigInt.asUintN(64, BigInt(i));
}

/** Soundex codes of A to Z: vowels, H, W and Y are 0 (skipped). */
const SOUNDEX_CODES = '01230120022455012623010202';

/**
 * MySQL's SOUNDEX: the first letter as written (an ASCII one upper-cased), then the code of each
 * later letter that is neither 0 nor the last code written, padded with 0 to four characters and
 * never cut; characters that are not letters are skipped, and a text without letters gives ''.
 */
function soundex(s: string): string {
  const code = (c: string): string => {
    const u = c.charCodeAt(0) & ~32;
    return c.length === 1 && u >= 65 && u <= 90 ? SOUNDEX_CODES[u - 65]! : '0';
  };
  let out = '';
  let last = '';
  for (const c of s) {
    if (!/\p{L}/u.test(c)) continue;
    if (out === '') {
      out = c < '\x80' ? c.toUpperCase() : c;
      last = code(c);
      continue;
    }
    const k = code(c);
    if (k !== '0' && k !== last) {
      out += k;
      last = k;
    }
  }
  return out === '' || [...out].length >= 4 ? out : out.padEnd(out.length + 4 - [...out].length, '0');
}

/** FORMAT(x, d): x rounded to d decimals with `,` between thousands (the en_US locale). */
function formatNumber(v: unknown, t: SqlType, d: number): string {
  const places = Math.max(0, Math.min(d, 30));
  const scaled = t.kind === 'dec' ? (v as bigint) : (coerce(v, t, decType(65, 30)) as bigint);
  const from = t.kind === 'dec' ? t.iscale : 30;
  const r = rescale(scaled, from, places);
  const txt = decText(r, places, places);
  const neg = txt.startsWith('-');
  const [whole, frac] = (neg ? txt.slice(1) : txt).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

export function stringFunction(name: string, args: Bound[], ctx: BindCtx, text: string): Bound | undefined {
  switch (name) {
    case 'lpad':
    case 'rpad':
      arity(name, args, 3);
      return fn(ARGS_TEXT, args, [T_STR, T_INT, T_STR], text, ([s, n, p]) => {
        const len = int(n);
        if (padOverPacket(ctx, name, len)) return null;
        const cs = chars(s as string);
        if (len < 0) return null;
        if (len <= cs.length) return cs.slice(0, len).join('');
        const pad = chars(p as string);
        if (pad.length === 0) return null;
        const need = len - cs.length;
        let fill = '';
        for (let i = 0; i < need; i++) fill += pad[i % pad.length];
        return name === 'lpad' ? fill + (s as string) : (s as string) + fill;
      });
    case 'hex': {
      arity(name, args, 1);
      const a = args[0]!;
      if (a.t.kind === 'str')
        return fn(T_STR, args, [a.t], text, ([s]) =>
          Buffer.from(s as string, a.t.binary === true ? 'latin1' : 'utf8')
            .toString('hex')
            .toUpperCase(),
        );
      return fn(T_STR, args, [a.t], text, ([x]) => word(x, a.t).toString(16).toUpperCase());
    }
    case 'unhex':
      arity(name, args, 1);
      return fn(T_BIN, args, [T_STR], text, ([s]) => {
        const h = s as string;
        if (!/^[0-9a-fA-F]*$/.test(h)) return null;
        return Buffer.from(h.length % 2 === 1 ? `0${h}` : h, 'hex').toString('latin1');
      });
    case 'bin':
    case 'oct': {
      arity(name, args, 1);
      const a = args[0]!;
      return fn(T_STR, args, [a.t], text, ([x]) => word(x, a.t).toString(name === 'bin' ? 2 : 8));
    }
    case 'format': {
      arity(name, args, 2, 3);
      const a = args[0]!;
      const t = a.t.kind === 'dec' ? a.t : decType(65, 30);
      return fn(T_STR, args.slice(0, 2), [t, T_INT], text, ([x, d]) => formatNumber(x, t, int(d)));
    }
    case 'field': {
      arity(name, args, 2, 1000);
      // equality with MySQL's comparison rules between the first argument and each other one
      const eqs = args.slice(1).map((x) => bindCompare('=', args[0]!, x, '').ev);
      const first = args[0]!.ev;
      return mk(
        T_INT,
        () => {
          if (first() === null) return 0;
          for (let i = 0; i < eqs.length; i++) if (eqs[i]!() === 1) return i + 1;
          return 0;
        },
        args,
        text,
      );
    }
    case 'find_in_set':
      arity(name, args, 2);
      return fn(T_INT, args, [T_STR], text, ([s, list]) => {
        const needle = s as string;
        if (needle.includes(',')) return 0;
        const items = (list as string) === '' ? [] : (list as string).split(',');
        const w = (x: string): string => weightText(x, DEFAULT_COLLATION);
        const k = items.findIndex((x) => w(x) === w(needle));
        return k + 1;
      });
    case 'substring_index':
      arity(name, args, 3);
      return fn(ARGS_TEXT, args, [T_STR, T_STR, T_INT], text, ([s, d, c]) => {
        const str = s as string;
        const delim = d as string;
        const count = int(c);
        if (delim === '' || count === 0) return '';
        const parts = str.split(delim);
        if (count > 0) return parts.slice(0, count).join(delim);
        return parts.slice(Math.max(0, parts.length + count)).join(delim);
      });
    case 'elt': {
      arity(name, args, 2, 1000);
      const k = castEv(args[0]!, T_INT);
      const evs = args.slice(1).map((a) => castEv(a, T_STR));
      return mk(
        textResultType(args.slice(1)),
        () => {
          const i = k();
          if (i === null) return null;
          const e = evs[int(i) - 1];
          return e === undefined ? null : e();
        },
        args,
        text,
      );
    }
    case 'make_set': {
      arity(name, args, 2, 1000);
      // the strings whose bit is set in the 64-bit word, comma-separated; NULL strings skipped
      const bits = castEv(args[0]!, T_INT);
      const evs = args.slice(1).map((a) => castEv(a, T_STR));
      return mk(
        textResultType(args.slice(1)),
        () => {
          const b = bits();
          if (b === null) return null;
          const w = BigInt.asUintN(64, BigInt(b as number | bigint));
          const out: string[] = [];
          for (let i = 0; i < evs.length && i < 64; i++) {
            if (((w >> BigInt(i)) & 1n) === 0n) continue;
            const v = evs[i]!();
            if (v !== null) out.push(v as string);
          }
          return out.join(',');
        },
        args,
        text,
      );
    }
    case 'export_set': {
      arity(name, args, 3, 5);
      // EXPORT_SET(bits, on, off[, separator[, number_of_bits]]): a word per bit from the lowest,
      // `on` or `off`; 64 bits when the count is missing, negative or past 64; any NULL is NULL
      const bits = castEv(args[0]!, T_INT);
      const on = castEv(args[1]!, T_STR);
      const off = castEv(args[2]!, T_STR);
      const sep = args[3] === undefined ? () => ',' : castEv(args[3], T_STR);
      const count = args[4] === undefined ? () => 64 : castEv(args[4], T_INT);
      return mk(
        textResultType(args.slice(1, 4)),
        () => {
          const b = bits();
          const y = on();
          const n = off();
          const s = sep();
          const c = count();
          if (b === null || y === null || n === null || s === null || c === null) return null;
          const k = Number(c);
          const width = k < 0 || k > 64 ? 64 : k;
          const w = BigInt.asUintN(64, BigInt(b as number | bigint));
          const out: string[] = [];
          for (let i = 0; i < width; i++)
            out.push(((w >> BigInt(i)) & 1n) === 1n ? (y as string) : (n as string));
          return out.join(s as string);
        },
        args,
        text,
      );
    }
    case 'soundex':
      arity(name, args, 1);
      return fn(ARGS_TEXT, args, [T_STR], text, ([x]) => soundex(x as string));
    case 'space':
      arity(name, args, 1);
      return fn(T_STR, args, [T_INT], text, ([n]) => {
        const len = Math.max(0, int(n));
        const max = Number(ctx.env.sysVar('max_allowed_packet', undefined).v);
        if (len > max) {
          ctx.env.warn(1301, `Result of space() was larger than max_allowed_packet (${max}) - truncated`);
          return null;
        }
        return ' '.repeat(len);
      });
    case 'ascii':
    case 'ord':
      arity(name, args, 1);
      return fn(T_INT, args, [T_STR], text, ([s]) => {
        const str = s as string;
        if (str === '') return 0;
        const bytes = Buffer.from(chars(str)[0]!, 'utf8');
        // ASCII: the first byte; ORD: the first character's bytes as one number
        if (name === 'ascii') return bytes[0]!;
        let v = 0;
        for (const b of bytes) v = v * 256 + b;
        return v;
      });
    case 'char':
      arity(name, args, 1, 1000);
      return mk(
        T_STR,
        () => {
          let out = '';
          for (const a of args) {
            const v = a.ev();
            if (v === null) continue;
            let n = BigInt.asUintN(32, BigInt(coerce(v, a.t, T_INT) as number | bigint));
            const bytes: number[] = [];
            do {
              bytes.unshift(Number(n & 0xffn));
              n >>= 8n;
            } while (n > 0n);
            out += String.fromCharCode(...bytes);
          }
          return out;
        },
        args,
        text,
      );
    case 'strcmp': {
      // compared as the arguments' collation compares them (trailing spaces aside, and under
      // utf8mb4_general_ci case and accents aside), as MariaDB's STRCMP
      arity(name, args, 2);
      const coll = stringComparison(
        args[0]!.t.kind === 'str' ? args[0]!.t : T_STR,
        args[1]!.t.kind === 'str' ? args[1]!.t : T_STR,
      ).collation;
      const w =
        coll === undefined || coll === 'bytes' ? (x: string) => x : (x: string) => weightText(x, coll);
      return fn(T_INT, args, [T_STR], text, ([a, b]) => {
        const x = w(a as string);
        const y = w(b as string);
        return x < y ? -1 : x === y ? 0 : 1;
      });
    }
    case 'insert':
      arity(name, args, 4);
      return fn(ARGS_TEXT, args, [T_STR, T_INT, T_INT, T_STR], text, ([s, p, l, r]) => {
        const cs = chars(s as string);
        const pos = int(p);
        const len = int(l);
        if (pos < 1 || pos > cs.length) return s;
        const end = len < 0 || pos - 1 + len > cs.length ? cs.length : pos - 1 + len;
        return withinPacket(
          ctx,
          'insert',
          cs.slice(0, pos - 1).join('') + (r as string) + cs.slice(end).join(''),
        );
      });
    case 'quote': {
      arity(name, args, 1);
      const ev = castEv(args[0]!, T_STR);
      return mk(
        textResultType(args),
        () => {
          const s = ev();
          if (s === null) return 'NULL';
          let out = "'";
          for (const c of s as string) {
            const code = c.charCodeAt(0);
            out += code === 0 ? '\\0' : code === 0x1a ? '\\Z' : c === '\\' || c === "'" ? `\\${c}` : c;
          }
          return `${out}'`;
        },
        args,
        text,
      );
    }
    case 'md5':
    case 'sha1':
    case 'sha':
      arity(name, args, 1);
      return fn(T_STR, args, [T_STR], text, ([s]) =>
        createHash(name === 'md5' ? 'md5' : 'sha1')
          .update(Buffer.from(s as string, 'utf8'))
          .digest('hex'),
      );
    case 'sha2':
      arity(name, args, 2);
      return fn(T_STR, args, [T_STR, T_INT], text, ([s, bits]) => {
        const b = int(bits);
        const alg =
          b === 0 || b === 256
            ? 'sha256'
            : b === 224
              ? 'sha224'
              : b === 384
                ? 'sha384'
                : b === 512
                  ? 'sha512'
                  : undefined;
        if (alg === undefined) {
          ctx.env.warn(1583, "Incorrect parameters in the call to native function 'sha2'");
          return null;
        }
        return createHash(alg)
          .update(Buffer.from(s as string, 'utf8'))
          .digest('hex');
      });
    default:
      return undefined;
  }
}
