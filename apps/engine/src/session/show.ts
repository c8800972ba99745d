import type { Database } from '../storage/database.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { toDouble } from '../exec/convert.js';
import { bindExpr } from '../plan/bind-expr.js';
import { Block } from '../exec/bound.js';
import { bindQuery } from '../plan/select.js';
import { innodbStatusText } from './innodb-status.js';
import './innodb-status-semaphores.js';
import { HIDDEN_PK, type TableMeta } from '../storage/table-meta.js';
import { peekNextValue } from './dml-insert.js';
import type { Table } from '../storage/table.js';
import { columnTypeText, isTextType } from './column-type-text.js';
import { defaultText } from './column-default-text.js';
import { COLLATION_ID, COLLATIONS, DEFAULT_COLLATION } from '../storage/collation.js';
import type { ColumnType } from '../storage/types.js';
import { compileShowServer, likePattern } from './show-server.js';
import { showFilter } from './show-where.js';
import { okResult, type QueryResult } from './result.js';
import { compileShowIndex } from './stats-statements.js';
import type { Compiled, StatementContext } from './session.js';
import { DEFAULT_VALUE, VARIABLES } from './variables.js';
import { dottedName, tableOf } from '../storage/schema-name.js';
import { isSystemSchema, systemTableNames } from '../plan/system-tables.js';

/** A SHOW's `LIKE 'pattern'` on its first column; a WHERE there is refused rather than ignored. */
function likeFilter(f: unknown): (name: string) => boolean {
  if (f === undefined || f === null) return () => true;
  const [t, v] = tagOf(f);
  if (t !== 'Like' && t !== 'ILike')
    throw new SqlError('ER_NOT_SUPPORTED_YET', `SHOW … ${t} is not supported`);
  const re = likePattern(String(v));
  return (n) => re.test(n);
}

/**
 * The row filter of SHOW VARIABLES / SHOW STATUS: `LIKE 'pattern'` on the name, or `WHERE` over
 * the result's columns (Variable_name, Value), as {@link showFilter} reads it.
 */
function nameValueFilter(f: unknown, ctx: StatementContext): (row: readonly [string, unknown]) => boolean {
  if (f === undefined || f === null) return () => true;
  const [t, v] = tagOf(f);
  if (t === 'Like' || t === 'ILike') {
    const re = likePattern(String(v));
    return (row) => re.test(row[0]);
  }
  if (t !== 'Where') throw new SqlError('ER_NOT_SUPPORTED_YET', `SHOW … ${t} is not supported`);
  const keep = showFilter({ Infix: f }, ['Variable_name', 'Value'], ctx);
  return (row) => keep([row[0], String(row[1])]);
}

/**
 * A database's tables with their Table_type as SHOW FULL TABLES lists them: information_schema's
 * as SYSTEM VIEW (upper case), the mysql schema's as BASE TABLE, a database's tables as BASE TABLE
 * and its views as VIEW.
 */
function tablesOf(db: string, ctx: StatementContext): string[][] {
  if (db.toLowerCase() === 'information_schema')
    return systemTableNames(db).map((n) => [n.toUpperCase(), 'SYSTEM VIEW']);
  if (isSystemSchema(db)) return systemTableNames(db).map((n) => [n, 'BASE TABLE']);
  return [
    ...ctx.dict.userTables(db).map((t) => [tableOf(t.name), 'BASE TABLE']),
    ...ctx.dict.viewNames(db).map((v) => [tableOf(v), 'VIEW']),
  ];
}

function rowsResult(columns: string[], rows: unknown[][]): QueryResult {
  return { columns, rows, affectedRows: 0, insertId: 0, warnings: 0 };
}

function setStatement(v: unknown, ctx: StatementContext): Compiled {
  const [t, sv] = tagOf(v);
  const items: Array<{ scope: 'session' | 'global'; name: string; value: unknown }> = [];
  if (t === 'SingleAssignment') {
    const o = obj(sv);
    items.push({ scope: scopeOf(o.scope), name: objectName(o.variable).join('.'), value: arr(o.values)[0] });
    // the parser reads `SET @x = 1, @y := 2` as one assignment with a list of values
    for (const extra of arr(o.values).slice(1)) {
      const [et, ev] = tagOf(extra);
      const eo = obj(ev);
      if (et !== 'BinaryOp' || (eo.op !== 'Assignment' && eo.op !== 'Eq'))
        throw new SqlError('ER_PARSE_ERROR', "You have an error in your SQL syntax near ','");
      const [lt, lv] = tagOf(eo.left);
      const parts = lt === 'CompoundIdentifier' ? arr(lv).map(identText) : [identText(lv)];
      items.push({ scope: 'session', name: parts.join('.'), value: eo.right });
    }
  } else if (t === 'MultipleAssignments') {
    for (const a of arr(obj(sv).assignments)) {
      const o = obj(a);
      items.push({ scope: scopeOf(o.scope), name: objectName(o.name).join('.'), value: o.value });
    }
  } else if (t === 'SetNames' || t === 'SetNamesDefault') {
    // SET NAMES cs [COLLATE c]: the client, connection and results character sets (utf8 is utf8mb3)
    const o = obj(sv);
    const given = t === 'SetNames' ? identText(o.charset_name).toLowerCase() : 'utf8mb4';
    const cs = given === 'utf8' ? 'utf8mb3' : given;
    const coll = typeof o.collation_name === 'string' ? o.collation_name.toLowerCase() : `${cs}_general_ci`;
    return {
      run: () => {
        const v = ctx.session.vars;
        for (const k of ['character_set_client', 'character_set_connection', 'character_set_results'])
          v.values.set(k, cs);
        v.values.set('collation_connection', coll.replace(/^utf8_/, 'utf8mb3_'));
        return okResult();
      },
    };
  } else throw new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support 'SET ${t}'`);
  const env = ctx.queryEnv();
  const block = new Block(undefined, ctx.run);
  const bound = items.map((it) => {
    let name = it.name;
    let scope = it.scope;
    const m = /^@@(?:(global|session|local)\.)?(.+)$/i.exec(name);
    if (m !== null) {
      name = m[2]!;
      if (m[1] !== undefined) scope = m[1].toLowerCase() === 'global' ? 'global' : 'session';
    }
    const userVar = m === null && name.startsWith('@') ? name.slice(1) : undefined;
    const [vt, vv] = tagOf(it.value);
    const isDef = vt === 'Identifier' && identText(vv).toUpperCase() === 'DEFAULT';
    // a bare word value (SET x = ON) is its text
    const word =
      userVar === undefined && vt === 'Identifier' && !identText(vv).startsWith('@')
        ? identText(vv)
        : undefined;
    const e =
      isDef || word !== undefined
        ? undefined
        : bindExpr(it.value, {
            block,
            clause: 'field list',
            allowAgg: false,
            env: { ...env, bindSubquery: (q, p) => bindQuery(q, { env, run: ctx.run }, p) },
          });
    return { name, scope, isDef, word, e, userVar };
  });
  return {
    run: () => {
      for (const b of bound) {
        if (b.userVar !== undefined) {
          ctx.session.userVars.set(b.userVar, b.e!.t, b.e!.ev());
          continue;
        }
        const target = b.scope === 'global' ? ctx.session.globalVars : ctx.session.vars;
        const raw = b.isDef ? DEFAULT_VALUE : b.word !== undefined ? b.word : b.e!.ev();
        // a DECIMAL literal (SET max_statement_time = 0.2) is its number, not its scaled digits
        const value =
          b.e !== undefined && b.e.t.kind === 'dec' && raw !== null && raw !== DEFAULT_VALUE
            ? toDouble(raw, 'dec', b.e.t)
            : typeof raw === 'bigint'
              ? Number(raw)
              : raw;
        if (target.set(b.name, value, b.scope, b.scope === 'global' ? undefined : ctx.session.globalVars))
          ctx.session.warn(1292, `Truncated incorrect ${b.name.toLowerCase()} value: '${String(value)}'`);
      }
      return okResult();
    },
  };
}

function scopeOf(s: unknown): 'session' | 'global' {
  return String(s ?? '').toLowerCase() === 'global' ? 'global' : 'session';
}

/** DESCRIBE t / SHOW [FULL] COLUMNS FROM t, as MariaDB lists them (FULL adds collation, privileges, comment). */
/** DESCRIBE / SHOW [FULL] COLUMNS, its rows kept by the statement's LIKE or WHERE (`filter`). */
function describe(name: string, ctx: StatementContext, full = false, filter?: unknown): QueryResult {
  if (!ctx.db.hasTable(name) || ctx.session.hiddenTable(name))
    throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
  const columns = full
    ? ['Field', 'Type', 'Collation', 'Null', 'Key', 'Default', 'Extra', 'Privileges', 'Comment']
    : ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'];
  const keep = showFilter(filter, columns, ctx);
  const rows = columnRows(ctx.db.table(name), ctx.dict.tables.get(name))
    .map((r) => (full ? r : [r[0], r[1], r[3], r[4], r[5], r[6]]))
    .filter(keep);
  return rowsResult(columns, rows);
}

/**
 * SHOW FULL COLUMNS' rows of a table (Field, Type, Collation, Null, Key, Default, Extra,
 * Privileges, Comment), which information_schema.COLUMNS shows too.
 */
export function columnRows(t: Table, meta: TableMeta | undefined): unknown[][] {
  const rows: unknown[][] = [];
  t.columns.forEach((c, i) => {
    if (meta?.hiddenPk === true && c.name === HIDDEN_PK) return;
    const key = t.primary.columns.includes(i)
      ? 'PRI'
      : t.secondary.some((s) => s.columns[0] === i)
        ? t.secondary.find((s) => s.columns[0] === i)!.unique
          ? 'UNI'
          : 'MUL'
        : '';
    const def = meta?.defaults[i];
    const type = columnTypeText(meta?.types[i], c.type);
    const nullable = c.nullable === true ? 'YES' : 'NO';
    const dflt = def === null || def === undefined ? null : defaultText(def, c.type).bare;
    const onUpdate = meta?.onUpdate?.[i];
    const extra =
      meta?.autoIncrement === i
        ? 'auto_increment'
        : onUpdate !== null && onUpdate !== undefined
          ? `on update ${defaultText(onUpdate).bare}`
          : '';
    rows.push([
      c.name,
      type,
      isTextType(c.type) ? columnCollation(c.type) : null,
      nullable,
      key,
      dflt,
      extra,
      'select,insert,update,references',
      meta?.comments?.[i] ?? '',
    ]);
  });
  return rows;
}

/** A string as SHOW CREATE TABLE writes it: quoted, a quote doubled, backslashes and controls escaped. */
function sqlString(v: string): string {
  let out = "'";
  for (const c of v) out += STRING_ESCAPES[c] ?? c;
  return `${out}'`;
}

/** The characters SHOW CREATE TABLE escapes in a string, and how. */
const STRING_ESCAPES: Readonly<Record<string, string>> = {
  "'": "''",
  '\\': '\\\\',
  '\u0000': '\\0',
  '\n': '\\n',
  '\r': '\\r',
  '\u001a': '\\Z',
};

/** The table's STATS_* options as SHOW CREATE TABLE writes them (before its COMMENT). */
function statsOptionsText(db: Database, t: Table): string {
  const o = db.statisticsDictionary.options(t.id);
  let out = '';
  if (o.statsPersistent !== undefined) out += ` STATS_PERSISTENT=${o.statsPersistent ? 1 : 0}`;
  if (o.statsAutoRecalc !== undefined) out += ` STATS_AUTO_RECALC=${o.statsAutoRecalc ? 1 : 0}`;
  if (o.statsSamplePages !== undefined) out += ` STATS_SAMPLE_PAGES=${o.statsSamplePages}`;
  return out;
}

/** A column's ` COMMENT '…'` in SHOW CREATE TABLE, or nothing. */
function comment(c: string | null | undefined): string {
  return c === null || c === undefined ? '' : ` COMMENT ${sqlString(c)}`;
}

function showCreate(name: string, ctx: StatementContext): QueryResult {
  const view = ctx.dict.views.get(name);
  if (view !== undefined) return rowsResult(['View', 'Create View'], [[tableOf(name), view]]);
  if (!ctx.db.hasTable(name) || ctx.session.hiddenTable(name))
    throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
  const t = ctx.db.table(name);
  // a temporary table is shown by the name the session gave it
  const shown = ctx.session.temporaryTables.visibleName(name) ?? name;
  const meta = ctx.dict.tables.get(name);
  const tableCollation = meta?.collation ?? tableCollationOf(t, meta);
  const lines: string[] = [];
  t.columns.forEach((c, i) => {
    if (meta?.hiddenPk === true && c.name === HIDDEN_PK) return;
    const def = meta?.defaults[i];
    const collation = isTextType(c.type) ? columnCollation(c.type) : undefined;
    const collated =
      collation !== undefined && collation !== tableCollation
        ? ` CHARACTER SET utf8mb4 COLLATE ${collation}`
        : '';
    const type = columnTypeText(meta?.types[i], c.type);
    // MariaDB writes NULL for a nullable TIMESTAMP (one that is NOT NULL unless told)
    const nullText = c.nullable === true ? (type.startsWith('timestamp') ? ' NULL' : '') : ' NOT NULL';
    const onUpdate = meta?.onUpdate?.[i];
    lines.push(
      `  \`${c.name}\` ${type}${collated}${nullText}${def ? ` DEFAULT ${defaultText(def, c.type).sql}` : c.nullable === true ? ' DEFAULT NULL' : ''}${onUpdate !== null && onUpdate !== undefined ? ` ON UPDATE ${defaultText(onUpdate).sql}` : ''}${meta?.autoIncrement === i ? ' AUTO_INCREMENT' : ''}${comment(meta?.comments?.[i])}${meta?.types[i] === 'json' ? ` CHECK (json_valid(\`${c.name}\`))` : ''}`,
    );
  });
  const col = (i: number): string => `\`${t.columns[i]!.name}\``;
  if (meta?.hiddenPk !== true) lines.push(`  PRIMARY KEY (${t.primary.columns.map(col).join(',')})`);
  // unique keys before the others, as InnoDB keeps them (SHOW INDEX lists them so too)
  for (const s of [...t.secondary.filter((x) => x.unique), ...t.secondary.filter((x) => !x.unique)])
    lines.push(`  ${s.unique ? 'UNIQUE ' : ''}KEY \`${s.name}\` (${s.columns.map(col).join(',')})`);
  return rowsResult(
    ['Table', 'Create Table'],
    [
      [
        tableOf(shown),
        `CREATE ${shown === name ? '' : 'TEMPORARY '}TABLE \`${tableOf(shown)}\` (\n${lines.join(',\n')}\n) ENGINE=InnoDB${autoIncrementOption(ctx.db, t, meta)} DEFAULT CHARSET=utf8mb4 COLLATE=${tableCollation}${statsOptionsText(ctx.db, t)}${meta?.rowFormat === undefined ? '' : ` ROW_FORMAT=${meta.rowFormat}`}${meta?.comment === undefined ? '' : ` COMMENT=${sqlString(meta.comment)}`}`,
      ],
    ],
  );
}

/**
 * SHOW WARNINGS / SHOW ERRORS [LIMIT [offset,] n] and SHOW COUNT(*) WARNINGS / ERRORS: the
 * previous statement's diagnostics (the parser keeps the words; the LIMIT is read from the text).
 */
function showDiagnostics(words: string[], ctx: StatementContext): Compiled | undefined {
  const up = words.map((w) => w.toUpperCase());
  const count = up[0] === 'COUNT';
  const what = count ? up[1] : up[0];
  if ((what !== 'WARNINGS' && what !== 'ERRORS') || up.length > (count ? 2 : 1)) return undefined;
  const errors = what === 'ERRORS';
  const lim = /\bLIMIT\s+(\d+)(?:\s*,\s*(\d+))?\s*;?\s*$/i.exec(ctx.sql);
  return {
    run: () => {
      const all = ctx.session.diagnostics.previous.filter((d) => !errors || d[0] === 'Error');
      if (count) return rowsResult([`@@session.${errors ? 'error' : 'warning'}_count`], [[all.length]]);
      let rows = all.map((d) => [...d]);
      if (lim !== null) {
        const [off, n] = lim[2] === undefined ? [0, Number(lim[1])] : [Number(lim[1]), Number(lim[2])];
        rows = rows.slice(off, off + n);
      }
      return rowsResult(['Level', 'Code', 'Message'], rows);
    },
  };
}

/** A text column's collation as SHOW names it (a column without one compares its bytes: utf8mb4_bin). */
function columnCollation(t: ColumnType): string {
  return t.kind === 'char' || t.kind === 'varchar' ? (t.collation ?? 'utf8mb4_bin') : 'binary';
}

/** A table's default collation when CREATE TABLE did not keep one: its text columns' if they agree. */
function tableCollationOf(t: Table, meta: TableMeta | undefined): string {
  // a JSON column's utf8mb4_bin is its own, not the table's
  const found = new Set(
    t.columns
      .filter((c, i) => isTextType(c.type) && meta?.types[i] !== 'json')
      .map((c) => columnCollation(c.type)),
  );
  return found.size === 1 ? [...found][0]! : DEFAULT_COLLATION;
}

/** ` AUTO_INCREMENT=n` when the table's counter is past 1, as MariaDB writes it. */
function autoIncrementOption(db: Database, t: Table, meta: TableMeta | undefined): string {
  if (meta === undefined || meta.autoIncrement < 0) return '';
  const next = peekNextValue(db, t, meta.autoIncrement);
  return next > 1 ? ` AUTO_INCREMENT=${next}` : '';
}

export function compileShow(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  const o: Obj = obj(v);
  switch (tag) {
    case 'Set':
      return setStatement(v, ctx);
    case 'ShowVariables': {
      const f = nameValueFilter(o.filter, ctx);
      return {
        run: () => {
          const vars = o.global === true ? ctx.session.globalVars : ctx.session.vars;
          const rows = [...vars.values]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, x]): [string, unknown] => [
              k,
              typeof x === 'number'
                ? VARIABLES[k]?.kind === 'bool'
                  ? x === 1
                    ? 'ON'
                    : 'OFF'
                  : String(x)
                : x,
            ])
            .filter(f);
          return rowsResult(['Variable_name', 'Value'], rows);
        },
      };
    }
    case 'ShowStatus': {
      const f = nameValueFilter(o.filter, ctx);
      return {
        run: () => {
          const all = ctx.session.statusValues(o.global === true);
          const rows = [...all]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, x]): [string, unknown] => [k, String(x)])
            .filter(f);
          return rowsResult(['Variable_name', 'Value'], rows);
        },
      };
    }
    case 'Flush': {
      const what = String(o.object_type);
      return {
        run: () => {
          if (what === 'Status') ctx.session.counters.reset();
          else if (what === 'Tables') ctx.db.flush();
          return okResult();
        },
      };
    }
    case 'ShowTables': {
      const filterPosition = obj(o.show_options).filter_position;
      const from = objectName(obj(obj(o.show_options).show_in).parent_name).at(-1);
      const [ft, fv] = tagOf(tagOf(filterPosition)[1]);
      const full = o.full === true;
      return {
        run: () => {
          const db = from ?? ctx.session.database;
          if (db === null) throw new SqlError('ER_NO_DB_ERROR', 'No database selected');
          const system = isSystemSchema(db);
          if (!system && !ctx.dict.databases.has(db))
            throw new SqlError('ER_BAD_DB_ERROR', `Unknown database '${db}'`);
          const name = `Tables_in_${system ? db.toLowerCase() : db}`;
          const columns = full ? [name, 'Table_type'] : [name];
          const keep = showFilter(filterPosition, columns, ctx);
          const rows = tablesOf(db, ctx)
            .filter((r) => keep(r))
            .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0))
            .map((r) => (full ? r : [r[0]!]));
          return rowsResult(ft === 'Like' ? [`${name} (${String(fv)})`, ...columns.slice(1)] : columns, rows);
        },
      };
    }
    case 'ShowVariable': {
      const showIndex = compileShowIndex(arr(o.variable), ctx);
      if (showIndex !== undefined) return showIndex;
      const words = arr(o.variable).map((w) => identText(w));
      if (words.length === 3 && words.join(' ').toUpperCase() === 'ENGINE INNODB STATUS')
        return {
          run: () => rowsResult(['Type', 'Name', 'Status'], [['InnoDB', '', innodbStatusText(ctx.db)]]),
        };
      const diag = showDiagnostics(words, ctx) ?? compileShowServer(words, ctx);
      if (diag !== undefined) return diag;
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'SHOW ${words.join(' ')}'`,
      );
    }
    case 'ExplainTable':
      return { run: () => describe(ctx.session.tableName(objectName(o.table_name)), ctx) };
    case 'ShowColumns':
      return {
        run: () =>
          describe(
            ctx.session.tableName(objectName(obj(obj(o.show_options).show_in).parent_name)),
            ctx,
            o.full === true,
            obj(o.show_options).filter_position,
          ),
      };
    case 'ShowCollation': {
      const f = likeFilter(o.filter);
      return {
        run: () =>
          rowsResult(
            ['Collation', 'Charset', 'Id', 'Default', 'Compiled', 'Sortlen'],
            COLLATIONS.filter((c) => f(c)).map((c) => [
              c,
              'utf8mb4',
              COLLATION_ID[c],
              c === DEFAULT_COLLATION ? 'Yes' : '',
              'Yes',
              1,
            ]),
          ),
      };
    }
    case 'ShowCharset':
      return {
        run: () =>
          rowsResult(
            ['Charset', 'Description', 'Default collation', 'Maxlen'],
            [['utf8mb4', 'UTF-8 Unicode', DEFAULT_COLLATION, 4]].filter((r) =>
              likeFilter(o.filter)(r[0] as string),
            ),
          ),
      };
    case 'ShowCreate': {
      const parts = objectName(o.obj_name);
      const stored = ctx.session.tableName(parts);
      // a table's definition is one of the tables LOCK TABLES restricts (a view's is not)
      if (o.obj_type === 'Table') ctx.run.tables.push({ stored, name: parts.at(-1)!, write: false });
      return { run: () => showCreate(stored, ctx) };
    }
    default:
      return undefined;
  }
}
