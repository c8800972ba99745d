import type { TpchTable } from './generate.js';

/** A secondary index of the DBT3 kit: its name and its columns in key order. */
export interface Dbt3Index {
  readonly name: string;
  readonly columns: readonly string[];
}

/** A table's primary key (columns in key order) and its secondary indexes. */
export interface Dbt3Keys {
  readonly primaryKey: readonly string[];
  readonly indexes: readonly Dbt3Index[];
}

const ix = (name: string, ...columns: string[]): Dbt3Index => ({ name, columns });

/**
 * The DBT3 primary keys and secondary indexes (the MySQL/MariaDB TPC-H kit's `create_indexes`,
 * as in MariaDB's mysql-test `dbt3_s001.inc`). Index names are the ones MySQL and MariaDB
 * experiments name in `FORCE INDEX` hints and EXPLAIN output.
 */
export const DBT3_KEYS: Readonly<Record<TpchTable, Dbt3Keys>> = {
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
