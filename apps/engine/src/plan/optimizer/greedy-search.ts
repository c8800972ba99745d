import { type AccessChoice, bestAccessPath, type ConsideredAccess } from './access-path.js';
import { ROW_EVALUATE_COST } from './cost.js';
import type { OptimizerSettings } from './settings.js';
import type { TableInfo } from './table-info.js';

/** One table of a join order with how it is read. */
export interface Position {
  readonly table: number;
  readonly access: AccessChoice;
  /** Partial rows after this table (`record_count × records_read`). */
  readonly prefixRows: number;
  /** Cost of this table: its access plus evaluating the partial rows it yields. */
  readonly cost: number;
}

export interface JoinOrder {
  readonly positions: readonly Position[];
  readonly cost: number;
  readonly rows: number;
}

/** A partial plan the search costed (for the trace). */
export interface ConsideredPlan {
  readonly order: readonly string[];
  readonly rows: number;
  readonly cost: number;
  readonly pruned?: string;
}

interface Search {
  readonly infos: readonly TableInfo[];
  readonly settings: OptimizerSettings;
  readonly considered: ConsideredPlan[] | undefined;
  readonly accesses: Map<number, ConsideredAccess[]> | undefined;
  best: Position[] | undefined;
  bestCost: number;
  /** Access paths the step may still cost before it gives up (then retried shallower). */
  budget: number;
}

/**
 * Access paths one greedy step may cost. A step that needs more (a join of many tables that the
 * cost bound does not prune) is redone with half the look-ahead, down to 1 (plain greedy): where
 * MySQL would search on for minutes, the plan comes from a shallower search.
 */
export const SEARCH_BUDGET = 20_000;

/** Positions of `order` (table indexes into `infos`) costed one after another. */
export function costOrder(
  infos: readonly TableInfo[],
  order: readonly number[],
  settings: OptimizerSettings,
): JoinOrder {
  const positions: Position[] = [];
  const joined = new Set<number>();
  let rows = 1;
  let cost = 0;
  for (const [p, t] of order.entries()) {
    const info = infos[t]!;
    const access = bestAccessPath(info, (i) => joined.has(i), rows, p, settings);
    const prefixRows = rows * access.rows;
    const c = access.cost + prefixRows * ROW_EVALUATE_COST;
    positions.push({ table: t, access, prefixRows, cost: c });
    cost += c;
    rows = prefixRows;
    joined.add(info.src.idx);
  }
  return { positions, cost, rows };
}

/**
 * The join order by MySQL 5.6's `greedy_search`: extend the partial plan by the first table of the
 * cheapest extension `optimizer_search_depth` tables deep (`best_extension_by_limited_search`),
 * then repeat from the longer plan. Partial plans costing at least the best complete plan are
 * dropped; with `optimizer_prune_level` 1, also those worse in both rows and cost than the best
 * plan of the same length seen before. Candidates are tried by ascending `found_records`, and a
 * LEFT JOIN's inner table only after the tables it depends on.
 */
export function greedySearch(
  infos: readonly TableInfo[],
  settings: OptimizerSettings,
  considered?: ConsideredPlan[],
  accesses?: Map<number, ConsideredAccess[]>,
): JoinOrder {
  const n = infos.length;
  let depth = settings.optimizer_search_depth;
  if (depth === 0) depth = Math.min(n, 7);
  const candidates = infos
    .map((_, i) => i)
    .sort((a, b) => infos[a]!.foundRecords - infos[b]!.foundRecords || a - b);
  const fixed: Position[] = [];
  while (fixed.length < n) {
    // no deeper than a search whose plain size (r · (r − 1) · …) stays within 10 budgets
    const r = n - fixed.length;
    let size = 1;
    for (let d = 1; d <= Math.min(depth, r); d++) {
      size *= r - d + 1;
      if (size > SEARCH_BUDGET * 10) {
        depth = Math.max(1, d - 1);
        break;
      }
    }
    for (;;) {
      const s: Search = {
        infos,
        settings,
        considered,
        accesses,
        best: undefined,
        bestCost: Number.POSITIVE_INFINITY,
        budget: SEARCH_BUDGET,
      };
      const last = fixed.at(-1);
      extend(s, candidates, fixed, last?.prefixRows ?? 1, sum(fixed), Math.min(depth, n - fixed.length));
      if (s.budget < 0 && depth > 1) {
        depth = Math.max(1, Math.floor(depth / 2));
        continue;
      }
      fixed.push(s.best![fixed.length]!);
      break;
    }
  }
  return { positions: fixed, cost: sum(fixed), rows: fixed.at(-1)?.prefixRows ?? 1 };
}

function sum(ps: readonly Position[]): number {
  let c = 0;
  for (const p of ps) c += p.cost;
  return c;
}

function extend(
  s: Search,
  candidates: readonly number[],
  plan: Position[],
  rows: number,
  cost: number,
  depthLeft: number,
): void {
  const level = plan.length;
  const joined = new Set(plan.map((p) => s.infos[p.table]!.src.idx));
  const inPlan = new Set(plan.map((p) => p.table));
  // prune_level 1: the best rows and cost among this partial plan's extensions so far
  let bestRows = Number.POSITIVE_INFINITY;
  let bestRead = Number.POSITIVE_INFINITY;
  for (const t of candidates) {
    if (inPlan.has(t)) continue;
    if (--s.budget < 0 && s.best !== undefined) return;
    const info = s.infos[t]!;
    if (!info.dependsOn.every((d) => joined.has(d))) continue;
    const list = s.accesses === undefined ? undefined : [];
    const access = bestAccessPath(info, (i) => joined.has(i), rows, level, s.settings, list);
    if (list !== undefined && !s.accesses!.has(t)) s.accesses!.set(t, list);
    const prefixRows = rows * access.rows;
    const c = access.cost + prefixRows * ROW_EVALUATE_COST;
    const total = cost + c;
    const pos: Position = { table: t, access, prefixRows, cost: c };
    const order = [...plan, pos].map((p) => s.infos[p.table]!.src.alias);
    if (total >= s.bestCost) {
      s.considered?.push({ order, rows: prefixRows, cost: total, pruned: 'higher cost than the best plan' });
      continue;
    }
    if (s.settings.optimizer_prune_level === 1) {
      if (bestRows <= prefixRows && bestRead <= total) {
        s.considered?.push({ order, rows: prefixRows, cost: total, pruned: 'pruned by heuristic' });
        continue;
      }
      // a table another remaining table could look up by key does not set the bar (5.6's
      // `key_dependent & remaining_tables`), unless it yields under 2 rows
      const dependent = info.keyDependsOn.some((d) => !joined.has(d) && d !== info.src.idx);
      if (bestRows >= prefixRows && bestRead >= total && (!dependent || access.rows < 2)) {
        bestRows = prefixRows;
        bestRead = total;
      }
    }
    plan.push(pos);
    const complete = depthLeft <= 1 || plan.length === s.infos.length;
    if (complete) {
      s.considered?.push({ order, rows: prefixRows, cost: total });
      if (total < s.bestCost) {
        s.bestCost = total;
        s.best = [...plan];
      }
    } else extend(s, candidates, plan, prefixRows, total, depthLeft - 1);
    plan.pop();
  }
}
