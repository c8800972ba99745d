import type { Cell, Column, Table } from './result.js';
import { columnParts, keyColumns } from './column-parts.js';
import { wrapText } from './text-wrap.js';

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

const GAP = 2;

/**
 * The table as aligned plain text, text columns left and number columns right, in lines of at
 * most `width` characters: a table wider than that keeps its first column (or the first few
 * that together tell its rows apart) and moves the columns that do not fit into a second table
 * (and a third…) under the same title; a
 * cell or header too wide for its column wraps inside it. The title and the note wrap too.
 */
export function formatTable(table: Table, width: number = Number.POSITIVE_INFINITY): string {
  const cols = table.columns;
  const cells = table.rows.map((row) => cols.map((c) => formatCell(row[c.key], c)));
  const numeric = cols.map(
    (c) =>
      table.rows.length > 0 && table.rows.every((r) => typeof r[c.key] === 'number' || r[c.key] === null),
  );
  const natural = cols.map((c, i) => Math.max(c.label.length, ...cells.map((r) => (r[i] as string).length)));
  const total = natural.reduce((a, w) => a + w, 0) + GAP * (cols.length - 1);
  const out: string[] = [];
  if (total <= width) {
    out.push(...wrapText(table.title, width));
    out.push(...block(cols, cells, numeric, natural, [...cols.keys()]));
  } else {
    // the columns that name a row start every part: together at most half of the line, the
    // first at most a third
    let keys = keyColumns(cells, cols.length);
    const key = Math.min(natural[0] as number, Math.max(8, Math.floor(width / 3)));
    const keyWidth = (k: number): number => key + natural.slice(1, k).reduce((a, w) => a + w + GAP, 0);
    while (keys > 1 && keyWidth(keys) > width / 2) keys--;
    const room = Math.max(1, width - keyWidth(keys) - GAP);
    // headers wrap at spaces: a number column is as wide as its longest word or figure; a text
    // column wraps its cells too, at up to 40 characters unless a word is longer
    const word = (t: string): number => Math.max(0, ...t.split(' ').map((x) => x.length));
    const widths = cols.map((c, i) => {
      if (i === 0) return key;
      if (i < keys) return natural[i] as number;
      const cellWords = Math.max(0, ...cells.map((r) => word(r[i] as string)));
      const cellLongest = Math.max(0, ...cells.map((r) => (r[i] as string).length));
      const w = numeric[i]
        ? Math.max(word(c.label), cellLongest, Math.min(c.label.length, 12))
        : Math.max(word(c.label), Math.min(natural[i] as number, Math.max(cellWords, 40)));
      return Math.min(w, room);
    });
    const parts = columnParts(widths, width, GAP, keys);
    parts.forEach((p, n) => {
      if (n > 0) out.push('');
      const title = parts.length === 1 ? table.title : `${table.title} (${n + 1} of ${parts.length})`;
      out.push(...wrapText(title, width));
      out.push(...block(cols, cells, numeric, widths, p));
    });
  }
  if (table.note !== undefined) out.push(...wrapText(table.note, width));
  return out.join('\n');
}

/** Header, rule and rows of the columns `which`, each cell wrapped to its column's width. */
function block(
  cols: readonly Column[],
  cells: readonly (readonly string[])[],
  numeric: readonly boolean[],
  widths: readonly number[],
  which: readonly number[],
): string[] {
  const lines: string[] = [];
  const row = (texts: readonly string[]): void => {
    const wrapped = which.map((c, k) => wrapText(texts[k] as string, widths[c] as number));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let l = 0; l < height; l++) {
      lines.push(
        which
          .map((c, k) => {
            const piece = wrapped[k]?.[l] ?? '';
            const w = widths[c] as number;
            return numeric[c] ? piece.padStart(w) : piece.padEnd(w);
          })
          .join(' '.repeat(GAP))
          .trimEnd(),
      );
    }
  };
  row(which.map((c) => (cols[c] as Column).label));
  lines.push(which.map((c) => '-'.repeat(widths[c] as number)).join(' '.repeat(GAP)));
  for (const r of cells) row(which.map((c) => r[c] as string));
  return lines;
}
