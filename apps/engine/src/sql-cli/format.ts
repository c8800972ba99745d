import type { QueryResult } from '../session/result.js';
import type { Session } from '../session/session.js';
import { SqlError } from '../sql/errors.js';

/** Output formats of `enginekit sql`. */
export type OutputFormat = 'table' | 'tsv' | 'json';

function text(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  return String(v);
}

const numeric = (v: unknown): boolean =>
  typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));

/** A result as the mysql client prints it: a boxed table (numbers right-aligned), or `\G` records. */
export function formatResult(
  r: QueryResult,
  format: OutputFormat,
  vertical: boolean,
  seconds: number,
): string {
  const n = r.rows.length;
  const timing = `(${seconds.toFixed(2)} sec)`;
  if (r.columns.length === 0) {
    if (format === 'json')
      return `${JSON.stringify({ affectedRows: r.affectedRows, insertId: String(r.insertId), warnings: r.warnings })}\n`;
    if (format === 'tsv') return '';
    return `Query OK, ${r.affectedRows} row${r.affectedRows === 1 ? '' : 's'} affected${r.warnings > 0 ? `, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}` : ''} ${timing}\n`;
  }
  if (format === 'json') {
    const rows = r.rows.map((row) =>
      Object.fromEntries(r.columns.map((c, i) => [c, typeof row[i] === 'bigint' ? String(row[i]) : row[i]])),
    );
    return `${JSON.stringify(rows)}\n`;
  }
  if (format === 'tsv')
    return `${[r.columns, ...r.rows.map((row) => row.map(text))].map((l) => l.join('\t')).join('\n')}\n`;
  const footer = n === 0 ? `Empty set ${timing}\n` : `${n} row${n === 1 ? '' : 's'} in set ${timing}\n`;
  if (vertical) {
    const w = Math.max(...r.columns.map((c) => c.length));
    const out: string[] = [];
    r.rows.forEach((row, k) => {
      out.push(`${'*'.repeat(27)} ${k + 1}. row ${'*'.repeat(27)}`);
      for (const [i, c] of r.columns.entries()) out.push(`${c.padStart(w)}: ${text(row[i])}`);
    });
    return `${out.join('\n')}${out.length > 0 ? '\n' : ''}${footer}`;
  }
  if (n === 0) return footer;
  const widths = r.columns.map((c, i) => Math.max(c.length, ...r.rows.map((row) => text(row[i]).length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const cells = (vals: unknown[], header: boolean): string =>
    `| ${vals.map((v, i) => (header || !numeric(v) ? text(v).padEnd(widths[i]!) : text(v).padStart(widths[i]!))).join(' | ')} |`;
  return `${[line, cells(r.columns, true), line, ...r.rows.map((row) => cells(row, false)), line].join('\n')}\n${footer}`;
}

/** An error as the mysql client prints it: `ERROR 1146 (42S02): Table 'test.t' doesn't exist`. */
export function formatError(e: SqlError): string {
  return `ERROR ${e.errno} (${e.sqlState}): ${e.message}\n`;
}

/** What one statement printed: its result on stdout, or its error on stderr (then `ok` is false). */
export interface Printed {
  readonly ok: boolean;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs one statement of `enginekit sql` and renders what it prints. `batch` (`-e` with tables)
 * leaves out the timing line, as `mysql -e` does. A failure that is not an SQL error (a bug, a
 * damaged file) is thrown.
 */
export function runStatement(
  session: Session,
  sql: string,
  format: OutputFormat,
  vertical: boolean,
  batch: boolean,
): Printed {
  const t = performance.now();
  try {
    const r = session.query(sql);
    let out = formatResult(r, format, vertical, (performance.now() - t) / 1000);
    if (batch && format === 'table')
      out = out.replace(/^(\d+ rows? in set|Empty set|Query OK.*?) \(\d+\.\d+ sec\)\n$/m, '');
    return { ok: true, out, err: '' };
  } catch (e) {
    if (e instanceof SqlError) return { ok: false, out: '', err: formatError(e) };
    throw e;
  }
}
