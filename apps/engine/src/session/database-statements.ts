import { arr, obj, type Obj, objectName, str, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { isSystemSchema, SYSTEM_SCHEMAS } from '../plan/system-tables.js';
import { collationByName } from '../storage/collation.js';
import { SqlDictionary } from './dictionary.js';
import { okResult, type QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { showFilter } from './show-where.js';
import { storageError } from './storage-errors.js';

/**
 * Statements about databases: CREATE DATABASE / SCHEMA [IF NOT EXISTS], DROP DATABASE / SCHEMA
 * [IF EXISTS] (with its tables and views), USE, SHOW DATABASES [LIKE | WHERE], SHOW CREATE DATABASE. A
 * database file holds every database (one tablespace, one dictionary, one redo log); the
 * dictionary keeps their names, and a table's database is part of its storage name.
 */

/** MariaDB's NAME_LEN for a database name, in characters. */
const MAX_DATABASE_NAME = 64;
const DEFAULT_COLLATION_NAME = 'utf8mb4_general_ci';

/** Error 1102 for a name MariaDB refuses as a database name (empty, too long, ending in a space). */
export function checkDatabaseName(name: string): void {
  if (name === '' || [...name].length > MAX_DATABASE_NAME || name.endsWith(' '))
    throw new SqlError('ER_WRONG_DB_NAME', `Incorrect database name '${name}'`);
}

function rows(columns: string[], r: unknown[][]): QueryResult {
  return { columns, rows: r, affectedRows: 0, insertId: 0, warnings: 0 };
}

/** CREATE DATABASE (the parser's CreateDatabase) or CREATE SCHEMA (its CreateSchema). */
function createDatabase(o: Obj, ctx: StatementContext): Compiled {
  const name = objectName(o.db_name ?? obj(o.schema_name).Simple).at(-1)!;
  const ifNotExists = o.if_not_exists === true;
  const charset = str(o.default_charset);
  const given = str(o.default_collation);
  return {
    run: () => {
      checkDatabaseName(name);
      const collation =
        charset !== undefined || given !== undefined ? databaseCollation(charset, given) : undefined;
      const dict = SqlDictionary.of(ctx.db);
      if (dict.databases.has(name) || isSystemSchema(name)) {
        if (!ifNotExists)
          throw new SqlError('ER_DB_CREATE_EXISTS', `Can't create database '${name}'; database exists`);
        ctx.session.warn(1007, `Can't create database '${name}'; database exists`, 'Note');
        return okResult();
      }
      try {
        ctx.db.atomically(() => dict.putDatabase(name, collation === undefined ? {} : { collation }));
      } catch (e) {
        SqlDictionary.forget(ctx.db);
        throw storageError(e);
      }
      return okResult(1);
    },
  };
}

function dropDatabase(o: Obj, ctx: StatementContext): Compiled {
  const names = arr(o.names).map((n) => objectName(n).at(-1)!);
  const ifExists = o.if_exists === true;
  if (names.length !== 1)
    throw new SqlError(
      'ER_PARSE_ERROR',
      "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ',' at line 1",
    );
  const name = names[0]!;
  return {
    run: () => {
      const dict = SqlDictionary.of(ctx.db);
      if (isSystemSchema(name))
        throw new SqlError(
          'ER_DBACCESS_DENIED_ERROR',
          `Access denied for user '${ctx.session.user}'@'${ctx.session.host}' to database '${name.toLowerCase()}'`,
        );
      if (!dict.databases.has(name)) {
        if (!ifExists)
          throw new SqlError('ER_DB_DROP_EXISTS', `Can't drop database '${name}'; database doesn't exist`);
        ctx.session.warn(1008, `Can't drop database '${name}'; database doesn't exist`, 'Note');
        return okResult();
      }
      const tables = dict.userTables(name).map((t) => t.name);
      const views = dict.viewNames(name);
      // one mini-transaction: the tables, the views and the name go together, or none does
      try {
        ctx.db.atomically(() => {
          for (const t of tables) {
            ctx.db.dropTable(t);
            dict.dropTable(t);
          }
          for (const v of views) dict.dropView(v);
          dict.dropDatabase(name);
        });
      } catch (e) {
        SqlDictionary.forget(ctx.db);
        throw storageError(e);
      }
      if (ctx.session.database === name) ctx.session.database = null;
      // MariaDB counts the tables and views it removed
      return okResult(tables.length + views.length);
    },
  };
}

function use(v: unknown, ctx: StatementContext): Compiled {
  const [, payload] = tagOf(v);
  const name = objectName(payload).at(-1);
  if (name === undefined)
    throw new SqlError(
      'ER_PARSE_ERROR',
      "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1",
    );
  return {
    run: () => {
      ctx.session.useDatabase(name);
      return okResult();
    },
  };
}

/** Every database name, the system schemas first as MariaDB lists them, sorted by name. */
export function databaseNames(ctx: StatementContext): string[] {
  return [...SYSTEM_SCHEMAS, ...SqlDictionary.of(ctx.db).databases.keys()].sort();
}

function showDatabases(o: Obj, ctx: StatementContext): Compiled {
  const filterPosition = obj(o.show_options).filter_position;
  const [ft, fv] = tagOf(tagOf(filterPosition)[1]);
  const title = ft === 'Like' ? `Database (${String(fv)})` : 'Database';
  return {
    run: () => {
      const keep = showFilter(filterPosition, ['Database'], ctx);
      return rows(
        [title],
        databaseNames(ctx)
          .map((n) => [n])
          .filter((r) => keep(r)),
      );
    },
  };
}

/** SHOW CREATE DATABASE name (a node the text recognizer makes: see sql/mysql-statements.ts). */
function showCreateDatabase(v: unknown, ctx: StatementContext): Compiled {
  const o = v as { name: string; ifNotExists: boolean };
  return {
    run: () => {
      const meta = SqlDictionary.of(ctx.db).databases.get(o.name);
      if (meta === undefined && !isSystemSchema(o.name))
        throw new SqlError('ER_BAD_DB_ERROR', `Unknown database '${o.name}'`);
      const collation =
        meta?.collation ?? (isSystemSchema(o.name) ? 'utf8mb3_general_ci' : DEFAULT_COLLATION_NAME);
      const charset = collation.slice(0, collation.indexOf('_'));
      return rows(
        ['Database', 'Create Database'],
        [
          [
            o.name,
            `CREATE DATABASE ${o.ifNotExists ? '/*!32312 IF NOT EXISTS*/ ' : ''}\`${o.name}\` /*!40100 DEFAULT CHARACTER SET ${charset} COLLATE ${collation} */`,
          ],
        ],
      );
    },
  };
}

/** The collation a CREATE DATABASE option names (1273 / 1115 for an unknown one). */
export function databaseCollation(charset: string | undefined, collation: string | undefined): string {
  if (collation !== undefined) {
    const c = collationByName(collation);
    if (c === undefined) throw new SqlError('ER_UNKNOWN_COLLATION', `Unknown collation: '${collation}'`);
    return c;
  }
  if (charset !== undefined && charset.toLowerCase() !== 'utf8mb4')
    throw new SqlError('ER_UNKNOWN_CHARACTER_SET', `Unknown character set: '${charset}'`);
  return DEFAULT_COLLATION_NAME;
}

/** The statement compiled if it is about databases, else undefined. */
export function compileDatabaseStatement(
  tag: string,
  v: unknown,
  ctx: StatementContext,
): Compiled | undefined {
  const o = obj(v);
  switch (tag) {
    case 'CreateDatabase':
    case 'CreateSchema':
      return createDatabase(o, ctx);
    case 'Drop':
      return o.object_type === 'Database' || o.object_type === 'Schema' ? dropDatabase(o, ctx) : undefined;
    case 'Use':
      return use(v, ctx);
    case 'ShowDatabases':
    case 'ShowSchemas':
      return showDatabases(o, ctx);
    case 'ShowCreateDatabase':
      return showCreateDatabase(v, ctx);
    default:
      return undefined;
  }
}
