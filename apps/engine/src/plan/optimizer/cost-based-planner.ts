import type { SqlType } from '../../exec/types.js';
import type { Bound } from '../../exec/bound.js';
import { equalityOn, type PlanContext, type Planner } from '../planner.js';
import type { Access, PlannedStage, StageExplain, StageJoin } from '../../exec/planned-stage.js';
import type { Source } from '../../exec/scope.js';
import type { Table, TableIndex } from '../../storage/table.js';
import type { AccessChoice, ConsideredAccess } from './access-path.js';
import { type ConsideredPlan, costOrder, greedySearch, type JoinOrder } from './greedy-search.js';
import { indexKeyLength, isCovering, planIndexRead, refKeyConds } from './index-reads.js';
import type { IndexReadPlan } from '../../exec/planned-stage.js';
import { type BkaSizing, planBuffers } from './join-buffers.js';
import { impliedEqualities } from './equality-closure.js';
import { impliedConditions } from './implied-conditions.js';
import { planMinMax } from './min-max.js';
import { joinRecordLength } from '../../exec/join-record.js';
import type { OptimizerSettings } from './settings.js';
import { keyLength } from '../../storage/key-length.js';
import { type TableInfo, tableInfo } from './table-info.js';

import { DEFAULT_SCHEMA, schemaOf } from '../../storage/schema-name.js';
/** One query block's plan as EXPLAIN shows it. */
export interface PlanRecord {
  readonly context: PlanContext;
  readonly stages: readonly PlannedStage[];
  readonly cost: number;
}

/**
 * The cost-based optimizer behind the {@link Planner} interface: per FROM source its statistics and
 * constant ranges ({@link tableInfo}), the join order by greedy search over `best_access_path`
 * costs (FROM order under STRAIGHT_JOIN), conjuncts placed at the first stage that can check
 * them, then join buffers ({@link planBuffers}) and DS-MRR for secondary ranges. `records`
 * keeps every block's plan when asked (EXPLAIN).
 */
export class CostBasedPlanner implements Planner {
  readonly settings: OptimizerSettings;
  readonly records: PlanRecord[] | undefined;
  readonly #analyze: boolean;

  /** `record`: keep each block's plan (EXPLAIN); `analyze`: also count what each stage does. */
  constructor(settings: OptimizerSettings, record = false, analyze = false) {
    this.settings = settings;
    this.records = record ? [] : undefined;
    this.#analyze = analyze;
  }

  plan(
    sources: readonly Source[],
    conditions: readonly Bound[],
    straight = false,
    context: PlanContext = { nested: false, correlated: false, temporary: false, filesort: false },
  ): PlannedStage[] {
    const settings = this.settings;
    // each table filtered as soon as it is read by what the WHERE's ORs imply about it alone, and
    // joined by the column equalities the WHERE's equalities imply
    const where =
      sources.length > 1
        ? [...conditions, ...impliedConditions(conditions), ...impliedEqualities(conditions)]
        : conditions;
    const infos = sources.map((s) => tableInfo(sources, s, where, settings));
    const trace = settings.trace;
    const considered: ConsideredPlan[] | undefined = trace === undefined ? undefined : [];
    const accesses: Map<number, ConsideredAccess[]> | undefined = trace === undefined ? undefined : new Map();
    const fixedOrder = straight || sources.length <= 1;
    const order: JoinOrder = fixedOrder
      ? costOrder(
          infos,
          infos.map((_, i) => i),
          settings,
        )
      : greedySearch(infos, settings, considered, accesses);
    let stages = assemble(infos, order, where, settings, context);
    // MIN and MAX of the one table from index ends, when every aggregate has an index for it
    const minMax =
      context.minMax !== undefined && infos.length === 1
        ? planMinMax(infos[0]!, where, context.minMax.items)
        : undefined;
    if (minMax !== undefined) stages = [{ ...stages[0]!, minMax }];
    if (this.#analyze)
      stages = stages.map((st) => ({ ...st, actual: { loops: 0, rows: 0, passed: 0, ms: 0 } }));
    if (trace !== undefined)
      trace.add(traceStep(infos, order, considered ?? [], accesses ?? new Map(), straight, stages));
    this.records?.push({ context, stages, cost: order.cost });
    return stages;
  }
}

function assemble(
  infos: readonly TableInfo[],
  order: JoinOrder,
  where: readonly Bound[],
  settings: OptimizerSettings,
  context: PlanContext,
): PlannedStage[] {
  const pos = new Array<number>(infos.length).fill(0);
  for (const [p, position] of order.positions.entries()) pos[infos[position.table]!.src.idx] = p;
  const placed: Bound[][] = order.positions.map(() => []);
  for (const w of where) {
    let p = 0;
    for (const r of w.refs) p = Math.max(p, pos[r] ?? 0);
    placed[p]!.push(w);
  }
  // accesses, and which scans could hash-join
  const draft = order.positions.map((chosen, p) => {
    const info = infos[position0(chosen)]!;
    const position = rangeOverRef(info, chosen);
    const src = info.src;
    const left = src.joinType === 'left';
    const match = left ? src.on : placed[p]!;
    const post = left ? placed[p]! : [];
    const before = (i: number): boolean => (pos[i] ?? 0) < p && i !== src.idx;
    const hash = p > 0 && position.access.kind !== 'range' ? hashKeys(src, match, before) : undefined;
    return { info, position, match, post, hash, p };
  });
  let recordBytes = 0;
  const sources = draft.map((d) => d.info.src);
  const candidates = draft.map((d) => {
    const a = d.position.access;
    const access: 'ALL' | 'ref' | 'eq_ref' | 'hash' =
      a.kind === 'ref'
        ? a.unique
          ? 'eq_ref'
          : 'ref'
        : d.hash !== undefined && settings.join_cache_level >= 3
          ? 'hash'
          : 'ALL';
    const c = {
      access,
      outerJoinInner: d.info.src.joinType === 'left',
      clusteredKey: a.kind === 'ref' && a.primary,
      recordBytes,
      expectedRecords: d.p === 0 ? 1 : order.positions[d.p - 1]!.prefixRows,
      ...(a.kind === 'ref' ? { bka: bkaSizing(sources, d.p, a, settings.join_buffer_size) } : {}),
    };
    recordBytes += d.info.recordLength;
    return c;
  });
  // a range read inside a join is re-read per outer row; it is given no join buffer here
  const buffers = planBuffers(
    candidates.map((c, p) => (draft[p]!.position.access.kind === 'range' ? { ...c, unbuffered: true } : c)),
    settings,
  );
  // the first table read in ORDER BY or GROUP BY order gives the rows out in that order when no
  // later table is read through a join buffer (nested loops keep the first table's order)
  const orderFirst =
    context.order !== undefined &&
    draft[0] !== undefined &&
    draft[0].info.src.idx === (context.orderSource ?? 0) &&
    buffers.every((b, p) => p === 0 || b.join.algorithm === 'none');
  return draft.map((d, p) => {
    const a = d.position.access;
    let join = buffers[p]!.join;
    const extraJoin = join.algorithm === 'none' ? '' : (buffers[p]!.choice?.extra ?? '');
    let access: Access;
    if (a.kind === 'ref') access = { kind: 'ref', index: a.index, keys: a.keys };
    else if (a.kind === 'range')
      access = {
        kind: 'range',
        index: a.range.index,
        column: a.range.column,
        ...(a.range.lo ? { lo: a.range.lo } : {}),
        ...(a.range.hi ? { hi: a.range.hi } : {}),
        ...(a.range.intervals ? { intervals: a.range.intervals } : {}),
      };
    else access = { kind: 'scan' };
    // BNLH (levels 3–4, or BKA not possible): the inner table is read by a scan into the hash
    // table, keyed by the join's equalities, whatever index a ref would have used
    if (join.algorithm === 'BNLH') {
      if (d.hash !== undefined) access = d.hash;
      else if (a.kind === 'ref') join = { ...join, algorithm: 'none', bufferBytes: 0 };
      else join = { ...join, algorithm: 'BNL' };
    }
    const hashAlgorithm = settings.hashJoinAlgorithm;
    if (join.algorithm === 'BNLH' && hashAlgorithm !== 'bnlh') join = { ...join, hashAlgorithm };
    let extraText =
      join.algorithm === 'none'
        ? ''
        : join.algorithm === buffers[p]!.join.algorithm && join.hashAlgorithm === undefined
          ? extraJoin
          : `Using join buffer (${join.incremental ? 'incremental' : 'flat'}, ${joinName(join)} join)`;
    let indexRead = planIndexRead(d.info, a, access, join.algorithm, d.match, settings);
    // a multi-part range is read through the index reader even with nothing pushed
    if (indexRead === undefined && access.kind === 'range' && access.intervals !== undefined)
      indexRead = plainIndexRead(access.index);
    // the one table read for ORDER BY or GROUP BY: a full scan not in that order gives way to
    // one that is (test_if_skip_sort_order: the shortest covering index in order, else the
    // clustered index), and a scan in clustered order reads the clustered index as an index
    // (`index` on PRIMARY: index_first, then index_next), as MariaDB reads it for an order
    const table = d.info.src.table;
    if (
      p === 0 &&
      orderFirst &&
      context.order !== undefined &&
      table !== undefined &&
      d.info.src.derived === undefined &&
      access.kind === 'scan' &&
      a.kind === 'scan'
    ) {
      const order = context.order;
      if (!readsInOrder(readOrder(table, access, indexRead, false), order))
        indexRead = orderedFullScan(d.info, order) ?? indexRead;
      if (indexRead === undefined && readsInOrder(readOrder(table, access, undefined, false), order))
        indexRead = clusteredScan(d.info);
    }
    const pushed = indexRead?.pushed ?? [];
    const match = pushed.length === 0 ? d.match : d.match.filter((m) => !pushed.includes(m));
    // DS-MRR fetches rows; a covering range has none to fetch (MariaDB keeps the default MRR then)
    const mrr =
      a.kind === 'range' &&
      !a.range.primary &&
      indexRead?.covering !== true &&
      useDsMrr(d.info, a.range.rows, settings);
    // a covering ref is read from the index alone, one lookup per row: MariaDB gives it no BKA buffer
    if (indexRead?.covering === true && (join.algorithm === 'BKA' || join.algorithm === 'BKAH')) {
      join = { ...join, algorithm: 'none', bufferBytes: 0 };
      extraText = '';
    }
    // the one table read in the ORDER BY order: no filesort (test_if_skip_sort_order's case of
    // an access already in order)
    let ordered =
      p === 0 &&
      orderFirst &&
      context.order !== undefined &&
      d.info.src.table !== undefined &&
      readsInOrder(readOrder(d.info.src.table, access, indexRead, mrr), context.order);
    // a descending order reads the index backward (the index reader's walk; a table scan has none)
    const backward = ordered && context.orderDesc === true;
    if (backward && indexRead === undefined) {
      if (access.kind === 'ref' || access.kind === 'range') indexRead = plainIndexRead(access.index);
      else ordered = false;
    }
    const explained = explainStage(
      d.info,
      a,
      access,
      extraText,
      match,
      d.post,
      mrr,
      p,
      ordered ? { ...context, filesort: false, temporary: false } : context,
      d.position,
      indexRead,
    );
    // a full index scan in the ORDER BY order stops after the LIMIT's rows: EXPLAIN's rows
    const limitRows = context.limitRows;
    const explain =
      ordered &&
      draft.length === 1 &&
      access.kind === 'scan' &&
      limitRows !== undefined &&
      limitRows < explained.rows
        ? { ...explained, rows: Math.max(1, limitRows) }
        : explained;
    const stage: PlannedStage = {
      src: d.info.src,
      access,
      match,
      post: d.post,
      join,
      ...(mrr ? { mrrBufferBytes: settings.mrr_buffer_size } : {}),
      ...(indexRead === undefined ? {} : { indexRead }),
      explain,
      ...(ordered ? { ordered } : {}),
      ...(ordered && backward ? { backward } : {}),
    };
    return stage;
  });
}

const position0 = (p: JoinOrder['positions'][number]): number => p.table;

/** The columns a stage's rows come out in ascending order of, and those it holds constant. */
interface ReadOrder {
  readonly columns: readonly number[];
  readonly fixed: readonly number[];
}

/**
 * How a stage of `table` orders its rows: a table scan in clustered-key order, a covering full
 * index scan or a range in the index's key order (the ranges are read in key order; not DS-MRR,
 * which fetches rows in primary-key order), a ref in the index's order past its looked-up prefix.
 * Undefined: no order known.
 */
function readOrder(
  table: Table,
  access: Access,
  indexRead: IndexReadPlan | undefined,
  mrr: boolean,
): ReadOrder | undefined {
  switch (access.kind) {
    case 'scan':
      if (indexRead === undefined) return { columns: table.primary.entryColumns, fixed: [] };
      return indexRead.covering || table.index(indexRead.index).primary
        ? { columns: table.index(indexRead.index).entryColumns, fixed: [] }
        : undefined;
    case 'range':
      return mrr ? undefined : { columns: table.index(access.index).entryColumns, fixed: [] };
    case 'ref':
      return { columns: table.index(access.index).entryColumns, fixed: access.keys.map((k) => k.column) };
    default:
      return undefined;
  }
}

/**
 * A full scan of `info`'s table in `order`: the shortest covering index whose entries come in
 * that order, else the clustered index when its key does; undefined when neither does.
 */
function orderedFullScan(info: TableInfo, order: readonly number[]): IndexReadPlan | undefined {
  const src = info.src;
  const table = src.table!;
  let best: TableIndex | undefined;
  let bestLen = Number.POSITIVE_INFINITY;
  for (const ix of info.indexes) {
    if (ix.primary || !isCovering(src, ix)) continue;
    if (!readsInOrder({ columns: ix.entryColumns, fixed: [] }, order)) continue;
    const len = indexKeyLength(table, ix);
    if (len < bestLen) {
      best = ix;
      bestLen = len;
    }
  }
  if (best !== undefined)
    return { index: best.name, covering: true, pushed: [], otherTables: false, entryColumns: src.used };
  if (!info.indexes.includes(table.primary)) return undefined;
  if (!readsInOrder({ columns: table.primary.entryColumns, fixed: [] }, order)) return undefined;
  return clusteredScan(info);
}

/** The clustered index read as an index, all of it: covering when the query reads key columns only. */
function clusteredScan(info: TableInfo): IndexReadPlan {
  const src = info.src;
  const primary = src.table!.primary;
  return isCovering(src, primary)
    ? { index: primary.name, covering: true, pushed: [], otherTables: false, entryColumns: src.used }
    : plainIndexRead(primary.name);
}

/** A read of `index` through the index reader with nothing pushed to it and every row fetched. */
function plainIndexRead(index: string): IndexReadPlan {
  return { index, covering: false, pushed: [], otherTables: false, entryColumns: new Set() };
}

/** Whether rows read in `order` are sorted by `want` (ascending; constant columns skipped). */
function readsInOrder(order: ReadOrder | undefined, want: readonly number[]): boolean {
  if (order === undefined) return false;
  const columns = order.columns.filter((c) => !order.fixed.includes(c));
  const keys = want.filter((c) => !order.fixed.includes(c));
  return keys.length <= columns.length && keys.every((c, i) => columns[i] === c);
}

/** What MariaDB sizes a BKA buffer for the `ref` at position `p` by. */
function bkaSizing(
  sources: readonly Source[],
  p: number,
  a: { readonly keys: readonly { readonly column: number }[]; readonly rows: number },
  joinBufferSize: number,
): BkaSizing {
  const src = sources[p]!;
  const table = src.table;
  const len = (cols: readonly number[]): number =>
    cols.reduce((n, c) => {
      const sc = table?.columns[c];
      return n + (sc === undefined ? 8 : keyLength(sc.type, sc.nullable === true));
    }, 0);
  const left = src.joinType === 'left';
  return {
    recordBytes: (incremental) => joinRecordLength(sources, p, incremental, joinBufferSize, left).maxBytes,
    keyLength: len(a.keys.map((k) => k.column)),
    refLength: table === undefined ? 8 : len(table.primary.columns),
    recordsPerKey: a.rows,
  };
}

/**
 * 5.6's `make_join_select`: a ref whose table has a constant range on the same index using more
 * key parts ("Range uses longer key") is read by that range instead.
 */
function rangeOverRef(
  info: TableInfo,
  position: JoinOrder['positions'][number],
): JoinOrder['positions'][number] {
  const a = position.access;
  const q = info.quick;
  if (a.kind !== 'ref' || q === undefined || q.index !== a.index || q.keyParts <= a.keys.length)
    return position;
  return { ...position, access: { kind: 'range', range: q, rows: q.rows, cost: a.cost } };
}

/**
 * DS-MRR for a secondary range (MariaDB's `DsMrr_impl::choose_mrr_impl`): with `mrr=on`, and with
 * `mrr_cost_based=on` only when sorting the row ids and sweeping the clustered index costs less
 * than one random lookup per row.
 */
function useDsMrr(info: TableInfo, rows: number, settings: OptimizerSettings): boolean {
  if (settings.switches.mrr !== true) return false;
  if (settings.switches.mrr_cost_based !== true) return true;
  const sweep = Math.min(rows, info.clusteredPages) + rows * Math.log2(Math.max(2, rows)) * 0.01;
  return sweep < rows;
}

/** Equalities between this source and earlier stages that a hash join can key on, else undefined. */
function hashKeys(
  src: Source,
  match: readonly Bound[],
  before: (i: number) => boolean,
): Extract<Access, { kind: 'hash' }> | undefined {
  const build: Bound[] = [];
  const probe: Bound[] = [];
  const types: SqlType[] = [];
  for (const m of match) {
    const e = equalityOn(m, src.idx, before);
    if (e === undefined || e[1].refs.length === 0) continue;
    const cmp = m.cmp!;
    const side = cmp.r === e[1] ? cmp.l : cmp.r;
    build.push(side);
    probe.push(e[1]);
    types.push(side.t);
  }
  return build.length === 0 ? undefined : { kind: 'hash', build, probe, types };
}

function explainStage(
  info: TableInfo,
  a: AccessChoice,
  access: Access,
  extraJoin: string,
  match: readonly Bound[],
  post: readonly Bound[],
  mrr: boolean,
  p: number,
  context: PlanContext,
  position: { prefixRows: number; cost: number },
  indexRead: IndexReadPlan | undefined,
): StageExplain {
  const src = info.src;
  const table = src.table;
  const col = (c: number): { type: never; nullable: boolean } | undefined => {
    const sc = table?.columns[c];
    return sc === undefined ? undefined : { type: sc.type as never, nullable: sc.nullable === true };
  };
  const lenOf = (cols: readonly number[]): string =>
    String(
      cols.reduce((s, c) => {
        const x = col(c);
        return s + (x === undefined ? 0 : keyLength(x.type, x.nullable));
      }, 0),
    );
  let type: StageExplain['type'];
  let key: string | undefined;
  let keyLen: string | undefined;
  let ref: string | undefined;
  let consumed = new Set<Bound>();
  if (a.kind === 'ref' && access.kind === 'hash') {
    type = 'hash_ALL';
    key = `#hash#${a.index}`;
    keyLen = lenOf(a.keys.map((k) => k.column));
    if (indexRead?.covering === true && table !== undefined) {
      // the hash table is built from a covering index: MariaDB's `#hash#ref key:scanned key`
      type = 'hash_index';
      key = `${key}:${indexRead.index}`;
      keyLen = `${keyLen}:${lenOf(table.index(indexRead.index).columns)}`;
    }
    ref = a.keys
      .map((k) =>
        k.expr.col !== undefined
          ? `${refSchema(k.expr.col.src)}.${k.expr.col.src.alias}.${k.expr.col.src.columns[k.expr.col.c]!.name}`
          : k.expr.refs.length === 0
            ? 'const'
            : 'func',
      )
      .join(',');
  } else if (a.kind === 'ref') {
    type = a.unique ? (a.constant ? 'const' : 'eq_ref') : 'ref';
    key = a.index;
    keyLen = lenOf(a.keys.map((k) => k.column));
    ref = a.keys
      .map((k) =>
        k.expr.col !== undefined
          ? `${refSchema(k.expr.col.src)}.${k.expr.col.src.alias}.${k.expr.col.src.columns[k.expr.col.c]!.name}`
          : k.expr.refs.length === 0
            ? 'const'
            : 'func',
      )
      .join(',');
    consumed = refKeyConds(a, match);
  } else if (a.kind === 'range') {
    type = 'range';
    key = a.range.index;
    keyLen =
      table === undefined
        ? lenOf([a.range.column])
        : lenOf(table.index(a.range.index).entryColumns.slice(0, a.range.keyParts));
  } else if (
    access.kind === 'scan' &&
    indexRead !== undefined &&
    table !== undefined &&
    (indexRead.covering || table.index(indexRead.index).primary)
  ) {
    // a full scan of a covering index, or of the clustered index for its order (JT_NEXT)
    type = 'index';
    key = indexRead.index;
    keyLen = lenOf(table.index(indexRead.index).columns);
  } else type = access.kind === 'hash' ? 'hash_ALL' : 'ALL';
  const extra: string[] = [];
  if (indexRead !== undefined && indexRead.pushed.length > 0)
    extra.push(
      indexRead.otherTables && (extraJoin.includes('BKA') || extraJoin.includes('BKAH'))
        ? 'Using index condition(BKA)'
        : 'Using index condition',
    );
  if (match.some((m) => !consumed.has(m)) || post.length > 0) extra.push('Using where');
  if (indexRead?.covering === true) extra.push('Using index');
  if (mrr) extra.push('Rowid-ordered scan');
  if (p === 0) {
    if (context.temporary) extra.push('Using temporary');
    if (context.filesort) extra.push('Using filesort');
  }
  if (extraJoin !== '') extra.push(extraJoin);
  const rows = a.kind === 'scan' ? info.rows : a.rows;
  const filtered = a.kind === 'scan' ? (100 * a.rows) / Math.max(1, info.rows) : 100;
  return {
    type,
    possibleKeys: info.possibleKeys,
    ...(key !== undefined ? { key } : {}),
    ...(keyLen !== undefined ? { keyLen } : {}),
    ...(ref !== undefined ? { ref } : {}),
    rows: Math.max(1, Math.round(rows)),
    filtered: Math.min(100, filtered),
    extra,
    cost: position.cost,
    prefixRows: position.prefixRows,
  };
}

function traceStep(
  infos: readonly TableInfo[],
  order: JoinOrder,
  considered: readonly ConsideredPlan[],
  accesses: ReadonlyMap<number, ConsideredAccess[]>,
  straight: boolean,
  stages: readonly PlannedStage[],
): unknown {
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  return {
    join_optimization: {
      rows_estimation: infos.map((i) => ({
        table: i.src.alias,
        rows: i.rows,
        found_records: r2(i.foundRecords),
        range_analysis: i.ranges.map((r) => ({
          index: r.index,
          rows: r.rows,
          cost: r2(r.cost),
          rows_from: r.dived ? 'index dive' : 'guess',
          chosen: r === i.quick,
        })),
      })),
      considered_access_paths: [...accesses].map(([t, list]) => ({
        table: infos[t]!.src.alias,
        at_first_position: list.map((c) => ({ ...c, cost: r2(c.cost), rows: r2(c.rows) })),
      })),
      considered_execution_plans: straight
        ? [{ order: order.positions.map((p) => infos[p.table]!.src.alias), straight_join: true }]
        : considered.map((c) => ({ ...c, rows: r2(c.rows), cost: r2(c.cost) })),
      chosen_plan: {
        order: order.positions.map((p) => ({
          table: infos[p.table]!.src.alias,
          access:
            p.access.kind === 'range'
              ? `range(${p.access.range.index})`
              : p.access.kind === 'ref'
                ? `ref(${p.access.index})`
                : 'scan',
          rows: r2(p.access.rows),
          cost: r2(p.cost),
        })),
        cost: r2(order.cost),
        rows: r2(order.rows),
      },
      // 5.6's refine_plan: what each table's index read became after the order was fixed
      refine_plan: stages.map((st) => ({
        table: st.src.alias,
        ...(st.indexRead !== undefined && st.indexRead.pushed.length > 0
          ? { pushed_index_condition: st.indexRead.pushed.map((b) => b.text).join(' and ') }
          : {}),
        ...(st.indexRead?.covering === true ? { index_only: st.indexRead.index } : {}),
      })),
    },
  };
}

/** The join's name in EXPLAIN's "Using join buffer (…, NAME join)". */
function joinName(join: StageJoin): string {
  if (join.hashAlgorithm === 'grace_hash') return 'grace hash';
  if (join.hashAlgorithm === 'sort_merge') return 'sort-merge';
  return join.algorithm;
}

/** The database EXPLAIN's `ref` names a column's table by: a stored table's own, else `test`. */
function refSchema(src: { readonly table?: { readonly name: string } | undefined }): string {
  return src.table === undefined ? DEFAULT_SCHEMA : schemaOf(src.table.name);
}
