import { decodeClientText } from '../../sql/client-text.js';
import {
  MYSQL_TYPE_BIT,
  MYSQL_TYPE_BLOB,
  MYSQL_TYPE_DATE,
  MYSQL_TYPE_DATETIME,
  MYSQL_TYPE_DECIMAL,
  MYSQL_TYPE_DOUBLE,
  MYSQL_TYPE_ENUM,
  MYSQL_TYPE_FLOAT,
  MYSQL_TYPE_GEOMETRY,
  MYSQL_TYPE_INT24,
  MYSQL_TYPE_JSON,
  MYSQL_TYPE_LONG,
  MYSQL_TYPE_LONG_BLOB,
  MYSQL_TYPE_LONGLONG,
  MYSQL_TYPE_MEDIUM_BLOB,
  MYSQL_TYPE_NEWDECIMAL,
  MYSQL_TYPE_NULL,
  MYSQL_TYPE_SET,
  MYSQL_TYPE_SHORT,
  MYSQL_TYPE_STRING,
  MYSQL_TYPE_TIME,
  MYSQL_TYPE_TIMESTAMP,
  MYSQL_TYPE_TINY,
  MYSQL_TYPE_TINY_BLOB,
  MYSQL_TYPE_VAR_STRING,
  MYSQL_TYPE_VARCHAR,
  MYSQL_TYPE_YEAR,
} from '../protocol.js';
import { MalformedPacketError, type PacketReader } from '../wire.js';
import { TypedParam } from '../../plan/bind-expr.js';
import { dateTimeType, decType, T_DATE, T_DBL, T_INT, T_UINT, timeType } from '../../exec/types.js';
import { daysFromCivil, daysInMonth, joinDay } from '../../storage/temporal.js';

/** COM_STMT_EXECUTE's arguments whose values are not valid for their types (1210). */
export class ExecuteArgumentsError extends Error {
  override readonly name = 'ExecuteArgumentsError';
}

/** The fixed part of COM_STMT_EXECUTE after the command byte. */
export interface ExecuteHeader {
  readonly statementId: number;
  readonly flags: number;
  readonly iterations: number;
}

export function readExecuteHeader(r: PacketReader): ExecuteHeader {
  return { statementId: r.u32(), flags: r.u8(), iterations: r.u32() };
}

/** Parameter types of a statement: each a type byte plus the unsigned flag (0x80) in bit 15. */
export type BoundTypes = Uint16Array;

/**
 * Reads the parameters of COM_STMT_EXECUTE (after the header): the NULL bitmap ((n + 7) / 8
 * bytes), the new-params-bound flag, the types when it is 1 (else `previous`, as a client that
 * re-executes sends them once), then each non-NULL value in its type's binary form. Values come
 * out as the engine's parameters: integers as numbers (BigInt beyond 2^53), FLOAT/DOUBLE as
 * numbers, DECIMAL and strings as strings, a DATE (or a DATETIME at midnight) as a Date at UTC
 * midnight, other DATETIME/TIMESTAMP and TIME as their text. A parameter in `longData` (sent
 * before with COM_STMT_SEND_LONG_DATA) takes that text and has no value in the packet, as
 * libmysqlclient sends it. Returns the types used.
 */
export function readExecuteParams(
  r: PacketReader,
  count: number,
  previous: BoundTypes | undefined,
  out: unknown[],
  longData?: ReadonlyMap<number, string>,
): BoundTypes {
  out.length = count;
  if (count === 0) return previous ?? new Uint16Array(0);
  const bitmap = r.bytes((count + 7) >> 3);
  const bound = r.u8();
  let types: BoundTypes;
  if (bound === 1) {
    types = new Uint16Array(count);
    for (let i = 0; i < count; i++) {
      const t = r.u8();
      types[i] = t | (r.u8() << 8);
    }
  } else if (bound === 0 && previous !== undefined && previous.length === count) {
    types = previous;
  } else {
    throw new ExecuteArgumentsError('parameter types were never sent');
  }
  for (let i = 0; i < count; i++) {
    if (bitmap[i >> 3]! & (1 << (i & 7))) {
      out[i] = null;
      continue;
    }
    // a parameter sent with COM_STMT_SEND_LONG_DATA has no value in the packet
    const long = longData?.get(i);
    if (long !== undefined) {
      out[i] = long;
      continue;
    }
    out[i] = readValue(r, types[i]! & 0xff, (types[i]! & 0x8000) !== 0);
  }
  return types;
}

function int(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/**
 * One parameter value in the type the client sent it with, as a {@link TypedParam} in the
 * engine's runtime form: integers, DOUBLE, DECIMAL (its scale kept), DATE as a day number,
 * DATETIME / TIMESTAMP and TIME as microseconds. Strings (and every text or binary type) stay
 * strings; a date the calendar does not have stays its text, as before a conversion.
 */
function readValue(r: PacketReader, type: number, unsigned: boolean): unknown {
  switch (type) {
    case MYSQL_TYPE_NULL:
      return null;
    case MYSQL_TYPE_TINY: {
      const v = r.u8();
      return new TypedParam(T_INT, unsigned ? v : (v << 24) >> 24);
    }
    case MYSQL_TYPE_SHORT:
    case MYSQL_TYPE_YEAR: {
      const v = r.u16();
      return new TypedParam(T_INT, unsigned ? v : (v << 16) >> 16);
    }
    case MYSQL_TYPE_LONG:
    case MYSQL_TYPE_INT24: {
      const v = r.u32();
      return new TypedParam(T_INT, unsigned ? v : v | 0);
    }
    case MYSQL_TYPE_LONGLONG:
      return unsigned ? new TypedParam(T_UINT, int(r.u64())) : new TypedParam(T_INT, int(r.i64()));
    case MYSQL_TYPE_FLOAT:
      return new TypedParam(T_DBL, r.f32());
    case MYSQL_TYPE_DOUBLE:
      return new TypedParam(T_DBL, r.f64());
    case MYSQL_TYPE_DECIMAL:
    case MYSQL_TYPE_NEWDECIMAL:
      return decimalParam(decodeClientText(r.lenencBytes()));
    case MYSQL_TYPE_VARCHAR:
    case MYSQL_TYPE_VAR_STRING:
    case MYSQL_TYPE_STRING:
    case MYSQL_TYPE_ENUM:
    case MYSQL_TYPE_SET:
    case MYSQL_TYPE_JSON:
    case MYSQL_TYPE_BIT:
    case MYSQL_TYPE_GEOMETRY:
    case MYSQL_TYPE_TINY_BLOB:
    case MYSQL_TYPE_MEDIUM_BLOB:
    case MYSQL_TYPE_LONG_BLOB:
    case MYSQL_TYPE_BLOB:
      return decodeClientText(r.lenencBytes());
    case MYSQL_TYPE_DATE:
    case MYSQL_TYPE_DATETIME:
    case MYSQL_TYPE_TIMESTAMP:
      return readDateTime(r, type === MYSQL_TYPE_DATE);
    case MYSQL_TYPE_TIME:
      return readTime(r);
    default:
      throw new ExecuteArgumentsError(`parameter type ${type} is not a MySQL type`);
  }
}

/** A DECIMAL parameter's text as a DECIMAL of its own precision and scale; other text stays text. */
function decimalParam(text: string): unknown {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return text;
  const whole = m[2]!.replace(/^0+(?=\d)/, '');
  const frac = m[3] ?? '';
  if (whole.length + frac.length > 65 || frac.length > 30) return text;
  const v = BigInt(`${m[1]}${whole}${frac}` || '0');
  return new TypedParam(decType(Math.max(1, whole.length + frac.length), frac.length), v);
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function readDateTime(r: PacketReader, dateOnly: boolean): unknown {
  const n = r.u8();
  if (n !== 0 && n !== 4 && n !== 7 && n !== 11)
    throw new MalformedPacketError('Malformed communication packet.');
  if (n === 0) return dateOnly ? '0000-00-00' : '0000-00-00 00:00:00';
  const y = r.u16();
  const mo = r.u8();
  const d = r.u8();
  const h = n >= 7 ? r.u8() : 0;
  const mi = n >= 7 ? r.u8() : 0;
  const s = n >= 7 ? r.u8() : 0;
  const us = n === 11 ? r.u32() : 0;
  const day = `${String(y).padStart(4, '0')}-${pad2(mo)}-${pad2(d)}`;
  const text = `${day} ${pad2(h)}:${pad2(mi)}:${pad2(s)}${us === 0 ? '' : `.${String(us).padStart(6, '0')}`}`;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return dateOnly ? day : text;
  const days = daysFromCivil(y, mo, d);
  if (dateOnly) return new TypedParam(T_DATE, days);
  if (h > 23 || mi > 59 || s > 59 || us > 999_999) return text;
  return new TypedParam(
    dateTimeType(us === 0 ? 0 : 6),
    joinDay(days, ((h * 60 + mi) * 60 + s) * 1_000_000 + us),
  );
}

function readTime(r: PacketReader): unknown {
  const n = r.u8();
  if (n !== 0 && n !== 8 && n !== 12) throw new MalformedPacketError('Malformed communication packet.');
  if (n === 0) return new TypedParam(timeType(0), 0);
  const negative = r.u8() === 1;
  const days = r.u32();
  const h = r.u8();
  const mi = r.u8();
  const s = r.u8();
  const us = n === 12 ? r.u32() : 0;
  const v = (((days * 24 + h) * 60 + mi) * 60 + s) * 1_000_000 + us;
  return new TypedParam(timeType(us === 0 ? 0 : 6), negative ? -v : v);
}
