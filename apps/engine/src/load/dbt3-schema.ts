import { type ColumnType as TpchColumnType, DBT3_KEYS, TPCH_SCHEMA, type TpchTable } from '@enginekit/tpch';
import type { ColumnType, StoredColumn, TableSchema } from '../storage/types.js';

/** A TPC-H column type as the storage's column type (same kinds; the storage owns its own). */
export function storageType(t: TpchColumnType): ColumnType {
  switch (t.kind) {
    case 'int':
    case 'bigint':
    case 'date':
      return { kind: t.kind };
    case 'decimal':
      return { kind: 'decimal', precision: t.precision, scale: t.scale };
    case 'char':
    case 'varchar':
      return { kind: t.kind, length: t.length };
  }
}

/** The CREATE TABLE of a TPC-H table with its DBT3 keys, every column NOT NULL. */
export function dbt3Schema(table: TpchTable): TableSchema {
  const keys = DBT3_KEYS[table];
  const columns: StoredColumn[] = TPCH_SCHEMA[table].columns.map((c) => ({
    name: c.name,
    type: storageType(c.type),
  }));
  return {
    name: table,
    columns,
    primaryKey: keys.primaryKey,
    indexes: keys.indexes.map((i) => ({ name: i.name, columns: i.columns })),
  };
}
