import { instanceOf } from './instance.js';
import type { IndexDef, TableSchema } from '../storage/types.js';
import type { Table } from '../storage/table.js';
import { arr, obj, objectName } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { storageError } from './storage-errors.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { dottedName, schemaOf as schemaOfName, tableOf } from '../storage/schema-name.js';
import { resolveTableName } from '../plan/table-name.js';
import { existingDatabase } from './ddl.js';

/**
 * TRUNCATE [TABLE] t: the table dropped and created again empty with the same definition (as
 * InnoDB does), its AUTO_INCREMENT counter back at 1; RENAME TABLE a TO b [, c TO d …]: the same
 * trees under new names, applied left to right, all or none; a table may move to another
 * database (`RENAME TABLE a.t TO b.t`), a view may not (1450, as MariaDB).
 */

function missing(name: string): SqlError {
  return new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
}

/** The definition a table was created with (columns, primary key, secondary indexes). */
export function schemaOf(t: Table): TableSchema {
  const names = (cols: readonly number[]): string[] => cols.map((c) => t.columns[c]!.name);
  return {
    name: t.name,
    columns: t.columns,
    primaryKey: names(t.primary.columns),
    indexes: t.secondary.map(
      (s): IndexDef => ({ name: s.name, columns: names(s.columns), unique: s.unique }),
    ),
  };
}

function truncate(o: Record<string, unknown>, ctx: StatementContext): Compiled {
  const names = arr(o.table_names).map((t) => ctx.session.tableName(objectName(obj(t).name)));
  return {
    run: () => {
      for (const name of names) {
        if (!ctx.db.hasTable(name) || ctx.session.hiddenTable(name)) throw missing(name);
        const t = ctx.db.table(name);
        const schema = schemaOf(t);
        try {
          ctx.db.dropTable(name);
          ctx.db.createTable(schema);
        } catch (e) {
          throw storageError(e);
        }
        // the table is a new one: its counter starts again at 1, the AUTO_INCREMENT table option
        // forgotten (as MariaDB's TRUNCATE)
        const meta = ctx.dict.tables.get(name);
        if (meta?.autoIncrementStart !== undefined) {
          const { autoIncrementStart: _, ...rest } = meta;
          ctx.dict.putTable(name, rest);
        }
        instanceOf(ctx.db).autoIncrement.reset(ctx.db.table(name));
      }
      return okResult();
    },
  };
}

/**
 * RENAME TABLE a TO b, …: the renames in order, every one checked before any is made. A temporary
 * table of the session is renamed in the session alone (its stored name stays hidden); the new
 * name may be a table's, not another temporary table's.
 */
function rename(v: unknown, ctx: StatementContext): Compiled {
  const schema = ctx.session.database;
  const pairs = arr(v).map((r) => {
    const ro = obj(r);
    return [
      resolveTableName(objectName(ro.old_name), schema),
      resolveTableName(objectName(ro.new_name), schema),
    ] as const;
  });
  const temps = ctx.session.temporaryTables;
  return {
    run: () => {
      // check the whole list first: names as they will be after each earlier rename
      const exists = new Set(
        [...ctx.dict.userTables().map((t) => t.name), ...ctx.dict.views.keys()].map((n) => n.toLowerCase()),
      );
      const temporary = new Set(temps.entries().map(([n]) => n));
      const renamesTemporary: boolean[] = [];
      for (const [from, to] of pairs) {
        renamesTemporary.push(temporary.has(from));
        if (temporary.has(from)) {
          if (temporary.has(to) && from !== to)
            throw new SqlError('ER_TABLE_EXISTS_ERROR', `Table '${tableOf(to)}' already exists`);
          existingDatabase(ctx, to);
          temporary.delete(from);
          temporary.add(to);
          continue;
        }
        if (!exists.has(from.toLowerCase())) throw missing(from);
        if (exists.has(to.toLowerCase()) && from.toLowerCase() !== to.toLowerCase())
          throw new SqlError('ER_TABLE_EXISTS_ERROR', `Table '${tableOf(to)}' already exists`);
        if (!ctx.dict.databases.has(schemaOfName(to)))
          throw new SqlError(
            'ER_ERROR_ON_RENAME',
            `Error on rename of './${schemaOfName(from)}/${tableOf(from)}' to './${schemaOfName(to)}/${tableOf(to)}' (errno: 168 "Unknown (generic) error from engine")`,
          );
        if (ctx.dict.views.has(from) && schemaOfName(from) !== schemaOfName(to))
          throw new SqlError(
            'ER_FORBID_SCHEMA_CHANGE',
            `Changing schema from '${schemaOfName(from)}' to '${schemaOfName(to)}' is not allowed`,
          );
        exists.delete(from.toLowerCase());
        exists.add(to.toLowerCase());
      }
      for (const [i, [from, to]] of pairs.entries()) {
        if (renamesTemporary[i] === true) {
          temps.rename(from, to);
          continue;
        }
        const view = ctx.dict.views.get(from);
        if (view !== undefined) {
          const schema = ctx.dict.viewSchema(from);
          ctx.dict.dropView(from);
          ctx.dict.putView(to, view, schema);
          continue;
        }
        try {
          ctx.db.renameTable(from, to);
        } catch (e) {
          throw storageError(e);
        }
        const meta = ctx.dict.tables.get(from);
        if (meta !== undefined) {
          ctx.dict.dropTable(from);
          ctx.dict.putTable(to, meta);
        }
      }
      return okResult();
    },
  };
}

export function compileTableStatement(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  switch (tag) {
    case 'Truncate':
      return truncate(obj(v), ctx);
    case 'RenameTable':
      return rename(v, ctx);
    default:
      return undefined;
  }
}
