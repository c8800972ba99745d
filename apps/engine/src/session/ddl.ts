import { buildIndexFromTable } from '../storage/index-build.js';
import type { Table } from '../storage/table.js';
import { type ColumnType, type IndexDef, isBlobColumn, type StoredColumn } from '../storage/types.js';
import { membersText } from '../exec/members.js';
import { checkedMembers } from './enum-set.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { SqlDictionary } from './dictionary.js';
import { HIDDEN_PK, type TableMeta } from '../storage/table-meta.js';
import { type Collation, collationByName, DEFAULT_COLLATION } from '../storage/collation.js';
import { compileAlter } from './alter.js';
import { tableStatsOptions } from './stats-statements.js';
import { unversioned } from '../sql/mysql-statements.js';
import { checkIndexes, checkTable } from '../plan/limits.js';
import { okResult, type QueryResult } from './result.js';
import { storageError } from './storage-errors.js';
import type { Compiled, StatementContext } from './session.js';
import { dottedName, schemaOf, tableOf } from '../storage/schema-name.js';
import { resolveTableName } from '../plan/table-name.js';
import { namedTables } from './view-tables.js';
import { parseSql } from '../sql/parser.js';
import { createTableSelect } from './create-select.js';
import { RowWriter } from './dml.js';
import { evaluateStored } from './dml-insert.js';

/**
 * A declared column type → [stored type, declared text]. Text columns get `collation` (the
 * column's COLLATE, else the table's, else utf8mb4_general_ci, MariaDB's default for utf8mb4).
 */
export function columnType(
  dt: unknown,
  col: string,
  collation: Collation = DEFAULT_COLLATION,
): [ColumnType, string] {
  const [t, v] = tagOf(dt);
  const len = (x: unknown, d: number): number => {
    const [lt, lv] = tagOf(x);
    if (lt === 'IntegerLength') return Number(obj(lv).length);
    if (typeof x === 'number') return x;
    return d;
  };
  switch (t) {
    case 'TinyInt':
    case 'SmallInt':
    case 'MediumInt':
    case 'Int':
    case 'Integer':
    case 'Bool':
    case 'Boolean':
    case 'TinyIntUnsigned':
    case 'SmallIntUnsigned':
    case 'MediumIntUnsigned':
      return [{ kind: 'int' }, t.toLowerCase().replace('unsigned', ' unsigned')];
    case 'IntUnsigned':
    case 'IntegerUnsigned':
    case 'BigInt':
      return [{ kind: 'bigint' }, t.toLowerCase().replace('unsigned', ' unsigned')];
    case 'BigIntUnsigned':
      return [{ kind: 'bigint', unsigned: true }, 'bigint unsigned'];
    case 'Datetime':
    case 'Timestamp':
    case 'Time': {
      const fsp = typeof v === 'number' ? v : Array.isArray(v) && typeof v[0] === 'number' ? v[0] : 0;
      if (fsp > 6)
        throw new SqlError(
          'ER_TOO_BIG_PRECISION',
          `Too big precision ${fsp} specified for '${col}'. Maximum is 6.`,
        );
      const kind = t === 'Datetime' ? 'datetime' : t === 'Timestamp' ? 'timestamp' : 'time';
      return [{ kind, fsp }, fsp > 0 ? `${kind}(${fsp})` : kind];
    }
    case 'Custom': {
      // YEAR [(4)]: an INT holding 1901 … 2155 (or 0)
      const name = objectName(arr(v)[0]).join('.').toUpperCase();
      if (name === 'YEAR') return [{ kind: 'int' }, 'year'];
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'column type ${name}'`,
      );
    }
    case 'Binary':
    case 'Varbinary':
    case 'Bytea': {
      const n = len(v, t === 'Binary' ? 1 : 255);
      if (n > 65532)
        throw new SqlError(
          'ER_TOO_BIG_FIELDLENGTH',
          `Column length too big for column '${col}' (max = 65532); use BLOB or TEXT instead`,
        );
      const kind = t === 'Binary' ? 'binary' : 'varbinary';
      return [{ kind, length: n }, `${kind}(${n})`];
    }
    case 'Blob':
    case 'TinyBlob':
    case 'MediumBlob':
    case 'LongBlob':
      // BLOB, MEDIUMBLOB, LONGBLOB: off-page when the row is long (storage/external.ts)
      if (t === 'TinyBlob') return [{ kind: 'varbinary', length: 255 }, 'tinyblob'];
      return [
        {
          kind: 'varbinary',
          length: t === 'Blob' ? 65535 : t === 'MediumBlob' ? 16777215 : 4294967295,
          blob: true,
        },
        t.toLowerCase(),
      ];
    case 'Decimal':
    case 'Numeric':
    case 'Dec': {
      const [pt, pv] = tagOf(v);
      let p = 10;
      let s = 0;
      if (pt === 'PrecisionAndScale') [p, s] = arr(pv) as [number, number];
      else if (pt === 'Precision') p = pv as number;
      if (p > 65)
        throw new SqlError(
          'ER_TOO_BIG_PRECISION',
          `Too big precision ${p} specified for '${col}'. Maximum is 65.`,
        );
      if (s > p)
        throw new SqlError(
          'ER_M_BIGGER_THAN_D',
          `For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '${col}')`,
        );
      return [{ kind: 'decimal', precision: p, scale: s }, `decimal(${p},${s})`];
    }
    case 'Float':
    case 'Double':
    case 'Real':
    case 'DoublePrecision':
    case 'Float4':
    case 'Float8':
    case 'Float64':
      return [{ kind: 'double' }, t === 'Float' ? 'float' : 'double'];
    case 'Char':
    case 'Character':
      return [{ kind: 'char', length: len(v, 1), collation }, `char(${len(v, 1)})`];
    case 'Varchar':
    case 'CharacterVarying':
    case 'Nvarchar': {
      const n = len(v, 255);
      if (n > 16383)
        throw new SqlError(
          'ER_NOT_SUPPORTED_YET',
          "This version of MySQL doesn't yet support 'VARCHAR longer than 16383'",
        );
      return [{ kind: 'varchar', length: n, collation }, `varchar(${n})`];
    }
    case 'Text':
    case 'TinyText':
    case 'MediumText':
    case 'LongText':
    case 'String':
      // TEXT, MEDIUMTEXT, LONGTEXT: 65,535 / 16,777,215 / 4,294,967,295 bytes, off-page when the
      // row is long (storage/external.ts); the length is in utf8mb4 characters, a quarter of that
      if (t === 'TinyText') return [{ kind: 'varchar', length: 255, collation }, 'tinytext'];
      return [
        {
          kind: 'varchar',
          length: t === 'MediumText' ? 4194303 : t === 'LongText' ? 1073741823 : 16383,
          collation,
          blob: true,
        },
        t === 'String' ? 'text' : t.toLowerCase(),
      ];
    case 'Date':
      return [{ kind: 'date' }, 'date'];
    case 'JSON':
      // MariaDB's JSON: a LONGTEXT in utf8mb4_bin whose values must be JSON (json_valid)
      return [{ kind: 'varchar', length: 1073741823, collation: 'utf8mb4_bin', blob: true }, 'json'];
    case 'Enum':
    case 'Set': {
      // kept as text (session/enum-set.ts): a VARCHAR as long as the longest value
      const kind = t === 'Enum' ? 'enum' : 'set';
      const raw =
        t === 'Enum'
          ? arr(arr(v)[0]).map((m) => {
              const [mt, mv] = tagOf(m);
              return String(mt === 'Name' ? mv : arr(mv)[0]);
            })
          : arr(v).map(String);
      const members = checkedMembers(kind, raw, col, collation);
      const chars = (x: string): number => [...x].length;
      const longest =
        kind === 'enum'
          ? Math.max(1, ...members.map(chars))
          : Math.max(1, members.reduce((n, x) => n + chars(x), 0) + members.length - 1);
      return [{ kind: 'varchar', length: longest, collation }, membersText(kind, members)];
    }
    default:
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'column type ${t}'`,
      );
  }
}

/**
 * Refuses a primary key over a TEXT or BLOB column named without a prefix length (`PRIMARY KEY
 * (a)` rather than `(a(10))`): error 1170, as MariaDB. `columns` are the table's.
 */
export function refuseBlobKeys(cols: unknown, columns: readonly StoredColumn[]): void {
  for (const c of arr(cols)) {
    const co = obj(c);
    const [t, v] = tagOf(obj(co.column).expr ?? co.expr ?? c);
    if (t !== 'Identifier') continue;
    const name = identText(v).toLowerCase();
    const col = columns.find((x) => x.name.toLowerCase() === name);
    if (col !== undefined && isBlobColumn(col.type))
      throw new SqlError(
        'ER_BLOB_KEY_WITHOUT_LENGTH',
        `BLOB/TEXT column '${col.name}' used in key specification without a key length`,
      );
  }
}

export function keyColumns(cols: unknown): string[] {
  return arr(cols).map((c) => {
    const co = obj(c);
    const e = obj(co.column).expr ?? co.expr ?? c;
    const [t, v] = tagOf(e);
    if (t === 'Identifier') return identText(v);
    if (t === 'Function') {
      // a prefix key `a(10)`: the whole column is indexed
      return objectName(obj(v).name).at(-1)!;
    }
    return identText(c);
  });
}

function createTable(o: Obj, ctx: StatementContext): Compiled {
  // the name as the database knows it: a temporary table of the session does not hide it here
  const visible = resolveTableName(objectName(o.name), ctx.session.database);
  const temporary = o.temporary === true;
  const temps = ctx.session.temporaryTables;
  const ifNotExists = o.if_not_exists === true;
  const statsOptions = tableStatsOptions(o.table_options);
  const schema = existingDatabase(ctx, visible);
  const tableCollation = tableCollationOf(
    o.table_options,
    (ctx.dict.databases.get(schema)?.collation as Collation | undefined) ?? DEFAULT_COLLATION,
  );
  if (o.query !== undefined && o.query !== null)
    return createTableSelect(o, ctx, createTable, (name) => {
      atomicDdl(ctx, () => {
        ctx.db.dropTable(name);
        ctx.dict.dropTable(name);
      });
      const visible = temps.visibleName(name);
      if (visible !== undefined) temps.remove(visible);
    });
  const like = o.like === undefined || o.like === null ? null : obj(tagOf(o.like)[1]).name;
  if (like === null && arr(o.columns).length === 0)
    throw new SqlError('ER_TABLE_MUST_HAVE_COLUMNS', 'A table must have at least 1 column');
  return {
    run: () => {
      existingDatabase(ctx, visible);
      // a temporary table may share its name with a table or view, not with another of the session's
      const exists = temporary
        ? temps.storedName(visible) !== undefined
        : ctx.db.hasTable(visible) || ctx.dict.views.has(visible);
      if (exists) {
        if (ifNotExists) {
          ctx.session.warn(1050, `Table '${tableOf(visible)}' already exists`, 'Note');
          return okResult();
        }
        throw new SqlError('ER_TABLE_EXISTS_ERROR', `Table '${tableOf(visible)}' already exists`);
      }
      // a temporary table is stored under a hidden name of its own (session/temporary-tables.ts)
      const name = temporary ? temps.newStoredName((n) => ctx.db.hasTable(n)) : visible;
      if (like !== null) {
        const out = createTableLike(ctx, name, ctx.session.tableName(objectName(like)));
        if (temporary) temps.add(visible, name);
        return out;
      }
      const columns: StoredColumn[] = [];
      const types: string[] = [];
      const defaults: (string | null)[] = [];
      const onUpdates: (string | null)[] = [];
      const comments: (string | null)[] = [];
      let pk: string[] | undefined;
      let auto = -1;
      const indexes: IndexDef[] = [];
      const names = new Set<string>();
      for (const cd of arr(o.columns)) {
        const c = obj(cd);
        const cname = identText(c.name);
        if (names.has(cname.toLowerCase()))
          throw new SqlError('ER_DUP_FIELDNAME', `Duplicate column name '${cname}'`);
        names.add(cname.toLowerCase());
        const [type, text] = columnType(c.data_type, cname, columnCollation(c.options, tableCollation));
        let nullable = true;
        let def: string | null = null;
        let onUpdate: string | null = null;
        let comment: string | null = null;
        for (const opt of arr(c.options)) {
          const [ot, ov] = tagOf(obj(opt).option);
          if (ot === 'OnUpdate') onUpdate = JSON.stringify(ov);
          if (ot === 'Comment') comment = String(ov);
          if (ot === 'NotNull') nullable = false;
          else if (ot === 'Null') nullable = true;
          else if (ot === 'Default') def = JSON.stringify(ov);
          else if (ot === 'PrimaryKey' || (ot === 'Unique' && obj(ov).is_primary === true)) {
            if (pk !== undefined) throw new SqlError('ER_MULTIPLE_PRI_KEY', 'Multiple primary key defined');
            if (isBlobColumn(type))
              throw new SqlError(
                'ER_BLOB_KEY_WITHOUT_LENGTH',
                `BLOB/TEXT column '${cname}' used in key specification without a key length`,
              );
            pk = [cname];
            nullable = false;
          } else if (ot === 'Unique') indexes.push({ name: cname, columns: [cname], unique: true });
          else if (ot === 'DialectSpecific' && JSON.stringify(ov).toUpperCase().includes('AUTO_INCREMENT'))
            auto = columns.length;
        }
        columns.push({ name: cname, type, ...(nullable ? { nullable: true } : {}) });
        types.push(text);
        defaults.push(def);
        onUpdates.push(onUpdate);
        comments.push(comment);
      }
      for (const k of arr(o.constraints)) {
        const [kt, kv] = tagOf(k);
        const ko = obj(kv);
        const cols = keyColumns(ko.columns);
        for (const cn of cols)
          if (!columns.some((c) => c.name.toLowerCase() === cn.toLowerCase()))
            throw new SqlError('ER_KEY_COLUMN_DOES_NOT_EXITS', `Key column '${cn}' doesn't exist in table`);
        if (kt === 'PrimaryKey') refuseBlobKeys(ko.columns, columns);
        const canon = cols.map((cn) => columns.find((c) => c.name.toLowerCase() === cn.toLowerCase())!.name);
        if (kt === 'PrimaryKey') {
          if (pk !== undefined) throw new SqlError('ER_MULTIPLE_PRI_KEY', 'Multiple primary key defined');
          pk = canon;
          for (const cn of canon) {
            const i = columns.findIndex((c) => c.name === cn);
            columns[i] = { name: columns[i]!.name, type: columns[i]!.type };
          }
        } else if (kt === 'Index' || kt === 'Unique' || kt === 'Key') {
          const nameNode = ko.name ?? ko.index_name;
          const iname =
            nameNode === undefined || nameNode === null
              ? uniqueName(canon[0]!, indexes)
              : identText(nameNode);
          if (indexes.some((i) => i.name.toLowerCase() === iname.toLowerCase()))
            throw new SqlError('ER_DUP_KEYNAME', `Duplicate key name '${iname}'`);
          indexes.push({ name: iname, columns: canon, unique: kt === 'Unique' });
        }
        // FOREIGN KEY and CHECK constraints are accepted and not enforced
      }
      const hiddenPk = pk === undefined;
      if (hiddenPk) {
        columns.push({ name: HIDDEN_PK, type: { kind: 'bigint' } });
        types.push('bigint');
        defaults.push(null);
        onUpdates.push(null);
        comments.push(null);
        pk = [HIDDEN_PK];
      }
      checkTable(tableOf(visible), hiddenPk ? columns.slice(0, -1) : columns, hiddenPk ? [] : pk!, indexes);
      const meta: TableMeta = {
        types,
        defaults,
        autoIncrement: auto,
        hiddenPk,
        ...(onUpdates.some((x) => x !== null) ? { onUpdate: onUpdates } : {}),
        ...(comments.some((x) => x !== null) ? { comments } : {}),
        ...(tableCollation !== DEFAULT_COLLATION ? { collation: tableCollation } : {}),
        ...tableComment(o.table_options),
        ...autoIncrementStart(o.table_options),
        ...rowFormat(o.table_options),
      };
      // the table, its dictionary row and its statistics options are one step
      atomicDdl(ctx, () => {
        const table = ctx.db.createTable({ name, columns, primaryKey: pk!, indexes });
        checkDefaults(table, meta, ctx);
        try {
          ctx.dict.putTable(name, meta);
        } catch (e) {
          if (e instanceof RangeError && !/bytes, at most/.test(e.message))
            throw new SqlError(
              'ER_NOT_SUPPORTED_YET',
              "This version of MySQL doesn't yet support 'a table definition this large (its dictionary entry holds at most 8000 characters)'",
            );
          throw e;
        }
        if (Object.keys(statsOptions).length > 0) ctx.db.setTableStatsOptions(name, statsOptions);
      });
      if (temporary) temps.add(visible, name);
      return okResult();
    },
  };
}

/**
 * CREATE TABLE `name` LIKE `source`: an empty table with the source's columns (types, NULL,
 * defaults, AUTO_INCREMENT, ON UPDATE), keys, collation and STATS_* options, as MariaDB copies
 * them; its rows and statistics are not copied.
 */
function createTableLike(ctx: StatementContext, name: string, source: string): ReturnType<typeof okResult> {
  const meta = ctx.dict.tables.get(source);
  if (!ctx.db.hasTable(source) || ctx.session.hiddenTable(source) || meta === undefined)
    throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(source)}' doesn't exist`);
  const src = ctx.db.table(source);
  const named = (cols: readonly number[]): string[] => cols.map((c) => src.columns[c]!.name);
  const indexes: IndexDef[] = src.secondary.map((ix) => ({
    name: ix.name,
    columns: named(ix.columns),
    unique: ix.unique,
  }));
  const options = ctx.db.statisticsDictionary.options(src.id);
  atomicDdl(ctx, () => {
    ctx.db.createTable({ name, columns: [...src.columns], primaryKey: named(src.primary.columns), indexes });
    ctx.dict.putTable(name, meta);
    if (Object.values(options).some((v) => v !== undefined)) ctx.db.setTableStatsOptions(name, options);
  });
  return okResult();
}

/** A collation name the engine has, or error 1273 as MySQL for one it does not. */
export function collationOf(name: string): Collation {
  const c = collationByName(name);
  if (c === undefined) throw new SqlError('ER_UNKNOWN_COLLATION', `Unknown collation: '${name}'`);
  return c;
}

/** A column's COLLATE option, else `fallback`. */
export function columnCollation(options: unknown, fallback: Collation): Collation {
  let collation = fallback;
  for (const opt of arr(options)) {
    const [ot, ov] = tagOf(obj(opt).option);
    if (ot === 'Collation') collation = collationOf(objectName(ov).join('.'));
  }
  return collation;
}

/**
 * The database of the table stored as `name`, which must exist (else 1049, as MariaDB answers a
 * CREATE or RENAME into an unknown database).
 */
export function existingDatabase(ctx: StatementContext, name: string): string {
  const schema = schemaOf(name);
  if (!ctx.dict.databases.has(schema)) throw new SqlError('ER_BAD_DB_ERROR', `Unknown database '${schema}'`);
  return schema;
}

/** The table's COLLATE = … (or the default collation of its DEFAULT CHARSET = utf8mb4), else its database's. */
export function tableCollationOf(options: unknown, fallback: Collation): Collation {
  let collation: Collation = fallback;
  for (const kv of arr(tagOf(options)[1] ?? options)) {
    const o = obj(tagOf(kv)[1]);
    const key = String(obj(o.key).value ?? '').toUpperCase();
    const value =
      identText(tagOf(o.value)[1] ?? o.value) || String(tagOf(obj(tagOf(o.value)[1]).value)[1] ?? '');
    if (key === 'COLLATE' || key === 'DEFAULT COLLATE') collation = collationOf(value);
  }
  return collation;
}

function uniqueName(base: string, existing: readonly IndexDef[]): string {
  if (!existing.some((i) => i.name === base)) return base;
  for (let k = 2; ; k++) if (!existing.some((i) => i.name === `${base}_${k}`)) return `${base}_${k}`;
}

function createIndex(o: Obj, ctx: StatementContext): Compiled {
  const iname = objectName(o.name).at(-1)!;
  const tname = ctx.session.tableName(objectName(o.table_name));
  const cols = keyColumns(o.columns);
  const unique = o.unique === true;
  return { run: () => copiedIfTemporary(ctx, tname, addIndex(ctx, tname, iname, cols, unique)) };
}

/** CREATE INDEX: define, then build from the table by merge sort (one step: see Database.alterIndexes). */
export function addIndex(
  ctx: StatementContext,
  tname: string,
  iname: string,
  cols: string[],
  unique: boolean,
): ReturnType<typeof okResult> {
  if (!ctx.db.hasTable(tname) || ctx.session.hiddenTable(tname))
    throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(tname)}' doesn't exist`);
  const t = ctx.db.table(tname);
  if (
    t.secondary.some((s) => s.name.toLowerCase() === iname.toLowerCase()) ||
    iname.toUpperCase() === 'PRIMARY'
  )
    throw new SqlError('ER_DUP_KEYNAME', `Duplicate key name '${iname}'`);
  checkIndexes([{ name: iname, columns: cols }], t.secondary.length + 1);
  const columns = indexColumns(t, cols);
  try {
    ctx.db.addIndex(tname, { name: iname, columns, unique }, (table, index) => {
      buildIndexFromTable(table, [index], {
        innodb_sort_buffer_size: Number(ctx.session.vars.get('innodb_sort_buffer_size')),
      });
    });
  } catch (e) {
    throw storageError(e, true);
  }
  return okResult();
}

/** Key columns named in a statement → the table's own column names (1072 for an unknown one). */
export function indexColumns(t: Table, cols: readonly string[]): string[] {
  return cols.map((cn) => {
    const c = t.columns.find((x) => x.name.toLowerCase() === cn.toLowerCase());
    if (c === undefined || c.name === HIDDEN_PK)
      throw new SqlError('ER_KEY_COLUMN_DOES_NOT_EXITS', `Key column '${cn}' doesn't exist in table`);
    return c.name;
  });
}

/**
 * DROP [TEMPORARY] TABLE: a name the session has a temporary table by drops that table (it hides
 * a table of the same name); DROP TEMPORARY TABLE drops nothing else. Missing names are 1051 (a
 * note with IF EXISTS), all named in one message, as MariaDB writes it.
 */
function dropTables(
  ctx: StatementContext,
  nodes: unknown[],
  temporary: boolean,
  ifExists: boolean,
): Compiled {
  const visible = nodes.map((n) => resolveTableName(objectName(n), ctx.session.database));
  const temps = ctx.session.temporaryTables;
  return {
    run: () => {
      const stored = visible.map(
        (n) =>
          temps.storedName(n) ??
          (temporary || !ctx.db.hasTable(n) || ctx.session.hiddenTable(n) ? undefined : n),
      );
      const missing = visible.filter((_, i) => stored[i] === undefined);
      if (missing.length > 0 && !ifExists)
        throw new SqlError('ER_BAD_TABLE_ERROR', `Unknown table '${missing.map(dottedName).join(',')}'`);
      atomicDdl(ctx, () => {
        for (const n of stored) {
          if (n === undefined) continue;
          ctx.db.dropTable(n);
          ctx.dict.dropTable(n);
        }
      });
      for (const [i, n] of visible.entries()) if (stored[i] !== n) temps.remove(n);
      if (missing.length > 0)
        ctx.session.warn(1051, `Unknown table '${missing.map(dottedName).join(',')}'`, 'Note');
      return okResult();
    },
  };
}

function drop(o: Obj, ctx: StatementContext): Compiled {
  const type = String(o.object_type);
  // views by their storage names (a temporary table does not hide one here); indexes by their own
  const names = arr(o.names).map((n) =>
    type === 'Index' ? objectName(n).at(-1)! : resolveTableName(objectName(n), ctx.session.database),
  );
  const ifExists = o.if_exists === true;
  if (type === 'Table') return dropTables(ctx, arr(o.names), o.temporary === true, ifExists);
  return {
    run: () =>
      atomicDdl(ctx, () => {
        if (type === 'View') {
          const missing = names.filter((n) => !ctx.dict.views.has(n));
          if (missing.length > 0 && !ifExists)
            throw new SqlError('ER_UNKNOWN_VIEW', `Unknown VIEW: '${missing.map(dottedName).join(',')}'`);
          for (const n of names) if (ctx.dict.views.has(n)) ctx.dict.dropView(n);
          for (const m of missing) ctx.session.warn(4092, `Unknown VIEW: '${dottedName(m)}'`, 'Note');
          return okResult();
        }
        if (type === 'Index') {
          const tparts = objectName(o.table);
          if (tparts.length === 0)
            throw new SqlError(
              'ER_PARSE_ERROR',
              "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1",
            );
          const tname = ctx.session.tableName(tparts);
          if (!ctx.db.hasTable(tname) || ctx.session.hiddenTable(tname))
            throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(tname)}' doesn't exist`);
          for (const n of names) {
            const t = ctx.db.table(tname);
            const ix = t.secondary.find((s) => s.name.toLowerCase() === n.toLowerCase());
            if (ix === undefined)
              throw new SqlError(
                'ER_CANT_DROP_FIELD_OR_KEY',
                `Can't DROP INDEX \`${n}\`; check that it exists`,
              );
            ctx.db.dropIndex(tname, ix.name);
          }
          return copiedIfTemporary(ctx, tname, okResult());
        }
        throw new SqlError(
          'ER_NOT_SUPPORTED_YET',
          `This version of MySQL doesn't yet support 'DROP ${type.toUpperCase()}'`,
        );
      }),
  };
}

function createView(o: Obj, ctx: StatementContext): Compiled {
  const name = resolveTableName(objectName(o.name), ctx.session.database);
  const replace = o.or_replace === true;
  return {
    run: () =>
      atomicDdl(ctx, () => {
        const schema = existingDatabase(ctx, name);
        if (ctx.db.hasTable(name))
          throw new SqlError('ER_TABLE_EXISTS_ERROR', `Table '${tableOf(name)}' already exists`);
        if (ctx.dict.views.has(name) && !replace)
          throw new SqlError('ER_TABLE_EXISTS_ERROR', `Table '${tableOf(name)}' already exists`);
        // check that it binds now (unknown tables and columns fail the CREATE, as MySQL); its
        // unqualified names are in the current database, now and whenever the view is read
        const text = unversioned(ctx.sql).trim().replace(/;\s*$/, '');
        // a view outlives the session: it may not read the session's temporary tables
        for (const n of namedTables(parseSql(text)[0], ctx.session.database))
          if (ctx.session.temporaryTables.storedName(n) !== undefined)
            throw new SqlError(
              'ER_VIEW_SELECT_TMPTABLE',
              `View's SELECT refers to a temporary table '${tableOf(n)}'`,
            );
        ctx.session.prepare(`SELECT * FROM (${viewQueryText(text)}) AS v LIMIT 0`);
        ctx.dict.putView(name, text, ctx.session.database ?? schema);
        return okResult();
      }),
  };
}

/**
 * The result of a change to table `name`: MariaDB copies a temporary table for every ALTER,
 * CREATE INDEX and DROP INDEX, so its rows are the statement's affected rows.
 */
export function copiedIfTemporary(ctx: StatementContext, name: string, out: QueryResult): QueryResult {
  if (ctx.session.temporaryTables.visibleName(name) === undefined) return out;
  return { ...out, affectedRows: ctx.db.table(name).rows };
}

/**
 * Runs one DDL statement's changes as one mini-transaction: on any error the file, the
 * storage's objects and the SQL dictionary (reloaded from its table) are as before the statement.
 */
function atomicDdl<T>(ctx: StatementContext, f: () => T): T {
  try {
    return ctx.db.atomically(f);
  } catch (e) {
    SqlDictionary.forget(ctx.db);
    throw storageError(e);
  }
}

/** A CREATE TABLE's `AUTO_INCREMENT [=] n` table option, as the table's meta holds it. */
export function autoIncrementStart(options: unknown): { autoIncrementStart?: number } {
  for (const o of arr(obj(options).Plain)) {
    const kv = obj(o).KeyValue;
    if (kv === undefined || String(obj(obj(kv).key).value).toUpperCase() !== 'AUTO_INCREMENT') continue;
    const n = Number(JSON.stringify(obj(kv).value).match(/\d+/)?.[0]);
    if (Number.isSafeInteger(n) && n > 1) return { autoIncrementStart: n };
  }
  return {};
}

/** A CREATE TABLE's `ROW_FORMAT [=] f` table option, as the table's meta holds it. */
export function rowFormat(options: unknown): { rowFormat?: string } {
  for (const o of arr(obj(options).Plain)) {
    const kv = obj(o).KeyValue;
    if (kv === undefined || String(obj(obj(kv).key).value).toUpperCase() !== 'ROW_FORMAT') continue;
    const f = identText(tagOf(obj(kv).value)[1]).toUpperCase();
    return f === '' || f === 'DEFAULT' ? {} : { rowFormat: f };
  }
  return {};
}

/** A CREATE TABLE's `COMMENT [=] 'text'` table option, as the table's meta holds it. */
export function tableComment(options: unknown): { comment?: string } {
  let found: string | undefined;
  const walk = (n: unknown): void => {
    if (found !== undefined || n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    const c = (n as Record<string, unknown>).Comment;
    if (c !== undefined) {
      // `COMMENT = 'x'` and `COMMENT 'x'` come as { WithEq: 'x' } / { WithoutEq: 'x' }
      const v = typeof c === 'string' ? c : Object.values(c as Record<string, unknown>)[0];
      if (typeof v === 'string') found = v;
      return;
    }
    for (const v of Object.values(n as Record<string, unknown>)) walk(v);
  };
  walk(options);
  return found === undefined || found === '' ? {} : { comment: found };
}

/** The query of a CREATE VIEW statement's text (after its AS). */
function viewQueryText(text: string): string {
  const sql = unversioned(text);
  const m = /\bAS\s+(\(?\s*(SELECT|WITH|VALUES)\b[\s\S]*)$/i.exec(sql);
  return m === null ? sql : m[1]!;
}

export function compileDdl(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  const o = obj(v);
  switch (tag) {
    case 'CreateTable':
      return createTable(o, ctx);
    case 'CreateIndex':
      return createIndex(o, ctx);
    case 'Drop':
      return drop(o, ctx);
    case 'CreateView':
      return createView(o, ctx);
    case 'AlterTable':
      return compileAlter(o, ctx);
    default:
      return undefined;
  }
}

/**
 * 1067 for a constant DEFAULT its column cannot hold (a NULL for NOT NULL, text for a number, a
 * value out of range or too long), as MariaDB refuses the definition: each is stored as an
 * INSERT would store it. Defaults that are expressions (CURRENT_TIMESTAMP …) are not checked.
 */
function checkDefaults(table: Table, meta: TableMeta, ctx: StatementContext): void {
  const w = new RowWriter(table, meta, String(ctx.session.vars.get('time_zone')));
  meta.defaults.forEach((def, i) => {
    if (def === null) return;
    let [t, v] = tagOf(JSON.parse(def));
    if (t === 'UnaryOp' && obj(v).op === 'Minus') [t, v] = tagOf(obj(v).expr);
    if (t !== 'Value') return;
    const d = evaluateStored(def, ctx);
    try {
      w.field(i, d.v, d.t, 1);
    } catch (e) {
      if (e instanceof SqlError)
        throw new SqlError('ER_INVALID_DEFAULT', `Invalid default value for '${table.columns[i]!.name}'`);
      throw e;
    }
  });
}
