import type { Bound } from '../../exec/bound.js';
import { bindCompare } from '../bind-ops.js';

/**
 * Column equalities implied by the WHERE's (MariaDB's multiple equalities, `Item_equal`): from
 * `a.x = b.y AND b.y = c.z` follows `a.x = c.z`, which lets the join read c by a.x before b is
 * read. TPC-H Q9 is the case: `ps_partkey = l_partkey AND p_partkey = l_partkey` never says
 * `p_partkey = ps_partkey`, so without it part could follow partsupp only as a scan, and the join
 * had to go through lineitem first.
 *
 * Only equalities between plain columns of this query block of one type kind (integers, dates)
 * are joined into classes, where `=` is transitive whatever the values; an equality across kinds
 * compares converted values and is left as written. For each class, every pair of columns of
 * different tables that no conjunct already equates gets one. Each derived equality is implied by
 * the WHERE for any row values: when the WHERE is true every column of the class holds the same
 * non-NULL value.
 */
export function impliedEqualities(where: readonly Bound[]): Bound[] {
  // union-find over the columns the equalities name, keyed "source:column"
  const parent = new Map<string, string>();
  const cols = new Map<string, Bound>();
  const find = (k: string): string => {
    let r = k;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(k, r);
    return r;
  };
  const key = (b: Bound): string | undefined => {
    const c = b.col;
    if (c === undefined || b.outer || (b.t.kind !== 'int' && b.t.kind !== 'date')) return undefined;
    const k = `${c.src.idx}:${c.c}`;
    if (!parent.has(k)) {
      parent.set(k, k);
      cols.set(k, b);
    }
    return k;
  };
  const written = new Set<string>();
  for (const w of where) {
    const cmp = w.cmp;
    if (cmp === undefined || cmp.op !== '=') continue;
    const a = key(cmp.l);
    const b = key(cmp.r);
    if (a === undefined || b === undefined || cmp.l.t.kind !== cmp.r.t.kind) continue;
    written.add(`${a}|${b}`).add(`${b}|${a}`);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const classes = new Map<string, string[]>();
  for (const k of parent.keys()) {
    const r = find(k);
    const list = classes.get(r);
    if (list === undefined) classes.set(r, [k]);
    else list.push(k);
  }
  const out: Bound[] = [];
  for (const members of classes.values()) {
    if (members.length < 3) continue;
    for (let i = 0; i < members.length; i++)
      for (let j = i + 1; j < members.length; j++) {
        const l = cols.get(members[i]!)!;
        const r = cols.get(members[j]!)!;
        if (l.col!.src === r.col!.src || written.has(`${members[i]}|${members[j]}`)) continue;
        out.push(bindCompare('=', l, r, `${l.text} = ${r.text}`));
      }
  }
  return out;
}
