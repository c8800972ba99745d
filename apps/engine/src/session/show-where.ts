import { T_STR } from '../exec/types.js';
import { truthOf } from '../exec/truth.js';
import { bindExpr } from '../plan/bind-expr.js';
import { Block } from '../exec/bound.js';
import type { Source } from '../exec/scope.js';
import { bindQuery } from '../plan/select.js';
import { tagOf } from '../sql/ast.js';
import type { StatementContext } from './session.js';
import { likePattern } from './show-server.js';

/**
 * The row filter of a SHOW statement's `LIKE 'pattern'` or `WHERE condition` (the parser's
 * `filter_position` node; absent: every row). LIKE matches the first column as MariaDB does,
 * case-insensitively with `%`, `_` and `\` escapes. WHERE is an expression over the result's own
 * columns, named as the result names them (`Tables_in_test`, `Table_type`, `Database`), which
 * are text; a name that is not one of them is 1054 "Unknown column … in 'WHERE'" as in MariaDB.
 */
export function showFilter(
  filterPosition: unknown,
  columns: readonly string[],
  ctx: StatementContext,
): (row: readonly unknown[]) => boolean {
  if (filterPosition === undefined || filterPosition === null) return () => true;
  const [t, v] = tagOf(tagOf(filterPosition)[1]);
  if (t === 'Like' || t === 'ILike') {
    const re = likePattern(String(v));
    return (row) => re.test(String(row[0]));
  }
  if (t !== 'Where') return () => true;
  const block = new Block(undefined, ctx.run);
  const source: Source = {
    idx: 0,
    alias: '',
    schema: undefined,
    columns: columns.map((name) => ({ name, t: T_STR, nullable: false })),
    offset: 0,
    table: undefined,
    meta: undefined,
    derived: undefined,
    joinType: 'inner',
    on: [],
    hints: { force: [], use: [], ignore: [] },
    used: new Set(),
  };
  block.sources.push(source);
  block.nslots = columns.length;
  const env = ctx.queryEnv();
  const cond = truthOf(
    bindExpr(v, {
      block,
      clause: 'WHERE',
      allowAgg: false,
      env: { ...env, bindSubquery: (q, p) => bindQuery(q, { env, run: ctx.run }, p) },
    }),
  );
  const frame = block.frame;
  return (row) => {
    frame.v = [...row];
    return cond() === true;
  };
}
