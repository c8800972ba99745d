import { textOf, type TpchQueryText } from './template.js';

/**
 * Two forms of TPC-H queries as the published MySQL 5.6 / MariaDB 5.5 join and multi-range-read
 * experiments ran them (TPC-H at scale factor 2 on InnoDB with the DBT3 indexes):
 *
 * - `q3-force-index`: Q3 for segment AUTOMOBILE and date 1995-03-09, with
 *   `FORCE INDEX (i_l_orderkey)` on lineitem so the join reaches lineitem by its order key
 *   (the Batched Key Access comparison), and `LIMIT 10`;
 * - `q10-date-add`: Q10 for the quarter starting 1993-08-01, written with MySQL's
 *   `date_add(…, interval '3' month)`, and `LIMIT 20` (the MRR comparison).
 *
 * Both parameter sets are values qgen can draw (Q3's date is in March 1995, Q10's month in
 * 1993-02…1995-01). Dates are plain string literals, as in the experiments.
 */
export const TPCH_VARIANT_NAMES = ['q3-force-index', 'q10-date-add'] as const;
export type TpchVariantName = (typeof TPCH_VARIANT_NAMES)[number];

const Q3_FORCE_INDEX = `select
        l_orderkey,
        sum(l_extendedprice * (1 - l_discount)) as revenue,
        o_orderdate,
        o_shippriority
from
        customer,
        orders,
        lineitem FORCE INDEX (i_l_orderkey)
where
        c_mktsegment = 'AUTOMOBILE'
        and c_custkey = o_custkey
        and l_orderkey = o_orderkey
        and o_orderdate < '1995-03-09'
        and l_shipdate > '1995-03-09'
group by
        l_orderkey,
        o_orderdate,
        o_shippriority
order by
        revenue desc,
        o_orderdate
LIMIT 10`;

const Q10_DATE_ADD = `select
        c_custkey,
        c_name,
        sum(l_extendedprice * (1 - l_discount)) as revenue,
        c_acctbal,
        n_name,
        c_address,
        c_phone,
        c_comment
from
        customer,
        orders,
        lineitem,
        nation
where
        c_custkey = o_custkey
        and l_orderkey = o_orderkey
        and o_orderdate >= '1993-08-01'
        and o_orderdate < date_add( '1993-08-01' ,interval '3' month)
        and l_returnflag = 'R'
        and c_nationkey = n_nationkey
group by
        c_custkey,
        c_name,
        c_acctbal,
        c_phone,
        n_name,
        c_address,
        c_comment
order by
        revenue desc
LIMIT 20`;

/** One of the two experiment forms, ready to run. */
export function tpchVariant(name: TpchVariantName): TpchQueryText {
  switch (name) {
    case 'q3-force-index':
      return textOf(3, 'Shipping Priority', ['AUTOMOBILE', '1995-03-09'], [Q3_FORCE_INDEX], 0);
    case 'q10-date-add':
      return textOf(10, 'Returned Item Reporting', ['1993-08-01'], [Q10_DATE_ADD], 0);
    default:
      throw new RangeError(
        `unknown TPC-H variant '${String(name)}' (known: ${TPCH_VARIANT_NAMES.join(', ')})`,
      );
  }
}
