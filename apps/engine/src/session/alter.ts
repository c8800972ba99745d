import { ALTER_COPY_PREFIX } from '../storage/database.js';
import type { FieldValue, IndexDef, StoredColumn } from '../storage/types.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import {
  autoIncrementStart,
  columnCollation,
  columnType,
  copiedIfTemporary,
  indexColumns,
  keyColumns,
  refuseBlobKeys,
  rowFormat,
  tableCollationOf,
  tableComment,
} from './ddl.js';
import { instanceOf } from './instance.js';
import { tableStatsOptions } from './stats-statements.js';
import { storageError } from './storage-errors.js';
import { type Collation, DEFAULT_COLLATION } from '../storage/collation.js';
import { buildIndexFromTable } from '../storage/index-build.js';
import { TableHandler } from '../handler/table-handler.js';
import type { Table, TableIndex } from '../storage/table.js';
import { HIDDEN_PK, type TableMeta } from '../storage/table-meta.js';
import { checkIndexes, checkTable } from '../plan/limits.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

import { dottedName, splitName, tableOf } from '../storage/schema-name.js';
import { RowWriter } from './dml.js';
import { storedType } from '../plan/select.js';
import type { RowBuffer } from '../storage/row.js';
import type { SqlType } from '../exec/types.js';
import { compileTableStatement } from './table-statements.js';
/**
 * ALTER TABLE. Index changes (ADD INDEX/KEY/UNIQUE, DROP INDEX) are made in place, a new index
 * built by merge sort from the table; column changes (ADD / DROP / MODIFY / CHANGE / RENAME
 * COLUMN, ALTER COLUMN … SET / DROP DEFAULT) copy the table into a new one and swap it in, as
 * MySQL's ALGORITHM=COPY, a column whose type changed converted value by value as an INSERT
 * converts it (strict mode: a value that does not fit fails the statement); RENAME TO alone is
 * RENAME TABLE. With `expand_fast_index_creation=ON` the copy
 * has only its primary key while rows go in and its secondary indexes are built afterwards by
 * merge sort within `innodb_sort_buffer_size` (Percona Server). Either way the statement is
 * atomic: on any error the old table stays as it was.
 */
export function compileAlter(o: Obj, ctx: StatementContext): Compiled {
  const name = ctx.session.tableName(objectName(o.name));
  // ALGORITHM = COPY: the rows copied are the statement's affected rows, as MariaDB reports them
  const copying = arr(o.operations).some((op) => {
    const [t, v] = tagOf(op);
    return t === 'Algorithm' && String(obj(v).algorithm ?? v).toUpperCase() === 'COPY';
  });
  // ALGORITHM = … and LOCK = … choose among MariaDB's methods; the engine has one per operation
  const all = arr(o.operations)
    .map((op) => tagOf(op))
    .filter(([op]) => op !== 'Algorithm' && op !== 'Lock');
  const isOption = (op: string): boolean => op === 'TableOptions' || op === 'AutoIncrement';
  const ops = all.filter(([op]) => !isOption(op));
  // table options (the parser reads AUTO_INCREMENT = n itself, the rest come recognized)
  const plain = all
    .filter(([op]) => isOption(op))
    .flatMap(([op, v]) =>
      op === 'TableOptions'
        ? arr(obj(v).Plain)
        : [{ KeyValue: { key: { value: 'AUTO_INCREMENT' }, value: { Value: obj(v).value } } }],
    );
  const changes = alterChanges(ctx, o, name, ops, copying);
  return {
    run: () => {
      if (!ctx.db.hasTable(name) || ctx.session.hiddenTable(name))
        throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
      if (ops.length === 0)
        return copiedIfTemporary(
          ctx,
          name,
          plain.length === 0 ? okResult() : alterTableOptions(ctx, name, { Plain: plain }),
        );
      // the table's changes first, then its options (the dictionary row of the table they made);
      // options it would refuse are refused before anything changes
      if (plain.length > 0) alterTableOptions(ctx, name, { Plain: plain }, true);
      const res = changes();
      if (ops.length === 1 && ops[0]![0] === 'RenameTable') return res;
      return copiedIfTemporary(
        ctx,
        name,
        plain.length === 0
          ? res
          : { ...res, ...alterTableOptions(ctx, name, { Plain: plain }), affectedRows: res.affectedRows },
      );
    },
  };
}

/** The column and index changes of an ALTER TABLE (`ops`: neither options nor ALGORITHM / LOCK). */
function alterChanges(
  ctx: StatementContext,
  o: Obj,
  name: string,
  ops: Array<[string, unknown]>,
  copying: boolean,
): () => ReturnType<typeof okResult> {
  return () => {
    // ALTER TABLE t RENAME TO u alone is RENAME TABLE t TO u
    if (ops.length === 1 && ops[0]![0] === 'RenameTable') {
      const to = tagOf(obj(ops[0]![1]).table_name)[1];
      return compileTableStatement('RenameTable', [{ old_name: o.name, new_name: to }], ctx)!.run([]);
    }
    // a primary key is the clustered index: adding or dropping one copies the table
    const columnOps = ops.filter(
      ([t, v]) => COPY_OPS.has(t) || (t === 'AddConstraint' && tagOf(obj(v).constraint)[0] === 'PrimaryKey'),
    );
    if (columnOps.length > 0) return copyAlter(ctx, name, ops, copying);
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
        // ADD … IF NOT EXISTS of an index the table has: MariaDB's note, nothing added
        if (
          obj(v).if_not_exists === true &&
          t.secondary.some((s) => s.name.toLowerCase() === iname.toLowerCase())
        ) {
          ctx.session.warn(1061, `Duplicate key name '${iname}'`, 'Note');
          continue;
        }
        if (taken(iname) || iname.toUpperCase() === 'PRIMARY')
          throw new SqlError('ER_DUP_KEYNAME', `Duplicate key name '${iname}'`);
        adds.push({ name: iname, columns: indexColumns(t, cols), unique: kt === 'Unique' });
      } else if (op === 'DropIndex') {
        const iname = identText(obj(v).name);
        const ix = t.secondary.find((s) => s.name.toLowerCase() === iname.toLowerCase());
        if (ix === undefined || drops.includes(ix.name)) {
          const message = `Can't DROP INDEX \`${iname}\`; check that it exists`;
          if (obj(v).if_exists !== true) throw new SqlError('ER_CANT_DROP_FIELD_OR_KEY', message);
          ctx.session.warn(1091, message, 'Note');
          continue;
        }
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
  };
}

/**
 * ALTER TABLE t with table options only, read as CREATE TABLE reads them: COMMENT, AUTO_INCREMENT
 * (the counter starts again from the larger of it and the largest value stored, as InnoDB's),
 * STATS_* (DEFAULT takes one away), [DEFAULT] COLLATE / CHARSET (the default of columns added
 * later; utf8mb4 is the one character set), ENGINE and ROW_FORMAT (InnoDB's Dynamic rows are the
 * one kind: nothing to change), DISABLE / ENABLE KEYS (note 1031, as InnoDB's). The dictionary row and the statistics options change in one step.
 */
function alterTableOptions(
  ctx: StatementContext,
  name: string,
  options: unknown,
  check = false,
): ReturnType<typeof okResult> {
  const t = ctx.db.table(name);
  const meta = ctx.dict.tables.get(name);
  if (meta === undefined) throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
  const plain = arr(obj(options).Plain);
  const keyOf = (o: unknown): string => String(obj(obj(obj(o).KeyValue).key).value ?? '').toUpperCase();
  const has = (k: string): boolean => plain.some((o) => keyOf(o) === k);
  const comment = plain.some((o) => obj(o).Comment !== undefined) ? tableComment(options) : undefined;
  const start = has('AUTO_INCREMENT') ? autoIncrementStart(options) : undefined;
  const format = has('ROW_FORMAT') ? rowFormat(options) : undefined;
  const collated = plain.some((o) => /COLLATE|CHARSET|CHARACTER SET/.test(keyOf(o)));
  for (const o of plain) {
    const k = keyOf(o);
    if (/CHARSET|CHARACTER SET/.test(k)) {
      const cs = identText(tagOf(obj(obj(o).KeyValue).value)[1]);
      if (cs.toLowerCase() !== 'utf8mb4')
        throw new SqlError('ER_UNKNOWN_CHARACTER_SET', `Unknown character set: '${cs}'`);
    }
  }
  const collation = collated
    ? tableCollationOf(options, (meta.collation as Collation | undefined) ?? DEFAULT_COLLATION)
    : undefined;
  const { comment: _c, autoIncrementStart: _a, collation: _l, rowFormat: _r, ...rest } = meta;
  const next: TableMeta = {
    ...rest,
    ...(format ?? (meta.rowFormat === undefined ? {} : { rowFormat: meta.rowFormat })),
    ...(comment === undefined ? (meta.comment === undefined ? {} : { comment: meta.comment }) : comment),
    ...(start === undefined
      ? meta.autoIncrementStart === undefined
        ? {}
        : { autoIncrementStart: meta.autoIncrementStart }
      : start),
    ...(collation === undefined
      ? meta.collation === undefined
        ? {}
        : { collation: meta.collation }
      : collation === DEFAULT_COLLATION
        ? {}
        : { collation }),
  };
  const stats = tableStatsOptions(options);
  const statsKeys = ['STATS_PERSISTENT', 'STATS_AUTO_RECALC', 'STATS_SAMPLE_PAGES'].filter(has);
  // `check`: the options are read (and refused) before the statement changes anything
  if (check) return okResult();
  // InnoDB has no keys to disable: MariaDB's note, nothing done (MariaDB 10.11 leaves the note
  // out of a DISABLE KEYS in locked-tables mode, where mysqldump's scripts write it)
  const keys = plain.find((o) => keyOf(o) === 'KEYS');
  const disable = keys !== undefined && identText(tagOf(obj(obj(keys).KeyValue).value)[1]) === 'DISABLE';
  if (keys !== undefined && !(disable && ctx.session.txn.tables.active))
    ctx.session.warn(
      1031,
      `Storage engine InnoDB of the table \`${splitName(name).schema}\`.\`${tableOf(name)}\` doesn't have this option`,
      'Note',
    );
  ctx.db.atomically(() => {
    ctx.dict.putTable(name, next);
    if (statsKeys.length > 0) {
      const now = { ...ctx.db.statisticsDictionary.options(t.id) };
      const field = {
        STATS_PERSISTENT: 'statsPersistent',
        STATS_AUTO_RECALC: 'statsAutoRecalc',
        STATS_SAMPLE_PAGES: 'statsSamplePages',
      } as const;
      for (const k of statsKeys) {
        const f = field[k as keyof typeof field];
        const v = stats[f];
        if (v === undefined) delete now[f];
        else (now as Record<string, unknown>)[f] = v;
      }
      ctx.db.setTableStatsOptions(name, now);
    }
  });
  if (start !== undefined) instanceOf(ctx.db).autoIncrement.reset(t);
  return okResult();
}

/** The changes made by copying the table (ALGORITHM=COPY). */
const COPY_OPS = new Set([
  'Force',
  'RenameIndex',
  'DropPrimaryKey',
  'AddColumn',
  'DropColumn',
  'ModifyColumn',
  'ChangeColumn',
  'RenameColumn',
  'AlterColumn',
]);

function freeName(taken: (name: string) => boolean, base: string): string {
  if (!taken(base)) return base;
  for (let k = 2; ; k++) if (!taken(`${base}_${k}`)) return `${base}_${k}`;
}

function copyAlter(
  ctx: StatementContext,
  name: string,
  ops: Array<[string, unknown]>,
  copying = false,
): ReturnType<typeof okResult> {
  const old = ctx.db.table(name);
  const meta = ctx.dict.tables.get(name);
  // the new column list: [stored column, declared type, default, source column or -1]
  // `convert`: the column's type changed, so its values go through the new column's conversion
  // a column's ON UPDATE and COMMENT travel with it, as its default does
  let cols: {
    col: StoredColumn;
    type: string;
    def: string | null;
    onUpdate: string | null;
    comment: string | null;
    from: number;
    convert?: boolean;
    /** Made NOT NULL by ADD PRIMARY KEY: a NULL stored is 1265, as MariaDB's. */
    notNull?: boolean;
    /** The hidden row id DROP PRIMARY KEY adds: 1, 2, … in the copy's order. */
    rowId?: boolean;
  }[] = old.columns.map((c, i) => ({
    col: c as StoredColumn,
    type: meta?.types[i] ?? c.type.kind,
    def: meta?.defaults[i] ?? null,
    onUpdate: meta?.onUpdate?.[i] ?? null,
    comment: meta?.comments?.[i] ?? null,
    from: i,
  }));
  // a column added or redefined without a collation of its own takes the table's
  const tableCollation = (meta?.collation as Collation | undefined) ?? DEFAULT_COLLATION;
  const find = (cname: string): number => {
    const at = cols.findIndex(
      (c) => c.col.name.toLowerCase() === cname.toLowerCase() && c.col.name !== HIDDEN_PK,
    );
    if (at < 0) throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${cname}' in '${tableOf(name)}'`);
    return at;
  };
  /** A column renamed: its indexes, primary key and AUTO_INCREMENT follow it. */
  const renamed = (from: string, to: string): void => {
    if (from.toLowerCase() === to.toLowerCase()) return;
    if (cols.some((c) => c.col.name.toLowerCase() === to.toLowerCase()))
      throw new SqlError('ER_DUP_FIELDNAME', `Duplicate column name '${to}'`);
    const swap = (n: string): string => (n === from ? to : n);
    indexes = indexes.map((ix) => ({ ...ix, columns: ix.columns.map(swap) }));
    pk.splice(0, pk.length, ...pk.map(swap));
    if (autoName === from) autoName = to;
  };
  let indexes: IndexDef[] = old.secondary.map((s) => ({
    name: s.name,
    columns: s.columns.map((c) => old.columns[c]!.name),
    unique: s.unique,
  }));
  const pk = old.primary.columns.map((c) => old.columns[c]!.name);
  let auto = meta?.autoIncrement ?? -1;
  let autoName = auto >= 0 ? old.columns[auto]!.name : undefined;
  // the table's primary key is the hidden row id (it was created without one)
  let hidden = meta?.hiddenPk === true;
  let droppedPk = false;
  for (const [t, v] of ops) {
    const vo = obj(v);
    // FORCE: the table copied as it is (InnoDB's rebuild)
    if (t === 'Force') continue;
    if (t === 'AddColumn') {
      const cd = obj(vo.column_def);
      const cname = identText(cd.name);
      if (cols.some((c) => c.col.name.toLowerCase() === cname.toLowerCase())) {
        if (vo.if_not_exists !== true)
          throw new SqlError('ER_DUP_FIELDNAME', `Duplicate column name '${cname}'`);
        // ADD COLUMN IF NOT EXISTS of a column the table has: MariaDB's note, nothing added
        ctx.session.warn(1060, `Duplicate column name '${cname}'`, 'Note');
        continue;
      }
      const [type, text] = columnType(cd.data_type, cname, columnCollation(cd.options, tableCollation));
      const d = definition(arr(cd.options));
      const entry = {
        col: { name: cname, type, ...(d.nullable ? { nullable: true } : {}) } as StoredColumn,
        type: text,
        def: d.def,
        onUpdate: d.onUpdate,
        comment: d.comment,
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
        if (at < 0) {
          const message = `Can't DROP COLUMN \`${cname}\`; check that it exists`;
          if (vo.if_exists !== true) throw new SqlError('ER_CANT_DROP_FIELD_OR_KEY', message);
          // DROP COLUMN IF EXISTS of a missing column: MariaDB's note, nothing dropped
          ctx.session.warn(1091, message, 'Note');
          continue;
        }
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
    } else if (t === 'RenameColumn') {
      const at = find(identText(vo.old_column_name));
      const to = identText(vo.new_column_name);
      renamed(cols[at]!.col.name, to);
      cols[at] = { ...cols[at]!, col: { ...cols[at]!.col, name: to } };
    } else if (t === 'AlterColumn') {
      const at = find(identText(vo.column_name));
      const [opTag, opValue] = tagOf(vo.op);
      if (opTag === 'SetDefault') cols[at] = { ...cols[at]!, def: JSON.stringify(obj(opValue).value) };
      else if (opTag === 'DropDefault') cols[at] = { ...cols[at]!, def: null };
      else
        throw new SqlError(
          'ER_NOT_SUPPORTED_YET',
          `This version of MySQL doesn't yet support 'ALTER COLUMN ${opTag}'`,
        );
    } else if (t === 'ModifyColumn' || t === 'ChangeColumn') {
      // the column redefined in full (type, NULL, DEFAULT), possibly renamed and moved
      const oldName = identText(t === 'ModifyColumn' ? vo.col_name : vo.old_name);
      const at = find(oldName);
      const cname = t === 'ModifyColumn' ? cols[at]!.col.name : identText(vo.new_name);
      const [type, text] = columnType(
        vo.data_type,
        cname,
        columnCollation(optionsOf(vo.options), tableCollation),
      );
      const d = definition(optionsOf(vo.options));
      if (d.autoIncrement) autoName = cname;
      const nullable = d.nullable && !pk.includes(cols[at]!.col.name);
      const entry = {
        col: { name: cname, type, ...(nullable ? { nullable: true } : {}) } as StoredColumn,
        type: text,
        def: d.def,
        onUpdate: d.onUpdate,
        comment: d.comment,
        from: cols[at]!.from,
        convert: true,
      };
      renamed(cols[at]!.col.name, cname);
      cols.splice(at, 1);
      const pos = tagOf(vo.column_position);
      if (pos[0] === 'After') {
        const after = find(identText(pos[1]));
        cols.splice(after + 1, 0, entry);
      } else if (pos[0] === 'First') cols.unshift(entry);
      else cols.splice(at, 0, entry);
    } else if (t === 'AddConstraint') {
      const [kt, kv] = tagOf(obj(vo.constraint));
      const ko = obj(kv);
      const nameNode = ko.name ?? ko.index_name;
      const kc = keyColumns(ko.columns);
      if (kt === 'PrimaryKey') {
        refuseBlobKeys(
          ko.columns,
          cols.map((c) => c.col),
        );
        if (!hidden) throw new SqlError('ER_MULTIPLE_PRI_KEY', 'Multiple primary key defined');
        // the hidden row id goes; the key's columns become NOT NULL
        const names = kc.map((n) => cols[find(n)]!.col.name);
        cols = cols.filter((c) => c.col.name !== HIDDEN_PK);
        for (const n of names) {
          const at = find(n);
          const e = cols[at]!;
          if (e.col.nullable !== true) continue;
          const { nullable: _n, ...col } = e.col;
          cols[at] = { ...e, col: col as StoredColumn, notNull: true };
        }
        pk.splice(0, pk.length, ...names);
        hidden = false;
        continue;
      }
      const iname = nameNode ? identText(nameNode) : kc[0]!;
      if (
        vo.if_not_exists === true &&
        old.secondary.some((x) => x.name.toLowerCase() === iname.toLowerCase())
      ) {
        ctx.session.warn(1061, `Duplicate key name '${iname}'`, 'Note');
        continue;
      }
      indexes.push({ name: iname, columns: kc, unique: kt === 'Unique' });
    } else if (t === 'DropPrimaryKey') {
      if (hidden)
        throw new SqlError('ER_CANT_DROP_FIELD_OR_KEY', "Can't DROP INDEX `PRIMARY`; check that it exists");
      // the rows get a hidden row id as their clustered key, as a table created without one
      cols.push({
        col: { name: HIDDEN_PK, type: { kind: 'bigint' } } as StoredColumn,
        type: 'bigint',
        def: null,
        onUpdate: null,
        comment: null,
        from: -1,
        rowId: true,
      });
      pk.splice(0, pk.length, HIDDEN_PK);
      hidden = true;
      droppedPk = true;
    } else if (t === 'DropIndex') {
      const iname = identText(vo.name);
      const before = indexes.length;
      indexes = indexes.filter((ix) => ix.name.toLowerCase() !== iname.toLowerCase());
      if (indexes.length === before) {
        const message = `Can't DROP INDEX \`${iname}\`; check that it exists`;
        if (vo.if_exists !== true) throw new SqlError('ER_CANT_DROP_FIELD_OR_KEY', message);
        ctx.session.warn(1091, message, 'Note');
      }
    } else if (t === 'RenameIndex') {
      const from = identText(vo.from);
      const to = identText(vo.to);
      const at = indexes.findIndex((ix) => ix.name.toLowerCase() === from.toLowerCase());
      if (at < 0)
        throw new SqlError(
          'ER_KEY_DOES_NOT_EXITS',
          `Key '${from}' doesn't exist in table '${tableOf(name)}'`,
        );
      if (
        to.toUpperCase() === 'PRIMARY' ||
        indexes.some((ix, i) => i !== at && ix.name.toLowerCase() === to.toLowerCase())
      )
        throw new SqlError('ER_DUP_KEYNAME', `Duplicate key name '${to}'`);
      indexes[at] = { ...indexes[at]!, name: to };
    } else
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'ALTER TABLE ${t}'`,
      );
  }
  cols = cols.slice();
  auto = autoName === undefined ? -1 : cols.findIndex((c) => c.col.name === autoName);
  // an AUTO_INCREMENT column must lead a key (what DROP PRIMARY KEY may leave it without)
  if (
    autoName !== undefined &&
    pk[0] !== autoName &&
    !indexes.some((ix) => ix.columns[0]?.toLowerCase() === autoName!.toLowerCase())
  )
    throw new SqlError(
      'ER_WRONG_AUTO_KEY',
      'Incorrect table definition; there can be only one auto column and it must be defined as a key',
    );
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
  let rowNo = 0;
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
    const converting = cols.some((c) => c.convert === true);
    const writer = converting
      ? new RowWriter(
          fresh,
          {
            types: cols.map((c) => c.type),
            defaults: cols.map((c) => c.def),
            autoIncrement: -1,
            hiddenPk: false,
          },
          String(ctx.session.vars.get('time_zone')),
          (c, m, l) => ctx.session.warn(c, m, l),
        )
      : undefined;
    const oldTypes = old.columns.map((c, i) => storedType(c.type, meta?.types[i]));
    new TableHandler(old).rndScan((r) => {
      rowNo++;
      for (let i = 0; i < cols.length; i++) {
        const c = cols[i]!;
        if (c.from < 0) rowOut[i] = c.rowId === true ? rowNo : fill[i];
        else if (c.convert === true)
          rowOut[i] = converted(writer!, i, sqlValueOf(r, c.from, old), oldTypes[c.from]!, rowNo);
        else rowOut[i] = copyField(r.get(c.from));
        if (c.notNull === true && rowOut[i] === null)
          throw new SqlError(
            'WARN_DATA_TRUNCATED',
            `Data truncated for column '${c.col.name}' at row ${rowNo}`,
          );
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
    hiddenPk: hidden,
    ...(cols.some((c) => c.onUpdate !== null) ? { onUpdate: cols.map((c) => c.onUpdate) } : {}),
    ...(cols.some((c) => c.comment !== null) ? { comments: cols.map((c) => c.comment) } : {}),
    ...(meta?.collation === undefined ? {} : { collation: meta.collation }),
    ...(meta?.comment === undefined ? {} : { comment: meta.comment }),
    ...(meta?.autoIncrementStart === undefined ? {} : { autoIncrementStart: meta.autoIncrementStart }),
    ...(meta?.rowFormat === undefined ? {} : { rowFormat: meta.rowFormat }),
  };
  // the table's STATS_* options stay with it (they are kept by table id)
  const statsOptions = { ...ctx.db.statisticsDictionary.options(old.id) };
  // One mini-transaction: a crash leaves the old table or the new one, never neither.
  ctx.db.atomically(() => {
    ctx.db.dropTable(name);
    ctx.db.renameTable(tmp, name);
    ctx.dict.putTable(name, newMeta);
    if (Object.keys(statsOptions).length > 0) ctx.db.setTableStatsOptions(name, statsOptions);
  });
  // rows count as affected where MariaDB copies them too: a column converted, or ALGORITHM=COPY
  // or a primary key dropped (it adds and drops columns in place, adds a primary key in place,
  // and rebuilds in place for FORCE)
  return okResult(copying || (droppedPk && hidden) || cols.some((c) => c.convert === true) ? rowNo : 0);
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

/** A column definition's options in either of the parser's shapes (`{ option }` or bare). */
function optionsOf(options: unknown): unknown[] {
  return arr(options).map((x) => (obj(x).option !== undefined ? x : { option: x }));
}

/** A stored field as the SQL value of its column's type (what a read of the column gives). */
function sqlValueOf(r: RowBuffer, c: number, t: Table): unknown {
  const v = r.get(c);
  if (v === null) return null;
  switch (t.columns[c]!.type.kind) {
    case 'char':
    case 'varchar':
      return r.value(c);
    case 'binary':
    case 'varbinary':
      return Buffer.from(v as Uint8Array).toString('latin1');
    case 'decimal':
      return BigInt(v as number | bigint);
    default:
      return v;
  }
}

/**
 * Value `v` (of type `t`) converted for changed column `i`, with the errors MariaDB's copying
 * ALTER gives: a NULL for a NOT NULL column and a value too long are 1265 (data truncated), text
 * that is no number 1292 ("Truncated incorrect INTEGER value", named by the column's kind).
 */
function converted(w: RowWriter, i: number, v: unknown, t: SqlType, rowNo: number): FieldValue {
  try {
    return w.field(i, v, t, rowNo);
  } catch (e) {
    if (!(e instanceof SqlError)) throw e;
    const column = w.table.columns[i]!;
    if (e.errno === 1048 || e.errno === 1406 || e.errno === 1265)
      throw new SqlError('WARN_DATA_TRUNCATED', `Data truncated for column '${column.name}' at row ${rowNo}`);
    if (e.errno === 1366) {
      const k = column.type.kind;
      const kind = k === 'decimal' ? 'DECIMAL' : k === 'double' ? 'DOUBLE' : 'INTEGER';
      throw new SqlError('ER_TRUNCATED_WRONG_VALUE', `Truncated incorrect ${kind} value: '${String(v)}'`);
    }
    throw e;
  }
}

/** What a column definition's options say besides its type: NULL, DEFAULT, ON UPDATE, COMMENT, AUTO_INCREMENT. */
function definition(options: readonly unknown[]): {
  nullable: boolean;
  def: string | null;
  onUpdate: string | null;
  comment: string | null;
  autoIncrement: boolean;
} {
  const d = {
    nullable: true,
    def: null as string | null,
    onUpdate: null as string | null,
    comment: null as string | null,
    autoIncrement: false,
  };
  for (const opt of options) {
    const [ot, ov] = tagOf(obj(opt).option);
    if (ot === 'NotNull') d.nullable = false;
    else if (ot === 'Null') d.nullable = true;
    else if (ot === 'Default') d.def = JSON.stringify(ov);
    else if (ot === 'OnUpdate') d.onUpdate = JSON.stringify(ov);
    else if (ot === 'Comment') d.comment = String(ov);
    else if (ot === 'DialectSpecific' && JSON.stringify(ov).toUpperCase().includes('AUTO_INCREMENT'))
      d.autoIncrement = true;
  }
  return d;
}
