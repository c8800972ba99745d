import { SqlError } from '../sql/errors.js';
import { unquote } from '../sql/mysql-statements.js';
import { tableStatusRow } from './stats-tables.js';
import type { QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { tableOf } from '../storage/schema-name.js';

/**
 * SHOW statements about the server and its tables that the parser reads only as words: SHOW
 * ENGINES and SHOW TABLE STATUS [FROM db] [LIKE 'pattern']. Their columns are MariaDB 10.11's.
 */

function rows(columns: string[], r: unknown[][]): QueryResult {
  return { columns, rows: r, affectedRows: 0, insertId: 0, warnings: 0 };
}

/** A LIKE pattern as a regular expression (`%`, `_`, backslash escapes), case-insensitive. */
export function likePattern(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '.*';
    else if (c === '_') re += '.';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'is');
}

const ENGINES: unknown[][] = [
  [
    'InnoDB',
    'DEFAULT',
    'Supports transactions, row-level locking, foreign keys and encryption for tables',
    'YES',
    'YES',
    'YES',
  ],
];

const TABLE_STATUS_COLUMNS = [
  'Name',
  'Engine',
  'Version',
  'Row_format',
  'Rows',
  'Avg_row_length',
  'Data_length',
  'Max_data_length',
  'Index_length',
  'Data_free',
  'Auto_increment',
  'Create_time',
  'Update_time',
  'Check_time',
  'Collation',
  'Checksum',
  'Create_options',
  'Comment',
  'Max_index_length',
  'Temporary',
];

function tableStatus(ctx: StatementContext, schema: string | null, like: RegExp | undefined): QueryResult {
  if (schema === null) throw new SqlError('ER_NO_DB_ERROR', 'No database selected');
  if (!ctx.dict.databases.has(schema)) throw new SqlError('ER_BAD_DB_ERROR', `Unknown database '${schema}'`);
  const out: unknown[][] = [];
  for (const t of ctx.dict.userTables(schema)) {
    if (like !== undefined && !like.test(tableOf(t.name))) continue;
    out.push([tableOf(t.name), ...tableStatusRow(ctx.db, t)]);
  }
  for (const v of ctx.dict.viewNames(schema).map(tableOf)) {
    if (like !== undefined && !like.test(v)) continue;
    out.push([v, ...TABLE_STATUS_COLUMNS.slice(1, -3).map(() => null), 'VIEW', null, null]);
  }
  out.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  return rows(TABLE_STATUS_COLUMNS, out);
}

/** SHOW ENGINES / SHOW TABLE STATUS from the parser's words, or undefined. */
export function compileShowServer(words: readonly string[], ctx: StatementContext): Compiled | undefined {
  const up = words.map((w) => w.toUpperCase());
  if (up.length === 1 && (up[0] === 'ENGINES' || up[0] === 'STORAGE')) {
    return { run: () => rows(['Engine', 'Support', 'Comment', 'Transactions', 'XA', 'Savepoints'], ENGINES) };
  }
  if (up[0] === 'TABLE' && up[1] === 'STATUS') {
    // the parser keeps the words, not the pattern: read FROM db and the LIKE from the text
    const m = /\bLIKE\s+(?:'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.|"")*)")\s*;?\s*$/i.exec(ctx.sql);
    const from = /^\s*SHOW\s+TABLE\s+STATUS\s+(?:FROM|IN)\s+(?:`((?:[^`]|``)+)`|([A-Za-z0-9_$]+))/i.exec(
      ctx.sql,
    );
    const schema = from === null ? ctx.session.database : (from[1]?.replace(/``/g, '`') ?? from[2]!);
    if (up.length > (from === null ? 2 : 4) && m === null)
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'SHOW ${words.join(' ')}'`,
      );
    const like =
      m === null ? undefined : likePattern(m[1] !== undefined ? unquote(m[1], "'") : unquote(m[2]!, '"'));
    return { run: () => tableStatus(ctx, schema, like) };
  }
  return undefined;
}
