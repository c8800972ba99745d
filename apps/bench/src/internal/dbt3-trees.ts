import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice, SimulatedDevice } from '@enginekit/buffer-pool';
import {
  type ColumnVector,
  generateTable,
  parseTbl,
  type TblData,
  TPCH_SCHEMA,
  type TpchTable,
} from '@enginekit/tpch';

/**
 * The DBT3 trees the package-level Q10 and Q3 experiments read, built from `@enginekit/tpch`
 * data with `@enginekit/btree-sampler`'s bulk loader into one tablespace of 16 KiB pages on a
 * MemoryDevice (an .ibd): the clustered indexes of nation, customer, orders and lineitem and the
 * secondary indexes i_o_orderdate and i_l_orderkey. Keys are big-endian unsigned integers (memcmp
 * order = numeric order). A clustered row is the fields the queries read at fixed offsets, padded
 * to the row's stored length (fixed widths plus each VARCHAR's actual length, as a compact
 * InnoDB row without its header), so pages hold about as many rows as InnoDB's.
 *
 * orders value:   custkey u32 @0, orderdate u32 @4 (days since 1970), shippriority u32 @8, orderkey u32 @12
 * lineitem value: extendedprice cents u32 @0, discount % u8 @4, returnflag u8 @5, shipdate u32 @6,
 *                 orderkey u32 @10
 * customer value: nationkey u32 @0, mktsegment first byte u8 @4
 */
export const PAGE = 16384;
export const SPACE = 1;

export interface Dbt3Roots {
  readonly nation: number;
  readonly customer: number;
  readonly orders: number;
  readonly lineitem: number;
  readonly i_o_orderdate: number;
  readonly i_l_orderkey: number;
}

export interface Dbt3Trees {
  readonly sf: number;
  readonly device: MemoryDevice;
  readonly pages: number;
  readonly roots: Dbt3Roots;
  readonly rows: Readonly<Record<'nation' | 'customer' | 'orders' | 'lineitem', number>>;
  /** The parsed tables (the join experiment drives its outer side from them). */
  readonly orders: TblData;
  readonly customer: TblData;
}

export interface OpenTrees {
  readonly pool: BufferPool;
  readonly disk: SimulatedDevice | undefined;
  readonly nation: BTree;
  readonly customer: BTree;
  readonly orders: BTree;
  readonly lineitem: BTree;
  readonly i_o_orderdate: BTree;
  readonly i_l_orderkey: BTree;
}

export function col(data: TblData, name: string): ColumnVector {
  const c = data.columns.find((x) => x.name === name);
  if (c === undefined) throw new RangeError(`table ${data.table.name} has no column ${name}`);
  return c;
}

export function nums(data: TblData, name: string): ArrayLike<number> {
  const c = col(data, name);
  if ('values' in c) return c.values;
  throw new TypeError(`column ${name} is text`);
}

/** Stored bytes of each row: fixed widths plus the actual length of each VARCHAR. */
function rowLengths(data: TblData): Int32Array {
  const out = new Int32Array(data.rows);
  for (const c of data.columns) {
    const t = c.type;
    if (t.kind === 'varchar' && 'offsets' in c) {
      for (let i = 0; i < data.rows; i++)
        out[i] = (out[i] as number) + 1 + (c.offsets[i + 1] as number) - (c.offsets[i] as number);
      continue;
    }
    const w =
      t.kind === 'int' ? 4 : t.kind === 'date' ? 3 : t.kind === 'char' ? t.length : 8; /* bigint, decimal */
    for (let i = 0; i < data.rows; i++) out[i] = (out[i] as number) + w;
  }
  return out;
}

export function u32be(v: number, out: Uint8Array = new Uint8Array(4), off = 0): Uint8Array {
  out[off] = v >>> 24;
  out[off + 1] = (v >>> 16) & 255;
  out[off + 2] = (v >>> 8) & 255;
  out[off + 3] = v & 255;
  return out;
}

export function readU32be(b: Uint8Array, off = 0): number {
  return (
    (((b[off] as number) << 24) |
      ((b[off + 1] as number) << 16) |
      ((b[off + 2] as number) << 8) |
      (b[off + 3] as number)) >>>
    0
  );
}

export function parseTable(table: TpchTable, sf: number): TblData {
  return parseTbl(generateTable(table, sf), TPCH_SCHEMA[table], { fileName: `${table}.tbl` });
}

/** Builds the tablespace for scale factor `sf` (rows in the order dbgen writes them: key order). */
export function buildDbt3Trees(sf: number): Dbt3Trees {
  const nation = parseTable('nation', sf);
  const customer = parseTable('customer', sf);
  const orders = parseTable('orders', sf);
  const lineitem = parseTable('lineitem', sf);
  const device = new MemoryDevice({ pageSize: PAGE });
  const pool = new BufferPool({ innodb_page_size: PAGE, innodb_buffer_pool_size: 64 << 20 });
  pool.registerSpace(SPACE, device);
  const clustered = (): BTree => BTree.create(pool, { space: SPACE, unique: true, clustered: true });
  const k4 = new Uint8Array(4);

  const nationTree = clustered();
  {
    const len = rowLengths(nation);
    const key = nums(nation, 'n_nationkey');
    const load = nationTree.bulkLoader();
    for (let i = 0; i < nation.rows; i++)
      load.add(u32be(key[i] as number, k4), new Uint8Array(len[i] as number));
    load.finish();
  }
  const customerTree = clustered();
  {
    const len = rowLengths(customer);
    const key = nums(customer, 'c_custkey');
    const nk = nums(customer, 'c_nationkey');
    const seg = col(customer, 'c_mktsegment') as Extract<ColumnVector, { offsets: Int32Array }>;
    const load = customerTree.bulkLoader();
    for (let i = 0; i < customer.rows; i++) {
      const v = new Uint8Array(len[i] as number);
      u32be(nk[i] as number, v, 0);
      v[4] = seg.bytes[seg.offsets[i] as number] as number;
      load.add(u32be(key[i] as number, k4), v);
    }
    load.finish();
  }
  const ordersTree = clustered();
  const ok = nums(orders, 'o_orderkey');
  const od = nums(orders, 'o_orderdate');
  {
    const len = rowLengths(orders);
    const ck = nums(orders, 'o_custkey');
    const sp = nums(orders, 'o_shippriority');
    const load = ordersTree.bulkLoader();
    for (let i = 0; i < orders.rows; i++) {
      const v = new Uint8Array(len[i] as number);
      u32be(ck[i] as number, v, 0);
      u32be(od[i] as number, v, 4);
      u32be(sp[i] as number, v, 8);
      u32be(ok[i] as number, v, 12);
      load.add(u32be(ok[i] as number, k4), v);
    }
    load.finish();
  }
  const lineitemTree = clustered();
  const lk = nums(lineitem, 'l_orderkey');
  const ln = nums(lineitem, 'l_linenumber');
  {
    const len = rowLengths(lineitem);
    const price = nums(lineitem, 'l_extendedprice');
    const disc = nums(lineitem, 'l_discount');
    const ship = nums(lineitem, 'l_shipdate');
    const flag = col(lineitem, 'l_returnflag') as Extract<ColumnVector, { offsets: Int32Array }>;
    const load = lineitemTree.bulkLoader();
    const k8 = new Uint8Array(8);
    for (let i = 0; i < lineitem.rows; i++) {
      const v = new Uint8Array(len[i] as number);
      u32be(price[i] as number, v, 0);
      v[4] = disc[i] as number;
      v[5] = flag.bytes[flag.offsets[i] as number] as number;
      u32be(ship[i] as number, v, 6);
      u32be(lk[i] as number, v, 10);
      u32be(lk[i] as number, k8, 0);
      u32be(ln[i] as number, k8, 4);
      load.add(k8, v);
    }
    load.finish();
  }
  // i_o_orderdate: (o_orderdate) → o_orderkey, in (date, key) order.
  const dateIndex = BTree.create(pool, { space: SPACE, unique: false, clustered: false });
  {
    const order = Uint32Array.from({ length: orders.rows }, (_, i) => i).sort(
      (a, b) => (od[a] as number) - (od[b] as number) || (ok[a] as number) - (ok[b] as number),
    );
    const load = dateIndex.bulkLoader();
    const v = new Uint8Array(4);
    for (const i of order) load.add(u32be(od[i] as number, k4), u32be(ok[i] as number, v));
    load.finish();
  }
  // i_l_orderkey: (l_orderkey) → (l_orderkey, l_linenumber); lineitem is already in that order.
  const orderkeyIndex = BTree.create(pool, { space: SPACE, unique: false, clustered: false });
  {
    const load = orderkeyIndex.bulkLoader();
    const v = new Uint8Array(8);
    for (let i = 0; i < lineitem.rows; i++) {
      u32be(lk[i] as number, v, 0);
      u32be(ln[i] as number, v, 4);
      load.add(u32be(lk[i] as number, k4), v);
    }
    load.finish();
  }
  pool.flushAll();
  // Not closed: closing the pool would close the device that holds the tablespace.
  return {
    sf,
    device,
    pages: device.size(),
    roots: {
      nation: nationTree.rootPage,
      customer: customerTree.rootPage,
      orders: ordersTree.rootPage,
      lineitem: lineitemTree.rootPage,
      i_o_orderdate: dateIndex.rootPage,
      i_l_orderkey: orderkeyIndex.rootPage,
    },
    rows: { nation: nation.rows, customer: customer.rows, orders: orders.rows, lineitem: lineitem.rows },
    orders,
    customer,
  };
}

/**
 * A fresh pool of `poolPages` frames over the tablespace, through the hdd model when `hdd`.
 * The clock ticks once per reading, so LRU aging and read-ahead are deterministic.
 */
export function openDbt3(trees: Dbt3Trees, poolPages: number, hdd: boolean): OpenTrees {
  const disk = hdd ? new SimulatedDevice(trees.device, 'hdd') : undefined;
  let tick = 0;
  const pool = new BufferPool({
    innodb_page_size: PAGE,
    innodb_buffer_pool_size: Math.max(64, poolPages) * PAGE,
    innodb_old_blocks_time: 0,
    now: () => ++tick,
  });
  pool.registerSpace(SPACE, disk ?? trees.device);
  const open = (rootPage: number): BTree => BTree.open(pool, { space: SPACE, rootPage });
  const r = trees.roots;
  return {
    pool,
    disk,
    nation: open(r.nation),
    customer: open(r.customer),
    orders: open(r.orders),
    lineitem: open(r.lineitem),
    i_o_orderdate: open(r.i_o_orderdate),
    i_l_orderkey: open(r.i_l_orderkey),
  };
}

/** Days since 1970-01-01 of `YYYY-MM-DD`. */
export function epochDay(text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}
