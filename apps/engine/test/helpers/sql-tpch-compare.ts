// Row-for-row comparison of our result with DuckDB's. Where DuckDB's type is exact (DECIMAL,
// integers, DATE, text) the printed values must be identical; where DuckDB computes a DOUBLE
// (AVG, division), ours must be DuckDB's value rounded half away from zero to the scale MySQL
// gives that column (`scales`), printed with exactly that many decimals.

export interface DuckResult {
  readonly rows: readonly (readonly unknown[])[];
  /** DuckDB's type name per column, e.g. 'DECIMAL(38,2)', 'DOUBLE', 'BIGINT'. */
  readonly types: readonly string[];
}

/**
 * A double rounded half away from zero to `scale` decimals, as fixed-point text; a value that
 * rounds to zero prints without a sign, as a DECIMAL does.
 */
export function roundDouble(x: number, scale: number): string {
  // toFixed rounds the double's exact binary value (half away from zero on a binary tie)
  const s = x.toFixed(scale);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

function ourText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string') return String(v);
  return JSON.stringify(v);
}

/**
 * Differences between our rows and DuckDB's, at most `limit` of them (an empty list when they
 * agree).
 */
export function diffRows(
  ours: readonly (readonly unknown[])[],
  duck: DuckResult,
  scales: Readonly<Record<number, number>> = {},
  limit = 5,
): string[] {
  const out: string[] = [];
  if (ours.length !== duck.rows.length) out.push(`${ours.length} rows, DuckDB has ${duck.rows.length}`);
  const n = Math.min(ours.length, duck.rows.length);
  for (let r = 0; r < n && out.length < limit; r++) {
    const a = ours[r]!;
    const b = duck.rows[r]!;
    if (a.length !== b.length) {
      out.push(`row ${r}: ${a.length} columns, DuckDB has ${b.length}`);
      continue;
    }
    for (let c = 0; c < b.length; c++) {
      const d = b[c];
      let want: string;
      if (d === null || d === undefined) want = 'NULL';
      else if (duck.types[c] === 'DOUBLE' || duck.types[c] === 'FLOAT') {
        const scale = scales[c];
        if (scale === undefined) {
          out.push(`column ${c} is a DOUBLE in DuckDB and has no MySQL scale in the query table`);
          continue;
        }
        want = roundDouble(Number(d), scale);
      } else want = String(d);
      const got = ourText(a[c]);
      if (got !== want)
        out.push(
          `row ${r} column ${c}: ${got}, DuckDB ${want}${duck.types[c] === 'DOUBLE' ? ` (double ${String(d)})` : ''}`,
        );
    }
  }
  return out;
}
