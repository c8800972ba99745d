import { marketSegments, nations } from './dists.js';
import { encoded, pick, randomAlnum, writePhone, writeText } from './fields.js';
import type { RowRange, ScalePlan } from '../scale.js';
import { RowStreams, Stream, TableId } from './streams.js';
import type { TblWriter } from '../tbl-writer.js';

const ADDRESS_AVG = 25; // C_ADDR_LEN
const COMMENT_AVG = 73; // C_CMNT_LEN
const SEGMENTS = encoded(marketSegments);

/**
 * customer.tbl (dbgen `mk_cust`, `pr_cust`).
 * `c_custkey|c_name|c_address|c_nationkey|c_phone|c_acctbal|c_mktsegment|c_comment|`
 */
export function writeCustomer(
  w: TblWriter,
  pool: Uint8Array,
  plan: ScalePlan,
  onRows?: (n: number) => void,
  range?: RowRange,
): number {
  const rs = new RowStreams([TableId.customer]);
  const address = new Uint8Array(64);
  const first = range?.first ?? 1;
  const count = range?.count ?? plan.customer;
  rs.skipRows(first - 1); // dbgen's sd_* seeding for a chunk (-C/-S)
  for (let i = 0; i < count; i++) {
    const key = first + i;
    rs.rowStart();
    w.int(key);
    w.ascii('Customer#');
    w.padded(key, 9);
    w.sep();
    const alen = randomAlnum(rs, Stream.cAddress, ADDRESS_AVG, address);
    w.bytes(address, 0, alen);
    w.sep();
    const nation = rs.unif(Stream.cNation, 0, nations.words.length - 1);
    w.int(nation);
    writePhone(w, rs, Stream.cPhone, nation);
    w.money(rs.unif(Stream.cAcctBal, -99_999, 999_999));
    w.bytes(SEGMENTS[pick(rs, Stream.cMktSegment, marketSegments)]!);
    w.sep();
    writeText(w, rs, pool, Stream.cComment, COMMENT_AVG);
    w.end();
    rs.rowStop();
    if (onRows !== undefined && ((i + 1) & 1023) === 0) onRows(1024);
  }
  if (onRows !== undefined) onRows(count & 1023);
  return count;
}
