import type { Bound } from '../../exec/bound.js';
import { bindLogic } from '../bind-ops.js';

/**
 * Conditions on one table implied by an OR over several (MariaDB's `make_cond_for_table` on an
 * `Item_cond_or`): from `(A1 AND B1) OR (A2 AND B2)`, where the A's read only table `a`, follows
 * `A1 OR A2`, which the rows of `a` can be filtered by as soon as they are read instead of only
 * once the join has read `b` too. TPC-H Q19 is the case: its OR of three brand/container/size
 * groups over `part` and quantity groups over `lineitem` leaves every part probing lineitem
 * without it.
 *
 * Sound for any row values, NULLs included: when the OR is true some disjunct is, so that
 * disjunct's conjuncts on `a` are, so their OR is. The original OR stays where it was; a derived
 * condition only filters earlier. A disjunct with no conjunct on `a` alone implies nothing about
 * `a`, so then there is none. Conjuncts reading no table go with every table's part, as in
 * MariaDB (an `@n := @n + 1` there runs once more per row of `a` read, as it does in MariaDB);
 * subqueries stay where they were written.
 */
export function impliedConditions(where: readonly Bound[]): Bound[] {
  const out: Bound[] = [];
  for (const w of where) {
    if (w.or === undefined || w.refs.length < 2) continue;
    const branches = flatten(w, 'or', []).map((d) => flatten(d, 'and', []));
    for (const table of w.refs) {
      const parts: Bound[] = [];
      for (const branch of branches) {
        // constants ride along (MariaDB counts no table for them: `@n := @n + 1` included)
        const own = branch.filter((c) => c.sub !== true && c.refs.every((r) => r === table));
        if (own.length === 0) break;
        parts.push(own.reduce((a, b) => bindLogic('And', a, b, `${a.text} and ${b.text}`)));
      }
      if (parts.length < branches.length) continue;
      const implied = parts.reduce((a, b) => bindLogic('Or', a, b, `(${a.text}) or (${b.text})`));
      if (implied.refs.length === 1) out.push(implied);
    }
  }
  return out;
}

/** The operands of a tree of ORs (`op` 'or') or of ANDs ('and'), left to right. */
function flatten(b: Bound, op: 'or' | 'and', out: Bound[]): Bound[] {
  const pair = b[op];
  if (pair === undefined) out.push(b);
  else {
    flatten(pair[0], op, out);
    flatten(pair[1], op, out);
  }
  return out;
}
