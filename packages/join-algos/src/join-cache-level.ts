/** The `optimizer_switch` flags that decide join buffering (MariaDB 10.0 names and defaults). */
export interface JoinCacheSwitches {
  /** Default on. Off: an even `join_cache_level` acts as the odd level below (no incremental buffers). */
  join_cache_incremental: boolean;
  /** Default on. Off: no BNLH / BKAH. */
  join_cache_hashed: boolean;
  /** Default on. Off: no BKA / BKAH. */
  join_cache_bka: boolean;
  /** Default on. Off: no join buffer for an inner table of an outer join. */
  outer_join_with_cache: boolean;
  /** Default on. Off: no join buffer for an inner table of a semi-join. */
  semijoin_with_cache: boolean;
  /** Default off in MariaDB 10.0. Off: MRR always takes the default implementation, so no BKA. */
  mrr: boolean;
  /** Default off. On: DS-MRR may win only if its cost is lower (`dsMrrCheaper`). */
  mrr_cost_based: boolean;
  /** Default off. On: key-ordered scan for equality lookups (and CPK scans). */
  mrr_sort_keys: boolean;
}

/** MariaDB 10.0's defaults for {@link JoinCacheSwitches}. */
export const defaultJoinCacheSwitches: Readonly<JoinCacheSwitches> = Object.freeze({
  join_cache_incremental: true,
  join_cache_hashed: true,
  join_cache_bka: true,
  outer_join_with_cache: true,
  semijoin_with_cache: true,
  mrr: false,
  mrr_cost_based: false,
  mrr_sort_keys: false,
});

/** The table being joined, as the optimizer sees it. */
export interface JoinCacheTable {
  /**
   * Access method: `ALL` full scan; `ref`/`eq_ref` equality lookup on an index; `hash` an
   * equi-join on non-indexed columns (MariaDB's "ref for hash join", EXPLAIN `hash_ALL`).
   */
  access: 'ALL' | 'ref' | 'eq_ref' | 'hash';
  /** First table of the join order (or of a nest): never buffered. Default false. */
  first?: boolean;
  /** Whether the previous table uses a join buffer (so this one can link to it). Default false. */
  prevCached?: boolean;
  /** Inner table of an outer join. Default false. */
  outerJoinInner?: boolean;
  /** Inner table of a semi-join. Default false. */
  semiJoinInner?: boolean;
  /** Inner table of a nested outer join with several tables (needs linked buffers). Default false. */
  nestedInner?: boolean;
  /** `ref`/`eq_ref` on the clustered primary key. Default false. */
  clusteredKey?: boolean;
  /** The index covers every column the query needs (index-only). Default false. */
  coveringKey?: boolean;
  /** With `mrr_cost_based=on`: whether DS-MRR's cost beats the default. Default true. */
  dsMrrCheaper?: boolean;
}

/** What {@link chooseJoinCache} decided. */
export interface JoinCacheChoice {
  /** `none`: plain nested loop (NLJ for an index access, simple nested loop for a scan). */
  algorithm: 'none' | 'BNL' | 'BNLH' | 'BKA' | 'BKAH';
  /** Linked to the previous table's buffer (MariaDB prints "incremental"). */
  incremental: boolean;
  /** What `check_join_cache_usage` returns: 0, or 2/4/6/8 minus 1 for a flat buffer. */
  level: number;
  /** For BKA/BKAH: MRR's key-ordered stage (sorted lookup keys). */
  keyOrdered: boolean;
  /** For BKA/BKAH: MRR's rowid-ordered stage (fetch full rows in primary-key order). */
  rowidOrdered: boolean;
  /** The EXPLAIN Extra text, e.g. `Using join buffer (flat, BKA join); Key-ordered Rowid-ordered scan`; '' for none. */
  extra: string;
}

/**
 * Pick the join buffer for one table exactly as MariaDB 10.0's `check_join_cache_usage`
 * (sql/sql_select.cc) does, with `choose_mrr_impl`'s verdict for BKA:
 *
 * | join_cache_level | ALL | ref / eq_ref / hash |
 * |---|---|---|
 * | 0 | none | none |
 * | 1 | BNL flat | none |
 * | 2 | BNL incr. | none |
 * | 3 / 4 | BNL (incr. if prev cached) | BNLH flat / incr. |
 * | 5 / 6 | BNL | BKA flat / incr. (BNLH if join_cache_bka=off or `hash`) |
 * | 7 / 8 | BNL | BKAH flat / incr. (BKA if join_cache_hashed=off) |
 *
 * "incr." needs the previous table to have a buffer; the first table never has one. BKA/BKAH
 * need DS-MRR to be usable (`mrr=on`, not index-only, a clustered key only with
 * `mrr_sort_keys=on`); when it is not, a level ≥ 5 ref access gets NO buffer (no fallback).
 */
export function chooseJoinCache(
  joinCacheLevel: number,
  table: JoinCacheTable,
  switches: Partial<JoinCacheSwitches> = {},
): JoinCacheChoice {
  if (!Number.isInteger(joinCacheLevel) || joinCacheLevel < 0 || joinCacheLevel > 8) {
    throw new RangeError(`join_cache_level must be an integer in [0, 8], got ${String(joinCacheLevel)}`);
  }
  const access = table.access;
  if (access !== 'ALL' && access !== 'ref' && access !== 'eq_ref' && access !== 'hash') {
    throw new RangeError(`table.access must be 'ALL', 'ref', 'eq_ref' or 'hash', got ${String(access)}`);
  }
  const sw = { ...defaultJoinCacheSwitches, ...switches };
  const none: JoinCacheChoice = {
    algorithm: 'none',
    incremental: false,
    level: 0,
    keyOrdered: false,
    rowidOrdered: false,
    extra: '',
  };
  let level = joinCacheLevel;
  const forceUnlinked = !sw.join_cache_incremental;
  const noHashed = !sw.join_cache_hashed;
  const noBka = !sw.join_cache_bka;
  if (level === 0 || table.first === true) return none;
  if (forceUnlinked && level % 2 === 0) level--;
  if (table.semiJoinInner === true && !sw.semijoin_with_cache) return none;
  if (table.outerJoinInner === true && !sw.outer_join_with_cache) return none;
  if (table.nestedInner === true) {
    // Unlinked buffers cannot guarantee one match per nest.
    if (forceUnlinked || level === 1) return none;
    if (level & 1) level--;
  }
  let prevCache = table.prevCached === true;
  const pick = (
    algorithm: JoinCacheChoice['algorithm'],
    top: number,
    keyOrdered = false,
    rowidOrdered = false,
  ) => {
    const choice: JoinCacheChoice = {
      algorithm,
      incremental: prevCache,
      level: top - (prevCache ? 0 : 1),
      keyOrdered,
      rowidOrdered,
      extra: '',
    };
    choice.extra = explainJoinCache(choice);
    return choice;
  };
  if (access === 'ALL') {
    if (level === 1) prevCache = false;
    return pick('BNL', 2);
  }
  if (level <= 2 || (noHashed && noBka)) return none;
  const hashRef = access === 'hash';
  // multi_range_read_info(HA_MRR_NO_NULL_ENDPOINTS | HA_MRR_SINGLE_POINT [| INDEX_ONLY]).
  let dsMrr = false;
  let keyOrdered = false;
  let rowidOrdered = false;
  if (!hashRef && !noBka) {
    const clustered = table.clusteredKey === true;
    const indexOnly = table.coveringKey === true;
    const cpkScan = clustered && sw.mrr_sort_keys; // check_cpk_scan: SINGLE_POINT is set by BKA
    const useDefault =
      !sw.mrr || indexOnly || (clustered && !cpkScan) || (sw.mrr_cost_based && table.dsMrrCheaper === false);
    if (!useDefault) {
      dsMrr = true;
      keyOrdered = clustered || sw.mrr_sort_keys;
      rowidOrdered = !(clustered || indexOnly);
    }
  }
  if ((level <= 4 && !noHashed) || noBka || hashRef) {
    if (level === 3) prevCache = false;
    return pick('BNLH', 4);
  }
  if (!dsMrr) return none;
  if (level <= 6 || noHashed) {
    if (level === 5) prevCache = false;
    return pick('BKA', 6, keyOrdered, rowidOrdered);
  }
  if (level === 7) prevCache = false;
  return pick('BKAH', 8, keyOrdered, rowidOrdered);
}

/**
 * MariaDB's EXPLAIN Extra for a join buffer (`JOIN_CACHE::save_explain_data`,
 * `DsMrr_impl::dsmrr_explain_info`): `Using join buffer (flat|incremental, BNL|BNLH|BKA|BKAH join)`,
 * then for BKA/BKAH `; Key-ordered scan`, `; Rowid-ordered scan` or `; Key-ordered Rowid-ordered scan`.
 */
export function explainJoinCache(
  choice: Pick<JoinCacheChoice, 'algorithm' | 'incremental' | 'keyOrdered' | 'rowidOrdered'>,
): string {
  if (choice.algorithm === 'none') return '';
  let s = `Using join buffer (${choice.incremental ? 'incremental' : 'flat'}, ${choice.algorithm} join)`;
  if (choice.algorithm === 'BKA' || choice.algorithm === 'BKAH') {
    const mrr = [choice.keyOrdered ? 'Key-ordered' : '', choice.rowidOrdered ? 'Rowid-ordered' : '']
      .filter(Boolean)
      .join(' ');
    if (mrr !== '') s += `; ${mrr} scan`;
  }
  return s;
}
