import { arr, identText, obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { instanceOf } from './instance.js';
import { apiValue, okResult } from './result.js';
import type { Compiled, NamedStatement, Session, StatementContext } from './session.js';

/**
 * Prepared statements in SQL: PREPARE name FROM 'text' | @var, EXECUTE name [USING @a, …],
 * DEALLOCATE / DROP PREPARE name. A name holds one statement per session (PREPARE again replaces
 * it); EXECUTE passes the user variables' values as the `?` parameters, in order.
 */

const unknown = (name: string, where: string): SqlError =>
  new SqlError('ER_UNKNOWN_STMT_HANDLER', `Unknown prepared statement handler (${name}) given to ${where}`);

export function compileSqlPrepared(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  const o = obj(v);
  const named = ctx.session.namedStatements;
  switch (tag) {
    case 'PrepareFrom':
      return {
        run: () => {
          const name = String(o.name).toLowerCase();
          let text: string;
          if (typeof o.text === 'string') text = o.text;
          else {
            const u = ctx.session.userVars.get(String(o.variable));
            text = u === undefined || u.v === null ? 'NULL' : String(u.v);
          }
          // a failing PREPARE drops the name's old statement too, as MySQL; each statement kept
          // counts in the server's Prepared_stmt_count, which max_prepared_stmt_count caps
          const count = instanceOf(ctx.session.db).preparedStatements;
          if (named.delete(name)) count.release();
          const max = Number(ctx.session.globalVars.get('max_prepared_stmt_count'));
          if (!count.reserve(max))
            throw new SqlError(
              'ER_MAX_PREPARED_STMT_COUNT_REACHED',
              `Can't create more than max_prepared_stmt_count statements (current value: ${max})`,
            );
          try {
            named.set(name, ctx.session.prepare(text));
          } catch (e) {
            count.release();
            throw e;
          }
          return { ...okResult(), info: 'Statement prepared' };
        },
      };
    case 'Deallocate': {
      const name = identText(o.name).toLowerCase();
      return {
        run: () => {
          if (!named.delete(name)) throw unknown(name, 'DEALLOCATE PREPARE');
          instanceOf(ctx.session.db).preparedStatements.release();
          return okResult();
        },
      };
    }
    default:
      return undefined;
  }
}

/**
 * EXECUTE name [USING @a, …]: the named statement and its parameters (the user variables' values,
 * as the API takes them: a DECIMAL as its text, a DATE as 'YYYY-MM-DD'). The session runs it as
 * the statement it is, so it is measured, locked and committed as that statement.
 */
export function executeArguments(v: unknown, session: Session): { p: NamedStatement; params: unknown[] } {
  const o = obj(v);
  const name = objectName(o.name).join('.').toLowerCase();
  const using = arr(o.using).map((u) => {
    const [t, iv] = tagOf(obj(u).expr);
    const id = t === 'Identifier' ? identText(iv) : '';
    if (!id.startsWith('@') || id.startsWith('@@'))
      throw new SqlError(
        'ER_PARSE_ERROR',
        'You have an error in your SQL syntax; EXECUTE … USING takes user variables (@name)',
      );
    return id.slice(1);
  });
  const p = session.namedStatements.get(name);
  if (p === undefined) throw unknown(name, 'EXECUTE');
  if (using.length !== p.paramCount)
    throw new SqlError('ER_WRONG_ARGUMENTS', 'Incorrect arguments to EXECUTE');
  return {
    p,
    params: using.map((u) => {
      const x = session.userVars.get(u);
      return x === undefined ? null : apiValue(x.v, x.t);
    }),
  };
}
