import { DATE_BYTES, ORDER_DATE_MAX_OFFSET, CURRENT_DAY_OFFSET } from './dates.js';
import { orderPriorities, returnFlags, shipInstructions, shipModes } from './dists.js';
import { encoded, pick, slice, textSlice } from './fields.js';
import { partSupplier, retailPriceCents } from './part.js';
import type { RowRange, ScalePlan } from '../scale.js';
import { Rng64Stream } from './rng64.js';
import { RowStreams, Stream, TableId } from './streams.js';
import type { TblWriter } from '../tbl-writer.js';

const COMMENT_AVG = 49; // O_CMNT_LEN
const L_COMMENT_AVG = 27; // L_CMNT_LEN
/** CUST_MORTALITY: customers whose key is a multiple of 3 place no orders. */
const CUST_MORTALITY = 3;
/** From this scale dbgen draws o_custkey and l_partkey with its 64-bit generator. */
export const WIDE_KEY_SCALE = 30_000;
const PRIORITIES = encoded(orderPriorities);
const INSTRUCTIONS = encoded(shipInstructions);
const MODES = encoded(shipModes);
const FLAGS = encoded(returnFlags);
const F = 0x46;
const O = 0x4f;
const P = 0x50;
const N = 0x4e;

/**
 * dbgen `mk_sparse(i, 0)`: order keys use 8 of every 32 values — the low 3 bits of the row number
 * are kept, the rest is shifted left by 2 (the 2 freed bits number update sets). Arithmetic, not
 * bit operations, so keys above 2^31 stay exact.
 */
export function sparseOrderKey(row: number): number {
  return Math.floor(row / 8) * 32 + (row % 8);
}

/**
 * orders.tbl and lineitem.tbl together (dbgen `mk_order`, `pr_order`, `pr_line`).
 * `o_orderkey|o_custkey|o_orderstatus|o_totalprice|o_orderdate|o_orderpriority|o_clerk|o_shippriority|o_comment|`
 * `l_orderkey|l_partkey|l_suppkey|l_linenumber|l_quantity|l_extendedprice|l_discount|l_tax|l_returnflag|l_linestatus|l_shipdate|l_commitdate|l_receiptdate|l_shipinstruct|l_shipmode|l_comment|`
 *
 * Money is integer cents throughout; o_totalprice sums, per line, dbgen's truncating
 * `((price·(100−disc))/100)·(100+tax)/100`.
 */
export function writeOrders(
  wo: TblWriter,
  wl: TblWriter,
  pool: Uint8Array,
  plan: ScalePlan,
  onRows?: (n: number) => void,
  counter?: { lines: number },
  range?: RowRange,
): number {
  const rs = new RowStreams([TableId.orders, TableId.lineitem]);
  const customers = plan.customer;
  const parts = plan.part;
  const suppliers = plan.supplier;
  // dbgen draws o_custkey and l_partkey from its 64-bit generator from SF 30 000 on
  const wide = plan.scale >= WIDE_KEY_SCALE;
  const first = range?.first ?? 1;
  const count = range?.count ?? plan.orders;
  rs.skipRows(first - 1); // dbgen's sd_* seeding for a chunk (-C/-S)
  // dbgen seeds a chunk's 64-bit streams with the 31-bit skip too (sd_order/sd_line use NthElement)
  const custKeys = new Rng64Stream(rs.seed(Stream.oCustKey));
  const partKeys = new Rng64Stream(rs.seed(Stream.lPartKey));
  for (let i = 0; i < count; i++) {
    const row = first + i;
    rs.rowStart();
    const okey = sparseOrderKey(row);
    let cust = wide ? custKeys.next(1, customers) : rs.unif(Stream.oCustKey, 1, customers);
    let delta = 1;
    while (cust % CUST_MORTALITY === 0) {
      cust = Math.min(cust + delta, customers);
      delta = -delta;
    }
    const odate = rs.unif(Stream.oOrderDate, 0, ORDER_DATE_MAX_OFFSET);
    const priority = pick(rs, Stream.oPriority, orderPriorities);
    const clerk = rs.unif(Stream.oClerk, 1, plan.clerks);
    textSlice(rs, Stream.oComment, COMMENT_AVG);
    const cOffset = slice.offset;
    const cLength = slice.length;
    const lines = rs.unif(Stream.oLineCount, 1, 7);
    let totalCents = 0;
    let shipped = 0;
    for (let ln = 1; ln <= lines; ln++) {
      const qty = rs.unif(Stream.lQuantity, 1, 50);
      const disc = rs.unif(Stream.lDiscount, 0, 10);
      const tax = rs.unif(Stream.lTax, 0, 8);
      const instr = pick(rs, Stream.lShipInstruct, shipInstructions);
      const mode = pick(rs, Stream.lShipMode, shipModes);
      textSlice(rs, Stream.lComment, L_COMMENT_AVG);
      const partKey = wide ? partKeys.next(1, parts) : rs.unif(Stream.lPartKey, 1, parts);
      const suppNum = rs.unif(Stream.lSuppKey, 0, 3);
      const price = retailPriceCents(partKey) * qty;
      totalCents += Math.floor((Math.floor((price * (100 - disc)) / 100) * (100 + tax)) / 100);
      const ship = odate + rs.unif(Stream.lShipDate, 1, 121);
      const commit = odate + rs.unif(Stream.lCommitDate, 30, 90);
      const receipt = ship + rs.unif(Stream.lReceiptDate, 1, 30);
      const flag = receipt <= CURRENT_DAY_OFFSET ? FLAGS[pick(rs, Stream.lReturnFlag, returnFlags)]![0]! : N;
      let status = O;
      if (ship <= CURRENT_DAY_OFFSET) {
        shipped++;
        status = F;
      }
      wl.int(okey);
      wl.int(partKey);
      wl.int(partSupplier(partKey, suppNum, suppliers));
      wl.int(ln);
      wl.int(qty);
      wl.money(price);
      wl.money(disc);
      wl.money(tax);
      wl.byte(flag);
      wl.sep();
      wl.byte(status);
      wl.sep();
      wl.bytes(DATE_BYTES, ship * 10, ship * 10 + 10);
      wl.sep();
      wl.bytes(DATE_BYTES, commit * 10, commit * 10 + 10);
      wl.sep();
      wl.bytes(DATE_BYTES, receipt * 10, receipt * 10 + 10);
      wl.sep();
      wl.bytes(INSTRUCTIONS[instr]!);
      wl.sep();
      wl.bytes(MODES[mode]!);
      wl.sep();
      wl.bytes(pool, slice.offset, slice.offset + slice.length);
      wl.sep();
      wl.end();
    }
    wo.int(okey);
    wo.int(cust);
    wo.byte(shipped === lines ? F : shipped > 0 ? P : O);
    wo.sep();
    wo.money(totalCents);
    wo.bytes(DATE_BYTES, odate * 10, odate * 10 + 10);
    wo.sep();
    wo.bytes(PRIORITIES[priority]!);
    wo.sep();
    wo.ascii('Clerk#');
    wo.padded(clerk, 9);
    wo.sep();
    wo.int(0);
    wo.bytes(pool, cOffset, cOffset + cLength);
    wo.sep();
    wo.end();
    if (counter !== undefined) counter.lines += lines;
    if (wide) partKeys.rowSkip(7 - lines); // o_custkey: one draw of one reserved, no skip
    rs.rowStop();
    if (onRows !== undefined && ((i + 1) & 1023) === 0) onRows(1024);
  }
  if (onRows !== undefined) onRows(count & 1023);
  return count;
}
