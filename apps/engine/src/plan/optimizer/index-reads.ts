import type { Table, TableIndex } from '../../storage/table.js';
import type { Bound } from '../../exec/bound.js';
import type { Access, IndexReadPlan, StageJoin } from '../../exec/planned-stage.js';
import type { Source } from '../../exec/scope.js';
import type { AccessChoice } from './access-path.js';
import type { OptimizerSettings } from './settings.js';
import { columnsRead } from './column-reads.js';
import { indexKeyLength as keyImageLength } from '../../storage/key-length.js';
import type { TableInfo } from './table-info.js';

/**
 * Whether `ix`'s entries hold every column in `cols` (its own columns and the primary key it
 * carries) as values: not a collated text column (its entry holds the weight string), a binary
 * string, or a TIMESTAMP (kept in UTC) — those are read from the row.
 */
export function entryHolds(ix: TableIndex, cols: Iterable<number>, src?: Source): boolean {
  for (const c of cols) {
    if (!ix.entryColumns.includes(c)) return false;
    const t = src?.columns[c]?.t;
    if (
      t !== undefined &&
      ((t.kind === 'str' && t.collation !== 'bytes') || t.binary === true || t.timestamp === true)
    )
      return false;
  }
  return true;
}

/** Whether a read of `ix` need not fetch rows: the entry holds every column the query uses. */
export function isCovering(src: Source, ix: TableIndex): boolean {
  return entryHolds(ix, src.used, src);
}

/** MySQL's KEY::key_length of an index's own columns (what `find_shortest_key` compares). */
export function indexKeyLength(table: Table, ix: TableIndex): number {
  return keyImageLength(table.columns, ix);
}

/**
 * `handler::index_only_read_time(keynr, records)` (5.6 handler.cc): index blocks read for
 * `records` entries, `keys_per_block` = 16384 / 2 / (key_length + ref_length) + 1, ref_length
 * being the primary key's length (InnoDB's row reference).
 */
export function indexOnlyReadTime(table: Table, ix: TableIndex, records: number): number {
  const ref = indexKeyLength(table, table.primary);
  const keysPerBlock = Math.floor(16384 / 2 / (indexKeyLength(table, ix) + ref)) + 1;
  return (records + keysPerBlock - 1) / keysPerBlock;
}

/**
 * The index a full scan reads instead of the table when some index covers the query (MariaDB's
 * `make_join_readinfo` turns such a JT_ALL into JT_NEXT, EXPLAIN `index`): `find_shortest_key` —
 * the covering secondary index with the shortest key; the clustered index when none is shorter
 * and the shortest has as many parts as the table has columns. Undefined when none covers.
 */
export function shortestCoveringKey(src: Source, indexes: readonly TableIndex[]): TableIndex | undefined {
  const table = src.table;
  if (table === undefined || src.derived !== undefined) return undefined;
  let best: TableIndex | undefined;
  let bestLen = Number.POSITIVE_INFINITY;
  let primary: TableIndex | undefined;
  for (const ix of indexes) {
    if (!isCovering(src, ix)) continue;
    if (ix.primary) {
      primary = ix;
      continue;
    }
    const len = indexKeyLength(table, ix);
    if (len < bestLen) {
      best = ix;
      bestLen = len;
    }
  }
  if (primary !== undefined && (best === undefined || best.columns.length >= table.columns.length))
    return primary;
  return best;
}

/**
 * The conjuncts of `conds` an index entry of `ix` can check (5.6's `make_cond_for_index` over the
 * top-level AND): each reads only columns the entry holds — the index's own and the primary key's
 * (`uses_index_fields_only`, with InnoDB's HA_PRIMARY_KEY_IN_READ_INDEX) — and, unless
 * `otherTablesOk`, no other table; a subquery is never pushed (`limit_index_condition_pushdown_processor`).
 */
export function pushableConds(
  src: Source,
  ix: TableIndex,
  conds: readonly Bound[],
  otherTablesOk: boolean,
): { pushed: Bound[]; rest: Bound[]; columns: Set<number>; otherTables: boolean } {
  const pushed: Bound[] = [];
  const rest: Bound[] = [];
  const columns = new Set<number>();
  let otherTables = false;
  for (const m of conds) {
    const cols = columnsRead(m, src);
    const others = m.outer || m.refs.some((r) => r !== src.idx);
    const ok =
      cols !== undefined &&
      m.refs.includes(src.idx) &&
      m.sub !== true &&
      m.agg !== true &&
      (otherTablesOk || !others) &&
      entryHolds(ix, cols, src);
    if (!ok) {
      rest.push(m);
      continue;
    }
    pushed.push(m);
    if (others) otherTables = true;
    for (const c of cols) columns.add(c);
  }
  return { pushed, rest, columns, otherTables };
}

/**
 * The stage's index read beyond its access (MariaDB's `make_join_readinfo`): a covering index is
 * read alone (`set_keyread`, "Using index"), a full scan becomes a scan of the shortest covering
 * index (JT_NEXT, EXPLAIN `index`); otherwise, with `index_condition_pushdown=on`, a ref or range
 * on a secondary index gets the conjuncts its entries can check (`push_index_cond`): not for the
 * clustered index, not for a `const` lookup, not for a LEFT JOIN's inner table (its ON conditions
 * are guarded by the NULL-complement trigger, which is never pushed), not for a ref that a BNL/BNLH
 * buffer joins; conditions on earlier tables only for a ref read per outer row (no join buffer).
 */
export function planIndexRead(
  info: TableInfo,
  a: AccessChoice,
  access: Access,
  algorithm: StageJoin['algorithm'],
  match: readonly Bound[],
  settings: OptimizerSettings,
): IndexReadPlan | undefined {
  const src = info.src;
  const table = src.table;
  if (table === undefined || src.derived !== undefined) return undefined;
  if (access.kind === 'scan' || access.kind === 'hash') {
    // JT_ALL → JT_NEXT, and JT_HASH → JT_HASH_NEXT (BNLH builds from the index)
    if (access.kind === 'scan' ? a.kind !== 'scan' : a.kind !== 'ref') return undefined;
    const ix = shortestCoveringKey(src, info.indexes);
    if (ix === undefined) return undefined;
    return { index: ix.name, covering: true, pushed: [], otherTables: false, entryColumns: src.used };
  }
  if (access.kind !== 'ref' && access.kind !== 'range') return undefined;
  const ix = table.index(access.index);
  if (isCovering(src, ix))
    return { index: ix.name, covering: true, pushed: [], otherTables: false, entryColumns: src.used };
  if (settings.switches.index_condition_pushdown !== true || ix.primary) return undefined;
  if (src.joinType === 'left') return undefined;
  if (a.kind === 'ref' && a.unique && a.constant) return undefined;
  if (access.kind === 'ref' && (algorithm === 'BNL' || algorithm === 'BNLH')) return undefined;
  // other tables' columns are at hand for a ref read per outer row, and BKA checks them per
  // buffered record; a range here is re-read per outer row but MariaDB would buffer it (BNL)
  const otherTablesOk =
    access.kind === 'ref' && (algorithm === 'none' || algorithm === 'BKA' || algorithm === 'BKAH');
  // the ref's own key equalities are met by the lookup: MySQL drops them from the condition
  const keyConds = a.kind === 'ref' ? refKeyConds(a, match) : new Set<Bound>();
  const candidates = match.filter((m) => !keyConds.has(m));
  const { pushed, columns, otherTables } = pushableConds(src, ix, candidates, otherTablesOk);
  if (pushed.length === 0) return undefined;
  return { index: ix.name, covering: false, pushed, otherTables, entryColumns: columns };
}

/** The conjuncts a ref's lookup key comes from (the lookup meets them). */
export function refKeyConds(a: Extract<AccessChoice, { kind: 'ref' }>, match: readonly Bound[]): Set<Bound> {
  return new Set(
    match.filter((m) =>
      a.keys.some((k) => m.cmp !== undefined && (m.cmp.l === k.expr || m.cmp.r === k.expr)),
    ),
  );
}
