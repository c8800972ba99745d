import { SqlError } from '../../sql/errors.js';
import type { ColumnMeta } from '../column-types.js';
import type { PacketWriter } from '../wire.js';

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
    else if (typeof v === 'number' && !Number.isFinite(v)) throw notFinite(cols[i]!.name);
    else w.lenencStr(String(v));
  }
  w.end();
}

/** No infinity or NaN goes out: MySQL's types hold none (the statement fails instead). */
export function notFinite(column: string): SqlError {
  return new SqlError('ER_DATA_OUT_OF_RANGE', `DOUBLE value is out of range in '${column}'`);
}
