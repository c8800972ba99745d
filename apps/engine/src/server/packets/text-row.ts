import { dblText, floatText } from '../../exec/convert.js';
import { decFromDouble, decText } from '../../exec/decimal.js';
import { MYSQL_TYPE_FLOAT } from '../protocol.js';
import { SqlError } from '../../sql/errors.js';
import type { ColumnMeta } from '../column-types.js';
import type { PacketWriter } from '../wire.js';

/**
 * A DOUBLE as MySQL's text protocol writes it: with a fixed number of decimals when the column
 * has one (PERCENT_RANK()'s 10), else the shortest digits that read back, exponent without '+'.
 */
export function doubleText(v: number, decimals: number, float = false): string {
  return decimals < 31 ? fixedText(v, decimals) : float ? floatText(v) : dblText(v);
}

/**
 * A double with `decimals` digits after the point, as MariaDB writes one: its shortest digits
 * (those that read back) rounded half away from zero at that place and padded with zeros, not
 * the digits of its exact binary value (1e20 as a FLOAT is 100000002004087730000.000).
 */
function fixedText(v: number, decimals: number): string {
  const r = decFromDouble(v, decimals);
  return r === null ? v.toFixed(decimals) : decText(r, decimals, decimals);
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
    else if (typeof v === 'number' && cols[i]!.kind === 'dbl')
      w.lenencStr(doubleText(v, cols[i]!.decimals, cols[i]!.type === MYSQL_TYPE_FLOAT));
    else w.lenencStr(String(v));
  }
  w.end();
}

/** No infinity or NaN goes out: MySQL's types hold none (the statement fails instead). */
export function notFinite(column: string): SqlError {
  return new SqlError('ER_DATA_OUT_OF_RANGE', `DOUBLE value is out of range in '${column}'`);
}
