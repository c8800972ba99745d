import { COM_FIELD_LIST, COM_QUERY, COM_STMT_EXECUTE, COM_STMT_PREPARE } from './protocol.js';

/**
 * How a command must be serialized against other workers: `ddl` changes the dictionary (the
 * metadata lock in X), `rows` reads or changes rows (the metadata lock in S; writers of different
 * rows run at once, each row operation under the change latch), `none` touches no table (ping,
 * quit, statement close).
 */
export type StatementKind = 'ddl' | 'rows' | 'none';

// account statements change the dictionary too (the accounts live in it); `EXECUTE s` runs a
// statement prepared in SQL (`PREPARE s FROM …`, perhaps from a user variable) whose text the host
// does not see, so it is serialized as the strongest kind
const DDL = new Set([
  'EXECUTE',
  'CREATE',
  'DROP',
  'ALTER',
  'RENAME',
  'TRUNCATE',
  'ANALYZE',
  'OPTIMIZE',
  'GRANT',
  'REVOKE',
]);

/** The kind of one SQL statement's text, from its first keyword (comments and `(` skipped). */
export function sqlKind(sql: string): StatementKind {
  let i = 0;
  const n = sql.length;
  for (;;) {
    while (
      i < n &&
      (sql[i] === ' ' || sql[i] === '\t' || sql[i] === '\n' || sql[i] === '\r' || sql[i] === '(')
    )
      i++;
    if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (sql.startsWith('--', i) || sql[i] === '#') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else break;
  }
  let j = i;
  while (j < n && /[A-Za-z]/.test(sql[j]!)) j++;
  const word = sql.slice(i, j).toUpperCase();
  if (DDL.has(word)) return 'ddl';
  if (word === 'SET' && /^\s+PASSWORD\b/i.test(sql.slice(j))) return 'ddl';
  return 'rows';
}

/**
 * The kind of a command payload. COM_STMT_EXECUTE takes the kind of the text its statement was
 * prepared from (`prepared`, by statement id; an unknown id is `rows`, and gets its error from the
 * processor).
 */
export function commandKind(
  payload: Uint8Array,
  prepared: (id: number) => string | undefined,
): StatementKind {
  switch (payload[0]) {
    case COM_QUERY:
      return sqlKind(
        Buffer.from(payload.buffer, payload.byteOffset + 1, payload.length - 1).toString('utf8'),
      );
    case COM_STMT_PREPARE:
    case COM_FIELD_LIST:
      return 'rows';
    case COM_STMT_EXECUTE: {
      if (payload.length < 5) return 'rows';
      const id = payload[1]! | (payload[2]! << 8) | (payload[3]! << 16) | (payload[4]! << 24);
      const sql = prepared(id >>> 0);
      return sql === undefined ? 'rows' : sqlKind(sql);
    }
    default:
      return 'none';
  }
}
