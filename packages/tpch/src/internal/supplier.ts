import { nations } from './dists.js';
import { randomAlnum, slice, textSlice, writePhone } from './fields.js';
import type { RowRange, ScalePlan } from '../scale.js';
import { RowStreams, Stream, TableId } from './streams.js';
import type { TblWriter } from '../tbl-writer.js';

const ADDRESS_AVG = 25; // S_ADDR_LEN
const COMMENT_AVG = 63; // S_CMNT_LEN
/** S_CMNT_BBB: suppliers per 10 000 whose comment carries a Better Business Bureau remark. */
const BBB_PER_10000 = 10;
/** BBB_DEADBEATS: percent of those remarks that are complaints. */
const BBB_DEADBEATS = 50;
const BBB_BASE = new TextEncoder().encode('Customer ');
const BBB_COMPLAIN = new TextEncoder().encode('Complaints');
const BBB_COMMEND = new TextEncoder().encode('Recommends');
/** BBB_CMNT_LEN: "Customer " + "Complaints". */
const BBB_LEN = 19;

/**
 * supplier.tbl rows `first … first+count−1` (dbgen `mk_supp`, `pr_supp`).
 * `s_suppkey|s_name|s_address|s_nationkey|s_phone|s_acctbal|s_comment|`
 * About 10 in 10 000 comments get "Customer … Complaints" or "Customer … Recommends" written over
 * them at a random place (TPC-H Q16 looks for them); the four draws for it happen on every row.
 */
export function writeSupplier(
  w: TblWriter,
  pool: Uint8Array,
  plan: ScalePlan,
  onRows?: (n: number) => void,
  range?: RowRange,
): number {
  const rs = new RowStreams([TableId.supplier]);
  const address = new Uint8Array(64);
  const comment = new Uint8Array(256);
  const first = range?.first ?? 1;
  const count = range?.count ?? plan.supplier;
  rs.skipRows(first - 1); // dbgen's sd_* seeding for a chunk (-C/-S)
  for (let i = 0; i < count; i++) {
    const key = first + i;
    rs.rowStart();
    w.int(key);
    w.ascii('Supplier#');
    w.padded(key, 9);
    w.sep();
    const alen = randomAlnum(rs, Stream.sAddress, ADDRESS_AVG, address);
    w.bytes(address, 0, alen);
    w.sep();
    const nation = rs.unif(Stream.sNation, 0, nations.words.length - 1);
    w.int(nation);
    writePhone(w, rs, Stream.sPhone, nation);
    w.money(rs.unif(Stream.sAcctBal, -99_999, 999_999));

    textSlice(rs, Stream.sComment, COMMENT_AVG);
    const clen = slice.length;
    comment.set(pool.subarray(slice.offset, slice.offset + clen));
    const badPress = rs.unif(Stream.bbbComment, 1, 10_000);
    const type = rs.unif(Stream.bbbType, 0, 100);
    const noise = rs.unif(Stream.bbbJunk, 0, clen - BBB_LEN);
    const offset = rs.unif(Stream.bbbOffset, 0, clen - (BBB_LEN + noise));
    if (badPress <= BBB_PER_10000) {
      comment.set(BBB_BASE, offset);
      comment.set(type < BBB_DEADBEATS ? BBB_COMPLAIN : BBB_COMMEND, offset + BBB_BASE.length + noise);
    }
    w.bytes(comment, 0, clen);
    w.sep();
    w.end();
    rs.rowStop();
    if (onRows !== undefined && ((i + 1) & 1023) === 0) onRows(1024);
  }
  if (onRows !== undefined) onRows(count & 1023);
  return count;
}
