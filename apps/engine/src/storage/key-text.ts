import { dateTimeText, timeText } from './temporal.js';
import { dayToText, decimalToText } from './row.js';
import type { ColumnType } from './types.js';

/**
 * A key's values as a duplicate-key message shows them (1062 "Duplicate entry '…'"): each value
 * as the client typed it — a DECIMAL with its scale, a DATE as YYYY-MM-DD, a DATETIME, TIMESTAMP
 * (in UTC) or TIME as its text, a string as its text, NULL as NULL — joined with '-' for a key of
 * several columns, as MariaDB prints them. `fromKey`: the values were decoded from index key
 * bytes, where BIGINT UNSIGNED holds v − 2^63 and collated text its weight string (the text of
 * a utf8mb4_general_ci weight string is the value as the collation folds it: `'ABC'` for `'aBc'`).
 */
export function keyText(types: readonly ColumnType[], values: readonly unknown[], fromKey = false): string {
  return values.map((v, i) => valueText(types[i], fromKey ? keyValue(types[i], v) : v)).join('-');
}

const TWO_63 = 2n ** 63n;

function keyValue(t: ColumnType | undefined, v: unknown): unknown {
  if (v === null || v === undefined || t === undefined) return v;
  if (t.kind === 'bigint' && t.unsigned === true) return BigInt(v as number | bigint) + TWO_63;
  if (
    (t.kind === 'char' || t.kind === 'varchar') &&
    t.collation === 'utf8mb4_general_ci' &&
    v instanceof Uint8Array
  ) {
    let s = '';
    for (let i = 0; i + 1 < v.length; i += 2) s += String.fromCharCode((v[i]! << 8) | v[i + 1]!);
    return s;
  }
  return v;
}

function valueText(t: ColumnType | undefined, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  switch (t?.kind) {
    case 'decimal':
      return typeof v === 'bigint' || typeof v === 'number' ? decimalToText(v, t.scale) : String(v);
    case 'date':
      return typeof v === 'number' ? dayToText(v) : String(v);
    case 'datetime':
    case 'timestamp':
      return typeof v === 'bigint' || typeof v === 'number' ? dateTimeText(v, t.fsp) : String(v);
    case 'time':
      return typeof v === 'bigint' || typeof v === 'number' ? timeText(Number(v), t.fsp) : String(v);
    default:
      return String(v);
  }
}
