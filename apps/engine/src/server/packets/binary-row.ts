import { notFinite } from './text-row.js';
import type { ColumnMeta } from '../column-types.js';
import type { PacketWriter } from '../wire.js';

/**
 * A binary-protocol row (ProtocolBinary::ResultsetRow), as COM_STMT_EXECUTE answers: 0x00, a NULL
 * bitmap with an offset of 2 bits ((n + 7 + 2) / 8 bytes), then each non-NULL value in its
 * column type's binary form: LONGLONG as 8 bytes little-endian, DOUBLE as an IEEE double,
 * NEWDECIMAL and VAR_STRING as length-encoded strings, DATE as a length byte (4) then year (2
 * bytes), month, day.
 */
export function writeBinaryRow(w: PacketWriter, cols: readonly ColumnMeta[], row: readonly unknown[]): void {
  const n = cols.length;
  const bitmapBytes = (n + 9) >> 3;
  w.begin().u8(0x00);
  const bitmapAt = w.pos;
  w.zeros(bitmapBytes);
  for (let i = 0; i < n; i++) {
    const v = row[i];
    if (v === null || v === undefined) {
      const bit = i + 2;
      w.buf[bitmapAt + (bit >> 3)]! |= 1 << (bit & 7);
      continue;
    }
    switch (cols[i]!.kind) {
      case 'int':
        w.i64(typeof v === 'bigint' ? v : BigInt(v as number));
        break;
      case 'dbl':
        if (!Number.isFinite(v as number)) throw notFinite(cols[i]!.name);
        w.f64(v as number);
        break;
      case 'date':
        writeDate(w, v as string);
        break;
      case 'null':
        // a NULL-typed column never has a value; a stray one travels as text
        w.lenencStr(String(v));
        break;
      default:
        w.lenencStr(typeof v === 'string' ? v : String(v));
    }
  }
  w.end();
}

/** 'YYYY-MM-DD' → the binary DATE (length 4, or 0 for the zero date). */
function writeDate(w: PacketWriter, text: string): void {
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  if (y === 0 && m === 0 && d === 0) {
    w.u8(0);
    return;
  }
  w.u8(4).u16(y).u8(m).u8(d);
}
