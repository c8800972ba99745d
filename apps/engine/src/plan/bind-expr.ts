import type { StatusCounters } from '../exec/status.js';
import { arr, endOf, identText, obj, objectName, posOf, str, tagOf } from '../sql/ast.js';
import { asNumber } from './bind-members.js';
import { SqlError } from '../sql/errors.js';
import { type BinOp, makeNeg } from '../exec/arith.js';
import { coerce } from '../exec/convert.js';
import { toLocal } from '../exec/time-zone.js';
import { parseDec } from '../exec/decimal.js';
import { compileNum, type NumNode, numOf } from '../exec/scaled.js';
import {
  type SqlType,
  T_BIN,
  T_HEX,
  T_DATE,
  T_DBL,
  T_BOOL,
  T_INT,
  T_NULL,
  T_STR,
  T_UINT,
  decType,
  isNumeric,
} from '../exec/types.js';
import { type Collation, collationByName } from '../storage/collation.js';
import type { Block, Bound } from '../exec/bound.js';
import type { Ev, Source } from '../exec/scope.js';
import type { SessionView } from './session-view.js';
import { bindFunction } from './bind-func.js';
import { truthOf } from '../exec/truth.js';
import {
  bindArith,
  bindBitwise,
  bitWord,
  castEv,
  bindCase,
  bindCast,
  bindCompare,
  bindIn,
  bindLogic,
  bindNot,
} from './bind-ops.js';
import { bindInSubquery, bindQuantified, existsQuery, subBound, subCache } from './bind-subquery.js';
import { bindRowCompare, bindRowInList, bindRowInSubquery, rowNodes, scalarInRows } from './bind-row.js';
import { bindLike, bindRegexp } from './bind-pattern.js';
import { recordRead, trackReads } from './optimizer/column-reads.js';

export { bindCompare, bindLogic, bindNot, castEv } from './bind-ops.js';

/** What a subquery binds to, as its enclosing expression sees it. */
export interface SubPlan {
  readonly columns: readonly string[];
  readonly types: readonly SqlType[];
  /** Runs the subquery; `emit` returns false to stop early. */
  run(emit: (row: unknown[]) => boolean | undefined): void;
  /** Reads a column of an enclosing block. */
  readonly correlated: boolean;
  /** Per enclosing block, the sources of it that the subquery reads. */
  readonly outerRefs: ReadonlyMap<Block, ReadonlySet<number>>;
  /**
   * The values of enclosing blocks' columns the subquery's result is a function of (its subquery
   * cache key); null when it is not a function of them alone (see Block.uncacheable, outerOpaque).
   */
  readonly outerValues: readonly Ev[] | null;
}

/** Session services the binder needs (kept as an interface so the binder imports no session). */
export interface BindEnv {
  readonly sql: string;
  bindSubquery(query: unknown, parent: Block): SubPlan;
  sysVar(name: string, scope: 'session' | 'global' | undefined): { t: SqlType; v: unknown };
  readonly divPrecisionIncrement: number;
  /** The parameter number of a `?` node (numbered in text order). */
  paramIndex(node: unknown): number;
  /** A note or warning raised while evaluating (MySQL's error number and message). */
  warn(code: number, message: string, level?: 'Note' | 'Warning'): void;
  /** The session the statement runs in (user variables, information functions). */
  readonly session: SessionView;
  /** collation_connection: the collation of string literals (a column's wins over it). */
  readonly collation: Collation;
  /** The statement's status counters (the subquery cache counts its hits and misses). */
  readonly status: StatusCounters;
}

export interface BindCtx {
  readonly block: Block;
  readonly clause: string;
  readonly allowAgg: boolean;
  readonly env: BindEnv;
  /** INSERT … ON DUPLICATE KEY UPDATE: VALUES(col), the value the insert would have written. */
  readonly insertValues?: (column: string) => Bound;
  /** Select-list aliases visible to this clause, and whether they win over columns. */
  readonly aliases?: Map<string, Bound>;
  readonly aliasFirst?: boolean;
}

/** Refuses a call of native function `name` with fewer than `lo` or more than `hi` arguments (1582). */
export function arity(name: string, args: readonly unknown[], lo: number, hi: number = lo): void {
  if (args.length < lo || args.length > hi)
    throw new SqlError(
      'ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT',
      `Incorrect parameter count in the call to native function '${name}'`,
    );
}

/**
 * The type of a string function's result, from the arguments it reads as text (MariaDB's
 * character set aggregation): binary when one of them is a binary string, else text, and binary
 * but ignorable when all of them are NULL literals (a NULL's character set is binary: MariaDB
 * reports `UPPER(NULL)` so). `types` gives each argument's reading (the last repeats); without it
 * every argument is read as text.
 */
export function textResultType(args: readonly Bound[], types?: readonly SqlType[]): SqlType {
  let texts = 0;
  let nulls = 0;
  for (let i = 0; i < args.length; i++) {
    const t = types === undefined ? T_STR : types[Math.min(i, types.length - 1)]!;
    if (t !== T_STR) continue;
    const at = args[i]!.t;
    if (at.binary === true && at.ignorable !== true) return T_BIN;
    texts++;
    if (at.kind === 'null') nulls++;
  }
  return texts > 0 && nulls === texts ? T_NULL_TEXT : T_STR;
}

/** How a string function reads an argument it takes as text: as bytes when its result is binary. */
export function textReading(result: SqlType, t: SqlType): SqlType {
  return t === T_STR && result === T_BIN ? T_BIN : t;
}

const T_NULL_TEXT: SqlType = { ...T_BIN, ignorable: true };

/** Combine the planner facts of `parts` into a new Bound. */
export function mk(
  t: SqlType,
  ev: Ev,
  parts: readonly Bound[],
  text: string,
  extra: Partial<Bound> = {},
): Bound {
  let refs: number[] = [];
  let outer = false;
  let agg = false;
  let sub = false;
  for (const p of parts) {
    if (p.refs.length > 0) refs = refs.length === 0 ? [...p.refs] : [...new Set([...refs, ...p.refs])];
    outer ||= p.outer;
    agg ||= p.agg;
    sub ||= p.sub === true;
  }
  refs.sort((a, b) => a - b);
  // constant folding: an expression of literals only is computed once, at bind time (unless it
  // fails: then it fails when run, as written)
  if (parts.length > 0 && extra.cmp === undefined && parts.every((p) => p.lit !== undefined)) {
    try {
      const v = ev();
      return { t, ev: () => v, refs, outer, agg, text, lit: { v } };
    } catch {
      // keep it for run time
    }
  }
  return { t, ev, refs, outer, agg, text, ...(sub ? { sub } : {}), ...extra };
}

export function literal(t: SqlType, v: unknown, text: string): Bound {
  return { t, ev: () => v, refs: [], outer: false, agg: false, text, lit: { v, written: true } };
}

/**
 * Source text of a node: from its first token (its own leading unary operators and parentheses
 * included) to its last, the parentheses it opened closed.
 */
export function nodeText(env: BindEnv, n: unknown): string {
  const p = posOf(n);
  if (p === undefined) return '';
  const tokens = leadingTokens(n);
  const e = endOf(n);
  if (e === undefined) return exprTextAt(env.sql, p.line, p.column, false, tokens);
  const start = backOver(env.sql, offsetAt(env.sql, p.line, p.column), tokens);
  return env.sql.slice(start, closeParens(env.sql, start, offsetAt(env.sql, e.line, e.column))).trim();
}

/** `off` moved back over `tokens` unary operators, opening parentheses or NOTs before it. */
function backOver(sql: string, off: number, tokens: number): number {
  for (let left = tokens, j = off - 1; left > 0 && j >= 0; j--) {
    const ch = sql[j]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') continue;
    if ('-+~!('.includes(ch)) off = j;
    else if (/not$/i.test(sql.slice(Math.max(0, j - 2), j + 1)) && !/[\w$]/.test(sql[j - 3] ?? ' ')) {
      off = j - 2;
      j -= 2;
    } else break;
    left--;
  }
  return off;
}

/** The string offset of a (1-based) line and column. */
function offsetAt(sql: string, line: number, column: number): number {
  let off = 0;
  for (let k = 1; k < line; k++) {
    const nl = sql.indexOf('\n', off);
    if (nl < 0) break;
    off = nl + 1;
  }
  return off + column - 1;
}

/** From `end`, past the `)` that close what `sql[start, end)` left open (quotes skipped). */
function closeParens(sql: string, start: number, end: number): number {
  let depth = 0;
  let i = start;
  for (; i < end || (depth > 0 && i < sql.length); i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const j = sql.indexOf(c, i + 1);
      i = j < 0 ? sql.length : j;
    } else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0 && i >= end) return i + 1;
    }
  }
  return i;
}

/**
 * Unary operators and opening parentheses a node starts with before its first span (spans start
 * at operands): the UnaryOp and Nested nodes on its leftmost path, so `-5 - 1` reads from the `-`.
 */
function leadingTokens(n: unknown): number {
  let k = 0;
  let x = n;
  for (;;) {
    const [tag, v] = tagOf(x);
    if (tag === 'UnaryOp') x = obj(v).expr;
    else if (tag === 'Nested') x = v;
    else if (tag === 'BinaryOp') {
      x = obj(v).left;
      continue;
    } else return k;
    k++;
  }
}

/** Keywords an expression can start with before its first span (an operator or a typed literal). */
const LEADING_KEYWORDS = new Set([
  'NOT',
  'CAST',
  'CONVERT',
  'EXISTS',
  'EXTRACT',
  'SUBSTRING',
  'SUBSTR',
  'TRIM',
  'POSITION',
  'CEIL',
  'CEILING',
  'FLOOR',
  'INTERVAL',
  'DATE',
  'TIME',
  'TIMESTAMP',
  'BINARY',
  'CASE',
]);

/** The expression text starting at (line, column), up to a top-level ',' or clause keyword. */
export function exprTextAt(sql: string, line: number, column: number, leading = false, tokens = 0): string {
  const lines = sql.split('\n');
  let off = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) off += lines[k]!.length + 1;
  off = backOver(sql, off + column - 1, tokens);
  if (leading) {
    // a select item's own leading unary operators, parentheses and keywords (spans start at
    // operands: `CAST(1 AS CHAR)`'s span is its `1`)
    for (let j = off - 1; j >= 0; j--) {
      const ch = sql[j]!;
      if (ch === ' ' || ch === '\t' || ch === '\n') continue;
      if ('-+~!('.includes(ch)) {
        off = j;
        continue;
      }
      const w = /[A-Za-z_]+$/.exec(sql.slice(Math.max(0, j - 16), j + 1));
      if (w === null || /[\w$]/.test(sql[j - w[0].length] ?? ' ')) break;
      if (!LEADING_KEYWORDS.has(w[0].toUpperCase())) break;
      off = j - w[0].length + 1;
      j -= w[0].length - 1;
    }
  }
  let depth = 0;
  let i = off;
  const stop =
    /^(from|where|group|having|order|limit|union|except|intersect|as|into|for|window|on|using|join|left|right|inner|cross|straight_join|natural|desc|asc|then|else|end|when|and|or)\b/i;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const j = sql.indexOf(c, i + 1);
      i = j < 0 ? sql.length : j + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (c === ',' || c === ';')) break;
    else if (depth === 0 && i > off && /\s/.test(sql[i - 1]!) && stop.test(sql.slice(i))) {
      // keep CASE … END whole, and AND/OR inside the item
      const w = /^[a-z_]+/i.exec(sql.slice(i))![0].toLowerCase();
      if (w !== 'and' && w !== 'or' && w !== 'then' && w !== 'else' && w !== 'when' && w !== 'end') break;
      if (!/case/i.test(sql.slice(off, i))) break;
    }
    i++;
  }
  return sql.slice(off, i).trim();
}

function err(
  code: 'ER_BAD_FIELD_ERROR' | 'ER_NON_UNIQ_ERROR',
  name: string,
  clause: string,
  n: unknown,
): SqlError {
  const p = posOf(n);
  const msg =
    code === 'ER_BAD_FIELD_ERROR'
      ? `Unknown column '${name}' in '${clause}'`
      : `Column '${name}' in ${clause} is ambiguous`;
  return new SqlError(code, msg, p?.line, p?.column);
}

/** Resolve a column name in the current block's sources (qualifier optional). */
function findInBlock(
  block: Block,
  qual: string | undefined,
  name: string,
  clause: string,
  n: unknown,
  schema?: string,
): Bound | null | undefined {
  const lname = name.toLowerCase();
  const lq = qual?.toLowerCase();
  let found: Bound | undefined;
  const matches = (s: Source): boolean =>
    s.alias.toLowerCase() === lq && (schema === undefined || s.schema === schema);
  for (const s of block.sources) {
    if (lq !== undefined && !matches(s)) continue;
    for (let c = 0; c < s.columns.length; c++) {
      const col = s.columns[c]!;
      if (col.invisible === true || col.name.toLowerCase() !== lname) continue;
      if (lq === undefined && col.hiddenUnqualified === true) continue;
      if (found !== undefined) throw err('ER_NON_UNIQ_ERROR', name, clause, n);
      found = columnRef(block, s.idx, c);
    }
  }
  if (found === undefined && lq !== undefined && !block.sources.some(matches)) return null; // unknown qualifier here: try enclosing blocks
  return found;
}

export function columnRef(block: Block, srcIdx: number, c: number): Bound {
  const s = block.sources[srcIdx]!;
  s.used.add(c);
  recordRead(s, c);
  const frame = block.frame;
  const slot = s.offset + c;
  const col = s.columns[c]!;
  const k = col.t.kind;
  if (k === 'dec') {
    // a stored DECIMAL is decoded into the frame as its scaled integer in a number (see
    // exec/pipeline.ts rowDecoder); the exact bigint is made only when something asks for it,
    // and made again only when the value changed (a GROUP BY column repeats row after row)
    let lastN = Number.NaN;
    let lastB = 0n;
    return {
      t: col.t,
      ev: () => {
        const x = frame.v[slot];
        if (typeof x !== 'number') return x;
        if (x !== lastN) {
          lastN = x;
          lastB = BigInt(x);
        }
        return lastB;
      },
      num: { k: 'slot', frame, slot },
      refs: [srcIdx],
      outer: false,
      agg: false,
      text: col.name,
      col: { src: s, c },
    };
  }
  if (col.t.timestamp === true) {
    // a TIMESTAMP is stored in UTC and read in the session's time zone
    const run = block.run;
    return {
      t: col.t,
      ev: () => {
        const x = frame.v[slot];
        return x === null ? null : toLocal(Number(x), run.timeZone());
      },
      refs: [srcIdx],
      outer: false,
      agg: false,
      text: col.name,
      col: { src: s, c },
    };
  }
  return {
    t: col.t,
    ev: () => frame.v[slot],
    ...(k === 'int' || k === 'date' ? { num: { k: 'slot', frame, slot } as const } : {}),
    refs: [srcIdx],
    outer: false,
    agg: false,
    text: col.name,
    col: { src: s, c },
  };
}

function resolveColumn(ctx: BindCtx, parts: string[], n: unknown): Bound {
  const name = parts[parts.length - 1]!;
  const qual = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  const schema = parts.length >= 3 ? parts[parts.length - 3] : undefined;
  const full = parts.join('.');
  if (qual === undefined && ctx.aliases !== undefined && ctx.aliasFirst === true) {
    const a = ctx.aliases.get(name.toLowerCase());
    if (a !== undefined) return a;
  }
  const here = findInBlock(ctx.block, qual, name, ctx.clause, n, schema);
  if (here) return here;
  if (qual === undefined && ctx.aliases !== undefined && ctx.aliasFirst !== true) {
    const a = ctx.aliases.get(name.toLowerCase());
    if (a !== undefined) return a;
  }
  // enclosing blocks: a correlated reference
  let inner = ctx.block;
  for (let b = ctx.block.parent; b !== undefined; inner = b, b = b.parent) {
    const r = findInBlock(b, qual, name, ctx.clause, n, schema);
    if (r) {
      // record the reference on every block between here and b
      for (let x: Block | undefined = ctx.block; x !== undefined && x !== b; x = x.parent) {
        let set = x.outerRefs.get(b);
        if (set === undefined) x.outerRefs.set(b, (set = new Set()));
        for (const i of r.refs) set.add(i);
        const col = r.col;
        if (col === undefined) x.outerOpaque = true;
        else if (!x.outerColumns.some((o) => o.src === col.src && o.c === col.c))
          x.outerColumns.push({ src: col.src, c: col.c, ev: r.ev });
      }
      void inner;
      return { ...r, refs: [], outer: true };
    }
  }
  throw err('ER_BAD_FIELD_ERROR', full, ctx.clause, n);
}

const CMP_OPS: Record<string, string> = {
  Eq: '=',
  NotEq: '<>',
  Lt: '<',
  LtEq: '<=',
  Gt: '>',
  GtEq: '>=',
  Spaceship: '<=>',
};
const ARITH_OPS: Record<string, BinOp> = {
  Plus: '+',
  Minus: '-',
  Multiply: '*',
  Divide: '/',
  MyIntegerDivide: 'DIV',
  Modulo: '%',
};

/** Bind an expression node (recording the columns it reads, for index condition pushdown). */
export function bindExpr(n: unknown, ctx: BindCtx): Bound {
  return trackReads(() => bindNode(n, ctx));
}

function bindNode(n: unknown, ctx: BindCtx): Bound {
  const [tag, v] = tagOf(n);
  switch (tag) {
    case 'Identifier': {
      const name = identText(v);
      if (name.startsWith('@@')) return sysVarRef(ctx, name.slice(2), undefined, n);
      if (name.startsWith('@')) return userVarRef(ctx, name.slice(1));
      // CURRENT_USER without parentheses is the function, unless a column has that name
      if (obj(v).quote_style === undefined && name.toUpperCase() === 'CURRENT_USER')
        try {
          return resolveColumn(ctx, [name], n);
        } catch {
          return bindFunction('Function', { name: [{ Identifier: { value: name } }], args: 'None' }, ctx, n);
        }
      return resolveColumn(ctx, [name], n);
    }
    case 'CompoundIdentifier': {
      const parts = arr(v).map(identText);
      if (parts[0]?.startsWith('@@')) {
        const scope = parts[0].slice(2).toLowerCase();
        return sysVarRef(ctx, parts.slice(1).join('.'), scope === 'global' ? 'global' : 'session', n);
      }
      return resolveColumn(ctx, parts, n);
    }
    case 'Value':
      return bindValue(obj(v).value, ctx, v);
    case 'Nested':
      return bindExpr(v, ctx);
    case 'BinaryOp': {
      const o = obj(v);
      const op = str(o.op) ?? tagOf(o.op)[0];
      if (op === 'Assignment') return bindAssignment(o.left, bindExpr(o.right, ctx), ctx, n);
      if (op === 'And' || op === 'Or' || op === 'Xor')
        return bindLogic(op, bindExpr(o.left, ctx), bindExpr(o.right, ctx), nodeText(ctx.env, n));
      const cmp = CMP_OPS[op];
      if (cmp !== undefined && (rowNodes(o.left) !== undefined || rowNodes(o.right) !== undefined))
        return bindRowCompare(cmp, o.left, o.right, ctx, nodeText(ctx.env, n));
      if (cmp !== undefined)
        return bindCompare(cmp, bindExpr(o.left, ctx), bindExpr(o.right, ctx), nodeText(ctx.env, n));
      const ar = ARITH_OPS[op];
      if ((ar === '+' || ar === '-') && tagOf(o.right)[0] === 'Interval')
        return bindFunction(
          'DateArith',
          { date: bindExpr(o.left, ctx), interval: tagOf(o.right)[1], sign: ar === '+' ? 1 : -1 },
          ctx,
          n,
        );
      if (ar === '+' && tagOf(o.left)[0] === 'Interval')
        return bindFunction(
          'DateArith',
          { date: bindExpr(o.right, ctx), interval: tagOf(o.left)[1], sign: 1 },
          ctx,
          n,
        );
      if (ar !== undefined)
        return bindArith(
          ar,
          bindExpr(o.left, ctx),
          bindExpr(o.right, ctx),
          nodeText(ctx.env, n),
          ctx,
          o.right,
        );
      // `||` reaches the binder only under PIPES_AS_CONCAT (otherwise it was read as OR)
      if (op === 'StringConcat')
        return bindFunction('ConcatOp', [bindExpr(o.left, ctx), bindExpr(o.right, ctx)], ctx, n);
      if (
        op === 'BitwiseOr' ||
        op === 'BitwiseAnd' ||
        op === 'BitwiseXor' ||
        op === 'PGBitwiseShiftLeft' ||
        op === 'PGBitwiseShiftRight'
      )
        return bindBitwise(op, bindExpr(o.left, ctx), bindExpr(o.right, ctx), nodeText(ctx.env, n));
      throw unsupported(`operator ${op}`, n);
    }
    case 'UnaryOp': {
      const o = obj(v);
      const op = str(o.op);
      const e = op === 'Minus' ? asNumber(bindExpr(o.expr, ctx)) : bindExpr(o.expr, ctx);
      if (op === 'Plus') return e;
      if (op === 'Minus') {
        if (e.lit !== undefined && e.lit.v !== null) {
          // Item_func_neg::fix_length_and_dec_int: a constant integer whose 64 bits read as
          // unsigned are 2^63 or more (a BIGINT UNSIGNED past the signed range, or any negative
          // value) negates into a DECIMAL — except the literal 9223372036854775808, whose
          // negation is the least BIGINT
          if (e.t.kind === 'int') {
            const big = BigInt(e.lit.v as number | bigint);
            if (big < 0n || big > 9223372036854775807n) {
              if (big === 9223372036854775808n && e.lit.written === true)
                return literal(T_INT, -big, `-${e.text}`);
              return literal(decType(20, 0), -big, `-${e.text}`);
            }
          }
          const r = makeNeg(e.t, `-${e.text}`).f(e.lit.v);
          return literal(e.t.kind === 'int' ? T_INT : e.t, r, `-${e.text}`);
        }
        const a = makeNeg(e.t, `-${nodeText(ctx.env, o.expr)}`);
        const f = a.f;
        const ev = e.ev;
        const exact = (): unknown => {
          const x = ev();
          return x === null ? null : f(x);
        };
        const en = a.t.kind === 'int' || a.t.kind === 'dec' ? numOf(e) : undefined;
        if (en === undefined) return mk(a.t, exact, [e], `-${e.text}`);
        const num: NumNode = { k: 'neg', e: en };
        const fast = compileNum(num);
        const dec = a.t.kind === 'dec';
        return mk(
          a.t,
          () => {
            const x = fast();
            return Number.isNaN(x) ? exact() : dec ? BigInt(x) : x;
          },
          [e],
          `-${e.text}`,
          { num },
        );
      }
      if (op === 'Not') return bindNot(e, `NOT ${e.text}`);
      if (op === 'BitwiseNot' || op === 'PGBitwiseNot') {
        const ev = e.ev;
        return mk(
          T_UINT,
          () => {
            const x = ev();
            if (x === null) return null;
            return normU64(BigInt.asUintN(64, ~bitWord(e, x)));
          },
          [e],
          e.text,
        );
      }
      throw unsupported(`unary ${op}`, n);
    }
    case 'IsNull':
    case 'IsNotNull':
    case 'IsUnknown':
    case 'IsNotUnknown': {
      // x IS UNKNOWN is x IS NULL: a truth value is unknown exactly when it is NULL
      const e = bindExpr(v, ctx);
      const ev = e.ev;
      const want = tag === 'IsNull' || tag === 'IsUnknown';
      return mk(T_BOOL, () => ((ev() === null) === want ? 1 : 0), [e], nodeText(ctx.env, n));
    }
    case 'IsTrue':
    case 'IsNotTrue':
    case 'IsFalse':
    case 'IsNotFalse': {
      const e = bindExpr(v, ctx);
      const tr = truthOf(e);
      const f =
        tag === 'IsTrue'
          ? (x: boolean | null) => x === true
          : tag === 'IsNotTrue'
            ? (x: boolean | null) => x !== true
            : tag === 'IsFalse'
              ? (x: boolean | null) => x === false
              : (x: boolean | null) => x !== false;
      return mk(T_BOOL, () => (f(tr()) ? 1 : 0), [e], nodeText(ctx.env, n));
    }
    case 'Between': {
      const o = obj(v);
      const lo = bindExpr(o.low, ctx);
      const hi = bindExpr(o.high, ctx);
      // an ENUM or SET between numbers is compared by its number
      const e0 = bindExpr(o.expr, ctx);
      const e = isNumeric(lo.t) && isNumeric(hi.t) ? asNumber(e0) : e0;
      const a = bindCompare('>=', e, lo, '');
      const b = bindCompare('<=', e, hi, '');
      const both = bindLogic('And', a, b, nodeText(ctx.env, n));
      if (o.negated === true) return bindNot(both, nodeText(ctx.env, n));
      return { ...both, between: { e, lo, hi } };
    }
    case 'InList': {
      const o = obj(v);
      if (rowNodes(o.expr) !== undefined) {
        const r = bindRowInList(o.expr, arr(o.list), ctx, nodeText(ctx.env, n));
        return o.negated === true ? bindNot(r, r.text) : r;
      }
      const e0 = bindExpr(o.expr, ctx);
      if (arr(o.list).some((x) => rowNodes(x) !== undefined)) throw scalarInRows(e0);
      const list = arr(o.list).map((x) => bindExpr(x, ctx));
      // an ENUM or SET in a list of numbers is compared by its number
      const e = list.every((x) => isNumeric(x.t) || x.t.kind === 'null') ? asNumber(e0) : e0;
      const r = bindIn(e, list, nodeText(ctx.env, n));
      if (o.negated === true) return bindNot(r, r.text);
      return { ...r, inList: { e, list } };
    }
    case 'InSubquery': {
      const o = obj(v);
      if (rowNodes(o.expr) !== undefined) {
        const r = bindRowInSubquery(o.expr, o.subquery, ctx, nodeText(ctx.env, n));
        return o.negated === true ? bindNot(r, r.text) : r;
      }
      const e = bindExpr(o.expr, ctx);
      const r = bindInSubquery(e, o.subquery, ctx, nodeText(ctx.env, n));
      return o.negated === true ? bindNot(r, r.text) : r;
    }
    case 'AnyOp':
    case 'AllOp': {
      const o = obj(v);
      const op = CMP_OPS[String(o.compare_op)];
      if (op === undefined || op === '<=>' || tagOf(o.right)[0] !== 'Subquery')
        throw unsupported(`${tag === 'AnyOp' ? 'ANY' : 'ALL'} over this operand`, n);
      const e = bindExpr(o.left, ctx);
      const text = nodeText(ctx.env, n);
      // = ANY is IN, <> ALL is NOT IN (with the same NULL rules); the others compare row by row
      if (op === '=' && tag === 'AnyOp') return bindInSubquery(e, tagOf(o.right)[1], ctx, text);
      if (op === '<>' && tag === 'AllOp') {
        const r = bindInSubquery(e, tagOf(o.right)[1], ctx, text);
        return bindNot(r, r.text);
      }
      return bindQuantified(e, op, tag === 'AllOp', tagOf(o.right)[1], ctx, text);
    }
    case 'Exists': {
      const o = obj(v);
      const plan = ctx.env.bindSubquery(existsQuery(o.subquery), ctx.block);
      const cache = subCache(ctx, plan);
      const neg = o.negated === true;
      const ev = cache(() => {
        let any = false;
        plan.run(() => {
          any = true;
          return false;
        });
        return any ? 1 : 0;
      });
      return subBound(ctx, plan, T_BOOL, neg ? () => 1 - (ev() as number) : ev, nodeText(ctx.env, n));
    }
    case 'Subquery': {
      const plan = ctx.env.bindSubquery(v, ctx.block);
      if (plan.columns.length !== 1)
        throw new SqlError('ER_OPERAND_COLUMNS', 'Operand should contain 1 column(s)');
      const t = plan.types[0]!;
      const ev = subCache(
        ctx,
        plan,
      )(() => {
        let val: unknown = null;
        let n2 = 0;
        plan.run((row) => {
          n2++;
          if (n2 > 1) throw new SqlError('ER_SUBQUERY_NO_1_ROW', 'Subquery returns more than 1 row');
          val = row[0];
          return true;
        });
        return val;
      });
      return subBound(ctx, plan, t, ev, nodeText(ctx.env, n));
    }
    case 'Like':
    case 'ILike': {
      const o = obj(v);
      return bindLike(
        bindExpr(o.expr, ctx),
        bindExpr(o.pattern, ctx),
        o.escape_char,
        o.negated === true,
        nodeText(ctx.env, n),
        tag === 'ILike',
        ctx.block.run,
      );
    }
    case 'RLike': {
      const o = obj(v);
      return bindRegexp(
        bindExpr(o.expr, ctx),
        bindExpr(o.pattern, ctx),
        o.negated === true,
        nodeText(ctx.env, n),
        false,
      );
    }
    case 'Case':
      return bindCase(obj(v), ctx, nodeText(ctx.env, n));
    case 'Collate': {
      // expr COLLATE name: the collation this string is compared by (a text type only)
      const o = obj(v);
      const e = bindExpr(o.expr, ctx);
      const name = objectName(o.collation).join('.');
      const coll = collationByName(name);
      if (coll === undefined) throw new SqlError('ER_UNKNOWN_COLLATION', `Unknown collation: '${name}'`);
      if (e.t.kind !== 'str' && e.t.kind !== 'null')
        throw new SqlError(
          'ER_COLLATION_CHARSET_MISMATCH',
          `COLLATION '${coll}' is not valid for CHARACTER SET 'binary'`,
        );
      const t = { ...T_STR, collation: coll };
      return { ...mk(t, castEv(e, T_STR), [e], nodeText(ctx.env, n)), t };
    }
    case 'Cast':
      return bindCast(obj(v), ctx, nodeText(ctx.env, n));
    case 'Convert': {
      // CONVERT(e, type) is CAST(e AS type); CONVERT(e USING charset) is e as a string
      const o = obj(v);
      const dt = o.data_type === undefined || o.data_type === null ? { Char: null } : o.data_type;
      return bindCast({ expr: o.expr, data_type: dt }, ctx, nodeText(ctx.env, n));
    }
    case 'Function':
    case 'Extract':
    case 'Substring':
    case 'Interval':
    case 'TypedString':
    case 'Trim':
    case 'Position':
    case 'Ceil':
    case 'Floor':
      return bindFunction(tag, v, ctx, n);
    case 'Tuple':
      throw new SqlError('ER_OPERAND_COLUMNS', 'Operand should contain 1 column(s)');
    default:
      throw unsupported(tag || 'expression', n);
  }
}

export function unsupported(what: string, n: unknown): SqlError {
  const p = posOf(n);
  return new SqlError(
    'ER_NOT_SUPPORTED_YET',
    `This version of MySQL doesn't yet support '${what}'`,
    p?.line,
    p?.column,
  );
}

export function normU64(b: bigint): number | bigint {
  return b <= 9007199254740991n ? Number(b) : b;
}

/**
 * `@x`: the variable's value when the expression runs (it may change row by row, `@n := @n + 1`),
 * typed as the value it held when the statement was bound (an unset variable: a NULL binary string).
 */
function userVarRef(ctx: BindCtx, name: string): Bound {
  markUncacheable(ctx.block);
  const s = ctx.env.session;
  const at = s.userVar(name);
  // never set: a NULL binary string, as MariaDB types it (MEDIUMBLOB)
  const t = at === undefined ? T_BIN : at.t.kind === 'null' ? T_STR : at.t;
  return {
    t,
    ev: () => {
      const x = s.userVar(name);
      if (x === undefined || x.v === null) return null;
      return x.t === t || (x.t.kind === t.kind && x.t.iscale === t.iscale) ? x.v : coerce(x.v, x.t, t);
    },
    refs: [],
    outer: false,
    agg: false,
    text: `@${name}`,
  };
}

/** Notes that `block`, and every block it is inside, has a value that is not a function of its inputs. */
export function markUncacheable(block: Block): void {
  for (let b: Block | undefined = block; b !== undefined; b = b.parent) b.uncacheable = true;
}

/** `@x := expr`: assigns when it runs and gives the value (never folded into a constant). */
function bindAssignment(target: unknown, e: Bound, ctx: BindCtx, n: unknown): Bound {
  markUncacheable(ctx.block);
  const [tt, tv] = tagOf(target);
  const name = tt === 'Identifier' ? identText(tv) : '';
  if (!name.startsWith('@') || name.startsWith('@@')) throw unsupported('assignment to a non-variable', n);
  const s = ctx.env.session;
  const ev = e.ev;
  const t = e.t;
  return {
    t,
    ev: () => {
      const v = ev();
      s.setUserVar(name.slice(1), t, v);
      return v;
    },
    refs: e.refs,
    outer: e.outer,
    agg: e.agg,
    text: `${name} := ${e.text}`,
  };
}

function sysVarRef(ctx: BindCtx, name: string, scope: 'session' | 'global' | undefined, _n: unknown): Bound {
  const { t, v } = ctx.env.sysVar(name, scope);
  return { t, ev: () => v, refs: [], outer: false, agg: false, text: `@@${name}` };
}

function bindValue(val: unknown, ctx: BindCtx, n: unknown): Bound {
  const [tag, v] = tagOf(val);
  switch (tag) {
    case 'Number': {
      const text = String(arr(v)[0]);
      if (/^\d+$/.test(text)) {
        const b = BigInt(text);
        if (b <= 9223372036854775807n) return literal(T_INT, b <= 9007199254740991n ? Number(b) : b, text);
        if (b <= 18446744073709551615n) return literal(T_UINT, b, text);
        return literal(decType(text.length, 0), b, text);
      }
      if (/e/i.test(text)) return literal(T_DBL, Number(text), text);
      const p = parseDec(text);
      if (p === undefined) throw unsupported(`number ${text}`, n);
      const digits = text.replace(/[^0-9]/g, '').replace(/^0+/, '').length;
      return literal(decType(Math.max(digits, p[1], 1), p[1]), p[0], text);
    }
    case 'SingleQuotedString':
    case 'DoubleQuotedString':
    case 'NationalStringLiteral':
      return literal({ ...T_STR, collation: ctx.env.collation, weak: true }, String(v), `'${String(v)}'`);
    case 'HexStringLiteral': {
      // 0x41 is a number where a number is read (MariaDB's hex hybrid: 0x41 + 0 is 65), X'41'
      // a string everywhere (X'41' + 0 is 0); the parser gives both the same node
      const digits = String(v);
      if (/^0x/i.test(nodeText(ctx.env, n))) {
        const even = digits.length % 2 === 1 ? `0${digits}` : digits;
        return literal(T_HEX, Buffer.from(even, 'hex').toString('latin1'), `0x${digits}`);
      }
      return literal(T_BIN, Buffer.from(digits, 'hex').toString('latin1'), `X'${digits}'`);
    }
    case 'SingleQuotedByteStringLiteral': {
      // b'0101': a bit-value literal, the bytes of its bits (whole bytes, padded on the left);
      // read as a number, their unsigned integer, as a 0x… literal is
      const bits = String(v);
      if (!/^[01]*$/.test(bits) || !/^b/i.test(nodeText(ctx.env, n))) throw unsupported(`literal ${tag}`, n);
      const width = Math.ceil(bits.length / 8) * 2;
      const hex = bits === '' ? '' : BigInt(`0b${bits}`).toString(16).padStart(width, '0');
      return literal(T_HEX, Buffer.from(hex, 'hex').toString('latin1'), `b'${bits}'`);
    }
    case 'Boolean':
      return literal(T_BOOL, v === true ? 1 : 0, v === true ? 'TRUE' : 'FALSE');
    case 'Null':
      return literal(T_NULL, null, 'NULL');
    case 'Placeholder': {
      const index = ctx.env.paramIndex(n);
      const run = ctx.block.run;
      const t = paramType(run.params[index]);
      return { t, ev: () => paramValue(run.params[index], t), refs: [], outer: false, agg: false, text: '?' };
    }
    default:
      throw unsupported(`literal ${tag}`, n);
  }
}

/**
 * A parameter whose SQL type the client stated (COM_STMT_EXECUTE sends each parameter's type): it
 * binds as `t`, its value `v` already in that type's runtime form (types.ts).
 */
export class TypedParam {
  readonly t: SqlType;
  readonly v: unknown;
  constructor(t: SqlType, v: unknown) {
    this.t = t;
    this.v = v;
  }
}

/** What a prepared statement's plans are kept by: each parameter's kind (and a DECIMAL's scale). */
export function paramSignature(params: readonly unknown[]): string {
  let sig = '';
  for (const p of params) sig += typeSignature(paramType(p));
  return sig;
}

/** Each parameter type's part of a signature, made once per type object. */
const signatures = new WeakMap<SqlType, string>();

function typeSignature(t: SqlType): string {
  let s = signatures.get(t);
  if (s === undefined) {
    s = t.kind === 'dec' ? `dec${t.iscale},` : t.unsigned === true ? 'uint,' : `${t.kind}${t.scale},`;
    signatures.set(t, s);
  }
  return s;
}

/** The SQL type a parameter value binds as (the plan is made for the first values' types). */
export function paramType(v: unknown): SqlType {
  if (v instanceof TypedParam) return v.t;
  if (v === null || v === undefined) return T_NULL;
  if (typeof v === 'bigint') return T_INT;
  if (typeof v === 'number') return Number.isInteger(v) ? T_INT : T_DBL;
  if (typeof v === 'boolean') return T_INT;
  if (v instanceof Date) return T_DATE;
  return T_STR;
}

function paramValue(v: unknown, t: SqlType): unknown {
  if (v instanceof TypedParam) return v.v;
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return Math.floor(v.getTime() / 86_400_000);
  if (t.kind === 'int' && typeof v === 'number' && !Number.isInteger(v)) return Math.round(v);
  if (t.kind === 'str' && typeof v !== 'string') return String(v);
  return v;
}
