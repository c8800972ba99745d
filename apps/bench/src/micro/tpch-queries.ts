/**
 * The TPC-H query texts of the SQL micro benchmarks: Q1, Q3, Q6, Q10 and the two variants of
 * the MySQL/MariaDB join and MRR experiments (Q3 AUTOMOBILE/1995-03-09 with FORCE INDEX
 * (i_l_orderkey), Q10 from 1993-08-01 for 3 months), each in MySQL's dialect (enginekit),
 * SQLite's (dates as text, INDEXED BY) and DuckDB's.
 */
export const Q3 = (
  segment: string,
  day: string,
  hint: string,
  separator = '\n',
): string => `select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem${hint}
where c_mktsegment = '${segment}' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < ${day} and l_shipdate > ${day}
group by l_orderkey, o_orderdate, o_shippriority${separator}order by revenue desc, o_orderdate${separator}limit 10`;

export const Q10 = (
  from: string,
  to: string,
  separator = '\n',
): string => `select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name,
  c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= ${from}
  and o_orderdate < ${to} and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment${separator}order by revenue desc${separator}limit 20`;

export const Q1 = (
  day: string,
): string => `select l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
  sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
  avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
from lineitem where l_shipdate <= ${day}
group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus`;

export const Q6 = (
  from: string,
  to: string,
  lo: string,
  hi: string,
): string => `select sum(l_extendedprice * l_discount) as revenue from lineitem
where l_shipdate >= ${from} and l_shipdate < ${to} and l_discount between ${lo} and ${hi} and l_quantity < 24`;

/** One query: its name and its text for enginekit (MySQL), SQLite and DuckDB. */
export interface TpchTriple {
  readonly name: string;
  readonly mysql: string;
  readonly sqlite: string;
  readonly duck: string;
}
