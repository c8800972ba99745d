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
  'PrepareFrom',
  'Deallocate',
  'Flush',
  'Do',
]);

/**
 * MariaDB's `ANALYZE [FORMAT=JSON] SELECT …` (which the parser does not know) as `EXPLAIN ANALYZE`,
 * so that it parses; the statement runs and its plan is shown with what each table really did.
 */
function analyzeAsExplain(sql: string): string {
  const m = /^(\s*)ANALYZE(\s+(?:FORMAT\s*=\s*\w+\s+)?(?:SELECT|WITH|\())/i.exec(sql);
  if (m === null) return sql;
  const rest = sql.slice(m[0].length);
  const fmt = /FORMAT\s*=\s*(\w+)/i.exec(m[2]!);
  return `${m[1]}EXPLAIN ANALYZE ${fmt ? `FORMAT=${fmt[1]} ` : ''}${m[2]!.replace(/^\s*(FORMAT\s*=\s*\w+\s+)?/i, '')}${rest}`;
}

/** The parse trees of the statements in `sql` (not an account statement): what a session runs. */
export function parseStatements(sql: string, mode: OperatorMode): unknown[] {
  return parseSql(analyzeAsExplain(sql), mode);
}

/**
 * The kind of the statements in `sql`, from their parse: account statements by their own parser,
 * the rest by the tags of the trees {@link parseStatements} gives (the parser keeps the last
 * text's trees, so the session that runs the statement next does not parse it again). Text that
 * does not parse is `rows`: the session then answers it with the parser's error.
 */
export function statementKind(sql: string, mode: OperatorMode): StatementKind {
  const account = accountStatement(sql);
  if (account !== undefined) return account === 'writes' ? 'ddl' : 'rows';
  let trees: unknown[];
  try {
    trees = parseStatements(sql, mode);
  } catch {
    return 'rows';
  }
  for (const st of trees) {
    const tag = tagOf(st)[0];
    if (!ROWS.has(tag) && !tag.startsWith('Show')) return 'ddl';
  }
  return 'rows';
}
