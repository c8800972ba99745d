import { TPCH_QUERY_COUNT, tpchQuery, tpchVariant } from '@enginekit/tpch';

// The 22 TPC-H queries with the specification's validation parameters, as @enginekit/tpch gives
// them (the texts' one home), plus the two variants the MySQL/MariaDB join and MRR experiments
// use (Q3 on AUTOMOBILE/1995-03-09 through FORCE INDEX (i_l_orderkey), Q10 on 1993-08-01 + 3 months, LIMIT 20). Row limits are the
// specification's (Q2 100, Q3 10, Q10 20, Q18 100, Q21 100).
//
// `duck` is DuckDB's text where its dialect differs (no index hints, no date_add on a string).
// `scales` gives, for each column DuckDB computes as a DOUBLE (AVG, division of decimals), the
// scale MySQL gives that result: AVG(DECIMAL(p,s)) and DECIMAL / DECIMAL get the dividend's scale
// plus div_precision_increment (4); a product adds its factors' scales (MySQL reference manual,
// "Precision Math": decimal arithmetic and "Aggregate Function Descriptions" for AVG).

export interface TpchQuery {
  readonly name: string;
  /** Statements run before the query (Q15's view); their results are ignored. */
  readonly setup?: readonly string[];
  readonly sql: string;
  readonly duck?: string;
  readonly teardown?: readonly string[];
  /** column index → MySQL result scale, for columns DuckDB returns as DOUBLE */
  readonly scales?: Readonly<Record<number, number>>;
}

/** MySQL's result scale of each column DuckDB returns as a DOUBLE, per query number. */
const SCALES: Readonly<Record<number, Readonly<Record<number, number>>>> = {
  1: { 6: 6, 7: 6, 8: 6 },
  8: { 1: 8 },
  14: { 0: 10 },
  17: { 0: 6 },
};

function standard(q: number): TpchQuery {
  const t = tpchQuery(q);
  const at = t.statements.indexOf(t.answer);
  const scales = SCALES[q];
  return {
    name: `Q${q}`,
    ...(at > 0 ? { setup: t.statements.slice(0, at) } : {}),
    sql: t.answer,
    ...(at < t.statements.length - 1 ? { teardown: t.statements.slice(at + 1) } : {}),
    ...(scales === undefined ? {} : { scales }),
  };
}

export const TPCH_QUERIES: readonly TpchQuery[] = [
  ...Array.from({ length: TPCH_QUERY_COUNT }, (_, i) => standard(i + 1)),
  {
    name: 'Q3 variant (AUTOMOBILE, 1995-03-09, FORCE INDEX)',
    sql: tpchVariant('q3-force-index').answer,
    duck: `select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem
where c_mktsegment = 'AUTOMOBILE' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < date '1995-03-09' and l_shipdate > date '1995-03-09'
group by l_orderkey, o_orderdate, o_shippriority
order by revenue desc, o_orderdate
LIMIT 10`,
  },
  {
    name: 'Q10 variant (1993-08-01 + 3 months, LIMIT 20)',
    sql: tpchVariant('q10-date-add').answer,
    duck: `select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name,
  c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= date '1993-08-01'
  and o_orderdate < date '1993-08-01' + interval '3' month and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by revenue desc
LIMIT 20`,
  },
];
