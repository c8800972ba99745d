import { colors, containers, partTypes } from './dists.js';
import { encoded, pick, writeText } from './fields.js';
import { type RowRange, type ScalePlan, SUPPLIERS_PER_PART } from '../scale.js';
import { RowStreams, Stream, TableId } from './streams.js';
import type { TblWriter } from '../tbl-writer.js';

const COMMENT_AVG = 14; // P_CMNT_LEN
const PS_COMMENT_AVG = 124; // PS_CMNT_LEN
/** P_NAME_SCL: colours per part name. */
const NAME_WORDS = 5;
const COLORS = encoded(colors);
const TYPES = encoded(partTypes);
const CONTAINERS = encoded(containers);

/** dbgen `rpb_routine`: p_retailprice in cents, a function of the key alone. */
export function retailPriceCents(partKey: number): number {
  return 90_000 + (Math.floor(partKey / 10) % 20_001) + (partKey % 1000) * 100;
}

/**
 * dbgen `PART_SUPP_BRIDGE`: the `i`-th (0–3) supplier of a part, spreading each part's four
 * suppliers a quarter of the supplier range apart.
 */
export function partSupplier(partKey: number, i: number, suppliers: number): number {
  return (
    ((partKey + i * (Math.floor(suppliers / SUPPLIERS_PER_PART) + Math.floor((partKey - 1) / suppliers))) %
      suppliers) +
    1
  );
}

/**
 * part.tbl and partsupp.tbl together (dbgen `mk_part`, `pr_part`, `pr_psupp`).
 * `p_partkey|p_name|p_mfgr|p_brand|p_type|p_size|p_container|p_retailprice|p_comment|`
 * `ps_partkey|ps_suppkey|ps_availqty|ps_supplycost|ps_comment|` (four rows per part)
 *
 * p_name: five distinct colours, the first five of a fresh Fisher–Yates-style shuffle of all 92
 * (dbgen `agg_str` → `permute_dist`: 92 draws per part on stream 37).
 */
export function writePart(
  wp: TblWriter,
  wps: TblWriter,
  pool: Uint8Array,
  plan: ScalePlan,
  onRows?: (n: number) => void,
  range?: RowRange,
): number {
  const rs = new RowStreams([TableId.part, TableId.partsupp]);
  const perm = new Int32Array(COLORS.length);
  const suppliers = plan.supplier;
  const first = range?.first ?? 1;
  const count = range?.count ?? plan.part;
  rs.skipRows(first - 1); // dbgen's sd_* seeding for a chunk (-C/-S)
  for (let i = 0; i < count; i++) {
    const key = first + i;
    rs.rowStart();
    wp.int(key);
    for (let i = 0; i < perm.length; i++) perm[i] = i;
    for (let i = 0; i < perm.length; i++) {
      const j = rs.unif(Stream.pName, i, perm.length - 1);
      const t = perm[j]!;
      perm[j] = perm[i]!;
      perm[i] = t;
    }
    for (let i = 0; i < NAME_WORDS; i++) {
      if (i > 0) wp.byte(0x20);
      wp.bytes(COLORS[perm[i]!]!);
    }
    wp.sep();
    const mfgr = rs.unif(Stream.pMfg, 1, 5);
    wp.ascii('Manufacturer#');
    wp.padded(mfgr, 1);
    wp.sep();
    const brand = rs.unif(Stream.pBrand, 1, 5);
    wp.ascii('Brand#');
    wp.padded(mfgr * 10 + brand, 2);
    wp.sep();
    wp.bytes(TYPES[pick(rs, Stream.pType, partTypes)]!);
    wp.sep();
    wp.int(rs.unif(Stream.pSize, 1, 50));
    wp.bytes(CONTAINERS[pick(rs, Stream.pContainer, containers)]!);
    wp.sep();
    wp.money(retailPriceCents(key));
    writeText(wp, rs, pool, Stream.pComment, COMMENT_AVG);
    wp.end();

    for (let s = 0; s < SUPPLIERS_PER_PART; s++) {
      wps.int(key);
      wps.int(partSupplier(key, s, suppliers));
      wps.int(rs.unif(Stream.psQty, 1, 9999));
      wps.money(rs.unif(Stream.psSupplyCost, 100, 100_000));
      writeText(wps, rs, pool, Stream.psComment, PS_COMMENT_AVG);
      wps.end();
    }
    rs.rowStop();
    if (onRows !== undefined && ((i + 1) & 1023) === 0) onRows(1024);
  }
  if (onRows !== undefined) onRows(count & 1023);
  return count;
}
