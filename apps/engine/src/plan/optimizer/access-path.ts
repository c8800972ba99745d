import type { KeyPart } from '../../exec/planned-stage.js';
import { equalityOn } from '../planner.js';
import { ROW_EVALUATE_COST, readTime, scanCost, worstSeeks } from './cost.js';
import { indexOnlyReadTime, isCovering } from './index-reads.js';
import type { OptimizerSettings } from './settings.js';
import { constKey, keyBound, type RangePlan, refRows, type TableInfo } from './table-info.js';

/** The cheapest way to read one table after some others, as MySQL 5.6's `best_access_path`. */
export type AccessChoice =
  | {
      readonly kind: 'ref';
      readonly index: string;
      readonly primary: boolean;
      readonly unique: boolean;
      readonly keys: readonly KeyPart[];
      /** Every key part is a constant. */
      readonly constant: boolean;
      readonly rows: number;
      readonly cost: number;
    }
  | { readonly kind: 'range'; readonly range: RangePlan; readonly rows: number; readonly cost: number }
  | { readonly kind: 'scan'; readonly buffered: boolean; readonly rows: number; readonly cost: number };

/** One candidate best_access_path weighed (for the optimizer trace). */
export interface ConsideredAccess {
  readonly access: string;
  readonly index?: string;
  readonly rows: number;
  readonly cost: number;
  readonly chosen: boolean;
}

/**
 * Best access to `info`'s table when the tables in `joined` are already read and `recordCount`
 * partial rows reach it. Costs exclude evaluating the rows it yields (the search adds
 * `rows × ROW_EVALUATE_COST` per partial row), as `POSITION::read_time` in 5.6:
 *
 * - ref / eq_ref on every index whose leading columns are bound by equalities to constants or
 *   joined tables: `record_count × read_time(index, 1, min(records, worst_seeks))`, records 1
 *   for a unique full key, counted in the index for constants, else rec_per_key;
 * - the table's constant range (its `quick`): `record_count × quick cost`;
 * - a full scan: read once per join-buffer fill (or per outer row without a buffer), leaving
 *   `found_records` rows, a quarter fewer when a join condition could have driven a key.
 */
export function bestAccessPath(
  info: TableInfo,
  joined: (i: number) => boolean,
  recordCount: number,
  position: number,
  settings: OptimizerSettings,
  considered?: ConsideredAccess[],
): AccessChoice {
  const src = info.src;
  let best: AccessChoice | undefined;
  let bestTotal = Number.POSITIVE_INFINITY;
  let foundConstraint = false;
  const offer = (c: AccessChoice, label: string, index?: string): void => {
    const total = c.cost + recordCount * c.rows * ROW_EVALUATE_COST;
    const better = total < bestTotal;
    if (better) {
      best = c;
      bestTotal = total;
    }
    considered?.push({
      access: label,
      ...(index ? { index } : {}),
      rows: c.rows,
      cost: total,
      chosen: false,
    });
  };
  const before = (i: number): boolean => i !== src.idx && joined(i);
  const worst = worstSeeks(info.foundRecords, info.clusteredPages);
  for (const ix of info.indexes) {
    const keys: KeyPart[] = [];
    for (const c of ix.columns) {
      let found: KeyPart | undefined;
      for (const m of info.conds) {
        const e = equalityOn(m, src.idx, before);
        const expr = e !== undefined && e[0] === c ? keyBound(src, c, e[1]) : undefined;
        // prefer a constant over a column of a joined table
        if (
          expr !== undefined &&
          (found === undefined || (expr.refs.length === 0 && found.expr.refs.length > 0))
        )
          found = { column: c, expr };
      }
      if (found === undefined) break;
      keys.push(found);
    }
    if (keys.length === 0) continue;
    const constant = keys.every((k) => k.expr.refs.length === 0 && !k.expr.outer);
    if (!constant) foundConstraint = true;
    const cv = constant ? constKey(src, keys) : undefined;
    const records = refRows(info, ix, keys.length, cv, settings);
    const unique = ix.unique && keys.length >= ix.columns.length;
    // a covering secondary index is read alone: index blocks, not a row lookup per entry (5.6)
    const table = src.table;
    const seeks =
      table !== undefined && !ix.primary && isCovering(src, ix)
        ? indexOnlyReadTime(table, ix, records)
        : readTime(ix.primary, 1, Math.min(records, worst), info.rows, info.clusteredPages);
    // a constant ref is read once, whatever comes before it
    const times = constant ? 1 : recordCount;
    offer(
      {
        kind: 'ref',
        index: ix.name,
        primary: ix.primary,
        unique,
        keys,
        constant,
        rows: records,
        cost: times * seeks,
      },
      unique ? 'eq_ref' : 'ref',
      ix.name,
    );
  }
  const quick = info.quick;
  // 5.6: the range is not weighed when the best ref reads its index on at least as many key parts
  const refOnQuick =
    quick !== undefined &&
    best !== undefined &&
    (best as AccessChoice).kind === 'ref' &&
    (best as Extract<AccessChoice, { kind: 'ref' }>).index === quick.index &&
    (best as Extract<AccessChoice, { kind: 'ref' }>).keys.length >= quick.keyParts;
  if (quick !== undefined && !refOnQuick) {
    // with a quick, best_access_path's "scan" is the range: read per partial row
    offer(
      { kind: 'range', range: quick, rows: quick.rows, cost: recordCount * quick.cost },
      'range',
      quick.index,
    );
  } else if (quick === undefined && (!info.forced || best === undefined)) {
    const left = src.joinType === 'left';
    const buffered =
      position > 0 &&
      settings.join_cache_level > 0 &&
      !(left && settings.switches.outer_join_with_cache === false);
    let rnd = info.foundRecords;
    if (foundConstraint) rnd -= rnd / 4;
    rnd = Math.max(1, rnd);
    const read = scanCost(
      info.clusteredPages,
      recordCount,
      info.recordLength,
      settings.join_buffer_size,
      buffered,
    );
    // every row of the table is checked against the constant conditions once per read
    const reads = buffered ? read / Math.max(1, info.clusteredPages) : recordCount;
    const cost = read + reads * (info.rows - rnd) * ROW_EVALUATE_COST;
    offer({ kind: 'scan', buffered, rows: rnd, cost }, 'scan');
  }
  if (considered !== undefined && best !== undefined) {
    const b = best as AccessChoice;
    const idx = considered.findIndex(
      (c) => c.rows === b.rows && c.cost === b.cost + recordCount * b.rows * ROW_EVALUATE_COST,
    );
    if (idx >= 0) considered[idx] = { ...considered[idx]!, chosen: true };
  }
  return best!;
}
