import { nations, regions } from './dists.js';
import { writeText } from './fields.js';
import { RowStreams, Stream, TableId } from './streams.js';
import type { TblWriter } from '../tbl-writer.js';

/** Average comment length of nation and region (N_CMNT_LEN, R_CMNT_LEN). */
const CODE_COMMENT_AVG = 72;

/**
 * nation.tbl (dbgen `mk_nation`, `pr_nation`): the 25 nations in `dists.dss` order; the region key
 * is the running total of the nations' weights; comment from stream 41.
 * `n_nationkey|n_name|n_regionkey|n_comment|`
 */
export function writeNation(w: TblWriter, pool: Uint8Array): number {
  const rs = new RowStreams([TableId.nation]);
  for (let i = 0; i < nations.words.length; i++) {
    rs.rowStart();
    w.int(i);
    w.ascii(nations.words[i]!);
    w.sep();
    w.int(nations.cumulative[i]!);
    writeText(w, rs, pool, Stream.nComment, CODE_COMMENT_AVG);
    w.end();
    rs.rowStop();
  }
  return nations.words.length;
}

/**
 * region.tbl (dbgen `mk_region`, `pr_region`): the five regions; comment from stream 42.
 * `r_regionkey|r_name|r_comment|`
 */
export function writeRegion(w: TblWriter, pool: Uint8Array): number {
  const rs = new RowStreams([TableId.region]);
  for (let i = 0; i < regions.words.length; i++) {
    rs.rowStart();
    w.int(i);
    w.ascii(regions.words[i]!);
    w.sep();
    writeText(w, rs, pool, Stream.rComment, CODE_COMMENT_AVG);
    w.end();
    rs.rowStop();
  }
  return regions.words.length;
}
