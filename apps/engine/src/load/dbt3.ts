import type { TpchTable } from '../tpch/generate.js';
import { TPCH_SCHEMA } from '../tpch/schema.js';
import type { IndexDef, TableSchema } from '../storage/types.js';

const ix = (name: string, ...columns: string[]): IndexDef => ({ name, columns });

/**
 * The DBT3 primary keys and secondary indexes (the MySQL/MariaDB TPC-H kit's `create_indexes`,
 * as in MariaDB's mysql-test `dbt3_s001.inc`).
 */
export const DBT3_KEYS: Readonly<
  Record<TpchTable, { primaryKey: readonly string[]; indexes: readonly IndexDef[] }>
> = {
  region: { primaryKey: ['r_regionkey'], indexes: [] },
  nation: { primaryKey: ['n_nationkey'], indexes: [ix('i_n_regionkey', 'n_regionkey')] },
  supplier: { primaryKey: ['s_suppkey'], indexes: [ix('i_s_nationkey', 's_nationkey')] },
  customer: { primaryKey: ['c_custkey'], indexes: [ix('i_c_nationkey', 'c_nationkey')] },
  part: { primaryKey: ['p_partkey'], indexes: [] },
  partsupp: {
    primaryKey: ['ps_partkey', 'ps_suppkey'],
    indexes: [ix('i_ps_partkey', 'ps_partkey'), ix('i_ps_suppkey', 'ps_suppkey')],
  },
  orders: {
    primaryKey: ['o_orderkey'],
    indexes: [ix('i_o_orderdate', 'o_orderdate'), ix('i_o_custkey', 'o_custkey')],
  },
  lineitem: {
    primaryKey: ['l_orderkey', 'l_linenumber'],
    indexes: [
      ix('i_l_shipdate', 'l_shipdate'),
      ix('i_l_suppkey_partkey', 'l_partkey', 'l_suppkey'),
      ix('i_l_partkey', 'l_partkey'),
      ix('i_l_suppkey', 'l_suppkey'),
      ix('i_l_receiptdate', 'l_receiptdate'),
      ix('i_l_orderkey', 'l_orderkey'),
      ix('i_l_orderkey_quantity', 'l_orderkey', 'l_quantity'),
      ix('i_l_commitdate', 'l_commitdate'),
    ],
  },
};

/** The CREATE TABLE of a TPC-H table with its DBT3 keys. */
export function dbt3Schema(table: TpchTable): TableSchema {
  const keys = DBT3_KEYS[table];
  return {
    name: table,
    columns: TPCH_SCHEMA[table].columns,
    primaryKey: keys.primaryKey,
    indexes: keys.indexes,
  };
}
