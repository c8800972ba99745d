import { splitStatements } from '../sql-cli/split.js';
import { DATABASE_NAME } from './protocol.js';
import { type ProtocolError, serverErrors } from './packets/err.js';

/**
 * Statements about databases, answered by the server rather than the engine. A server's file
 * holds one database, named {@link DATABASE_NAME}: USE and COM_INIT_DB accept that name,
 * SHOW DATABASES lists it, CREATE DATABASE of it says it exists (or is a no-op with IF NOT
 * EXISTS), and creating or dropping any other database is refused.
 */
export type ServerAnswer =
  | { readonly kind: 'ok'; readonly warnings: number; readonly counter: string }
  | { readonly kind: 'rows'; readonly column: string; readonly rows: string[][]; readonly counter: string }
  | { readonly kind: 'error'; readonly error: ProtocolError };

const IDENT = '(?:`((?:[^`]|``)+)`|([A-Za-z0-9_$]+))';
const USE = new RegExp(`^USE\\s+${IDENT}$`, 'i');
const SHOW_DATABASES = /^SHOW\s+(?:DATABASES|SCHEMAS)(?:\s+LIKE\s+'((?:[^'\\]|\\.|'')*)')?$/i;
const CREATE_DATABASE = new RegExp(
  `^CREATE\\s+(?:DATABASE|SCHEMA)\\s+(IF\\s+NOT\\s+EXISTS\\s+)?${IDENT}(?:\\s+.*)?$`,
  'is',
);
const DROP_DATABASE = new RegExp(`^DROP\\s+(?:DATABASE|SCHEMA)\\s+(IF\\s+EXISTS\\s+)?${IDENT}$`, 'i');

function ident(m: RegExpMatchArray, at: number): string {
  return m[at] !== undefined ? m[at]!.replace(/``/g, '`') : m[at + 1]!;
}

function likeMatches(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/''/g, "'")
    .replace(/\\(.)|([%_])|([^\\%_]+)/g, (_all, esc: string, wild: string, lit: string) =>
      esc !== undefined
        ? esc.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        : wild !== undefined
          ? wild === '%'
            ? '.*'
            : '.'
          : lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(`^${re}$`, 'is').test(name);
}

/** The answer to a database statement, or undefined when the engine should run the text. */
export function serverStatement(sql: string): ServerAnswer | undefined {
  const text = sql.trim().replace(/;\s*$/, '');
  const c = text.charCodeAt(0) | 0x20;
  // only USE, SHOW, CREATE and DROP can be database statements
  if (c !== 0x75 && c !== 0x73 && c !== 0x63 && c !== 0x64) return undefined;
  let m = USE.exec(text);
  if (m !== null) {
    const name = ident(m, 1);
    return name === DATABASE_NAME
      ? { kind: 'ok', warnings: 0, counter: 'Com_change_db' }
      : { kind: 'error', error: serverErrors.badDb(name) };
  }
  m = SHOW_DATABASES.exec(text);
  if (m !== null) {
    const rows = m[1] === undefined || likeMatches(m[1], DATABASE_NAME) ? [[DATABASE_NAME]] : [];
    return { kind: 'rows', column: 'Database', rows, counter: 'Com_show_databases' };
  }
  m = CREATE_DATABASE.exec(text);
  if (m !== null) {
    const name = ident(m, 2);
    if (name !== DATABASE_NAME) return { kind: 'error', error: serverErrors.dbCreateRefused(name) };
    return m[1] !== undefined
      ? { kind: 'ok', warnings: 1, counter: 'Com_create_db' }
      : { kind: 'error', error: serverErrors.dbExists(name) };
  }
  m = DROP_DATABASE.exec(text);
  if (m !== null) {
    const name = ident(m, 2);
    if (name !== DATABASE_NAME && m[1] !== undefined)
      return { kind: 'ok', warnings: 1, counter: 'Com_drop_db' };
    return { kind: 'error', error: serverErrors.dbDropRefused(name) };
  }
  return undefined;
}

/**
 * Multi-statements are off (the server does not offer CLIENT_MULTI_STATEMENTS): text holding a
 * second statement is a syntax error near it, as MySQL answers. Returns that error or undefined.
 */
export function multiStatementError(sql: string): ProtocolError | undefined {
  if (!sql.includes(';')) return undefined;
  const parts = splitStatements(sql);
  return parts.length > 1 ? serverErrors.multiStatement(parts[1]!.sql) : undefined;
}

/** The database a USE statement names, or undefined when `sql` is not one. */
export function useTarget(sql: string): string | undefined {
  const m = USE.exec(sql.trim().replace(/;\s*$/, ''));
  return m === null ? undefined : ident(m, 1);
}
