import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { hashKey } from '../exec/compare.js';
import { coerce } from '../exec/convert.js';
import { type SqlType, unify } from '../exec/types.js';
import type { DerivedSource } from '../exec/scope.js';
import { bindQuery, type Ctx, type QueryPlan } from './select.js';

/**
 * A recursive CTE of WITH RECURSIVE: `name [(cols)] AS (anchor UNION [ALL] recursive …)`. The
 * members that do not read `name` are anchors, those that do are recursive. Evaluation as MySQL
 * and MariaDB do it: the anchors' rows are the first working set; each iteration runs the
 * recursive members over the rows the previous iteration added, and stops when one adds none. With
 * UNION DISTINCT a row already produced is not added again. The column types are the anchors'
 * (later rows are converted to them). MariaDB's `max_recursive_iterations` bounds the iterations:
 * past it the recursion stops with warning 1931, keeping the rows so far.
 */

/** Whether a statement tree reads a table (an unqualified FROM item) named `name`. */
function reads(n: unknown, name: string): boolean {
  if (n === null || typeof n !== 'object') return false;
  if (Array.isArray(n)) return n.some((x) => reads(x, name));
  const o = n as Obj;
  const t = o.Table as Obj | undefined;
  if (t !== undefined && typeof t === 'object' && Array.isArray(t.name)) {
    const parts = objectName(t.name);
    if (parts.length === 1 && parts[0]!.toLowerCase() === name) return true;
  }
  for (const k in o) if (reads(o[k], name)) return true;
  return false;
}

interface Member {
  readonly node: unknown;
  readonly distinct: boolean;
}

/** The UNION members of a query body, left to right, each with whether its UNION is DISTINCT. */
function members(body: unknown, out: Member[], distinct = false): Member[] {
  const [t, v] = tagOf(body);
  const o = obj(v);
  if (t === 'SetOperation' && o.op === 'Union') {
    const d = o.set_quantifier !== 'All';
    members(o.left, out, d);
    members(o.right, out, d);
    return out;
  }
  out.push({ node: body, distinct });
  return out;
}

/** A member as a Query node bindQuery takes. */
function asQuery(body: unknown): unknown {
  return tagOf(body)[0] === 'Query' ? tagOf(body)[1] : { body };
}

export function recursiveCte(cte: Obj, c: Ctx, scope: Map<string, DerivedSource>): DerivedSource | undefined {
  const alias = obj(cte.alias);
  const name = identText(alias.name).toLowerCase();
  const q = obj(cte.query);
  if (!reads(q.body, name)) return undefined;
  const parts = members(q.body, []);
  const anchors = parts.filter((m) => !reads(m.node, name));
  const recursive = parts.filter((m) => reads(m.node, name));
  if (anchors.length === 0)
    throw new SqlError('ER_RECURSIVE_WITHOUT_ANCHORS', `No anchors for recursive WITH element '${name}'`);
  const distinct = parts.some((m) => m.distinct);
  const anchorPlans = anchors.map((m) => bindQuery(asQuery(m.node), c, undefined, scope));
  const first = anchorPlans[0]!;
  for (const p of anchorPlans)
    if (p.columns.length !== first.columns.length)
      throw new SqlError(
        'ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT',
        'The used SELECT statements have a different number of columns',
      );
  const types: SqlType[] = first.types.map((_, i) => unify(anchorPlans.map((p) => p.types[i]!)));
  const given = arr(alias.columns).map((x) => identText(obj(x).name));
  const columns = given.length > 0 ? given : [...first.columns];
  if (columns.length !== types.length)
    throw new SqlError(
      'ER_VIEW_WRONG_LIST',
      'In definition of view, derived table or common table expression, SELECT list and column names list have different column counts',
    );
  // the recursive members read the rows the previous iteration added
  let working: unknown[][] = [];
  const self: DerivedSource = {
    columns,
    types,
    run(emit) {
      for (const r of working) if (emit([...r]) === false) return;
    },
  };
  const inner = new Map(scope);
  inner.set(name, self);
  const recPlans: QueryPlan[] = recursive.map((m) => bindQuery(asQuery(m.node), c, undefined, inner));
  for (const p of recPlans)
    if (p.columns.length !== types.length)
      throw new SqlError(
        'ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT',
        'The used SELECT statements have a different number of columns',
      );
  const maxIterations = (): number => Number(c.env.sysVar('max_recursive_iterations', undefined).v);
  let epoch = -1;
  let rows: unknown[][] = [];
  const compute = (): void => {
    const seen = distinct ? new Set<string>() : null;
    const out: unknown[][] = [];
    const add = (p: QueryPlan, r: unknown[], into: unknown[][]): void => {
      const x = r.map((v, i) => (v === null ? null : coerce(v, p.types[i]!, types[i]!)));
      c.run.interrupt.poll();
      if (seen !== null) {
        const k = x.map((v) => (v === null ? '\u0001' : String(hashKey(v)))).join('\u0000');
        if (seen.has(k)) return;
        seen.add(k);
      }
      into.push(x);
    };
    let next: unknown[][] = [];
    for (const p of anchorPlans)
      p.run((r) => {
        add(p, r, next);
        return true;
      });
    const max = maxIterations();
    for (let iteration = 0; next.length > 0; iteration++) {
      out.push(...next);
      if (iteration >= max) {
        c.env.warn(
          1931,
          `Query execution was interrupted. The query exceeded max_recursive_iterations = ${max}. The query result may be incomplete`,
        );
        break;
      }
      working = next;
      next = [];
      for (const p of recPlans)
        p.run((r) => {
          add(p, r, next);
          return true;
        });
    }
    working = [];
    rows = out;
  };
  return {
    columns,
    types,
    run(emit) {
      // once per execution of the statement, however often the CTE is read
      if (epoch !== c.run.epoch) {
        compute();
        epoch = c.run.epoch;
      }
      for (const r of rows) if (emit([...r]) === false) return;
    },
  };
}
