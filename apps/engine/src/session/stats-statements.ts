import { T_INT, T_STR } from '../exec/types.js';
import { arr, identText, obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { keyPartRows } from '../storage/stats/index-rows.js';
import type { TableStatsOptions } from '../storage/stats/settings.js';
import type { QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { dottedName } from '../storage/schema-name.js';

/**
 * ANALYZE TABLE t [, t2 …] (the list arrives as `tables`, see sql/analyze-list.ts): MySQL's admin
 * result set, one `status | OK` row per table analyzed (`mysql_admin_table`, sql_admin.cc); a table
 * that does not exist gives an `Error` row and `status | Operation failed`, not an error packet.
 */
export function compileAnalyze(v: unknown, ctx: StatementContext): Compiled {
  const o = obj(v);
  const list = Array.isArray(o.tables) ? (o.tables as unknown[]) : [o.table_name];
  const names = list.map((n) => objectName(n));
  if (names.length === 0 || names.some((p) => p.length === 0))
    throw new SqlError(
      'ER_PARSE_ERROR',
      "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1",
    );
  return {
    run: () => {
      const rows: unknown[][] = [];
      for (const parts of names) {
        const name = ctx.session.tableName(parts);
        const shown = dottedName(name);
        if (!isUserTable(name, ctx)) {
          const msg = ctx.dict.views.has(name)
            ? `'${shown}' is not BASE TABLE`
            : `Table '${shown}' doesn't exist`;
          rows.push([shown, 'analyze', 'Error', msg], [shown, 'analyze', 'status', 'Operation failed']);
          continue;
        }
        try {
          ctx.db.analyze(name);
        } catch (e) {
          // a damaged tree: reported in the result as MariaDB does, the other tables go on
          if (!(e instanceof Error && e.name === 'CorruptionError')) throw e;
          rows.push(
            [shown, 'analyze', 'Error', `Got error "${e.message}" from storage engine InnoDB`],
            [shown, 'analyze', 'status', 'Operation failed'],
          );
          continue;
        }
        rows.push([shown, 'analyze', 'status', 'OK']);
      }
      return {
        columns: ['Table', 'Op', 'Msg_type', 'Msg_text'],
        rows,
        affectedRows: 0,
        insertId: 0,
        warnings: 0,
        types: [T_STR, T_STR, T_STR, T_STR],
      };
    },
  };
}

function isUserTable(name: string, ctx: StatementContext): boolean {
  return !ctx.session.hiddenTable(name) && ctx.db.hasTable(name);
}

const SHOW_INDEX_COLUMNS = [
  'Table',
  'Non_unique',
  'Key_name',
  'Seq_in_index',
  'Column_name',
  'Collation',
  'Cardinality',
  'Sub_part',
  'Packed',
  'Null',
  'Index_type',
  'Comment',
  'Index_comment',
  // MariaDB 10.6's IGNORED indexes: none is ignored here
  'Ignored',
];
const SHOW_INDEX_TYPES = [
  T_STR,
  T_INT,
  T_STR,
  T_INT,
  T_STR,
  T_STR,
  T_INT,
  T_INT,
  T_STR,
  T_STR,
  T_STR,
  T_STR,
  T_STR,
  T_STR,
];

/**
 * SHOW {INDEX | INDEXES | KEYS} {FROM | IN} t [{FROM | IN} db], which the parser hands over as a
 * word list (`db.t` arrives as the two words). Undefined when the words are not that statement.
 */
export function compileShowIndex(words: readonly unknown[], ctx: StatementContext): Compiled | undefined {
  const w = words.map((x) => identText(x));
  const head = w[0]?.toUpperCase();
  if (head !== 'INDEX' && head !== 'INDEXES' && head !== 'KEYS') return undefined;
  const isFrom = (s: string | undefined): boolean => s?.toUpperCase() === 'FROM' || s?.toUpperCase() === 'IN';
  let table: string | undefined;
  let schema: string | null = ctx.session.database;
  if (w.length === 3 && isFrom(w[1])) table = w[2];
  else if (w.length === 4 && isFrom(w[1])) [schema, table] = [w[2]!, w[3]!];
  else if (w.length === 5 && isFrom(w[1]) && isFrom(w[3])) [table, schema] = [w[2]!, w[4]!];
  if (table === undefined)
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      `This version of MySQL doesn't yet support 'SHOW ${w.join(' ')}'`,
    );
  const name = ctx.session.tableName([table], schema);
  return {
    run: (): QueryResult => {
      if (!isUserTable(name, ctx))
        throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
      const t = ctx.db.table(name);
      const parts = keyPartRows(t, ctx.db.statistics(t), ctx.dict.tables.get(name)?.hiddenPk === true);
      return {
        columns: [...SHOW_INDEX_COLUMNS],
        rows: parts.map((p) => [
          table,
          p.nonUnique,
          p.keyName,
          p.seqInIndex,
          p.columnName,
          'A',
          p.cardinality,
          null,
          null,
          p.nullable,
          'BTREE',
          '',
          '',
          'NO',
        ]),
        affectedRows: 0,
        insertId: 0,
        warnings: 0,
        types: SHOW_INDEX_TYPES,
      };
    },
  };
}

/**
 * CREATE TABLE's STATS_PERSISTENT, STATS_AUTO_RECALC (each 0, 1 or DEFAULT) and STATS_SAMPLE_PAGES
 * (1–65535 or DEFAULT), checked before anything is created. MySQL's grammar refuses other values
 * as a syntax error (sql_yacc.yy, `create_table_option`).
 */
export function tableStatsOptions(tableOptions: unknown): TableStatsOptions {
  const out: { statsPersistent?: boolean; statsAutoRecalc?: boolean; statsSamplePages?: number } = {};
  for (const opt of arr(obj(tableOptions).Plain)) {
    const [t, v] = tagOf(opt);
    if (t !== 'KeyValue') continue;
    const key = identText(obj(v).key).toUpperCase();
    if (key !== 'STATS_PERSISTENT' && key !== 'STATS_AUTO_RECALC' && key !== 'STATS_SAMPLE_PAGES') continue;
    const text = optionText(obj(v).value);
    const bad = (): SqlError =>
      new SqlError(
        'ER_PARSE_ERROR',
        `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${key}=${text}' at line 1`,
      );
    if (text.toUpperCase() === 'DEFAULT') continue;
    if (!/^\d+$/.test(text)) throw bad();
    const n = Number(text);
    if (key === 'STATS_SAMPLE_PAGES') {
      if (n < 1 || n > 0xffff) throw bad();
      out.statsSamplePages = n;
    } else {
      if (n !== 0 && n !== 1) throw bad();
      if (key === 'STATS_PERSISTENT') out.statsPersistent = n === 1;
      else out.statsAutoRecalc = n === 1;
    }
  }
  return out;
}

/** The text of a table option's value: a number, a word (DEFAULT) or a string. */
function optionText(v: unknown): string {
  const [t, x] = tagOf(v);
  if (t === 'Value') {
    const [vt, vv] = tagOf(obj(x).value);
    if (vt === 'Number') return String(arr(vv)[0]);
    if (vt === 'SingleQuotedString' || vt === 'DoubleQuotedString') return String(vv);
    return String(vv ?? vt);
  }
  if (t === 'Identifier') return identText(x);
  return JSON.stringify(v);
}
