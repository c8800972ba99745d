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
    else w.lenencStr(String(v));
  }
  w.end();
}
