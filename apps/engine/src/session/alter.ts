import { ALTER_COPY_PREFIX } from '../storage/database.js';
import type { IndexDef, StoredColumn } from '../storage/types.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { columnCollation, columnType, indexColumns, keyColumns, refuseBlobKeys } from './ddl.js';
import { storageError } from './storage-errors.js';
import { DEFAULT_COLLATION } from '../storage/collation.js';
import { buildIndexFromTable } from '../storage/index-build.js';
import { TableHandler } from '../handler/table-handler.js';
import type { Table, TableIndex } from '../storage/table.js';
import { HIDDEN_PK, type TableMeta } from '../storage/table-meta.js';
import { checkIndexes, checkTable } from '../plan/limits.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

import { dottedName, tableOf } from '../storage/schema-name.js';
/**
 * ALTER TABLE. Index changes (ADD INDEX/KEY/UNIQUE, DROP INDEX) are made in place, a new index
 * built by merge sort from the table; column changes (ADD/DROP COLUMN) copy the table into a new
 * one and swap it in, as MySQL's ALGORITHM=COPY. With `expand_fast_index_creation=ON` the copy
 * has only its primary key while rows go in and its secondary indexes are built afterwards by
 * merge sort within `innodb_sort_buffer_size` (Percona Server). Either way the statement is
 * atomic: on any error the old table stays as it was.
 */
export function compileAlter(o: Obj, ctx: StatementContext): Compiled {
  const name = ctx.session.tableName(objectName(o.name));
  const ops = arr(o.operations).map((op) => tagOf(op));
  return {
    run: () => {
      if (!ctx.db.hasTable(name) || name.startsWith('#'))
        throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
      const columnOps = ops.filter(([t]) => t === 'AddColumn' || t === 'DropColumn');
      if (columnOps.length > 0) return copyAlter(ctx, name, ops);
      // every index change of the statement is made in one step: the new trees are built first,
      // then one mini-transaction adds them and drops the others (the old table stays as it was
      // on any error)
      const t = ctx.db.table(name);
      const adds: IndexDef[] = [];
      const drops: string[] = [];
      for (const [op, v] of ops) {
        if (op === 'AddConstraint') {
          const [kt, kv] = tagOf(obj(v).constraint);
          const ko = obj(kv);
          if (kt !== 'Index' && kt !== 'Unique')
            throw new SqlError(
              'ER_NOT_SUPPORTED_YET',
              `This version of MySQL doesn't yet support 'ALTER TABLE ADD ${kt}'`,
            );
          const cols = keyColumns(ko.columns);
          const nameNode = ko.name ?? ko.index_name;
          const taken = (n: string): boolean =>
            t.secondary.some((s) => s.name.toLowerCase() === n.toLowerCase()) ||
            adds.some((a) => a.name.toLowerCase() === n.toLowerCase());
          const iname =
            nameNode === undefined || nameNode === null ? freeName(taken, cols[0]!) : identText(nameNode);
          if (taken(iname) || iname.toUpperCase() === 'PRIMARY')
            throw new SqlError('ER_DUP_KEYNAME', `Duplicate key name '${iname}'`);
          adds.push({ name: iname, columns: indexColumns(t, cols), unique: kt === 'Unique' });
        } else if (op === 'DropIndex') {
          const iname = identText(obj(v).name);
          const ix = t.secondary.find((s) => s.name.toLowerCase() === iname.toLowerCase());
          if (ix === undefined || drops.includes(ix.name))
            throw new SqlError(
              'ER_CANT_DROP_FIELD_OR_KEY',
              `Can't DROP '${iname}'; check that column/key exists`,
            );
          drops.push(ix.name);
        } else
          throw new SqlError(
            'ER_NOT_SUPPORTED_YET',
            `This version of MySQL doesn't yet support 'ALTER TABLE ${op}'`,
          );
      }
      checkIndexes(
        adds.map((a) => ({ name: a.name, columns: [...a.columns] })),
        t.secondary.length - drops.length + adds.length,
      );
      try {
        ctx.db.alterIndexes(name, adds, drops, (table, added) =>
          buildIndexFromTable(table, added, {
            innodb_sort_buffer_size: Number(ctx.session.vars.get('innodb_sort_buffer_size')),
          }),
        );
      } catch (e) {
        throw storageError(e, true);
      }
      return okResult();
    },
  };
}

function freeName(taken: (name: string) => boolean, base: string): string {
  if (!taken(base)) return base;
  for (let k = 2; ; k++) if (!taken(`${base}_${k}`)) return `${base}_${k}`;
}

function copyAlter(
  ctx: StatementContext,
  name: string,
  ops: Array<[string, unknown]>,
): ReturnType<typeof okResult> {
  const old = ctx.db.table(name);
  const meta = ctx.dict.tables.get(name);
  // the new column list: [stored column, declared type, default, source column or -1]
  let cols = old.columns.map((c, i) => ({
    col: c as StoredColumn,
    type: meta?.types[i] ?? c.type.kind,
    def: meta?.defaults[i] ?? null,
    from: i,
  }));
  let indexes: IndexDef[] = old.secondary.map((s) => ({
    name: s.name,
    columns: s.columns.map((c) => old.columns[c]!.name),
    unique: s.unique,
  }));
  const pk = old.primary.columns.map((c) => old.columns[c]!.name);
  let auto = meta?.autoIncrement ?? -1;
  const autoName = auto >= 0 ? old.columns[auto]!.name : undefined;
  for (const [t, v] of ops) {
    const vo = obj(v);
    if (t === 'AddColumn') {
      const cd = obj(vo.column_def);
      const cname = identText(cd.name);
      if (cols.some((c) => c.col.name.toLowerCase() === cname.toLowerCase()))
        throw new SqlError('ER_DUP_FIELDNAME', `Duplicate column name '${cname}'`);
      const [type, text] = columnType(cd.data_type, cname, columnCollation(cd.options, DEFAULT_COLLATION));
      let nullable = true;
      let def: string | null = null;
      for (const opt of arr(cd.options)) {
        const [ot, ov] = tagOf(obj(opt).option);
        if (ot === 'NotNull') nullable = false;
        else if (ot === 'Default') def = JSON.stringify(ov);
      }
      const entry = {
        col: { name: cname, type, ...(nullable ? { nullable: true } : {}) } as StoredColumn,
        type: text,
        def,
        from: -1,
      };
      const pos = tagOf(vo.column_position);
      const hidden = cols.findIndex((c) => c.col.name === HIDDEN_PK && meta?.hiddenPk === true);
      if (pos[0] === 'After') {
        const at = cols.findIndex((c) => c.col.name.toLowerCase() === identText(pos[1]).toLowerCase());
        if (at < 0)
          throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${identText(pos[1])}' in '${name}'`);
        cols.splice(at + 1, 0, entry);
      } else if (pos[0] === 'First') cols.unshift(entry);
      else if (hidden >= 0) cols.splice(hidden, 0, entry);
      else cols.push(entry);
    } else if (t === 'DropColumn') {
      for (const n of arr(vo.column_names)) {
        const cname = identText(n);
        const at = cols.findIndex(
          (c) => c.col.name.toLowerCase() === cname.toLowerCase() && c.col.name !== HIDDEN_PK,
        );
        if (at < 0)
          throw new SqlError(
            'ER_CANT_DROP_FIELD_OR_KEY',
            `Can't DROP '${cname}'; check that column/key exists`,
          );
        if (pk.includes(cols[at]!.col.name))
          throw new SqlError(
            'ER_NOT_SUPPORTED_YET',
            "This version of MySQL doesn't yet support 'dropping a primary key column'",
          );
        const dropped = cols[at]!.col.name;
        cols.splice(at, 1);
        // an index loses the column; an index left with none is dropped, as MySQL
        indexes = indexes
          .map((ix) => ({ ...ix, columns: ix.columns.filter((c) => c !== dropped) }))
          .filter((ix) => ix.columns.length > 0);
      }
      if (cols.filter((c) => c.col.name !== HIDDEN_PK).length === 0)
        throw new SqlError(
          'ER_CANT_REMOVE_ALL_FIELDS',
          "You can't delete all columns with ALTER TABLE; use DROP TABLE instead",
        );
    } else if (t === 'AddConstraint') {
      const [kt, kv] = tagOf(obj(vo.constraint));
      const ko = obj(kv);
      const nameNode = ko.name ?? ko.index_name;
      const kc = keyColumns(ko.columns);
      if (kt === 'PrimaryKey')
        refuseBlobKeys(
          ko.columns,
          cols.map((c) => c.col),
        );
      indexes.push({ name: nameNode ? identText(nameNode) : kc[0]!, columns: kc, unique: kt === 'Unique' });
    } else if (t === 'DropIndex') {
      const iname = identText(vo.name);
      const before = indexes.length;
      indexes = indexes.filter((ix) => ix.name.toLowerCase() !== iname.toLowerCase());
      if (indexes.length === before)
        throw new SqlError(
          'ER_CANT_DROP_FIELD_OR_KEY',
          `Can't DROP '${iname}'; check that column/key exists`,
        );
    } else
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'ALTER TABLE ${t}'`,
      );
  }
  cols = cols.slice();
  auto = autoName === undefined ? -1 : cols.findIndex((c) => c.col.name === autoName);
  const tmp = `${ALTER_COPY_PREFIX}${name}`;
  if (ctx.db.hasTable(tmp)) ctx.db.dropTable(tmp);
  const fast = Number(ctx.session.vars.get('expand_fast_index_creation')) === 1;
  const visible = cols.filter((c) => c.col.name !== HIDDEN_PK).map((c) => c.col);
  checkTable(tableOf(name), visible, pk.includes(HIDDEN_PK) ? [] : pk, indexes);
  let fresh: Table;
  try {
    fresh = ctx.db.createTable({
      name: tmp,
      columns: cols.map((c) => c.col),
      primaryKey: pk,
      indexes: fast ? [] : indexes,
    });
  } catch (e) {
    throw storageError(e, true);
  }
  const defaults = cols.map((c) => (c.from >= 0 ? null : c.def));
  try {
    const rowOut = new Array(cols.length);
    const fill = cols.map((c, i) => {
      if (c.from >= 0) return undefined;
      const d = defaults[i];
      if (d === null || d === undefined) {
        if (c.col.nullable !== true) return defaultOfType(c.col);
        return null;
      }
      const lv = literalValue(d);
      const k = c.col.type.kind;
      if (typeof lv === 'string' && (k === 'int' || k === 'bigint') && /^-?\d+$/.test(lv)) {
        const x = BigInt(lv);
        return x >= -MAX_SAFE && x <= MAX_SAFE ? Number(x) : x;
      }
      return typeof lv === 'string' && (k === 'int' || k === 'bigint' || k === 'double') ? Number(lv) : lv;
    });
    new TableHandler(old).rndScan((r) => {
      for (let i = 0; i < cols.length; i++) {
        const from = cols[i]!.from;
        rowOut[i] = from >= 0 ? copyField(r.get(from)) : fill[i];
      }
      fresh.insert(rowOut);
      return true;
    });
    if (fast && indexes.length > 0) {
      // Percona's expand_fast_index_creation: the rows went in with the primary key alone; now
      // every secondary is defined and built in one more pass, by merge sort (as InnoDB's
      // row_merge_build_indexes), within innodb_sort_buffer_size per index
      let table = fresh;
      const built: TableIndex[] = [];
      for (const ix of indexes) {
        const columns = ix.columns.map((cn) => {
          const c = table.columns.find((x) => x.name.toLowerCase() === cn.toLowerCase());
          if (c === undefined || c.name === HIDDEN_PK)
            throw new SqlError('ER_KEY_COLUMN_DOES_NOT_EXITS', `Key column '${cn}' doesn't exist in table`);
          return c.name;
        });
        const r = ctx.db.addIndexDefinition(tmp, { name: ix.name, columns, unique: ix.unique === true });
        table = r.table;
        built.push(r.index);
      }
      // the new trees are the copy's own: built without redo, then written (as ADD INDEX's)
      ctx.db.bulkBuild(() =>
        buildIndexFromTable(table, built, {
          innodb_sort_buffer_size: Number(ctx.session.vars.get('innodb_sort_buffer_size')),
        }),
      );
    }
  } catch (e) {
    ctx.db.dropTable(tmp);
    throw storageError(e, true);
  }
  const newMeta: TableMeta = {
    types: cols.map((c) => c.type),
    defaults: cols.map((c) => c.def),
    autoIncrement: auto,
    hiddenPk: meta?.hiddenPk ?? false,
  };
  // One mini-transaction: a crash leaves the old table or the new one, never neither.
  ctx.db.atomically(() => {
    ctx.db.dropTable(name);
    ctx.db.renameTable(tmp, name);
    ctx.dict.putTable(name, newMeta);
  });
  return okResult(0);
}

const MAX_SAFE = 9007199254740991n;

function copyField(v: unknown): string | number | bigint | Uint8Array | null {
  return v as string | number | bigint | Uint8Array | null;
}

/** The implicit default of a NOT NULL column without DEFAULT when rows exist (MySQL's: 0, '', 0000-00-00 → 1970-01-01 here). */
function defaultOfType(c: StoredColumn): string | number {
  return c.type.kind === 'char' || c.type.kind === 'varchar' ? '' : 0;
}

/** A DEFAULT clause value (a literal): as a stored field value. */
function literalValue(json: string): string | number | null {
  const [t, v] = tagOf(JSON.parse(json));
  if (t === 'Value') {
    const [vt, vv] = tagOf(obj(v).value);
    if (vt === 'Number') return String(arr(vv)[0]);
    if (vt === 'Null') return null;
    return String(vv);
  }
  if (t === 'UnaryOp' && obj(v).op === 'Minus') {
    const inner = literalValue(JSON.stringify(obj(v).expr));
    return inner === null ? null : `-${inner}`;
  }
  throw new SqlError(
    'ER_NOT_SUPPORTED_YET',
    "This version of MySQL doesn't yet support 'a DEFAULT expression in ALTER TABLE ADD COLUMN'",
  );
}
