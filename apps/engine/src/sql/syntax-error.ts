import type { Pos } from './ast.js';
import { SqlError } from './errors.js';

/** The text offset of a (line, column) position, both counted from 1. */
export function offsetOf(sql: string, p: Pos): number {
  let off = 0;
  for (let line = 1; line < p.line; line++) {
    const nl = sql.indexOf('\n', off);
    if (nl < 0) return sql.length;
    off = nl + 1;
  }
  return off + p.column - 1;
}

/** MySQL's 1064: "… near '<the rest of the statement>' at line N". */
export function syntaxErrorNear(sql: string, offset: number | undefined): SqlError {
  const near = offset === undefined ? '' : sql.slice(offset).replace(/;\s*$/, '').slice(0, 80);
  const before = sql.slice(0, offset ?? sql.length);
  const line = before.split('\n').length;
  const column = offset === undefined ? undefined : offset - before.lastIndexOf('\n');
  return new SqlError(
    'ER_PARSE_ERROR',
    `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line ${line}`,
    line,
    column,
  );
}

const WORD = /[A-Za-z0-9_$]/;
const SYMBOL = /[-+*/%^&|<>=!~:]/;

/**
 * A syntax error `tokens` tokens before position `p` (an operand's start): whitespace and opening
 * parentheses are stepped over, then each token is a word or a run of operator symbols.
 */
export function syntaxErrorAt(sql: string, p: Pos | undefined, tokens: number): SqlError {
  if (p === undefined) return syntaxErrorNear(sql, undefined);
  let off = offsetOf(sql, p);
  for (let t = 0; t < tokens; t++) {
    let j = off;
    while (j > 0 && /[\s(]/.test(sql[j - 1]!)) j--;
    const cls = j > 0 && WORD.test(sql[j - 1]!) ? WORD : SYMBOL;
    while (j > 0 && cls.test(sql[j - 1]!)) j--;
    off = j;
  }
  return syntaxErrorNear(sql, off);
}
