import type { SqlType } from '../exec/types.js';
import type { Bound } from './bound.js';
import type { Source } from './scope.js';

/**
 * The rule-based planner: tables are joined in FROM order (STRAIGHT_JOIN is therefore always
 * obeyed); per table, an index whose leading columns are all bound by equalities to constants or
 * earlier tables is used for lookups (`ref`), the longest such prefix winning, PRIMARY on ties;
 * else an equality to earlier tables makes a hash join; else a scan (the first table streams,
 * later ones are read once into a buffer, as a block nested loop). Index hints restrict the
 * candidates as MySQL's FORCE/USE/IGNORE INDEX do. This module is the one the cost-based
 * optimizer replaces: it sees sources and conjuncts and returns one access per source.
 */

export type Access =
  | { readonly kind: 'scan' }
  | { readonly kind: 'ref'; readonly index: string; readonly keys: readonly KeyPart[] }
  | { readonly kind: 'hash'; readonly build: readonly Bound[]; readonly probe: readonly Bound[]; readonly types: readonly SqlType[] };

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
  plan(sources: readonly Source[], where: readonly Bound[]): PlannedStage[];
}

function stageOf(b: Bound): number {
  return b.refs.length === 0 ? 0 : b.refs[b.refs.length - 1]!;
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

/** An equality `col(src) = expr(earlier)`: [column, expr], else undefined. */
function equalityOn(b: Bound, k: number): [number, Bound] | undefined {
  const cmp = b.cmp;
  if (cmp === undefined || cmp.op !== '=' || b.sub === true) return undefined;
  for (const [x, y] of [
    [cmp.l, cmp.r],
    [cmp.r, cmp.l],
  ] as const) {
    if (x.col !== undefined && x.col.src.idx === k && !x.outer && y.refs.every((r) => r < k) && y.sub !== true)
      return [x.col.c, y];
  }
  return undefined;
}

export const ruleBasedPlanner: Planner = {
  plan(sources, where) {
    const placed: Bound[][] = sources.map(() => []);
    for (const w of where) placed[Math.max(0, Math.min(stageOf(w), sources.length - 1))]!.push(w);
    return sources.map((src, k) => {
      const left = src.joinType === 'left';
      const match = left ? src.on : placed[k]!;
      const post = left ? placed[k]! : [];
      return { src, access: chooseAccess(src, k, match), match, post };
    });
  },
};

function chooseAccess(src: Source, k: number, match: readonly Bound[]): Access {
  const eqs: [number, Bound][] = [];
  for (const m of match) {
    const e = equalityOn(m, k);
    if (e !== undefined) eqs.push(e);
  }
  if (src.table !== undefined && sources0(src)) {
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
  }
  const joinEqs = eqs.filter(([, e]) => e.refs.length > 0 || e.outer);
  if (k > 0 && joinEqs.length > 0) {
    const build: Bound[] = [];
    const probe: Bound[] = [];
    const types: SqlType[] = [];
    for (const [, e] of joinEqs) {
      const m = match.find((x) => equalityOn(x, k)?.[1] === e)!;
      const cmp = m.cmp!;
      const side = cmp.l.col?.src.idx === k && cmp.r === e ? cmp.l : cmp.r;
      build.push(side);
      probe.push(e);
      types.push(side.t);
    }
    return { kind: 'hash', build, probe, types };
  }
  return { kind: 'scan' };
}

function sources0(src: Source): boolean {
  return src.derived === undefined;
}
