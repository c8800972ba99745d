import type { TpchTable } from './generate.js';

/** Column types of the DBT3 TPC-H schema. */
export type ColumnType =
  | { readonly kind: 'int' }
  | { readonly kind: 'bigint' }
  | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly kind: 'date' }
  | { readonly kind: 'char'; readonly length: number }
  | { readonly kind: 'varchar'; readonly length: number };

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
}

export interface TableDef {
  readonly name: TpchTable;
  readonly columns: readonly ColumnDef[];
}

const INT: ColumnType = { kind: 'int' };
const BIGINT: ColumnType = { kind: 'bigint' };
const DATE: ColumnType = { kind: 'date' };
const MONEY: ColumnType = { kind: 'decimal', precision: 15, scale: 2 };
const char = (length: number): ColumnType => ({ kind: 'char', length });
const varchar = (length: number): ColumnType => ({ kind: 'varchar', length });

function table(name: TpchTable, cols: ReadonlyArray<readonly [string, ColumnType]>): TableDef {
  return { name, columns: cols.map(([n, type]) => ({ name: n, type })) };
}

/**
 * The DBT3 schema (the MySQL/MariaDB TPC-H kit's `create_tables`): every column in `.tbl` order.
 * One deliberate widening: o_orderkey and l_orderkey are BIGINT, since sparse order keys pass
 * 2^31 from about SF 358.
 */
export const TPCH_SCHEMA: Readonly<Record<TpchTable, TableDef>> = {
  region: table('region', [
    ['r_regionkey', INT],
    ['r_name', char(25)],
    ['r_comment', varchar(152)],
  ]),
  nation: table('nation', [
    ['n_nationkey', INT],
    ['n_name', char(25)],
    ['n_regionkey', INT],
    ['n_comment', varchar(152)],
  ]),
  supplier: table('supplier', [
    ['s_suppkey', INT],
    ['s_name', char(25)],
    ['s_address', varchar(40)],
    ['s_nationkey', INT],
    ['s_phone', char(15)],
    ['s_acctbal', MONEY],
    ['s_comment', varchar(101)],
  ]),
  customer: table('customer', [
    ['c_custkey', INT],
    ['c_name', varchar(25)],
    ['c_address', varchar(40)],
    ['c_nationkey', INT],
    ['c_phone', char(15)],
    ['c_acctbal', MONEY],
    ['c_mktsegment', char(10)],
    ['c_comment', varchar(117)],
  ]),
  part: table('part', [
    ['p_partkey', INT],
    ['p_name', varchar(55)],
    ['p_mfgr', char(25)],
    ['p_brand', char(10)],
    ['p_type', varchar(25)],
    ['p_size', INT],
    ['p_container', char(10)],
    ['p_retailprice', MONEY],
    ['p_comment', varchar(23)],
  ]),
  partsupp: table('partsupp', [
    ['ps_partkey', INT],
    ['ps_suppkey', INT],
    ['ps_availqty', INT],
    ['ps_supplycost', MONEY],
    ['ps_comment', varchar(199)],
  ]),
  orders: table('orders', [
    ['o_orderkey', BIGINT],
    ['o_custkey', INT],
    ['o_orderstatus', char(1)],
    ['o_totalprice', MONEY],
    ['o_orderdate', DATE],
    ['o_orderpriority', char(15)],
    ['o_clerk', char(15)],
    ['o_shippriority', INT],
    ['o_comment', varchar(79)],
  ]),
  lineitem: table('lineitem', [
    ['l_orderkey', BIGINT],
    ['l_partkey', INT],
    ['l_suppkey', INT],
    ['l_linenumber', INT],
    ['l_quantity', MONEY],
    ['l_extendedprice', MONEY],
    ['l_discount', MONEY],
    ['l_tax', MONEY],
    ['l_returnflag', char(1)],
    ['l_linestatus', char(1)],
    ['l_shipdate', DATE],
    ['l_commitdate', DATE],
    ['l_receiptdate', DATE],
    ['l_shipinstruct', char(25)],
    ['l_shipmode', char(10)],
    ['l_comment', varchar(44)],
  ]),
};

/** `INT`, `DECIMAL(15,2)`, `CHAR(25)` … */
export function typeName(t: ColumnType): string {
  switch (t.kind) {
    case 'int':
      return 'INT';
    case 'bigint':
      return 'BIGINT';
    case 'date':
      return 'DATE';
    case 'decimal':
      return `DECIMAL(${t.precision},${t.scale})`;
    case 'char':
      return `CHAR(${t.length})`;
    case 'varchar':
      return `VARCHAR(${t.length})`;
  }
}
