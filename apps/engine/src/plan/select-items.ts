import type { Pos } from '../sql/ast.js';
import { offsetOf } from '../sql/syntax-error.js';

/**
 * The text of each select-list item as written, which MySQL names an unaliased result column by
 * (`EXTRACT(HOUR FROM d)`, `CAST(x AS CHAR)`, `1  +  1` with its spaces). The list starts after
 * the SELECT keyword and its modifiers and ends at the first FROM, INTO, WHERE, … (or the end of
 * the query) outside parentheses and quotes; items are split at the commas there.
 */

const MODIFIERS =
  /^(?:ALL|DISTINCT|DISTINCTROW|HIGH_PRIORITY|STRAIGHT_JOIN|SQL_SMALL_RESULT|SQL_BIG_RESULT|SQL_BUFFER_RESULT|SQL_CACHE|SQL_NO_CACHE|SQL_CALC_FOUND_ROWS)\b/i;
const END =
  /^(?:FROM|INTO|WHERE|GROUP|HAVING|WINDOW|ORDER|LIMIT|UNION|EXCEPT|INTERSECT|FOR|LOCK|PROCEDURE)\b/i;

/** The items' texts, or undefined when the scan does not find exactly `count` of them. */
export function selectItemTexts(sql: string, selectEnd: Pos, count: number): string[] | undefined {
  let i = offsetOf(sql, selectEnd);
  const skipSpace = (): void => {
    for (;;) {
      while (i < sql.length && /\s/.test(sql[i]!)) i++;
      if (sql.startsWith('/*', i)) {
        const j = sql.indexOf('*/', i + 2);
        i = j < 0 ? sql.length : j + 2;
      } else return;
    }
  };
  for (;;) {
    skipSpace();
    const m = MODIFIERS.exec(sql.slice(i, i + 24));
    if (m === null) break;
    i += m[0].length;
  }
  const items: string[] = [];
  let start = i;
  let depth = 0;
  while (i <= sql.length) {
    const c = sql[i];
    if (c === undefined || c === ';' || (c === ')' && depth === 0)) break;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === '\\' && c !== '`') j += 2;
        else if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      i = j + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ',') {
      items.push(sql.slice(start, i).trim());
      start = i + 1;
    } else if (
      depth === 0 &&
      /[A-Za-z]/.test(c) &&
      (i === 0 || /[\s)]/.test(sql[i - 1]!)) &&
      END.test(sql.slice(i, i + 12))
    )
      break;
    i++;
  }
  items.push(sql.slice(start, i).trim());
  return items.length === count ? items : undefined;
}
