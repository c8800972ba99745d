import { generated } from '../internal/generated-code.js';
import type { Bound } from './bound.js';
import type { Frame } from './scope.js';

/**
 * The scaled-integer fast path of INT, DECIMAL and DATE expressions.
 *
 * A DECIMAL's exact runtime value is a bigint holding value · 10^iscale (exec/types.ts). Most
 * values a query meets are far smaller than 2^53 units, where a double holds the same integer
 * exactly and `+ − ×` and comparisons on doubles give exactly the integer result as long as that
 * result is itself below 2^53. A {@link NumEv} computes an expression that way, allocating
 * nothing, and answers NaN whenever it cannot vouch for the result: the value is NULL, an operand
 * or an intermediate is not a safe integer, or a product would need rounding. The caller then
 * evaluates the expression's exact `ev()` (the bigint path), so nothing is ever rounded: the fast
 * path either gives the exact integer or steps aside.
 *
 * Why checking each result is enough for `+`, `−` or `×` of two safe integers: the exact result r
 * has |r| < 2^106; IEEE rounding is monotonic and 2^53 is a double, so when |r| ≥ 2^53 the
 * rounded result is ≥ 2^53 too (not safe: NaN), and when |r| < 2^53 it is exactly representable
 * (the double is r itself). Rescaling by 10^k is a product of the same kind.
 *
 * An expression's fast path is kept as a small tree ({@link NumNode}) and compiled into one
 * JavaScript function per consumer ({@link compileNum}): a closure per node would make every
 * call site inside the tree see every node kind of every query (megamorphic, never inlined), while
 * one generated function per expression reads its frame slots and does its arithmetic inline.
 */
export type NumEv = () => number;

/** The fast path of an expression as a tree of the operations it does. */
export type NumNode =
  /** A frame slot holding a number (else the path steps aside). */
  | { readonly k: 'slot'; readonly frame: Frame; readonly slot: number }
  /** A safe integer, or NaN: an operand the fast path cannot hold. */
  | { readonly k: 'const'; readonly x: number }
  /** `e` · f, f = 10^n with n ≤ 15. */
  | { readonly k: 'scale'; readonly e: NumNode; readonly f: number }
  | { readonly k: '+' | '-' | '*'; readonly l: NumNode; readonly r: NumNode }
  | { readonly k: 'neg'; readonly e: NumNode };

/** 2^53 − 1. */
export const MAX_SAFE = 9007199254740991;

const POW10_NUM: number[] = [];
for (let i = 0, p = 1; i <= 15; i++, p *= 10) POW10_NUM.push(p);

/** 10^n as an exact double (n ≤ 15), or NaN beyond: a factor that large leaves the fast path. */
export function pow10Num(n: number): number {
  return POW10_NUM[n] ?? Number.NaN;
}

/** An exact runtime integer (number or bigint) as a fast-path double, or NaN when not safe or null. */
export function numOfValue(v: unknown): number {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : Number.NaN;
  if (typeof v === 'bigint')
    return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : Number.NaN;
  return Number.NaN;
}

/**
 * The fast path of an INT, DECIMAL or DATE bound (scaled at its own `iscale` for DECIMAL), or
 * undefined when it has none: a literal is a constant, a column or an arithmetic node has the tree
 * it was bound with.
 */
export function numOf(b: Bound): NumNode | undefined {
  const k = b.t.kind;
  if (k !== 'int' && k !== 'dec' && k !== 'date' && k !== 'null') return undefined;
  if (b.num !== undefined) return b.num;
  if (b.lit !== undefined) return { k: 'const', x: numOfValue(b.lit.v) };
  return undefined;
}

/** `e` rescaled by the exact factor `f` (a power of ten); undefined when `f` is too large. */
export function scaledBy(e: NumNode, f: number): NumNode | undefined {
  if (f === 1) return e;
  if (Number.isNaN(f)) return undefined;
  return { k: 'scale', e, f };
}

/**
 * Source of generated code computing fast paths into locals: `emit` adds the statements of one
 * tree to `lines`, running the statement `fail` (a `return` or a `break`) wherever the tree
 * steps aside. One emitter may emit several trees into one body (its locals stay distinct).
 */
export class NumEmitter {
  readonly frames: Frame[] = [];
  /** The constants the body reads (`C0`, `C1`, …), passed in as `consts`. */
  readonly consts: number[] = [];
  readonly lines: string[] = [];
  #locals = 0;
  #fail: string;

  constructor(fail: string) {
    this.#fail = fail;
  }

  /** The statement the next trees run where they step aside. */
  set fail(stmt: string) {
    this.#fail = stmt;
  }

  /** Emits the statements of `n`; returns the local (or literal) holding its value. */
  emit(n: NumNode): string {
    switch (n.k) {
      case 'const':
        if (Number.isNaN(n.x)) {
          this.lines.push(this.#fail);
          return 'NaN';
        }
        // by reference, not by text: the same shape with other constants reuses its code
        return `C${this.consts.push(n.x) - 1}`;
      case 'slot': {
        let f = this.frames.indexOf(n.frame);
        if (f < 0) f = this.frames.push(n.frame) - 1;
        const x = this.#local();
        this.lines.push(`const ${x} = F${f}.v[${n.slot}];`, `if (typeof ${x} !== 'number') ${this.#fail}`);
        return x;
      }
      case 'scale':
        return this.#checked(`${this.emit(n.e)} * ${n.f}`);
      case 'neg': {
        const e = this.emit(n.e);
        const x = this.#local();
        this.lines.push(`const ${x} = 0 - ${e};`); // the negation of a safe integer is one; no −0
        return x;
      }
      default: {
        const l = this.emit(n.l);
        const r = this.emit(n.r);
        // + 0 turns a −0 product into 0, as the exact path has no −0
        return this.#checked(n.k === '*' ? `${l} * ${r} + 0` : `${l} ${n.k} ${r}`);
      }
    }
  }

  #checked(expr: string): string {
    const x = this.#local();
    this.lines.push(
      `const ${x} = ${expr};`,
      `if (!(${x} <= ${MAX_SAFE} && ${x} >= -${MAX_SAFE})) ${this.#fail}`,
    );
    return x;
  }

  #local(): string {
    return `x${this.#locals++}`;
  }

  /** The frames and constants the body reads, as `const F0 = frames[0]; … const C0 = consts[0]; …`. */
  prologue(): string {
    return [
      ...this.frames.map((_, i) => `const F${i} = frames[${i}];`),
      ...this.consts.map((_, i) => `const C${i} = consts[${i}];`),
    ].join('\n');
  }
}

/** One generated function computing `n` on the fast path (NaN where it steps aside). */
export function compileNum(n: NumNode): NumEv {
  if (n.k === 'const') {
    const x = n.x;
    return () => x;
  }
  const e = new NumEmitter('return NaN;');
  const v = e.emit(n);
  const body = `${e.prologue()}\nreturn function num() {\n${e.lines.join('\n')}\nreturn ${v};\n};`;
  return generated<NumEv>(['frames', 'consts'], body, [e.frames, e.consts]);
}

/** Comparison operators with a generated fast path. */
export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * One generated function comparing `l` and `r` (both at the comparison's scale) on the fast path;
 * `slow` (the exact comparison) answers wherever either side steps aside.
 */
export function compileCompare(
  op: CmpOp,
  l: NumNode,
  r: NumNode,
  slow: () => boolean | null,
): () => boolean | null {
  const e = new NumEmitter('return slow();');
  const a = e.emit(l);
  const b = e.emit(r);
  const js = op === '=' ? '===' : op === '<>' ? '!==' : op;
  const body = `${e.prologue()}\nreturn function cmp() {\n${e.lines.join('\n')}\nreturn ${a} ${js} ${b};\n};`;
  return generated<() => boolean | null>(['frames', 'consts', 'slow'], body, [e.frames, e.consts, slow]);
}
