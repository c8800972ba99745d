import type { IndexDef, StoredColumn } from '../storage/types.js';
import { SqlError } from '../sql/errors.js';

/**
 * MySQL's fixed limits on a table definition and a join, with its errors: 61 tables in one join
 * (MAX_TABLES: sql/sql_const.h), 64 indexes per table (MAX_KEY), 16 columns per index
 * (MAX_REF_PARTS), 4096 columns per table (MAX_FIELDS), 64 characters per identifier (NAME_LEN).
 */
export const MAX_JOIN_TABLES = 61;
export const MAX_INDEXES = 64;
export const MAX_KEY_PARTS = 16;
export const MAX_COLUMNS = 4096;
export const MAX_IDENTIFIER = 64;

/** Error 1116 when one query block joins more than 61 tables. */
export function checkJoinTables(n: number): void {
  if (n > MAX_JOIN_TABLES)
    throw new SqlError(
      'ER_TOO_MANY_TABLES',
      `Too many tables; MySQL can only use ${MAX_JOIN_TABLES} tables in a join`,
    );
}

/** Error 1059 for a table, column or index name longer than 64 characters. */
export function checkIdentifier(name: string): void {
  if ([...name].length > MAX_IDENTIFIER)
    throw new SqlError('ER_TOO_LONG_IDENT', `Identifier name '${name}' is too long`);
}

/** The index limits (1069, 1070) on one index list; `hidden` columns do not count. */
export function checkIndexes(indexes: readonly IndexDef[], existing = 0): void {
  if (indexes.length + existing > MAX_INDEXES)
    throw new SqlError('ER_TOO_MANY_KEYS', `Too many keys specified; max ${MAX_INDEXES} keys allowed`);
  for (const ix of indexes) {
    checkIdentifier(ix.name);
    if (ix.columns.length > MAX_KEY_PARTS)
      throw new SqlError(
        'ER_TOO_MANY_KEY_PARTS',
        `Too many key parts specified; max ${MAX_KEY_PARTS} parts allowed`,
      );
  }
}

/** The table limits: name length, column count (1117) and names, and its indexes. */
export function checkTable(
  name: string,
  columns: readonly StoredColumn[],
  primaryKey: readonly string[],
  indexes: readonly IndexDef[],
): void {
  checkIdentifier(name);
  if (columns.length > MAX_COLUMNS) throw new SqlError('ER_TOO_MANY_FIELDS', 'Too many columns');
  for (const c of columns) checkIdentifier(c.name);
  checkIndexes([{ name: 'PRIMARY', columns: primaryKey }, ...indexes]);
}
