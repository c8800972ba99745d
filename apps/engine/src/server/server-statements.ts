import { splitStatements } from '../sql/split.js';
import { type ProtocolError, serverErrors } from './packets/err.js';

/**
 * Multi-statements are off (the server does not offer CLIENT_MULTI_STATEMENTS): text holding a
 * second statement is a syntax error near it, as MySQL answers. Returns that error or undefined.
 */
export function multiStatementError(sql: string): ProtocolError | undefined {
  if (!sql.includes(';')) return undefined;
  const parts = splitStatements(sql);
  return parts.length > 1 ? serverErrors.multiStatement(parts[1]!.sql) : undefined;
}
