import type { BaseColumn } from '../exec/result-fields.js';
import {
  AUTO_INCREMENT_FLAG,
  BINARY_FLAG,
  BLOB_FLAG,
  ENUM_FLAG,
  SET_FLAG,
  CHARSET_BINARY,
  CHARSET_UTF8MB4,
  MULTIPLE_KEY_FLAG,
  MYSQL_TYPE_BLOB,
  MYSQL_TYPE_DATE,
  MYSQL_TYPE_DATETIME,
  MYSQL_TYPE_DOUBLE,
  MYSQL_TYPE_FLOAT,
  MYSQL_TYPE_INT24,
  MYSQL_TYPE_LONG,
  MYSQL_TYPE_LONGLONG,
  MYSQL_TYPE_NEWDECIMAL,
  MYSQL_TYPE_SHORT,
  MYSQL_TYPE_STRING,
  MYSQL_TYPE_TIME,
  MYSQL_TYPE_TIMESTAMP,
  MYSQL_TYPE_TINY,
  MYSQL_TYPE_VAR_STRING,
  MYSQL_TYPE_YEAR,
  NO_DEFAULT_VALUE_FLAG,
  NOT_NULL_FLAG,
  PART_KEY_FLAG,
  PRI_KEY_FLAG,
  UNIQUE_KEY_FLAG,
  UNSIGNED_FLAG,
  ZEROFILL_FLAG,
} from './protocol.js';

/** The type part of a stored column's definition packet. */
export interface StoredTypeMeta {
  readonly type: number;
  readonly charset: number;
  readonly length: number;
  readonly decimals: number;
  readonly flags: number;
}

/** DOUBLE and FLOAT without a declared scale (MariaDB's NOT_FIXED_DEC). */
const NOT_FIXED_DEC = 31;

/** Integer types: protocol type, display width signed, display width unsigned. */
const INTEGERS: Readonly<Record<string, readonly [number, number, number]>> = {
  tinyint: [MYSQL_TYPE_TINY, 4, 3],
  smallint: [MYSQL_TYPE_SHORT, 6, 5],
  mediumint: [MYSQL_TYPE_INT24, 9, 8],
  int: [MYSQL_TYPE_LONG, 11, 10],
  integer: [MYSQL_TYPE_LONG, 11, 10],
  bigint: [MYSQL_TYPE_LONGLONG, 20, 20],
};

/** TEXT and BLOB types by their largest length in bytes. */
const LOBS: Readonly<Record<string, number>> = {
  tinytext: 255,
  text: 65535,
  mediumtext: 16777215,
  longtext: 4294967295,
  json: 4294967295,
  tinyblob: 255,
  blob: 65535,
  mediumblob: 16777215,
  longblob: 4294967295,
};

/**
 * A stored column's type, character set, length, decimals and flags as MariaDB 10.11 sends them in
 * a result's column definition: integers as TINY/SHORT/INT24/LONG/LONGLONG with their display
 * width, YEAR as YEAR(4) UNSIGNED ZEROFILL, DECIMAL(p,s) p + point + sign wide, FLOAT and DOUBLE 12
 * and 22 wide with 31 decimals, CHAR as STRING and VARCHAR as VAR_STRING four bytes a character in
 * the connection's utf8mb4, BINARY and VARBINARY in the binary character set, TEXT and BLOB as BLOB
 * with BLOB_FLAG, dates and times with BINARY_FLAG (TIMESTAMP with UNSIGNED_FLAG too). A binary
 * collation (`utf8mb4_bin`) adds BINARY_FLAG. Then the definition's own flags: NOT NULL, the keys
 * (PRI_KEY, UNIQUE_KEY, MULTIPLE_KEY, PART_KEY), AUTO_INCREMENT and NO_DEFAULT_VALUE.
 */
export function storedTypeMeta(base: BaseColumn): StoredTypeMeta {
  const t = typeMeta(base);
  let flags = t.flags;
  if (!base.nullable) flags |= NOT_NULL_FLAG;
  if (base.primary) flags |= PRI_KEY_FLAG;
  if (base.unique) flags |= UNIQUE_KEY_FLAG;
  if (base.multiple) flags |= MULTIPLE_KEY_FLAG;
  if (base.partKey) flags |= PART_KEY_FLAG;
  if (base.autoIncrement) flags |= AUTO_INCREMENT_FLAG;
  if (base.noDefault) flags |= NO_DEFAULT_VALUE_FLAG;
  return { ...t, flags };
}

function typeMeta(base: BaseColumn): StoredTypeMeta {
  const s = base.stored;
  const declared = (base.declared ?? '').toLowerCase();
  const word = /^[a-z]+/.exec(declared)?.[0] ?? '';
  const unsigned = declared.endsWith(' unsigned') || (s.kind === 'bigint' && s.unsigned === true);
  const num = (type: number, length: number, decimals = 0): StoredTypeMeta => ({
    type,
    charset: CHARSET_BINARY,
    length,
    decimals,
    flags: unsigned ? UNSIGNED_FLAG : 0,
  });
  const dated = (type: number, length: number, decimals = 0, flags = BINARY_FLAG): StoredTypeMeta => ({
    type,
    charset: CHARSET_BINARY,
    length,
    decimals,
    flags,
  });
  switch (s.kind) {
    case 'int':
    case 'bigint': {
      if (word === 'bool' || word === 'boolean') return num(MYSQL_TYPE_TINY, 1);
      if (word === 'year') return { ...num(MYSQL_TYPE_YEAR, 4), flags: UNSIGNED_FLAG | ZEROFILL_FLAG };
      const [type, signed, uns] = INTEGERS[word] ?? INTEGERS[s.kind === 'int' ? 'int' : 'bigint']!;
      return num(type, unsigned ? uns : signed);
    }
    case 'decimal':
      return num(MYSQL_TYPE_NEWDECIMAL, s.precision + (s.scale > 0 ? 1 : 0) + (unsigned ? 0 : 1), s.scale);
    case 'double':
      return word === 'float'
        ? num(MYSQL_TYPE_FLOAT, 12, NOT_FIXED_DEC)
        : num(MYSQL_TYPE_DOUBLE, 22, NOT_FIXED_DEC);
    case 'date':
      return dated(MYSQL_TYPE_DATE, 10);
    case 'datetime':
      return dated(MYSQL_TYPE_DATETIME, s.fsp > 0 ? 20 + s.fsp : 19, s.fsp);
    case 'timestamp':
      return dated(MYSQL_TYPE_TIMESTAMP, s.fsp > 0 ? 20 + s.fsp : 19, s.fsp, BINARY_FLAG | UNSIGNED_FLAG);
    case 'time':
      return dated(MYSQL_TYPE_TIME, s.fsp > 0 ? 11 + s.fsp : 10, s.fsp);
    case 'binary':
    case 'varbinary': {
      const lob = LOBS[word];
      if (lob !== undefined) return dated(MYSQL_TYPE_BLOB, lob, 0, BLOB_FLAG | BINARY_FLAG);
      return dated(s.kind === 'binary' ? MYSQL_TYPE_STRING : MYSQL_TYPE_VAR_STRING, s.length);
    }
    default: {
      const binary = s.collation?.endsWith('_bin') === true ? BINARY_FLAG : 0;
      const lob = LOBS[word];
      const text = (type: number, chars: number, flags: number): StoredTypeMeta => ({
        type,
        charset: CHARSET_UTF8MB4,
        length: Math.min(chars * 4, 0xffffffff),
        decimals: 0,
        flags: flags | binary,
      });
      if (lob !== undefined) return text(MYSQL_TYPE_BLOB, lob, BLOB_FLAG);
      // ENUM and SET: a STRING as long as the longest value, flagged
      if (word === 'enum') return text(MYSQL_TYPE_STRING, s.length, ENUM_FLAG);
      if (word === 'set') return text(MYSQL_TYPE_STRING, s.length, SET_FLAG);
      return text(s.kind === 'char' ? MYSQL_TYPE_STRING : MYSQL_TYPE_VAR_STRING, s.length, 0);
    }
  }
}
