import type { SqlType } from '../exec/types.js';
import type { ResultField } from '../exec/result-fields.js';
import { bindQuery } from '../plan/select.js';
import { resolveTableName } from '../plan/table-name.js';
import { arr, identText, obj, type Obj, objectName } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { parseSql } from '../sql/parser.js';
import { DEFAULT_COLLATION } from '../storage/collation.js';
import { splitName, storageName } from '../storage/schema-name.js';
import { columnTypeText } from './column-type-text.js';
import { compileDml } from './dml.js';
import type { QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

/** Past this many characters a string expression's column is a TEXT type (MariaDB's CONVERT_IF_BIGGER_TO_BLOB). */
const VARCHAR_MAX_CHARS = 512;

const quoted = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/**
 * CREATE [TEMPORARY] TABLE t [(definitions)] [options] [IGNORE | REPLACE] [AS] SELECT …, as
 * MariaDB makes it (IGNORE and REPLACE: what INSERT IGNORE and REPLACE do with a taken key): the
 * columns defined in the statement that the query does not fill first, then one per result column
 * (its definition in the statement when it has one), typed from the query (a column read from a table keeps its type, NULL-ness and default; an
 * expression gets its result type), and the query's rows inserted as INSERT … SELECT into the
 * result columns by name. The table is made by `create` (CREATE TABLE with those definitions);
 * when the rows fail to go in (a duplicate key, a NULL for a NOT NULL column, a lock wait) it is
 * dropped again, so the statement leaves no table — and, run again after a lock wait, starts over.
 */
export function createTableSelect(
  o: Obj,
  ctx: StatementContext,
  create: (o: Obj, ctx: StatementContext) => Compiled,
  drop: (name: string) => void,
): Compiled {
  const query = o.query;
  // the query binds first: its unknown tables and columns are its errors
  const plan = bindQuery(query, { env: ctx.queryEnv(), run: ctx.run }, undefined);
  const names = plan.columns;
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n.toLowerCase())) throw new SqlError('ER_DUP_FIELDNAME', `Duplicate column name '${n}'`);
    seen.add(n.toLowerCase());
  }
  // the defined columns the query does not fill come first, then one per result column: its
  // definition in the statement if it has one, else one made from the query (MariaDB's order)
  const defined = new Map(arr(o.columns).map((c) => [identText(obj(c).name).toLowerCase(), c]));
  const columns = [
    ...arr(o.columns).filter((c) => !seen.has(identText(obj(c).name).toLowerCase())),
    ...names.map(
      (n, i) => defined.get(n.toLowerCase()) ?? columnDefinition(ctx, n, plan.types[i]!, plan.fields?.[i]),
    ),
  ];
  const made = create({ ...o, query: null, columns }, ctx);
  const visible = resolveTableName(objectName(o.name), ctx.session.database);
  const temporary = o.temporary === true;
  return {
    run: (): QueryResult => {
      const exists = temporary
        ? ctx.session.temporaryTables.storedName(visible) !== undefined
        : ctx.db.hasTable(visible) || ctx.dict.views.has(visible);
      // IF NOT EXISTS of a table there: the note, no rows (as MariaDB)
      if (exists && o.if_not_exists === true) return made.run([]);
      made.run([]);
      const stored = ctx.session.tableName(objectName(o.name));
      try {
        const insert = insertTree(visible, names, query, o.duplicates);
        const [, v] = Object.entries(insert)[0]!;
        const c = compileDml('Insert', v, ctx)!;
        return ctx.session.txn.run(insert, ctx.sql, () => c.run([]));
      } catch (e) {
        drop(stored);
        throw e;
      }
    },
  };
}

/**
 * `{INSERT [IGNORE] | REPLACE} INTO db.t (names…) <query>` as the parser would give it (`duplicates`:
 * CREATE TABLE's IGNORE or REPLACE).
 */
function insertTree(
  table: string,
  names: readonly string[],
  query: unknown,
  duplicates: unknown,
): Record<string, Obj> {
  const { schema, table: t } = splitName(table);
  const verb = duplicates === 'replace' ? 'REPLACE' : duplicates === 'ignore' ? 'INSERT IGNORE' : 'INSERT';
  const text = `${verb} INTO ${quoted(schema)}.${quoted(t)} (${names.map(quoted).join(', ')}) SELECT 1`;
  const tree = obj(parseSql(text)[0]);
  const insert = obj(tree.Insert);
  return { Insert: { ...insert, source: query } };
}

/**
 * The column definition (parser tree) for result column `name`: a stored column's own type,
 * NULL-ness and default; an expression's type as MariaDB's CREATE … SELECT derives it from the
 * result type (a literal NOT NULL, any other expression nullable).
 */
function columnDefinition(
  ctx: StatementContext,
  name: string,
  t: SqlType,
  field: ResultField | undefined,
): Obj {
  const base = field?.base;
  let text: string;
  let def: unknown;
  if (base !== undefined) {
    text = columnTypeText(base.declared, base.stored);
    const collation = 'collation' in base.stored ? base.stored.collation : undefined;
    if (collation !== undefined && collation !== DEFAULT_COLLATION) text += ` COLLATE ${collation}`;
    // the source table's own definition holds the default (through the session's temporary tables)
    const named = storageName(field!.schema, field!.orgTable);
    const stored = ctx.session.temporaryTables.storedName(named) ?? named;
    const table = ctx.db.hasTable(stored) ? ctx.db.table(stored) : undefined;
    const at = table?.columns.findIndex((c) => c.name === field!.orgName) ?? -1;
    const written = at < 0 ? null : (ctx.dict.tables.get(stored)?.defaults[at] ?? null);
    if (written !== null) def = JSON.parse(written);
    text += base.nullable ? ' NULL' : ' NOT NULL';
    // an AUTO_INCREMENT column's copy is an ordinary NOT NULL one, with MariaDB's implicit 0
    if (def === undefined && base.autoIncrement && !base.nullable) text += ' DEFAULT 0';
  } else {
    text =
      expressionType(t, field) + (field?.literal !== undefined && !field.literal.isNull ? ' NOT NULL' : '');
  }
  const tree = obj(obj(parseSql(`CREATE TABLE x (${quoted(name)} ${text})`)[0]).CreateTable);
  const column = obj(arr(tree.columns)[0]);
  if (def === undefined) return column;
  return { ...column, options: [...arr(column.options), { name: null, option: { Default: def } }] };
}

/** An expression's column type as MariaDB writes it for CREATE … SELECT. */
function expressionType(t: SqlType, field: ResultField | undefined): string {
  const width = field?.literal?.width;
  switch (t.kind) {
    case 'int':
      if (width !== undefined) return width <= 9 ? `int(${width})` : `bigint(${width})`;
      return t.unsigned === true ? 'bigint(20) unsigned' : 'bigint(20)';
    case 'dec': {
      const scale = Math.min(t.scale, 38);
      return `decimal(${Math.min(Math.max(t.prec, scale, 1), 65)},${scale})`;
    }
    case 'dbl':
      return t.float === true ? 'float' : 'double';
    case 'date':
      return 'date';
    case 'datetime':
      return t.scale > 0 ? `datetime(${t.scale})` : 'datetime';
    case 'time':
      return t.scale > 0 ? `time(${t.scale})` : 'time';
    case 'null':
      return 'binary(0)';
    default: {
      if (t.json === true) return 'longtext';
      const chars = width ?? t.len;
      const collation =
        t.collation !== undefined &&
        t.collation !== 'bytes' &&
        t.collation !== DEFAULT_COLLATION &&
        t.weak !== true
          ? ` COLLATE ${t.collation}`
          : '';
      if (t.binary === true) {
        if (chars !== undefined && chars <= VARCHAR_MAX_CHARS) return `varbinary(${chars})`;
        return blobType(chars, 'blob');
      }
      if (chars !== undefined && chars <= VARCHAR_MAX_CHARS) return `varchar(${chars})${collation}`;
      return `${blobType(chars === undefined ? undefined : chars * 4, 'text')}${collation}`;
    }
  }
}

/** The TEXT or BLOB type that holds `bytes` bytes (unknown: the largest). */
function blobType(bytes: number | undefined, kind: 'text' | 'blob'): string {
  if (bytes === undefined) return `long${kind}`;
  if (bytes <= 255) return `tiny${kind}`;
  if (bytes <= 65535) return kind;
  if (bytes <= 16777215) return `medium${kind}`;
  return `long${kind}`;
}
