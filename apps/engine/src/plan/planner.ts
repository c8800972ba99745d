import type { SqlType } from '../exec/types.js';
import type { Bound } from './bound.js';
import type { Source } from './scope.js';

/**
 * The rule-based planner: tables are joined in FROM order (STRAIGHT_JOIN is therefore always
 * obeyed); per table, an index whose leading columns are all bound by equalities to constants or
 * earlier tables is used for lookups (`ref`), the longest such prefix winning, PRIMARY on ties;
 * else a range on an index's first column (on the primary key from one bound, on a secondary
 * index only between two: without statistics a one-sided range is often most of the table, each
 * row then fetched through the clustered index); else an equality to earlier tables makes a hash
 * join; else a scan (the first table streams,
 * later ones are read once into a buffer, as a block nested loop). Index hints restrict the
 * candidates as MySQL's FORCE/USE/IGNORE INDEX do. This module is the one the cost-based
 * optimizer replaces: it sees sources and conjuncts and returns one access per source.
 */

export type Access =
  | { readonly kind: 'scan' }
  | { readonly kind: 'ref'; readonly index: string; readonly keys: readonly KeyPart[] }
  | {
      readonly kind: 'range';
      readonly index: string;
      readonly column: number;
      readonly lo?: RangeBound;
      readonly hi?: RangeBound;
    }
  | {
      readonly kind: 'hash';
      readonly build: readonly Bound[];
      readonly probe: readonly Bound[];
      readonly types: readonly SqlType[];
    };

export interface RangeBound {
  readonly expr: Bound;
  readonly inclusive: boolean;
}

export interface KeyPart {
  readonly column: number;
  readonly expr: Bound;
}

export interface PlannedStage {
  readonly src: Source;
  readonly access: Access;
  /** Conditions a row must meet to match (inner join: all conjuncts placed here; LEFT JOIN: its ON). */
  readonly match: readonly Bound[];
  /** LEFT JOIN only: WHERE conjuncts placed here, checked after a row is matched or NULL-extended. */
  readonly post: readonly Bound[];
}

export interface Planner {
  /** `straight`: STRAIGHT_JOIN, keep the FROM order. */
  plan(sources: readonly Source[], where: readonly Bound[], straight?: boolean): PlannedStage[];
}

/** Whether a probe of type `t` can be looked up exactly in a column of the stored kind. */
function keyable(src: Source, c: number, t: SqlType): boolean {
  const col = src.columns[c]!.t.kind;
  switch (col) {
    case 'int':
    case 'dec':
      return t.kind === 'int' || t.kind === 'dec';
    case 'dbl':
      return t.kind === 'int' || t.kind === 'dec' || t.kind === 'dbl';
    case 'date':
      return t.kind === 'date';
    case 'str':
      return t.kind === 'str';
    default:
      return false;
  }
}

/**
 * An equality `col(source k) = expr` whose other side reads only tables joined before
 * (`before(i)`): [column, expr], else undefined.
 */
function equalityOn(b: Bound, k: number, before: (i: number) => boolean): [number, Bound] | undefined {
  const cmp = b.cmp;
  if (cmp === undefined || cmp.op !== '=' || b.sub === true) return undefined;
  for (const [x, y] of [
    [cmp.l, cmp.r],
    [cmp.r, cmp.l],
  ] as const) {
    if (x.col !== undefined && x.col.src.idx === k && !x.outer && y.refs.every(before) && y.sub !== true)
      return [x.col.c, y];
  }
  return undefined;
}

/**
 * The join order: FROM order when a join is a LEFT JOIN or STRAIGHT_JOIN is given; otherwise
 * greedy: first the first table (in FROM order) an index reads by constants (an equality on its
 * first column, or a range the planner would take), else the first with any equality to a
 * constant; then each time
 * the first table bound by an equality to the tables already joined, else one with a constant
 * equality, else the next in FROM order. A chain of equalities listed in another order in FROM
 * so never becomes a cross product.
 */
function joinOrder(sources: readonly Source[], where: readonly Bound[], straight: boolean): number[] {
  const n = sources.length;
  const from = sources.map((_, i) => i);
  if (straight || n <= 2 || sources.some((s) => s.joinType === 'left')) return from;
  const eqs = where.filter((w) => w.cmp?.op === '=' && w.sub !== true && !w.outer);
  const constEq = (i: number): boolean =>
    eqs.some((w) => {
      const { l, r } = w.cmp!;
      return (l.col?.src.idx === i && r.refs.length === 0) || (r.col?.src.idx === i && l.refs.length === 0);
    });
  const order: number[] = [];
  const joined = new Set<number>();
  const take = (i: number): void => {
    order.push(i);
    joined.add(i);
  };
  // a table an index reads by constants: an equality on an index's first column, or a range the
  // planner would take (rangeBounds with constant bounds)
  const indexedConst = (i: number): boolean => {
    const t = sources[i]!.table;
    if (t === undefined) return false;
    const none = (): boolean => false;
    return [t.primary, ...t.secondary].some((ix) => {
      const c = ix.columns[0]!;
      let lo = false;
      let hi = false;
      for (const w of where) {
        const cmp = w.cmp;
        if (cmp?.op === '=' && w.sub !== true) {
          if (cmp.l.col?.src.idx === i && cmp.l.col.c === c && cmp.r.refs.length === 0 && !cmp.r.outer)
            return true;
          if (cmp.r.col?.src.idx === i && cmp.r.col.c === c && cmp.l.refs.length === 0 && !cmp.l.outer)
            return true;
        }
        for (const [side, bound] of rangeBounds(w, i, c, none)) {
          if (bound.expr.outer) continue;
          if (side === 'lo') lo = true;
          else hi = true;
        }
      }
      return ix.primary ? lo || hi : lo && hi;
    });
  };
  take(from.find(indexedConst) ?? from.find(constEq) ?? 0);
  while (order.length < n) {
    const rest = from.filter((i) => !joined.has(i));
    const linked = rest.find((i) =>
      eqs.some(
        (w) => w.refs.some((r) => joined.has(r)) && equalityOn(w, i, (r) => joined.has(r)) !== undefined,
      ),
    );
    take(linked ?? rest.find(constEq) ?? rest[0]!);
  }
  return order;
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The bounds a conjunct puts on column c of source k, from values known before it. */
function rangeBounds(
  b: Bound,
  k: number,
  c: number,
  before: (i: number) => boolean,
): Array<['lo' | 'hi', RangeBound]> {
  if (b.sub === true) return [];
  const isCol = (x: Bound): boolean =>
    x.col !== undefined && x.col.src.idx === k && x.col.c === c && !x.outer;
  const known = (x: Bound): boolean => x.refs.every(before) && x.sub !== true;
  if (b.between !== undefined) {
    const { e, lo, hi } = b.between;
    if (isCol(e) && known(lo) && known(hi))
      return [
        ['lo', { expr: lo, inclusive: true }],
        ['hi', { expr: hi, inclusive: true }],
      ];
    return [];
  }
  const cmp = b.cmp;
  if (cmp === undefined || FLIP[cmp.op] === undefined) return [];
  let op = cmp.op;
  let other: Bound;
  if (isCol(cmp.l) && known(cmp.r)) other = cmp.r;
  else if (isCol(cmp.r) && known(cmp.l)) {
    other = cmp.l;
    op = FLIP[op]!;
  } else return [];
  if (op === '>' || op === '>=') return [['lo', { expr: other, inclusive: op === '>=' }]];
  return [['hi', { expr: other, inclusive: op === '<=' }]];
}

export const ruleBasedPlanner: Planner = {
  plan(sources, where, straight = false) {
    const order = joinOrder(sources, where, straight);
    const pos = new Array<number>(sources.length).fill(0);
    for (const [p, si] of order.entries()) pos[si] = p;
    const placed: Bound[][] = sources.map(() => []);
    for (const w of where) {
      let p = 0;
      for (const r of w.refs) p = Math.max(p, pos[r] ?? 0);
      placed[p]!.push(w);
    }
    return order.map((si, p) => {
      const src = sources[si]!;
      const left = src.joinType === 'left';
      const match = left ? src.on : placed[p]!;
      const post = left ? placed[p]! : [];
      const before = (i: number): boolean => (pos[i] ?? 0) < p;
      return { src, access: chooseAccess(src, p, match, before), match, post };
    });
  },
};

function chooseAccess(
  src: Source,
  p: number,
  match: readonly Bound[],
  before: (i: number) => boolean,
): Access {
  const eqs: [number, Bound][] = [];
  for (const m of match) {
    const e = equalityOn(m, src.idx, before);
    if (e !== undefined) eqs.push(e);
  }
  if (src.table !== undefined && src.derived === undefined) {
    const t = src.table;
    const hints = src.hints;
    const allowed = (name: string): boolean => {
      const ln = name.toLowerCase();
      if (hints.ignore.some((h) => h.toLowerCase() === ln)) return false;
      const only = [...hints.force, ...hints.use];
      return only.length === 0 || only.some((h) => h.toLowerCase() === ln);
    };
    let best: { index: string; keys: KeyPart[]; unique: boolean } | undefined;
    for (const ix of [t.primary, ...t.secondary]) {
      if (!allowed(ix.name)) continue;
      const keys: KeyPart[] = [];
      for (const c of ix.columns) {
        const e = eqs.find(([col, ex]) => col === c && keyable(src, c, ex.t));
        if (e === undefined) break;
        keys.push({ column: c, expr: e[1] });
      }
      if (keys.length === 0) continue;
      const unique = ix.unique && keys.length === ix.columns.length;
      if (best === undefined || keys.length > best.keys.length || (unique && !best.unique))
        best = { index: ix.name, keys, unique };
    }
    if (best !== undefined) return { kind: 'ref', index: best.index, keys: best.keys };
    // a range on an index's first column: col < / <= / > / >= expr, col BETWEEN a AND b
    for (const ix of [t.primary, ...t.secondary]) {
      if (!allowed(ix.name)) continue;
      const c = ix.columns[0]!;
      let lo: RangeBound | undefined;
      let hi: RangeBound | undefined;
      for (const m of match) {
        for (const [side, b] of rangeBounds(m, src.idx, c, before)) {
          if (!keyable(src, c, b.expr.t)) continue;
          if (side === 'lo') lo ??= b;
          else hi ??= b;
        }
      }
      // without statistics: a one-sided range on a secondary index is often most of the table,
      // each row then fetched through the clustered index; only the clustered index takes those
      if (lo !== undefined || hi !== undefined) {
        const forced = [...hints.force, ...hints.use].some((h) => h.toLowerCase() === ix.name.toLowerCase());
        if (!ix.primary && !forced && (lo === undefined || hi === undefined)) continue;
        return { kind: 'range', index: ix.name, column: c, ...(lo ? { lo } : {}), ...(hi ? { hi } : {}) };
      }
    }
  }
  const joinEqs = eqs.filter(([, e]) => e.refs.length > 0 || e.outer);
  if (p > 0 && joinEqs.length > 0) {
    const build: Bound[] = [];
    const probe: Bound[] = [];
    const types: SqlType[] = [];
    for (const [, e] of joinEqs) {
      const m = match.find((x) => equalityOn(x, src.idx, before)?.[1] === e)!;
      const cmp = m.cmp!;
      const side = cmp.r === e ? cmp.l : cmp.r;
      build.push(side);
      probe.push(e);
      types.push(side.t);
    }
    return { kind: 'hash', build, probe, types };
  }
  return { kind: 'scan' };
}
