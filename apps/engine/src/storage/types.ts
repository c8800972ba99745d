import type { Collation } from './collation.js';

/**
 * The type of a stored column. What each holds and how it is stored:
 *
 * | kind | value | in a row |
 * |---|---|---|
 * | `int` | signed 32-bit integer | 4 bytes |
 * | `bigint` | signed 64-bit integer | 8 bytes |
 * | `decimal` | exact v·10^scale, precision ≤ {@link MAX_DECIMAL_PRECISION} | {@link decimalBytes} |
 * | `bigint` `unsigned` | unsigned 64-bit integer, 0 … 2^64 − 1 | 8 bytes |
 * | `date` | days since 1970-01-01 | 4 bytes |
 * | `datetime`, `time` | microseconds since 1970-01-01 00:00:00 of the wall clock / signed microseconds (`fsp`: fractional digits kept, 0–6) | 8 bytes |
 * | `timestamp` | microseconds since the epoch, UTC (`fsp` as above) | 8 bytes |
 * | `double` | IEEE-754 binary64 | 8 bytes |
 * | `char`, `varchar` | at most `length` UTF-8 characters, bytes kept exactly; compared and indexed by `collation` (absent: by their bytes) | length prefix + bytes |
 * | `binary`, `varbinary` | at most `length` bytes | length prefix + bytes |
 * | `varchar` / `varbinary` with `blob` (TEXT, BLOB and their MEDIUM and LONG forms) | as above | 2-byte length prefix + bytes, or a 20-byte reference to BLOB pages when the row is too long for its page (storage/external.ts) |
 */
export type ColumnType =
  | { readonly kind: 'int' }
  | { readonly kind: 'bigint'; readonly unsigned?: boolean }
  | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly kind: 'date' }
  | { readonly kind: 'datetime' | 'timestamp' | 'time'; readonly fsp: number }
  | { readonly kind: 'double' }
  | { readonly kind: 'char'; readonly length: number; readonly collation?: Collation }
  | {
      readonly kind: 'varchar';
      readonly length: number;
      readonly collation?: Collation;
      /** TEXT, MEDIUMTEXT, LONGTEXT: at most `length`·4 + 3 bytes, stored off-page when the row is long. */
      readonly blob?: boolean;
    }
  | { readonly kind: 'binary'; readonly length: number }
  | {
      readonly kind: 'varbinary';
      readonly length: number;
      /** BLOB, MEDIUMBLOB, LONGBLOB: at most `length` bytes, stored off-page when the row is long. */
      readonly blob?: boolean;
    };

/** The SQL name of a column type: `INT`, `DECIMAL(15,2)`, `CHAR(25)` … */
export function typeName(t: ColumnType): string {
  switch (t.kind) {
    case 'int':
      return 'INT';
    case 'bigint':
      return t.unsigned === true ? 'BIGINT UNSIGNED' : 'BIGINT';
    case 'date':
      return 'DATE';
    case 'datetime':
    case 'timestamp':
    case 'time':
      return `${t.kind.toUpperCase()}${t.fsp > 0 ? `(${t.fsp})` : ''}`;
    case 'binary':
    case 'varbinary':
      if (t.kind === 'varbinary' && t.blob === true) return blobTypeName(t.length, 'BLOB');
      return `${t.kind.toUpperCase()}(${t.length})`;
    case 'double':
      return 'DOUBLE';
    case 'decimal':
      return `DECIMAL(${t.precision},${t.scale})`;
    case 'char':
    case 'varchar': {
      const collate = t.collation === undefined ? '' : ` COLLATE ${t.collation}`;
      if (t.kind === 'varchar' && t.blob === true)
        return blobTypeName(textBlobBytes(t.length), 'TEXT') + collate;
      return `${t.kind.toUpperCase()}(${t.length})${collate}`;
    }
  }
}

/** TEXT or BLOB with the size word its byte limit has in MySQL (`MEDIUMBLOB`: 16,777,215 bytes). */
function blobTypeName(bytes: number, word: 'TEXT' | 'BLOB'): string {
  if (bytes <= 255) return `TINY${word}`;
  if (bytes <= 65535) return word;
  if (bytes <= 16777215) return `MEDIUM${word}`;
  return `LONG${word}`;
}

/**
 * The byte limit of a TEXT column of `length` characters (MySQL limits TEXT by bytes: TEXT 65,535,
 * MEDIUMTEXT 16,777,215, LONGTEXT 4,294,967,295; their length in utf8mb4 characters is a quarter).
 */
export function textBlobBytes(length: number): number {
  return length * 4 + 3;
}

/** Whether a column may be stored off-page (TEXT and BLOB columns). */
export function isBlobColumn(t: ColumnType): boolean {
  return (t.kind === 'varchar' || t.kind === 'varbinary') && t.blob === true;
}

/** A column of a stored table. `nullable` defaults to false (NOT NULL, as every DBT3 column). */
export interface StoredColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable?: boolean;
}

/** An index definition: column names in key order. The primary key is named `PRIMARY`. */
export interface IndexDef {
  readonly name: string;
  readonly columns: readonly string[];
  /** A UNIQUE secondary index (the primary key is always unique). Default false. */
  readonly unique?: boolean;
}

/** What CREATE TABLE needs. */
export interface TableSchema {
  readonly name: string;
  readonly columns: readonly StoredColumn[];
  /** PRIMARY KEY columns, in key order. */
  readonly primaryKey: readonly string[];
  /** Secondary indexes. */
  readonly indexes?: readonly IndexDef[];
}

/**
 * One field value as the convenience API takes and returns it:
 * INT/BIGINT → number (a safe integer), bigint beyond 2^53; DATETIME, TIMESTAMP, TIME →
 * microseconds as a BIGINT; DECIMAL(p,s) → the exact scaled
 * integer value·10^s as a number (`0.06` in DECIMAL(15,2) is `6`), a bigint when it is not a safe
 * integer, or a decimal string (`'0.06'`) on input; DATE → days
 * since 1970-01-01, or `'YYYY-MM-DD'` on input; CHAR/VARCHAR → the bytes as a Uint8Array, or a
 * string (UTF-8 encoded) on input; NULL → null.
 */
export type FieldValue = number | bigint | string | Uint8Array | null;

/** Largest DECIMAL precision stored (MySQL's limit). */
export const MAX_DECIMAL_PRECISION = 65;

/** Bytes a DECIMAL(p, s) takes in a row: the fewest that hold ±(10^p − 1) in two's complement. */
export function decimalBytes(precision: number): number {
  const top = 10n ** BigInt(precision) - 1n;
  let b = 1;
  while (1n << BigInt(8 * b - 1) <= top) b++;
  return b;
}

/** The most bytes a CHAR(n)/VARCHAR(n) value may take (4 per character, UTF-8). */
export function maxTextBytes(length: number): number {
  return length * 4;
}

/** Whether a column holds bytes (text or binary), stored with a length prefix. */
export function isByteColumn(t: ColumnType): t is Extract<ColumnType, { length: number }> {
  return t.kind === 'char' || t.kind === 'varchar' || t.kind === 'binary' || t.kind === 'varbinary';
}
