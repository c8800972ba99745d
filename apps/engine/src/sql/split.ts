/** One statement of a script: its text, whether it ended with `\G`, whether it was terminated. */
export interface ScriptStatement {
  readonly sql: string;
  readonly vertical: boolean;
  readonly complete: boolean;
}

/**
 * Splits text at `;` and `\G` outside quotes and comments. Without `keepIncomplete`, a last
 * statement without a terminator counts as complete (as `mysql -e` runs it).
 */
export function splitStatements(text: string, keepIncomplete = false): ScriptStatement[] {
  const out: ScriptStatement[] = [];
  let start = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n && text[j] !== c) j += text[j] === '\\' && c !== '`' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      const j = text.indexOf('\n', i);
      i = j < 0 ? n : j;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      i = j < 0 ? n : j + 2;
      continue;
    }
    if (c === ';' || (c === '\\' && (text[i + 1] === 'G' || text[i + 1] === 'g'))) {
      const sql = text.slice(start, i).trim();
      if (sql !== '') out.push({ sql, vertical: c === '\\' && text[i + 1] === 'G', complete: true });
      i += c === ';' ? 1 : 2;
      start = i;
      continue;
    }
    i++;
  }
  const rest = text.slice(start);
  if (rest.trim() !== '')
    out.push({ sql: keepIncomplete ? rest : rest.trim(), vertical: false, complete: !keepIncomplete });
  return out;
}
