import { notFinite } from './text-row.js';
import type { ColumnMeta } from '../column-types.js';
import {
  MYSQL_TYPE_FLOAT,
  MYSQL_TYPE_INT24,
  MYSQL_TYPE_LONG,
  MYSQL_TYPE_SHORT,
  MYSQL_TYPE_TINY,
  MYSQL_TYPE_YEAR,
} from '../protocol.js';
import type { PacketWriter } from '../wire.js';

/**
 * A binary-protocol row (ProtocolBinary::ResultsetRow), as COM_STMT_EXECUTE answers: 0x00, a NULL
 * bitmap with an offset of 2 bits ((n + 7 + 2) / 8 bytes), then each non-NULL value in its
 * column type's binary form: integers in their type's width (LONGLONG 8 bytes little-endian, LONG
 * 4, SHORT 2, TINY 1), DOUBLE as an IEEE double, FLOAT as an IEEE single,
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
        writeInteger(w, cols[i]!.type, v as number | bigint);
        break;
      case 'dbl':
        if (!Number.isFinite(v as number)) throw notFinite(cols[i]!.name);
        if (cols[i]!.type === MYSQL_TYPE_FLOAT) w.u32(floatBits(v as number));
        else w.f64(v as number);
        break;
      case 'date':
        writeDate(w, v as string);
        break;
      case 'datetime':
        writeDateTime(w, v as string);
        break;
      case 'time':
        writeTime(w, v as string);
        break;
      case 'null':
        // a NULL-typed column never has a value; a stray one travels as text
        w.lenencStr(String(v));
        break;
      default:
        if (v instanceof Uint8Array) w.lenenc(v.length).bytes(v);
        else w.lenencStr(typeof v === 'string' ? v : String(v));
    }
  }
  w.end();
}

/**
 * An integer in its column type's width: TINY one byte, SHORT and YEAR two, INT24 and LONG four,
 * LONGLONG eight (little-endian, two's complement; an unsigned value's bits are the same).
 */
function writeInteger(w: PacketWriter, type: number, v: number | bigint): void {
  // a value fits its column's type: its low bits are its two's complement
  switch (type) {
    case MYSQL_TYPE_TINY:
      w.u8(lowBits(v) & 0xff);
      return;
    case MYSQL_TYPE_SHORT:
    case MYSQL_TYPE_YEAR:
      w.u16(lowBits(v) & 0xffff);
      return;
    case MYSQL_TYPE_INT24:
    case MYSQL_TYPE_LONG:
      w.u32(lowBits(v) >>> 0);
      return;
    default:
      w.i64(typeof v === 'bigint' ? v : BigInt(v));
  }
}

function lowBits(v: number | bigint): number {
  return typeof v === 'bigint' ? Number(BigInt.asUintN(32, v)) : v;
}

const FLOAT_SCRATCH = Buffer.alloc(4);

/** A FLOAT column's value as the bits of an IEEE single. */
function floatBits(v: number): number {
  FLOAT_SCRATCH.writeFloatLE(v, 0);
  return FLOAT_SCRATCH.readUInt32LE(0);
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

/**
 * 'YYYY-MM-DD HH:MM:SS[.ffffff]' → the binary DATETIME / TIMESTAMP: a length byte (4 with the date
 * alone, 7 with the time, 11 with microseconds), year (2 bytes), month, day, hour, minute, second,
 * microseconds (4 bytes).
 */
function writeDateTime(w: PacketWriter, text: string): void {
  const y = Number(text.slice(0, 4));
  const mo = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const h = Number(text.slice(11, 13));
  const mi = Number(text.slice(14, 16));
  const s = Number(text.slice(17, 19));
  const us = text.length > 20 ? Number(text.slice(20).padEnd(6, '0')) : 0;
  if (us !== 0) w.u8(11).u16(y).u8(mo).u8(d).u8(h).u8(mi).u8(s).u32(us);
  else if (h !== 0 || mi !== 0 || s !== 0) w.u8(7).u16(y).u8(mo).u8(d).u8(h).u8(mi).u8(s);
  else w.u8(4).u16(y).u8(mo).u8(d);
}

/**
 * '[-]HH:MM:SS[.ffffff]' → the binary TIME: a length byte (0 for zero, 8, or 12 with
 * microseconds), the sign, days (4 bytes), hours under 24, minutes, seconds, microseconds.
 */
function writeTime(w: PacketWriter, text: string): void {
  const m = /^(-)?(\d+):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(text)!;
  const hours = Number(m[2]);
  const us = m[5] === undefined ? 0 : Number(m[5].padEnd(6, '0'));
  const neg = m[1] !== undefined ? 1 : 0;
  if (hours === 0 && m[3] === '00' && m[4] === '00' && us === 0) {
    w.u8(0);
    return;
  }
  w.u8(us !== 0 ? 12 : 8)
    .u8(neg)
    .u32(Math.floor(hours / 24))
    .u8(hours % 24)
    .u8(Number(m[3]))
    .u8(Number(m[4]));
  if (us !== 0) w.u32(us);
}
