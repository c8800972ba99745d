/**
 * Splits a table's columns into parts that fit `limit` side by side: the first `keys` columns
 * (the row labels) start every part, the others follow in order, a part taking columns while the
 * sum of their widths plus `gap` between each stays within the limit (a part always takes at
 * least one). One part when everything fits.
 */
export function columnParts(widths: readonly number[], limit: number, gap: number, keys = 1): number[][] {
  const head = Array.from({ length: Math.min(keys, widths.length) }, (_, i) => i);
  const keyWidth = head.reduce((a, i) => a + (widths[i] as number), 0) + gap * (head.length - 1);
  const parts: number[][] = [];
  let part = [...head];
  let used = keyWidth;
  for (let i = head.length; i < widths.length; i++) {
    const need = gap + (widths[i] as number);
    if (part.length > head.length && used + need > limit) {
      parts.push(part);
      part = [...head];
      used = keyWidth;
    }
    part.push(i);
    used += need;
  }
  parts.push(part);
  return parts;
}

/**
 * How many leading columns name a row: the fewest (up to 3) whose values together differ on
 * every row, so each part of a split table can still tell its rows apart; 1 when none do.
 */
export function keyColumns(cells: readonly (readonly string[])[], columns: number): number {
  for (let k = 1; k <= Math.min(3, columns - 1); k++) {
    const seen = new Set(cells.map((r) => r.slice(0, k).join('\u0000')));
    if (seen.size === cells.length) return k;
  }
  return 1;
}
