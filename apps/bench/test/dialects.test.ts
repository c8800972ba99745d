import { describe, expect, it } from 'vitest';
import { goodPlan } from '../src/experiments/mrr-q10/measure.js';
import { toDuck } from '../src/peers/duckdb-tpch.js';
import { findMariaDb } from '../src/peers/mariadb.js';
import { toSqlite } from '../src/peers/sqlite-tpch.js';
import './helpers.js';

describe('the peers’ dialects', () => {
  it('folds date arithmetic on literals for SQLite, as calendar arithmetic', () => {
    expect(toSqlite("l_shipdate <= date '1998-12-01' - interval '90' day")).toBe(
      "l_shipdate <= '1998-09-02'",
    );
    expect(toSqlite("o_orderdate < date '1993-10-01' + interval '3' month")).toBe(
      "o_orderdate < '1994-01-01'",
    );
    expect(toSqlite("o_orderdate < date_add( '1993-08-01' ,interval '3' month)")).toBe(
      "o_orderdate < '1993-11-01'",
    );
    // MySQL clamps to the end of the month (SQLite's date('+1 month') would give 1995-03-03)
    expect(toSqlite("date '1995-01-31' + interval '1' month")).toBe("'1995-02-28'");
    expect(toSqlite("date '1996-02-29' + interval '1' year")).toBe("'1997-02-28'");
    expect(toSqlite("date '1994-01-01' + interval '1' year")).toBe("'1995-01-01'");
    expect(toSqlite('extract(year from o_orderdate)')).toBe("cast(strftime('%Y', o_orderdate) as integer)");
    expect(toSqlite('substring(c_phone from 1 for 2)')).toBe('substr(c_phone, 1, 2)');
    expect(toSqlite('lineitem FORCE INDEX (i_l_orderkey)')).toBe('lineitem INDEXED BY i_l_orderkey');
    expect(toSqlite('l_discount between .06 - 0.01 and .06 + 0.01')).toBe('l_discount between 0.05 and 0.07');
  });

  it('gives DuckDB MySQL’s date_add on a text literal as date arithmetic, and drops index hints', () => {
    expect(toDuck("o_orderdate < date_add( '1993-08-01' ,interval '3' month)")).toBe(
      "o_orderdate < (date '1993-08-01' + interval '3' month)",
    );
    expect(toDuck('from lineitem FORCE INDEX (i_l_orderkey) where')).toBe('from lineitem where');
  });

  it('forces the post’s good Q10 plan for MariaDB on orders only', () => {
    expect(goodPlan('from customer, orders, lineitem, nation')).toBe(
      'from customer, orders FORCE INDEX (i_o_orderdate), lineitem, nation',
    );
  });

  it('leaves MariaDB out when ENGINEKIT_BENCH_MARIADB=0', () => {
    expect(findMariaDb()).toBeUndefined();
  });
});
