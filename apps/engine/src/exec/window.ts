import type { AggSpec, Bound } from './bound.js';
import type { Frame } from './scope.js';
import type { Interrupt } from './interrupt.js';
import { Aggregator } from './aggregate.js';
import { cmpValues } from './compare.js';
import { coerce, toDouble } from './convert.js';
import { type SqlType, T_INT } from './types.js';

/**
 * Window functions (MySQL 8.0 / MariaDB 10.2+), computed over a query block's rows once every
 * row is known (after WHERE, GROUP BY and HAVING, before DISTINCT, ORDER BY and LIMIT): the rows
 * are ordered by PARTITION BY then ORDER BY, and each function's value is written into its slot
 * of every row.
 *
 * | function | value |
 * |---|---|
 * | ROW_NUMBER() | the row's position in its partition, from 1 |
 * | RANK(), DENSE_RANK() | the position of the row's first peer (equal ORDER BY values); without gaps for DENSE_RANK |
 * | PERCENT_RANK(), CUME_DIST() | (rank − 1) / (rows − 1); rows up to the last peer / rows |
 * | NTILE(n) | the bucket 1 … n of the row, the first (rows mod n) buckets one row larger |
 * | LAG(e, k = 1, d = NULL), LEAD(…) | e of the row k before / after in the partition, else d |
 * | FIRST_VALUE(e), LAST_VALUE(e), NTH_VALUE(e, n) | e of the frame's first, last or n-th row |
 * | COUNT, SUM, AVG, MIN, MAX, … OVER | the aggregate over the row's frame |
 *
 * The frame: ROWS BETWEEN … counts rows, RANGE BETWEEN … counts ORDER BY values (a CURRENT ROW
 * bound takes the row's peers, `n PRECEDING/FOLLOWING` the rows whose one ORDER BY value is within
 * n). Without a frame clause it is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW when there
 * is an ORDER BY (a running total over peers), else the whole partition.
 */

/** A frame bound: UNBOUNDED (offset undefined), CURRENT ROW (0) or `offset` rows/values away. */
export interface FrameBound {
  readonly kind: 'preceding' | 'current' | 'following';
  /** Evaluated once per execution; undefined: UNBOUNDED. */
  readonly offset?: () => number;
}

export interface WindowFrame {
  readonly units: 'rows' | 'range';
  readonly start: FrameBound;
  readonly end: FrameBound;
}

export interface WindowCall {
  /** Lower-case function name. */
  readonly fn: string;
  readonly args: readonly Bound[];
  readonly partition: readonly Bound[];
  readonly order: readonly { readonly b: Bound; readonly desc: boolean }[];
  /** Undefined: the default frame. */
  readonly frame: WindowFrame | undefined;
  readonly slot: number;
  readonly t: SqlType;
  /** An aggregate function OVER a window: its spec (writing into `slot`). */
  readonly agg?: AggSpec;
}

/** Ascending comparison with NULL first, as ORDER BY sorts. */
function cmpNullsFirst(a: unknown, b: unknown): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return cmpValues(a, b);
}

function cmpKeys(a: readonly unknown[], b: readonly unknown[], desc: readonly boolean[]): number {
  for (let k = 0; k < a.length; k++) {
    const c = cmpNullsFirst(a[k], b[k]);
    if (c !== 0) return desc[k] ? -c : c;
  }
  return 0;
}

/** Computes every window call over `rows` (copies of the block's frame), writing their slots. */
export function computeWindows(
  rows: unknown[][],
  frame: Frame,
  calls: readonly WindowCall[],
  interrupt: Interrupt,
): void {
  const saved = frame.v;
  try {
    for (const call of calls) computeOne(rows, frame, call, interrupt);
  } finally {
    frame.v = saved;
  }
}

function computeOne(rows: unknown[][], frame: Frame, call: WindowCall, interrupt: Interrupt): void {
  const n = rows.length;
  const parts: unknown[][] = new Array(n);
  const keys: unknown[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    frame.v = rows[i]!;
    parts[i] = call.partition.map((p) => p.ev());
    keys[i] = call.order.map((o) => o.b.ev());
  }
  const pdesc = call.partition.map(() => false);
  const odesc = call.order.map((o) => o.desc);
  // a stable sort: rows of equal keys keep the order they came in
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => cmpKeys(parts[a]!, parts[b]!, pdesc) || cmpKeys(keys[a]!, keys[b]!, odesc) || a - b);
  let p0 = 0;
  while (p0 < n) {
    let p1 = p0 + 1;
    while (p1 < n && cmpKeys(parts[idx[p0]!]!, parts[idx[p1]!]!, pdesc) === 0) p1++;
    partition(
      idx.slice(p0, p1).map((i) => rows[i]!),
      idx.slice(p0, p1).map((i) => keys[i]!),
      odesc,
      frame,
      call,
      interrupt,
    );
    p0 = p1;
  }
}

/** The value of `b` on row `row`. */
function valueOn(frame: Frame, row: unknown[], b: Bound): unknown {
  frame.v = row;
  return b.ev();
}

function partition(
  rows: unknown[][],
  keys: unknown[][],
  desc: readonly boolean[],
  frame: Frame,
  call: WindowCall,
  interrupt: Interrupt,
): void {
  const n = rows.length;
  const slot = call.slot;
  // peers: [first, end) of the rows with the same ORDER BY values as row i
  const peerStart = new Array<number>(n);
  const peerEnd = new Array<number>(n);
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && cmpKeys(keys[i]!, keys[j]!, desc) === 0) j++;
    for (let k = i; k < j; k++) {
      peerStart[k] = i;
      peerEnd[k] = j;
    }
    i = j;
  }
  switch (call.fn) {
    case 'row_number':
      for (let i = 0; i < n; i++) rows[i]![slot] = i + 1;
      return;
    case 'rank':
      for (let i = 0; i < n; i++) rows[i]![slot] = peerStart[i]! + 1;
      return;
    case 'dense_rank': {
      let r = 0;
      for (let i = 0; i < n; i++) {
        if (peerStart[i] === i) r++;
        rows[i]![slot] = r;
      }
      return;
    }
    case 'percent_rank':
      for (let i = 0; i < n; i++) rows[i]![slot] = n <= 1 ? 0 : peerStart[i]! / (n - 1);
      return;
    case 'cume_dist':
      for (let i = 0; i < n; i++) rows[i]![slot] = peerEnd[i]! / n;
      return;
    case 'ntile': {
      const buckets = Number(valueOn(frame, rows[0]!, call.args[0]!));
      const size = Math.floor(n / buckets);
      const big = n % buckets;
      for (let i = 0; i < n; i++) {
        // the first `big` buckets hold size + 1 rows
        const b =
          i < big * (size + 1) ? Math.floor(i / (size + 1)) : big + Math.floor((i - big * (size + 1)) / size);
        rows[i]![slot] = b + 1;
      }
      return;
    }
    case 'lag':
    case 'lead': {
      const sign = call.fn === 'lag' ? -1 : 1;
      for (let i = 0; i < n; i++) {
        const k = call.args[1] === undefined ? 1 : Number(valueOn(frame, rows[i]!, call.args[1]));
        const j = i + sign * k;
        const from = j >= 0 && j < n ? rows[j]! : undefined;
        const v =
          from !== undefined
            ? valueOn(frame, from, call.args[0]!)
            : call.args[2] === undefined
              ? null
              : valueOn(frame, rows[i]!, call.args[2]);
        rows[i]![slot] = castTo(v, from !== undefined ? call.args[0]! : call.args[2], call.t);
      }
      return;
    }
    default:
      framed(rows, keys, peerStart, peerEnd, frame, call, interrupt);
  }
}

function castTo(v: unknown, b: Bound | undefined, t: SqlType): unknown {
  if (v === null || b === undefined || b.t.kind === t.kind) return v;
  return coerce(v, b.t, t);
}

/** [start, end) of row i's frame. */
function frameOf(
  i: number,
  n: number,
  w: WindowFrame,
  keys: unknown[][],
  peerStart: number[],
  peerEnd: number[],
  offsets: { s: number; e: number },
  keyType: SqlType,
  desc: boolean,
): [number, number] {
  const bound = (fb: FrameBound, off: number, isStart: boolean): number => {
    if (fb.kind === 'current')
      return w.units === 'rows' ? (isStart ? i : i + 1) : isStart ? peerStart[i]! : peerEnd[i]!;
    if (fb.offset === undefined) return fb.kind === 'preceding' ? 0 : n;
    if (w.units === 'rows') {
      const j = fb.kind === 'preceding' ? i - off : i + off;
      return Math.max(0, Math.min(n, isStart ? j : j + 1));
    }
    // RANGE n PRECEDING / FOLLOWING over the one ORDER BY value (NULLs are peers of each other)
    const num = (k: unknown[]): number => toDouble(k[0], keyType.kind, keyType) as number;
    if (keys[i]![0] === null) return isStart ? peerStart[i]! : peerEnd[i]!;
    const v = num(keys[i]!);
    // in the sort's direction: DESC rows come with falling values, so PRECEDING adds
    const dir = desc ? -1 : 1;
    const target = fb.kind === 'preceding' ? v - dir * off : v + dir * off;
    const before = (k: unknown[]): boolean => k[0] === null || dir * (num(k) - target) < 0;
    const after = (k: unknown[]): boolean => k[0] !== null && dir * (num(k) - target) > 0;
    if (isStart) {
      let j = 0;
      while (j < n && before(keys[j]!)) j++;
      return j;
    }
    let j = n;
    while (j > 0 && after(keys[j - 1]!)) j--;
    return j;
  };
  return [bound(w.start, offsets.s, true), bound(w.end, offsets.e, false)];
}

/** Aggregates and FIRST_VALUE / LAST_VALUE / NTH_VALUE over each row's frame. */
function framed(
  rows: unknown[][],
  keys: unknown[][],
  peerStart: number[],
  peerEnd: number[],
  frame: Frame,
  call: WindowCall,
  interrupt: Interrupt,
): void {
  const n = rows.length;
  if (n === 0) return;
  const w: WindowFrame = call.frame ?? {
    units: 'range',
    start: { kind: 'preceding' },
    end: call.order.length > 0 ? { kind: 'current' } : { kind: 'following' },
  };
  const offsets = { s: w.start.offset?.() ?? 0, e: w.end.offset?.() ?? 0 };
  const keyType = call.order[0]?.b.t ?? T_INT;
  const desc = call.order[0]?.desc === true;
  const slot = call.slot;
  if (call.agg === undefined) {
    // FIRST_VALUE / LAST_VALUE / NTH_VALUE
    for (let i = 0; i < n; i++) {
      interrupt.poll();
      const [s, e] = frameOf(i, n, w, keys, peerStart, peerEnd, offsets, keyType, desc);
      const k =
        call.fn === 'first_value'
          ? s
          : call.fn === 'last_value'
            ? e - 1
            : s + Number(valueOn(frame, rows[i]!, call.args[1]!)) - 1;
      rows[i]![slot] = k >= s && k < e ? valueOn(frame, rows[k]!, call.args[0]!) : null;
    }
    return;
  }
  const agg = new Aggregator([call.agg]);
  let states = agg.init();
  let from = 0;
  let to = 0;
  for (let i = 0; i < n; i++) {
    const [s, e] = frameOf(i, n, w, keys, peerStart, peerEnd, offsets, keyType, desc);
    // a frame that only grows at its end (UNBOUNDED PRECEDING, the default) steps on from the last
    if (s !== from || e < to) {
      states = agg.init();
      from = s;
      to = s;
    }
    for (; to < e; to++) {
      interrupt.poll();
      frame.v = rows[to]!;
      agg.step(states);
    }
    agg.finish(states, rows[i]!);
  }
}
