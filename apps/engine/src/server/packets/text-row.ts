import { dblText } from '../../exec/convert.js';
import { SqlError } from '../../sql/errors.js';
import type { ColumnMeta } from '../column-types.js';
import type { PacketWriter } from '../wire.js';

/**
 * A DOUBLE as MySQL's text protocol writes it: with a fixed number of decimals when the column
 * has one (PERCENT_RANK()'s 10), else the shortest digits that read back, exponent without '+'.
 */
export function doubleText(v: number, decimals: number): string {
  return decimals < 31 ? v.toFixed(decimals) : dblText(v);
}

/**
 * A text-protocol row (ProtocolText::ResultsetRow): each value as a length-encoded string, NULL
 * as 0xfb. Values are the API's: numbers, BigInt, DECIMAL and DATE as their text.
 */
export function writeTextRow(w: PacketWriter, cols: readonly ColumnMeta[], row: readonly unknown[]): void {
  w.begin();
  for (let i = 0; i < cols.length; i++) {
    const v = row[i];
    if (v === null || v === undefined) w.u8(0xfb);
    else if (typeof v === 'string') w.lenencStr(v);
    else if (v instanceof Uint8Array) w.lenenc(v.length).bytes(v);
    else if (typeof v === 'number' && !Number.isFinite(v)) throw notFinite(cols[i]!.name);
    else if (typeof v === 'number' && cols[i]!.kind === 'dbl') w.lenencStr(doubleText(v, cols[i]!.decimals));
    else w.lenencStr(String(v));
  }
  w.end();
}

/** No infinity or NaN goes out: MySQL's types hold none (the statement fails instead). */
export function notFinite(column: string): SqlError {
  return new SqlError('ER_DATA_OUT_OF_RANGE', `DOUBLE value is out of range in '${column}'`);
}
