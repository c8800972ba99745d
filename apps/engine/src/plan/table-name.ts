import { SqlError } from '../sql/errors.js';
import { storageName } from '../storage/schema-name.js';

/**
 * The storage name of the table a statement names by the parts `[table]` or `[db, table]` (see
 * storage/schema-name.ts): an unqualified name is in `schema`, the current database (or a view's
 * own); with none chosen it is MariaDB's error 1046.
 */
export function resolveTableName(parts: readonly string[], schema: string | null): string {
  const table = parts[parts.length - 1]!;
  const db = parts.length >= 2 ? parts[parts.length - 2]! : schema;
  if (db === null) throw new SqlError('ER_NO_DB_ERROR', 'No database selected');
  return storageName(db, table);
}
