import type { SqlType } from '../exec/types.js';
import type { ResultField } from '../exec/result-fields.js';
import { storedTypeMeta } from './stored-column-meta.js';
import {
  NOT_NULL_FLAG,
  MYSQL_TYPE_LONG,
  BINARY_FLAG,
  UNSIGNED_FLAG,
  CHARSET_BINARY,
  CHARSET_UTF8MB4,
  CHARSET_UTF8MB4_BIN,
  MYSQL_TYPE_DATE,
  MYSQL_TYPE_DATETIME,
  MYSQL_TYPE_DOUBLE,
  MYSQL_TYPE_FLOAT,
  MYSQL_TYPE_LONGLONG,
  MYSQL_TYPE_NEWDECIMAL,
  MYSQL_TYPE_NULL,
  MYSQL_TYPE_TIME,
  MYSQL_TYPE_TIMESTAMP,
  MYSQL_TYPE_VAR_STRING,
} from './protocol.js';

/** How a column's values travel: text and binary encodings follow from this. */
export type WireKind = 'int' | 'dec' | 'dbl' | 'str' | 'date' | 'datetime' | 'time' | 'null';

/** A result column's definition as the protocol sends it. */
export interface ColumnMeta {
  readonly name: string;
  /** Where the column comes from (empty for an expression). */
  readonly schema?: string;
  readonly table?: string;
  readonly orgTable?: string;
  readonly orgName?: string;
  readonly kind: WireKind;
  readonly type: number;
  readonly charset: number;
  readonly length: number;
  readonly flags: number;
  readonly decimals: number;
}

/** DOUBLE's "not fixed" decimals (MySQL `DECIMAL_NOT_SPECIFIED`). */
const NOT_FIXED_DEC = 31;

/** The decimals MariaDB sends for a string expression (its NOT_FIXED_DEC). */
const STRING_EXPR_DEC = 39;

/** The widest integer literal MariaDB sends as LONG (longer ones are LONGLONG). */
const LONG_LITERAL_WIDTH = 9;

/**
 * A result column's definition: a stored column's (exec/result-fields.ts) as MariaDB sends it
 * (server/stored-column-meta.ts), with its database, table alias, table and column; a literal's
 * with its own width (an integer of up to 9 characters as LONG, strings four bytes a character,
 * NOT NULL unless it is NULL); any other expression by its engine type ({@link columnMeta}).
 */
export function resultColumnMeta(name: string, t: SqlType, field: ResultField | undefined): ColumnMeta {
  const expr = columnMeta(name, t);
  if (field === undefined) return expr;
  const origin = {
    schema: field.schema,
    table: field.table,
    orgTable: field.orgTable,
    orgName: field.orgName,
  };
  if (field.base !== undefined) return { ...expr, ...origin, ...storedTypeMeta(field.base) };
  const lit = field.literal;
  if (lit === undefined) return { ...expr, ...origin };
  if (lit.isNull) return { ...expr, ...origin };
  const notNull = expr.flags | NOT_NULL_FLAG;
  switch (expr.kind) {
    case 'int':
      return {
        ...expr,
        ...origin,
        type: lit.width <= LONG_LITERAL_WIDTH ? MYSQL_TYPE_LONG : MYSQL_TYPE_LONGLONG,
        length: lit.width,
        flags: notNull,
      };
    case 'dec':
    case 'dbl':
      return { ...expr, ...origin, length: lit.width, flags: notNull };
    case 'str':
      // a binary string literal is a hexadecimal one (X'…'), which MariaDB types as an unsigned
      // number-like string without decimals
      return expr.charset === CHARSET_BINARY
        ? { ...expr, ...origin, length: lit.width, decimals: 0, flags: notNull | UNSIGNED_FLAG }
        : { ...expr, ...origin, length: lit.width * 4, flags: notNull };
    default:
      return { ...expr, ...origin, flags: notNull };
  }
}

/**
 * The column definition for an engine type, as MySQL 8.0 describes the same expression: integers
 * are BIGINT (LONGLONG), DECIMAL(p,s) is NEWDECIMAL with `s` decimals and display length
 * p + point + sign, DOUBLE is DOUBLE with 31 decimals, strings VAR_STRING in utf8mb4 (4 bytes a
 * character), DATE is DATE, the NULL literal is NULL. Numbers and dates carry BINARY_FLAG and the
 * binary character set, as in MySQL.
 */
export function columnMeta(name: string, t: SqlType): ColumnMeta {
  switch (t.kind) {
    case 'int':
      return {
        name,
        kind: 'int',
        type: MYSQL_TYPE_LONGLONG,
        charset: CHARSET_BINARY,
        length: 20,
        flags: t.unsigned === true ? BINARY_FLAG | UNSIGNED_FLAG : BINARY_FLAG,
        decimals: 0,
      };
    case 'dec':
      return {
        name,
        kind: 'dec',
        type: MYSQL_TYPE_NEWDECIMAL,
        charset: CHARSET_BINARY,
        length: t.prec + (t.scale > 0 ? 1 : 0) + 1,
        flags: BINARY_FLAG,
        decimals: t.scale,
      };
    case 'dbl':
      return {
        name,
        kind: 'dbl',
        type: t.float === true ? MYSQL_TYPE_FLOAT : MYSQL_TYPE_DOUBLE,
        charset: CHARSET_BINARY,
        length: t.float === true ? 12 : 22,
        flags: BINARY_FLAG,
        decimals: Math.min(t.scale, NOT_FIXED_DEC),
      };
    case 'date':
      return {
        name,
        kind: 'date',
        type: MYSQL_TYPE_DATE,
        charset: CHARSET_BINARY,
        length: 10,
        flags: BINARY_FLAG,
        decimals: 0,
      };
    case 'datetime':
      return {
        name,
        kind: 'datetime',
        type: t.timestamp === true ? MYSQL_TYPE_TIMESTAMP : MYSQL_TYPE_DATETIME,
        charset: CHARSET_BINARY,
        length: t.scale > 0 ? 20 + t.scale : 19,
        flags: BINARY_FLAG,
        decimals: t.scale,
      };
    case 'time':
      return {
        name,
        kind: 'time',
        type: MYSQL_TYPE_TIME,
        charset: CHARSET_BINARY,
        length: t.scale > 0 ? 11 + t.scale : 10,
        flags: BINARY_FLAG,
        decimals: t.scale,
      };
    case 'null':
      return {
        name,
        kind: 'null',
        type: MYSQL_TYPE_NULL,
        charset: CHARSET_BINARY,
        length: 0,
        flags: BINARY_FLAG,
        decimals: 0,
      };
    default:
      return t.binary === true
        ? { ...stringMeta(name, t.len), charset: CHARSET_BINARY, length: t.len ?? 255, flags: BINARY_FLAG }
        : {
            ...stringMeta(name, t.len),
            charset: t.collation === 'utf8mb4_bin' ? CHARSET_UTF8MB4_BIN : CHARSET_UTF8MB4,
          };
  }
}

function stringMeta(name: string, chars: number | undefined, decimals = STRING_EXPR_DEC): ColumnMeta {
  return {
    name,
    kind: 'str',
    type: MYSQL_TYPE_VAR_STRING,
    charset: CHARSET_UTF8MB4,
    length: Math.min((chars ?? 256) * 4, 0xffffffff),
    flags: 0,
    decimals,
  };
}

/**
 * Column definitions for a result without engine types (SHOW and other statements answered as
 * rows): a column is BIGINT when all its values are integers, DOUBLE when all are numbers,
 * VARCHAR otherwise.
 */
export function inferredColumns(
  names: readonly string[],
  rows: readonly (readonly unknown[])[],
): ColumnMeta[] {
  return names.map((name, i) => {
    let kind: 'int' | 'dbl' | 'str' | undefined;
    for (const row of rows) {
      const v = row[i];
      if (v === null || v === undefined) continue;
      const k =
        typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))
          ? 'int'
          : typeof v === 'number'
            ? 'dbl'
            : 'str';
      kind = kind === undefined || kind === k ? k : kind === 'str' || k === 'str' ? 'str' : 'dbl';
      if (kind === 'str') break;
    }
    if (kind === 'int') return columnMeta(name, { kind: 'int', scale: 0, iscale: 0, prec: 20 });
    if (kind === 'dbl') return columnMeta(name, { kind: 'dbl', scale: 31, iscale: 0, prec: 22 });
    return stringMeta(name, undefined, 0);
  });
}
