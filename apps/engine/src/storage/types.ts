/**
 * Column types of stored tables (the TPC-H schema's types are a subset). DOUBLE is an IEEE-754
 * binary64; TEXT is stored as VARCHAR(16383).
 */
export type ColumnType =
  | { readonly kind: 'int' }
  | { readonly kind: 'bigint' }
  | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly kind: 'date' }
  | { readonly kind: 'double' }
  | { readonly kind: 'char'; readonly length: number }
  | { readonly kind: 'varchar'; readonly length: number };

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
 * INT/BIGINT → number (a safe integer); DECIMAL(p,s) → the exact scaled integer value·10^s as a
 * number (`0.06` in DECIMAL(15,2) is `6`), or a decimal string (`'0.06'`) on input; DATE → days
 * since 1970-01-01, or `'YYYY-MM-DD'` on input; CHAR/VARCHAR → the bytes as a Uint8Array, or a
 * string (UTF-8 encoded) on input; NULL → null.
 */
export type FieldValue = number | string | Uint8Array | null;

/** Largest DECIMAL precision stored: values must stay exact safe integers. */
export const MAX_DECIMAL_PRECISION = 15;

/** Bytes a DECIMAL(p, s) takes in a row: the fewest that hold ±(10^p − 1) in two's complement. */
export function decimalBytes(precision: number): number {
  let b = 1;
  while (2 ** (8 * b - 1) <= 10 ** precision - 1) b++;
  return b;
}

/** The most bytes a CHAR(n)/VARCHAR(n) value may take (4 per character, UTF-8). */
export function maxTextBytes(length: number): number {
  return length * 4;
}
