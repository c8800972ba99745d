import { dayToText, decimalToText } from './row.js';
import type { ColumnType } from './types.js';

/**
 * A key's values as a duplicate-key message shows them (1062 "Duplicate entry '…'"): each value
 * as the client typed it — a DECIMAL with its scale, a DATE as YYYY-MM-DD, a string as its text,
 * NULL as NULL — joined with '-' for a key of several columns, as MariaDB prints them.
 */
export function keyText(types: readonly ColumnType[], values: readonly unknown[]): string {
  return values.map((v, i) => valueText(types[i], v)).join('-');
}

function valueText(t: ColumnType | undefined, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  switch (t?.kind) {
    case 'decimal':
      return typeof v === 'bigint' || typeof v === 'number' ? decimalToText(v, t.scale) : String(v);
    case 'date':
      return typeof v === 'number' ? dayToText(v) : String(v);
    default:
      return String(v);
  }
}
