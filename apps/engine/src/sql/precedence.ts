import { obj, type Obj, posOf, tagOf } from './ast.js';
import { offsetOf, syntaxErrorAt } from './syntax-error.js';

/**
 * Operator precedence as MariaDB 10.11's grammar (sql_yacc.yy) gives it, applied to the parser's
 * tree. datafusion-sqlparser-rs groups several MySQL operators differently: it reads DIV's right
 * operand at precedence 0 (`7 DIV 2 + 1` as `7 DIV (2 + 1)`), ranks XOR above AND, `^` below `*`,
 * LIKE above `=`, and `||` as a concatenation. So every maximal tree of operators is flattened
 * back into its tokens (an in-order walk: operands stay in text order, parentheses are kept as the
 * `Nested` nodes they are) and parsed again by precedence climbing over these levels, loosest
 * first:
 *
 * | level | operators | operands |
 * |---|---|---|
 * | 0 | `:=` | right-associative |
 * | 1 | OR, `\|\|` (without PIPES_AS_CONCAT) | |
 * | 2 | XOR | |
 * | 3 | AND, `&&` | |
 * | 4 | NOT (prefix) | its operand from level 5 |
 * | 5 | `= <=> <> != < <= > >=`, IS [NOT] NULL/TRUE/FALSE/UNKNOWN, `= ANY (…)` | right operand from level 6 |
 * | 6 | [NOT] BETWEEN … AND … | bounds from level 6 (`a BETWEEN b AND c BETWEEN d AND e` nests right) |
 * | 7 | [NOT] LIKE, REGEXP, [NOT] IN (…) | pattern from level 8 |
 * | 8 | `\|` | |
 * | 9 | `&` | |
 * | 10 | `<< >>` | |
 * | 11 | `+ -` | |
 * | 12 | `* / DIV % MOD` | |
 * | 13 | `^` | |
 * | 14 | `\|\|` under PIPES_AS_CONCAT | |
 * | 15 | `-`, `+`, `~`, `!` (prefix); NOT under HIGH_NOT_PRECEDENCE | operand from level 16 |
 * | 16 | COLLATE | |
 *
 * Binary operators associate to the left. The grammar's other constraints are kept too: an
 * operator whose left operand sits at a looser level than the grammar allows is a syntax error
 * (`1 IS NULL + 1`, `1 IN (1) + 1`), and NOT may only start an operand of AND, OR, XOR, NOT or
 * a whole expression (`1 = NOT 0` is a syntax error near 'NOT 0', as in MariaDB).
 */

export interface OperatorMode {
  /** sql_mode PIPES_AS_CONCAT: `||` concatenates (level 14) instead of being OR. */
  readonly pipesAsConcat: boolean;
  /** sql_mode HIGH_NOT_PRECEDENCE: NOT binds as tightly as `!`. */
  readonly highNotPrecedence: boolean;
}

const INFIX: Readonly<Record<string, number>> = {
  Assignment: 0,
  Or: 1,
  Xor: 2,
  And: 3,
  Eq: 5,
  NotEq: 5,
  Lt: 5,
  LtEq: 5,
  Gt: 5,
  GtEq: 5,
  Spaceship: 5,
  BitwiseOr: 8,
  BitwiseAnd: 9,
  PGBitwiseShiftLeft: 10,
  PGBitwiseShiftRight: 10,
  Plus: 11,
  Minus: 11,
  Multiply: 12,
  Divide: 12,
  MyIntegerDivide: 12,
  Modulo: 12,
  BitwiseXor: 13,
};

const IS_TAGS = new Set([
  'IsNull',
  'IsNotNull',
  'IsTrue',
  'IsNotTrue',
  'IsFalse',
  'IsNotFalse',
  'IsUnknown',
  'IsNotUnknown',
]);

/** A prefix `!` (MariaDB's NOT2), told apart from `~` when the parser is given the text. */
export const BANG = 'Not2';

const NOT_LEVEL = 4;
const CMP_LEVEL = 5;
const BETWEEN_LEVEL = 6;
const PREDICATE_LEVEL = 7;
const CONCAT_LEVEL = 14;
const NEG_LEVEL = 15;
const COLLATE_LEVEL = 16;
const ATOM_LEVEL = 99;

type Item =
  | { readonly k: 'atom'; readonly node: unknown }
  | { readonly k: 'prefix'; readonly op: string; readonly node?: Obj }
  /** A binary operator; `make` builds its node from the two operands. */
  | {
      readonly k: 'infix';
      readonly level: number;
      /** The loosest level its left operand may be at. */
      readonly left: number;
      /** The level its right operand is read from. */
      readonly right: number;
      readonly make: (l: unknown, r: unknown) => unknown;
    }
  | {
      readonly k: 'postfix';
      readonly level: number;
      readonly left: number;
      readonly make: (e: unknown) => unknown;
    }
  | { readonly k: 'between'; readonly negated: boolean }
  | { readonly k: 'between-and' };

interface Parsed {
  readonly node: unknown;
  readonly level: number;
}

/** Rewrites every operator tree of the statements in place (they are fresh from the parser). */
export function applyPrecedence(stmts: unknown[], mode: OperatorMode, sql: string): void {
  const fix = (n: unknown): unknown => {
    if (Array.isArray(n)) {
      for (let i = 0; i < n.length; i++) n[i] = fix(n[i]);
      return n;
    }
    if (n === null || typeof n !== 'object') return n;
    if (isOperator(n, sql)) return regroup(n, mode, sql, fix);
    const o = n as Obj;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v !== null && typeof v === 'object') o[k] = fix(v);
    }
    return o;
  };
  for (let i = 0; i < stmts.length; i++) stmts[i] = fix(stmts[i]);
}

/**
 * Whether a node is an operator expression. Tags are checked with their payload's shape: a SHOW
 * statement's `LIKE 'x%'` filter is `{ Like: 'x%' }`, not an operator.
 */
function isOperator(n: object, sql: string): boolean {
  const keys = Object.keys(n);
  if (keys.length !== 1) return false;
  const tag = keys[0]!;
  const v = (n as Obj)[tag];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Obj;
  switch (tag) {
    case 'BinaryOp':
      return typeof o.op === 'string' && (o.op in INFIX || o.op === 'StringConcat');
    case 'UnaryOp':
      return 'expr' in o && typeof o.op === 'string';
    case 'Between':
      return 'low' in o && 'high' in o;
    case 'Like':
    case 'ILike':
    case 'RLike':
      return 'pattern' in o && 'expr' in o;
    case 'InList':
      return 'list' in o && 'expr' in o;
    case 'InSubquery':
      return 'subquery' in o && 'expr' in o;
    case 'Collate':
      return 'collation' in o && 'expr' in o;
    case 'AnyOp':
    case 'AllOp':
      return 'compare_op' in o && 'left' in o;
    case 'Cast':
      return isBinaryPrefix(o, sql);
    default:
      return IS_TAGS.has(tag);
  }
}

/**
 * `BINARY x` (MariaDB's `BINARY simple_expr`): the parser reads it as a CAST of everything after
 * it; told apart from `CAST(x AS BINARY)` by the word BINARY just before the operand.
 */
function isBinaryPrefix(o: Obj, sql: string): boolean {
  if (o.kind !== 'Cast' || tagOf(o.data_type)[0] !== 'Binary' || tagOf(o.data_type)[1] != null) return false;
  const p = posOf(o.expr);
  if (p === undefined) return false;
  let i = offsetOf(sql, p);
  while (i > 0 && /[\s(]/.test(sql[i - 1]!)) i--;
  return /\bBINARY$/i.test(sql.slice(Math.max(0, i - 6), i));
}

function regroup(root: object, mode: OperatorMode, sql: string, fix: (n: unknown) => unknown): unknown {
  const items: Item[] = [];
  const flatten = (n: unknown): void => {
    if (n === null || typeof n !== 'object' || Array.isArray(n) || !isOperator(n, sql)) {
      items.push({ k: 'atom', node: fix(n) });
      return;
    }
    const [tag, v] = tagOf(n);
    const o = obj(v);
    switch (tag) {
      case 'BinaryOp': {
        const op = o.op as string;
        flatten(o.left);
        items.push(binary(op, o, mode));
        flatten(o.right);
        return;
      }
      case 'UnaryOp':
        items.push({ k: 'prefix', op: o.op as string });
        flatten(o.expr);
        return;
      case 'Cast':
        // BINARY x: a prefix operator as tight as unary minus
        items.push({ k: 'prefix', op: 'Binary', node: o });
        flatten(o.expr);
        return;
      case 'Between':
        flatten(o.expr);
        items.push({ k: 'between', negated: o.negated === true });
        flatten(o.low);
        items.push({ k: 'between-and' });
        flatten(o.high);
        return;
      case 'Like':
      case 'ILike':
      case 'RLike':
        flatten(o.expr);
        items.push({
          k: 'infix',
          level: PREDICATE_LEVEL,
          left: BETWEEN_LEVEL,
          right: PREDICATE_LEVEL + 1,
          make: (l, r) => ({ [tag]: { ...o, expr: l, pattern: r } }),
        });
        flatten(o.pattern);
        return;
      case 'AnyOp':
      case 'AllOp':
        flatten(o.left);
        items.push({
          k: 'infix',
          level: CMP_LEVEL,
          left: CMP_LEVEL,
          right: ATOM_LEVEL,
          make: (l, r) => ({ [tag]: { ...o, left: l, right: r } }),
        });
        items.push({ k: 'atom', node: fix(o.right) });
        return;
      case 'InList':
      case 'InSubquery': {
        flatten(o.expr);
        const rest: Obj = { ...o };
        delete rest.expr;
        for (const k of Object.keys(rest)) rest[k] = fix(rest[k]);
        items.push({
          k: 'postfix',
          level: PREDICATE_LEVEL,
          left: BETWEEN_LEVEL,
          make: (e) => ({ [tag]: { ...rest, expr: e } }),
        });
        return;
      }
      case 'Collate':
        flatten(o.expr);
        items.push({
          k: 'postfix',
          level: COLLATE_LEVEL,
          left: COLLATE_LEVEL,
          make: (e) => ({ Collate: { ...o, expr: e } }),
        });
        return;
      default:
        // IS [NOT] NULL / TRUE / FALSE / UNKNOWN
        flatten(v);
        items.push({ k: 'postfix', level: CMP_LEVEL, left: CMP_LEVEL, make: (e) => ({ [tag]: e }) });
    }
  };
  flatten(root);
  return new Climber(items, mode, sql).parseAll();
}

function binary(op: string, o: Obj, mode: OperatorMode): Item {
  if (op === 'StringConcat') {
    if (mode.pipesAsConcat)
      return {
        k: 'infix',
        level: CONCAT_LEVEL,
        left: CONCAT_LEVEL,
        right: CONCAT_LEVEL + 1,
        make: (l, r) => ({ BinaryOp: { ...o, left: l, right: r } }),
      };
    op = 'Or';
  }
  const level = INFIX[op]!;
  const make = (l: unknown, r: unknown): unknown => ({ BinaryOp: { ...o, op, left: l, right: r } });
  if (op === 'Assignment') return { k: 'infix', level, left: ATOM_LEVEL, right: 0, make };
  if (level < NOT_LEVEL) return { k: 'infix', level, left: 0, right: level + 1, make };
  if (level === CMP_LEVEL) return { k: 'infix', level, left: CMP_LEVEL, right: BETWEEN_LEVEL, make };
  return { k: 'infix', level, left: level, right: level + 1, make };
}

/** Precedence climbing over the flattened items. */
class Climber {
  #i = 0;
  readonly #items: readonly Item[];
  readonly #mode: OperatorMode;
  readonly #sql: string;

  constructor(items: readonly Item[], mode: OperatorMode, sql: string) {
    this.#items = items;
    this.#mode = mode;
    this.#sql = sql;
  }

  parseAll(): unknown {
    const r = this.#expr(0, true);
    if (this.#i < this.#items.length) throw this.#error(this.#i);
    return r.node;
  }

  /**
   * An operand whose operators are all at `min` or tighter; `notAllowed`: a NOT may start it
   * (the grammar's `expr`, not a `predicate` or `bit_expr`).
   */
  #expr(min: number, notAllowed: boolean): Parsed {
    let lhs = this.#prefix(notAllowed);
    for (;;) {
      const at = this.#i;
      const it = this.#items[at];
      if (it === undefined || it.k === 'between-and' || it.k === 'atom' || it.k === 'prefix') {
        if (it !== undefined && it.k !== 'between-and') throw this.#error(at);
        return lhs;
      }
      const level = it.k === 'between' ? BETWEEN_LEVEL : it.level;
      if (level < min) return lhs;
      const left = it.k === 'between' ? BETWEEN_LEVEL : it.left;
      if (lhs.level < left) throw this.#error(at);
      this.#i++;
      if (it.k === 'infix') {
        const r = this.#expr(it.right, it.level < NOT_LEVEL);
        lhs = { node: it.make(lhs.node, r.node), level: it.level };
      } else if (it.k === 'postfix') {
        lhs = { node: it.make(lhs.node), level: it.level };
      } else {
        const low = this.#expr(BETWEEN_LEVEL, false);
        if (this.#items[this.#i]?.k !== 'between-and') throw this.#error(this.#i);
        this.#i++;
        const high = this.#expr(BETWEEN_LEVEL, false);
        lhs = {
          node: { Between: { expr: lhs.node, negated: it.negated, low: low.node, high: high.node } },
          level: BETWEEN_LEVEL,
        };
      }
    }
  }

  #prefix(notAllowed: boolean): Parsed {
    const at = this.#i;
    const it = this.#items[at];
    if (it === undefined) throw this.#error(at);
    this.#i++;
    if (it.k === 'atom') return { node: it.node, level: ATOM_LEVEL };
    if (it.k !== 'prefix') throw this.#error(at);
    if (it.op === 'Not' && !this.#mode.highNotPrecedence) {
      if (!notAllowed) throw this.#error(at);
      const e = this.#expr(CMP_LEVEL, true);
      return { node: { UnaryOp: { op: 'Not', expr: e.node } }, level: NOT_LEVEL };
    }
    const e = this.#expr(COLLATE_LEVEL, false);
    if (it.op === 'Binary') return { node: { Cast: { ...it.node, expr: e.node } }, level: NEG_LEVEL };
    const op = it.op === BANG ? 'Not' : it.op;
    return { node: { UnaryOp: { op, expr: e.node } }, level: NEG_LEVEL };
  }

  /** A syntax error at item `at`: MySQL's "near" text starts at the operator there. */
  #error(at: number): Error {
    // the first operand after the item has a position; the operator is the token before it
    for (let j = at; j < this.#items.length; j++) {
      const it = this.#items[j]!;
      if (it.k !== 'atom') continue;
      const p = posOf(it.node);
      if (p !== undefined) return syntaxErrorAt(this.#sql, p, at === j ? 0 : j - at);
    }
    return syntaxErrorAt(this.#sql, undefined, 0);
  }
}
