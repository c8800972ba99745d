import type { Table } from '../storage/table.js';
import type { ColumnType } from '../storage/types.js';
import { splitName } from '../storage/schema-name.js';
import type { TableMeta } from '../storage/table-meta.js';
import type { Bound } from './bound.js';
import type { Source } from './scope.js';

/**
 * Where a result column comes from, as a client reads it in the column's definition packet:
 * the database, the table as the query names it (an alias), the table and column the value was
 * read from, and for a stored column what its definition says (type, NULL, keys, AUTO_INCREMENT,
 * default). MariaDB fills these for a plain column reference (aliased or not, through a derived
 * table, view or CTE, which then stand as the table) and leaves them empty for an expression.
 */
export interface ResultField {
  readonly schema: string;
  readonly table: string;
  readonly orgTable: string;
  readonly orgName: string;
  /** A stored column's definition, when the value is one (also through a derived table). */
  readonly base?: BaseColumn;
  /** A literal: its width in characters as MariaDB counts it, and whether it is NULL. */
  readonly literal?: { readonly width: number; readonly isNull: boolean };
}

/** What a stored column's definition tells a client. */
export interface BaseColumn {
  readonly stored: ColumnType;
  /** The type as CREATE TABLE declared it (`tinyint`, `text`, `year`); absent for storage-API tables. */
  readonly declared: string | undefined;
  /** The column may hold NULL (its own definition, or the inner side of an outer join). */
  readonly nullable: boolean;
  /** Part of the primary key (or of the first UNIQUE key over NOT NULL columns, when there is none). */
  readonly primary: boolean;
  /** The first column of a one-column UNIQUE key that is not the primary key. */
  readonly unique: boolean;
  /** The first column of a key that is neither unique on its own nor the primary key. */
  readonly multiple: boolean;
  /** Part of any key. */
  readonly partKey: boolean;
  readonly autoIncrement: boolean;
  /** NOT NULL without a DEFAULT and not AUTO_INCREMENT: an INSERT must name it. */
  readonly noDefault: boolean;
}

/** Key facts of a stored table's columns, computed once per table definition. */
const keyFactsOf = new WeakMap<Table, KeyFacts[]>();

interface KeyFacts {
  primary: boolean;
  unique: boolean;
  multiple: boolean;
  partKey: boolean;
}

/**
 * Each column's key facts as MariaDB sets them (`TABLE_SHARE` key setup): a table without a
 * primary key promotes its first UNIQUE key over NOT NULL columns to one; the first column of any
 * other key is UNIQUE_KEY when the key is unique over that column alone, else MULTIPLE_KEY; every
 * key column is PART_KEY.
 */
function keyFacts(table: Table, meta: TableMeta | undefined): KeyFacts[] {
  let facts = keyFactsOf.get(table);
  if (facts !== undefined) return facts;
  facts = table.columns.map(() => ({ primary: false, unique: false, multiple: false, partKey: false }));
  const keys = [table.primary, ...table.secondary];
  let primary = meta?.hiddenPk === true ? undefined : table.primary;
  if (primary === undefined)
    primary = table.secondary.find(
      (ix) => ix.unique && ix.columns.every((c) => table.columns[c]!.nullable !== true),
    );
  for (const ix of keys) {
    if (meta?.hiddenPk === true && ix === table.primary) continue;
    ix.columns.forEach((c, i) => {
      const f = facts![c]!;
      f.partKey = true;
      if (ix === primary) f.primary = true;
      else if (i === 0) {
        if (ix.unique && ix.columns.length === 1) f.unique = true;
        else f.multiple = true;
      }
    });
  }
  keyFactsOf.set(table, facts);
  return facts;
}

/** The definition of column `c` of a stored table, read on the given side of its joins. */
function baseColumn(src: Source, c: number): BaseColumn | undefined {
  const table = src.table;
  if (table === undefined) return undefined;
  const col = table.columns[c]!;
  const meta = src.meta;
  const k = keyFacts(table, meta)[c]!;
  const autoIncrement = meta?.autoIncrement === c;
  const nullable = col.nullable === true;
  return {
    stored: col.type,
    declared: meta?.types[c],
    nullable: nullable || src.joinType === 'left',
    ...k,
    autoIncrement,
    noDefault: !nullable && !autoIncrement && (meta?.defaults[c] ?? null) === null,
  };
}

/**
 * The origin of a select-list item: a column of a stored table (its database, alias, table and
 * column), a column of a derived table, view or CTE (which is then the table; the database stays
 * when the inner column is a stored one), a literal, or nothing for any other expression.
 */
export function resultField(b: Bound): ResultField | undefined {
  const ref = b.col;
  if (ref !== undefined) {
    const src = ref.src;
    const name = src.columns[ref.c]!.name;
    if (src.table !== undefined) {
      const base = baseColumn(src, ref.c);
      const { schema, table } = splitName(src.tableName ?? src.table.name);
      return { schema, table: src.alias, orgTable: table, orgName: name, ...(base ? { base } : {}) };
    }
    const inner = src.derived?.fields?.[ref.c];
    const innerBase = inner?.base;
    const base =
      innerBase === undefined
        ? undefined
        : { ...innerBase, nullable: innerBase.nullable || src.joinType === 'left' };
    return {
      schema: inner !== undefined && inner.orgTable !== '' ? inner.schema : '',
      table: src.alias,
      orgTable: src.alias,
      orgName: name,
      ...(base ? { base } : {}),
      ...(inner?.literal ? { literal: inner.literal } : {}),
    };
  }
  if (b.lit?.written === true)
    return { schema: '', table: '', orgTable: '', orgName: '', literal: literalOf(b) };
  return undefined;
}

/**
 * A literal's width as MariaDB counts it: a string's characters, an integer's digits and sign, a
 * DECIMAL's precision with its point and a sign, a DOUBLE's text as written.
 */
function literalOf(b: Bound): { width: number; isNull: boolean } {
  const v = b.lit!.v;
  if (v === null || v === undefined) return { width: 0, isNull: true };
  switch (b.t.kind) {
    case 'int':
      return { width: String(v).length, isNull: false };
    case 'dec':
      return { width: b.t.prec + (b.t.scale > 0 ? 1 : 0) + 1, isNull: false };
    case 'str':
      return {
        width: typeof v === 'string' ? (b.t.binary === true ? v.length : [...v].length) : 0,
        isNull: false,
      };
    default:
      return { width: b.text.length, isNull: false };
  }
}
