import { SqlError } from '../sql/errors.js';
import { unquote } from '../sql/mysql-statements.js';
import { peekNextValue } from './dml-insert.js';
import type { QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

/**
 * SHOW statements about the server and its tables that the parser reads only as words: SHOW
 * ENGINES, SHOW TABLE STATUS [LIKE 'pattern'], and SHOW CREATE DATABASE (a node of its own,
 * parsed from the text). Their columns are MariaDB 10.11's.
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

function tableStatus(ctx: StatementContext, like: RegExp | undefined): QueryResult {
  const out: unknown[][] = [];
  const page = ctx.db.pool.pageSize;
  for (const t of ctx.dict.userTables()) {
    if (like !== undefined && !like.test(t.name)) continue;
    const st = ctx.db.statistics(t);
    const meta = ctx.dict.tables.get(t.name);
    const data = st.clusteredPages * page;
    const rowsNow = t.rows;
    out.push([
      t.name,
      'InnoDB',
      10,
      'Dynamic',
      rowsNow,
      rowsNow === 0 ? 0 : Math.floor(data / rowsNow),
      data,
      0,
      st.otherPages * page,
      0,
      meta !== undefined && meta.autoIncrement >= 0 ? peekNextValue(t, meta, meta.autoIncrement) : null,
      null,
      null,
      null,
      meta?.collation ?? 'utf8mb4_general_ci',
      null,
      '',
      '',
      0,
      'N',
    ]);
  }
  for (const v of ctx.dict.views.keys()) {
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
    // the parser keeps the words, not the pattern: read the LIKE from the text
    const m = /\bLIKE\s+(?:'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.|"")*)")\s*;?\s*$/i.exec(ctx.sql);
    if (up.length > 2 && m === null)
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'SHOW ${words.join(' ')}'`,
      );
    const like =
      m === null ? undefined : likePattern(m[1] !== undefined ? unquote(m[1], "'") : unquote(m[2]!, '"'));
    return { run: () => tableStatus(ctx, like) };
  }
  return undefined;
}

/** SHOW CREATE DATABASE name. */
export function compileShowCreateDatabase(v: unknown, _ctx: StatementContext): Compiled {
  const o = v as { name: string; ifNotExists: boolean };
  return {
    run: () => {
      if (o.name.toLowerCase() !== 'test')
        throw new SqlError('ER_BAD_DB_ERROR', `Unknown database '${o.name}'`);
      return rows(
        ['Database', 'Create Database'],
        [
          [
            o.name,
            `CREATE DATABASE ${o.ifNotExists ? '/*!32312 IF NOT EXISTS*/ ' : ''}\`${o.name}\` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */`,
          ],
        ],
      );
    },
  };
}
