// TPC-H-shaped orders and lineitem for the join benchmarks (in memory, deterministic).
//
// orders:   [o_orderkey, o_custkey, o_orderdate (days since 1992-01-01), o_shippriority]
// lineitem: [l_orderkey, l_extendedprice, l_discount, l_shipdate]  — 1..7 lines per order,
//           stored in l_orderkey order (the clustered key of DBT3's lineitem).
// Q3's driving set: orders of customers in one market segment (1 in 5) placed before
// 1995-03-09; lineitem's `l_shipdate > 1995-03-09` is the join condition.

export const Q3_DATE = 1163; // 1995-03-09 as days since 1992-01-01

/** xorshift32: a tiny deterministic generator, good enough for test data. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** TPC-H's sparse order keys: 8 used out of every 32. */
const orderKey = (i) => ((i >> 3) << 5) + (i & 7) + 1;

export function generate(scaleFactor) {
  const nOrders = Math.round(1_500_000 * scaleFactor);
  const nCustomers = Math.max(1, Math.round(150_000 * scaleFactor));
  const rand = rng(20260101);
  const segment = new Uint8Array(nCustomers + 1);
  for (let c = 1; c <= nCustomers; c++) segment[c] = Math.floor(rand() * 5);
  const orders = new Array(nOrders);
  const lineitem = [];
  for (let i = 0; i < nOrders; i++) {
    const date = Math.floor(rand() * 2405);
    const o = [orderKey(i), 1 + Math.floor(rand() * nCustomers), date, 0];
    orders[i] = o;
    const lines = 1 + Math.floor(rand() * 7);
    for (let l = 0; l < lines; l++) {
      lineitem.push([
        o[0],
        900 + Math.floor(rand() * 100000) / 100,
        Math.floor(rand() * 11) / 100,
        date + 1 + Math.floor(rand() * 121),
      ]);
    }
  }
  // The driving set, in customer order (as when reached through i_o_custkey).
  const driving = orders
    .filter((o) => segment[o[1]] === 0 && o[2] < Q3_DATE)
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .map((o) => [o[0], o[2], o[3]]);
  return { orders, lineitem, driving };
}
