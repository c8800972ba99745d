import { tagOf } from '../sql/ast.js';
import { parseSql } from '../sql/parser.js';
import type { OperatorMode } from '../sql/precedence.js';
import { accountStatement } from './account-statements.js';

/**
 * How a statement must be serialized against sessions on other threads: `ddl` changes the
 * dictionary (the metadata lock in X), `rows` reads or changes rows (the metadata lock in S;
 * writers of different rows run at once, each row operation under the change latch), `none`
 * touches no table (ping, quit, statement close: commands, never statements).
 */
export type StatementKind = 'ddl' | 'rows' | 'none';

/**
 * Statements that leave the dictionary alone, by the tag of their parse tree; every other tag is
 * `ddl`, so a statement this list does not know is serialized as the strongest kind. `Execute`
 * (EXECUTE of a statement prepared in SQL, whose text may be any statement) is one of those.
 */
const ROWS = new Set([
  'Query',
  'Insert',
  'Update',
  'Delete',
  'Set',
  'Use',
  'Explain',
  'ExplainTable',
  'StartTransaction',
  'Commit',
  'Rollback',
  'Savepoint',
  'ReleaseSavepoint',
  'Kill',
  'LockTables',
  'UnlockTables',
  'PrepareFrom',
  'Deallocate',
  'Flush',
  'Do',
]);

/**
 * The kind of the statements in `sql`, from their parse: account statements by their own parser,
 * the rest by the tags of their parse trees (the parser keeps the last
 * text's trees, so the session that runs the statement next does not parse it again). Text that
 * does not parse is `rows`: the session then answers it with the parser's error.
 */
export function statementKind(sql: string, mode: OperatorMode): StatementKind {
  const account = accountStatement(sql);
  if (account !== undefined) return account === 'writes' ? 'ddl' : 'rows';
  let trees: unknown[];
  try {
    trees = parseSql(sql, mode);
  } catch {
    return 'rows';
  }
  for (const st of trees) {
    const tag = tagOf(st)[0];
    if (!ROWS.has(tag) && !tag.startsWith('Show')) return 'ddl';
  }
  return 'rows';
}
