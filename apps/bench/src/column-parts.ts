/**
 * Splits a table's columns into parts that fit `limit` side by side: column 0 (the row labels)
 * starts every part, the others follow in order, a part taking columns while the sum of their
 * widths plus `gap` between each stays within the limit (a part always takes at least one).
 * One part when everything fits.
 */
export function columnParts(widths: readonly number[], limit: number, gap: number): number[][] {
  const parts: number[][] = [];
  const key = widths[0] ?? 0;
  let part = [0];
  let used = key;
  for (let i = 1; i < widths.length; i++) {
    const need = gap + (widths[i] as number);
    if (part.length > 1 && used + need > limit) {
      parts.push(part);
      part = [0];
      used = key;
    }
    part.push(i);
    used += need;
  }
  parts.push(part);
  return parts;
}
