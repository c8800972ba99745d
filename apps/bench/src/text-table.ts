import type { Cell, Column, Table } from './result.js';

/** A cell as text: numbers with the column's digits (integers as they are), booleans yes/no. */
export function formatCell(value: Cell | undefined, column: Column): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    const digits = column.digits ?? (Number.isInteger(value) ? 0 : 2);
    return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }
  return value;
}

/** The table as aligned plain text: text columns left, number columns right. */
export function formatTable(table: Table): string {
  const cols = table.columns;
  const cells = table.rows.map((row) => cols.map((c) => formatCell(row[c.key], c)));
  const numeric = cols.map(
    (c) =>
      table.rows.length > 0 && table.rows.every((r) => typeof r[c.key] === 'number' || r[c.key] === null),
  );
  const widths = cols.map((c, i) => Math.max(c.label.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (parts: readonly string[]): string =>
    parts
      .map((p, i) => (numeric[i] ? p.padStart(widths[i] as number) : p.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const out = [table.title, line(cols.map((c) => c.label)), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of cells) out.push(line(r));
  if (table.note !== undefined) out.push(table.note);
  return out.join('\n');
}
