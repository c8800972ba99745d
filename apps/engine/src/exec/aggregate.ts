import type { AggSpec } from './bound.js';
import { cmpValues, hashKey } from './compare.js';
import { coerce, normInt, toDouble, toText } from './convert.js';
import { pow10 } from './decimal.js';
import { generated } from '../internal/generated-code.js';
import { MAX_SAFE, NumEmitter, numOf } from './scaled.js';
import { T_DBL, T_INT } from './types.js';
import { keyValueOf } from './collation-keys.js';

/** The exact SUM of an INT or DECIMAL state: its bigint part plus its double part. */
function exactSum(st: AggState): bigint {
  const a = (st.acc as bigint | null) ?? 0n;
  return st.sum === 0 ? a : a + BigInt(st.sum);
}

/** Fast paths of {@link Aggregator.step}. */
const F_GENERAL = 0;
/** COUNT(*) (no argument). */
const F_COUNT_ROWS = 1;
/** COUNT(x), not DISTINCT. */
const F_COUNT = 2;
/** SUM or AVG of a DECIMAL, not DISTINCT: the exact bigint sum. */
const F_SUM_DEC = 3;
/**
 * SUM or AVG of an INT or DECIMAL with a scaled-integer fast path (exec/scaled.ts), not DISTINCT:
 * the sum is kept in two parts, a double `sum` that stays a safe integer and a bigint `acc` it
 * is moved into whenever adding a row would leave the safe range (and a row the fast path cannot
 * give is added to `acc` exactly), so the total `acc + sum` is always exact.
 */
const F_SUM_NUM = 4;
/** COUNT(x) of an INT or DECIMAL with a fast path: NULL-ness from it, no bigint made. */
const F_COUNT_NUM = 5;

/** One aggregate's running state for one group. */
export interface AggState {
  n: number;
  acc: unknown;
  /** SUM/AVG of INT or DECIMAL: the part of the exact sum held in a double (a safe integer). */
  sum: number;
  seen: Set<unknown> | null;
  /** GROUP_CONCAT: the row read when the group's text first passed group_concat_max_len (0: not yet). */
  cutRow?: number;
}

/**
 * Aggregate functions with MySQL's types (Item_sum_sum, Item_sum_avg, Item_sum_count,
 * Item_sum_hybrid): SUM of integers or decimals is an exact DECIMAL, AVG of them a DECIMAL with
 * div_precision_increment more digits (computed as SUM / COUNT with decimal division), of doubles
 * a DOUBLE; NULLs are skipped; over no rows COUNT is 0 and the others NULL.
 */
export class Aggregator {
  readonly specs: readonly AggSpec[];
  /** Per spec: its fast path in {@link Aggregator.step} (see the F_ constants), or F_GENERAL. */
  readonly #fast: Uint8Array;
  /**
   * One row into every aggregate of a group (`states`, from {@link Aggregator.init}). Generated
   * per query: the fast-path sums and counts with their arguments' arithmetic inline (see
   * exec/scaled.ts), every other aggregate through one call of the general step.
   */
  readonly step: (states: AggState[]) => void;

  constructor(specs: readonly AggSpec[]) {
    this.specs = specs;
    this.#fast = Uint8Array.from(specs, (s) => {
      if (s.arg === null) return F_COUNT_ROWS;
      if (s.distinct) return F_GENERAL;
      const ak = s.arg.t.kind;
      const num = (ak === 'int' || ak === 'dec') && numOf(s.arg) !== undefined;
      if (s.fn === 'count') return num ? F_COUNT_NUM : F_COUNT;
      if ((s.fn === 'sum' || s.fn === 'avg') && s.t.kind !== 'dbl' && num) return F_SUM_NUM;
      if ((s.fn === 'sum' || s.fn === 'avg') && s.t.kind !== 'dbl' && ak === 'dec') return F_SUM_DEC;
      return F_GENERAL;
    });
    this.#rowsRead = new Float64Array(specs.length);
    this.step = this.#compileStep();
  }

  init(): AggState[] {
    return this.specs.map((s) => ({ n: 0, acc: null, sum: 0, seen: s.distinct ? new Set() : null }));
  }

  /**
   * The generated step. A fast SUM adds its argument's double to the state's `sum` while the
   * total stays a safe integer and otherwise moves the exact part so far into the bigint `acc`
   * (`widen`); where the argument steps aside (NULL, or not a safe integer) the row goes through
   * `slow`, its exact `ev()`.
   */
  #compileStep(): (states: AggState[]) => void {
    const e = new NumEmitter('');
    const fast = this.#fast;
    for (let i = 0; i < this.specs.length; i++) {
      const f = fast[i]!;
      if (f === F_COUNT_ROWS) {
        e.lines.push(`states[${i}].n++;`);
        continue;
      }
      if (f !== F_SUM_NUM && f !== F_COUNT_NUM) {
        e.lines.push(`one(${i}, states[${i}]);`);
        continue;
      }
      const tree = numOf(this.specs[i]!.arg!)!;
      e.fail = `break L${i};`;
      e.lines.push(`D${i}: {`, `const st = states[${i}];`, `L${i}: {`);
      const v = e.emit(tree);
      if (f === F_SUM_NUM)
        e.lines.push(
          'st.n++;',
          `const y = st.sum + ${v};`,
          `if (y <= ${MAX_SAFE} && y >= -${MAX_SAFE}) st.sum = y; else widen(st, ${v});`,
        );
      else e.lines.push('st.n++;');
      e.lines.push(`break D${i};`, '}', `${f === F_SUM_NUM ? 'slowSum' : 'slowCount'}(${i}, st);`, '}');
    }
    const body = `${e.prologue()}\nreturn function step(states) {\n${e.lines.join('\n')}\n};`;
    const specs = this.specs;
    const widen = (st: AggState, x: number): void => {
      // st.sum + x may be rounded: the exact part so far goes to the bigint, x stays in the double
      st.acc = ((st.acc as bigint | null) ?? 0n) + BigInt(st.sum);
      st.sum = x;
    };
    const slowSum = (i: number, st: AggState): void => {
      const x = specs[i]!.arg!.ev();
      if (x === null) return;
      st.n++;
      st.acc = ((st.acc as bigint | null) ?? 0n) + BigInt(x as number | bigint);
    };
    const slowCount = (i: number, st: AggState): void => {
      if (specs[i]!.arg!.ev() !== null) st.n++;
    };
    const one = (i: number, st: AggState): void => this.#stepOne(i, st);
    return generated<(states: AggState[]) => void>(
      ['frames', 'consts', 'one', 'widen', 'slowSum', 'slowCount'],
      body,
      [e.frames, e.consts, one, widen, slowSum, slowCount],
    );
  }

  /** Rows read by each GROUP_CONCAT (the row number of its cut warning). */
  readonly #rowsRead: Float64Array;

  /** One row into aggregate `i` of a group, off the fast path. */
  #stepOne(i: number, st: AggState): void {
    const s = this.specs[i]!;
    const f = this.#fast[i]!;
    const arg = s.arg!;
    if (s.cut !== undefined) this.#rowsRead[i]!++;
    const v = arg.ev();
    if (v === null) return;
    if (f === F_SUM_DEC) {
      st.n++;
      st.acc = st.acc === null ? v : (st.acc as bigint) + (v as bigint);
      return;
    }
    if (f === F_COUNT) {
      st.n++;
      return;
    }
    if (st.seen !== null) {
      const k = arg.t.kind === 'dec' ? `d${String(v)}` : hashKey(keyValueOf(v, arg.t));
      if (st.seen.has(k)) return;
      st.seen.add(k);
    }
    st.n++;
    const at = arg.t;
    switch (s.fn) {
      case 'count':
        break;
      case 'sum':
      case 'avg':
        if (s.t.kind === 'dbl')
          st.acc = ((st.acc as number | null) ?? 0) + (toDouble(v, at.kind, at) as number);
        else {
          const x = at.kind === 'int' ? BigInt(v as number | bigint) : (v as bigint);
          st.acc = ((st.acc as bigint | null) ?? 0n) + x;
        }
        break;
      case 'min':
        if (st.acc === null || cmpValues(keyValueOf(v, at), keyValueOf(st.acc, at)) < 0) st.acc = v;
        break;
      case 'max':
        if (st.acc === null || cmpValues(keyValueOf(v, at), keyValueOf(st.acc, at)) > 0) st.acc = v;
        break;
      case 'group_concat': {
        const text = toText(v, at.kind, at) as string;
        if (s.order !== undefined) {
          // with ORDER BY: the values and their keys, sorted when the group ends
          const kept = (st.acc as [unknown[], string][] | null) ?? [];
          kept.push([s.order.map((o) => o.b.ev()), text]);
          st.acc = kept;
        } else st.acc = st.acc === null ? text : `${st.acc as string}${s.sep ?? ','}${text}`;
        // the text's bytes so far (values and separators), for group_concat_max_len
        if (s.cut !== undefined && st.cutRow === undefined) {
          st.sum += Buffer.byteLength(text) + (st.n > 1 ? Buffer.byteLength(s.sep ?? ',') : 0);
          if (st.sum > s.cut.maxLen) st.cutRow = this.#rowsRead[i]!;
        }
        break;
      }
      case 'bit_and':
      case 'bit_or':
      case 'bit_xor': {
        const x = BigInt.asUintN(64, BigInt(coerce(v, at, T_INT) as number | bigint));
        const a = (st.acc as bigint | null) ?? (s.fn === 'bit_and' ? (1n << 64n) - 1n : 0n);
        st.acc = s.fn === 'bit_and' ? a & x : s.fn === 'bit_or' ? a | x : a ^ x;
        break;
      }
      default: {
        // the standard deviations and variances: the running mean and sum of squared
        // differences (Welford's recurrence, as MariaDB's variance_fp_recurrence_next)
        const x = toDouble(v, at.kind, at) as number;
        const a = st.acc as [number, number] | null;
        if (a === null) st.acc = [x, 0];
        else {
          const mean = a[0] + (x - a[0]) / st.n;
          a[1] += (x - a[0]) * (x - mean);
          a[0] = mean;
        }
      }
    }
  }

  /** Write the final values into the frame slots. */
  finish(states: AggState[], v: unknown[]): void {
    const specs = this.specs;
    for (let i = 0; i < specs.length; i++) {
      const s = specs[i]!;
      const st = states[i]!;
      v[s.slot] = this.#final(s, st);
    }
  }

  #final(s: AggSpec, st: AggState): unknown {
    switch (s.fn) {
      case 'count':
        return st.n;
      case 'sum':
        if (st.n === 0) return null;
        return s.t.kind === 'dbl' ? st.acc : exactSum(st);
      case 'avg': {
        if (st.n === 0) return null;
        if (s.t.kind === 'dbl') return (st.acc as number) / st.n;
        const at = s.arg!.t;
        const from = at.kind === 'dec' ? at.iscale : 0;
        return (exactSum(st) * pow10(s.t.iscale - from)) / BigInt(st.n);
      }
      case 'bit_and':
      case 'bit_or':
      case 'bit_xor':
        return normInt(st.acc === null ? (s.fn === 'bit_and' ? (1n << 64n) - 1n : 0n) : (st.acc as bigint));
      case 'group_concat':
        if (s.order !== undefined && st.acc !== null) {
          const order = s.order;
          const kept = [...(st.acc as [unknown[], string][])];
          kept.sort(([a], [b]) => {
            for (let k = 0; k < order.length; k++) {
              const x = a[k];
              const y = b[k];
              const c = x === null ? (y === null ? 0 : -1) : y === null ? 1 : cmpValues(x, y);
              if (c !== 0) return order[k]!.desc ? -c : c;
            }
            return 0;
          });
          return cutText(s, st, kept.map(([, t]) => t).join(s.sep ?? ','));
        }
        return st.acc === null ? null : cutText(s, st, st.acc as string);
      case 'min':
      case 'max':
        return st.acc;
      default: {
        // the _samp forms divide by n − 1 and are NULL for fewer than two values
        const sample = s.fn === 'stddev_samp' || s.fn === 'var_samp';
        if (st.n <= (sample ? 1 : 0)) return null;
        const m2 = (st.acc as [number, number])[1];
        const variance = st.n === 1 ? 0 : m2 / (sample ? st.n - 1 : st.n);
        const r =
          s.fn === 'variance' || s.fn === 'var_pop' || s.fn === 'var_samp' ? variance : Math.sqrt(variance);
        return coerce(r, T_DBL, T_DBL);
      }
    }
  }
}

/**
 * GROUP_CONCAT's text cut to `group_concat_max_len` bytes (a character the cut splits is left
 * out), with warning 1260 naming the row read when it passed the length, as MariaDB's.
 */
function cutText(s: AggSpec, st: AggState, text: string): string {
  if (s.cut === undefined || st.cutRow === undefined) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= s.cut.maxLen) return text;
  let end = s.cut.maxLen;
  // back off a partial UTF-8 sequence: continuation bytes are 10xxxxxx
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  s.cut.warn(st.cutRow);
  return bytes.subarray(0, end).toString('utf8');
}
