import { obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { T_INT, T_STR } from '../exec/types.js';
import { minMaxRowsExist } from '../exec/min-max.js';
import type { PlannedStage } from '../exec/planned-stage.js';
import { CostBasedPlanner, type PlanRecord } from '../plan/optimizer/cost-based-planner.js';
import { bindQuery } from '../plan/select.js';
import type { QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

/**
 * EXPLAIN (traditional, MySQL's eleven columns with MariaDB's Extra texts), EXPLAIN FORMAT=JSON
 * (with cost_info), and MariaDB's ANALYZE SELECT / ANALYZE FORMAT=JSON, which run the statement
 * and add what each table really did (r_loops, r_rows, r_filtered) beside the estimates.
 */
export function compileExplain(v: unknown, ctx: StatementContext, analyze: boolean): Compiled {
  const o = obj(v);
  const [tag, q] = tagOf(o.statement);
  const fo = obj(o.format);
  const format = String(fo.Assignment ?? fo.Keyword ?? 'TRADITIONAL').toUpperCase();
  if (format !== 'TRADITIONAL' && format !== 'JSON')
    throw new SqlError('ER_UNKNOWN_EXPLAIN_FORMAT', `Unknown EXPLAIN format name: '${format.toLowerCase()}'`);
  if (tag !== 'Query')
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      `This version of MySQL doesn't yet support 'EXPLAIN of ${tag}'`,
    );
  const run = ctx.run;
  const planner = new CostBasedPlanner(ctx.session.optimizerSettings(), true, analyze);
  const plan = bindQuery(q, { env: { ...ctx.queryEnv(), planner }, run }, undefined);
  const records = planner.records!;
  return {
    run: (params) => {
      let ms = 0;
      if (analyze) {
        run.params = [...params];
        run.epoch++;
        const t0 = performance.now();
        plan.run(() => true);
        ms = performance.now() - t0;
      }
      const blocks = numbered(records);
      // MIN/MAX from index ends is read while optimizing in MariaDB: an end with no row there
      // makes EXPLAIN say so, and the engine reads the ends here to say the same
      const missing = new Set<PlanRecord>(records.filter((r) => optimizedAway(r) && !minMaxFound(r)));
      return format === 'JSON'
        ? jsonResult(blocks, analyze, ms, missing)
        : traditional(blocks, analyze, missing);
    },
  };
}

interface Numbered {
  readonly id: number;
  readonly selectType: string;
  readonly record: PlanRecord;
}

/** The statement's own block is id 1 (it is planned last); the others follow in planning order. */
function numbered(records: readonly PlanRecord[]): Numbered[] {
  if (records.length === 0) return [];
  const top = records[records.length - 1]!;
  const out: Numbered[] = [{ id: 1, selectType: records.length === 1 ? 'SIMPLE' : 'PRIMARY', record: top }];
  records.slice(0, -1).forEach((r, i) => {
    const c = r.context;
    const selectType = c.nested ? (c.correlated ? 'DEPENDENT SUBQUERY' : 'SUBQUERY') : 'DERIVED';
    out.push({ id: i + 2, selectType, record: r });
  });
  return out;
}

const COLUMNS = ['id', 'select_type', 'table', 'type', 'possible_keys', 'key', 'key_len', 'ref', 'rows'];

/** Whether WHERE keeps a row of an optimized-away block (read under the statement's view). */
function minMaxFound(r: PlanRecord): boolean {
  const st = r.stages[0]!;
  // the block's own frame: WHERE's bounds read the entry's column from there
  const frame = r.context.minMax!.frame;
  const saved = frame.v;
  frame.v = new Array<unknown>(Math.max(saved.length, st.src.offset + st.src.columns.length)).fill(null);
  try {
    return minMaxRowsExist(st, frame);
  } finally {
    frame.v = saved;
  }
}

/** The block's MIN and MAX are answered from index ends ("Select tables optimized away"). */
function optimizedAway(r: PlanRecord): boolean {
  return r.stages[0]?.minMax !== undefined;
}

/** EXPLAIN's message for a block answered from index ends. */
function optimizedAwayText(r: PlanRecord, missing: ReadonlySet<PlanRecord>): string {
  return missing.has(r) ? 'No matching min/max row' : 'Select tables optimized away';
}

function traditional(
  blocks: readonly Numbered[],
  analyze: boolean,
  missing: ReadonlySet<PlanRecord>,
): QueryResult {
  const columns = analyze
    ? [...COLUMNS, 'r_rows', 'filtered', 'r_filtered', 'Extra']
    : [...COLUMNS, 'filtered', 'Extra'];
  const rows: unknown[][] = [];
  for (const b of blocks) {
    if (b.record.stages.length === 0 || optimizedAway(b.record)) {
      const blank = [b.id, b.selectType, null, null, null, null, null, null, null];
      const why = optimizedAway(b.record)
        ? optimizedAwayText(b.record, missing)
        : b.record.context.impossibleWhere === true
          ? 'Impossible WHERE'
          : 'No tables used';
      rows.push(analyze ? [...blank, null, null, null, why] : [...blank, null, why]);
      continue;
    }
    for (const st of b.record.stages) {
      const e = st.explain!;
      const base = [
        b.id,
        b.selectType,
        st.src.alias,
        e.type,
        e.possibleKeys.length === 0 ? null : e.possibleKeys.join(','),
        e.key ?? null,
        e.keyLen ?? null,
        e.ref ?? null,
        e.rows,
      ];
      const extra = e.extra.length === 0 ? null : e.extra.join('; ');
      const filtered = e.filtered.toFixed(2);
      if (analyze) {
        const a = actualOf(st);
        rows.push([...base, a.rRows, filtered, a.rFiltered, extra]);
      } else rows.push([...base, filtered, extra]);
    }
  }
  const types = columns.map((c) => (c === 'id' || c === 'rows' ? T_INT : T_STR));
  return { columns, rows, affectedRows: 0, insertId: 0, warnings: 0, types };
}

function actualOf(st: PlannedStage): { rRows: string | null; rFiltered: string | null; loops: number } {
  const a = st.actual;
  if (a === undefined || a.loops === 0) return { rRows: null, rFiltered: null, loops: 0 };
  return {
    rRows: (a.rows / a.loops).toFixed(2),
    rFiltered: a.rows === 0 ? '100.00' : ((100 * a.passed) / a.rows).toFixed(2),
    loops: a.loops,
  };
}

function jsonResult(
  blocks: readonly Numbered[],
  analyze: boolean,
  ms: number,
  missing: ReadonlySet<PlanRecord>,
): QueryResult {
  const r2 = (x: number): string => x.toFixed(2);
  const blockJson = (b: Numbered): unknown => {
    let prefix = 0;
    const tables = b.record.stages.map((st) => {
      const e = st.explain!;
      prefix += e.cost;
      const evalCost = e.prefixRows * 0.2;
      const a = actualOf(st);
      return {
        table: {
          table_name: st.src.alias,
          access_type: e.type,
          ...(e.possibleKeys.length > 0 ? { possible_keys: e.possibleKeys } : {}),
          ...(e.key !== undefined ? { key: e.key, key_length: e.keyLen } : {}),
          ...(e.ref !== undefined ? { ref: e.ref.split(',') } : {}),
          ...(analyze ? { r_loops: a.loops } : {}),
          rows: e.rows,
          ...(analyze ? { r_rows: a.rRows === null ? null : Number(a.rRows) } : {}),
          filtered: Number(r2(e.filtered)),
          ...(analyze ? { r_filtered: a.rFiltered === null ? null : Number(a.rFiltered) } : {}),
          ...(analyze ? { r_total_time_ms: Number((st.actual?.ms ?? 0).toFixed(3)) } : {}),
          cost_info: {
            read_cost: r2(Math.max(0, e.cost - evalCost)),
            eval_cost: r2(evalCost),
            prefix_cost: r2(prefix),
          },
          ...(st.join !== undefined && st.join.algorithm !== 'none'
            ? {
                using_join_buffer:
                  e.extra.find((x) => x.startsWith('Using join buffer')) ?? st.join.algorithm,
                join_buffer_size: st.join.bufferBytes,
              }
            : {}),
          ...(st.mrrBufferBytes !== undefined ? { mrr_type: 'Rowid-ordered scan' } : {}),
          ...(st.indexRead !== undefined && st.indexRead.pushed.length > 0
            ? {
                [e.extra.includes('Using index condition(BKA)') ? 'index_condition_bka' : 'index_condition']:
                  st.indexRead.pushed.map((p) => p.text).join(' and '),
              }
            : {}),
          ...(st.indexRead?.covering === true ? { using_index: true } : {}),
          ...(e.extra.includes('Using where') ? { using_where: true } : {}),
        },
      };
    });
    return {
      query_block: {
        select_id: b.id,
        ...(analyze && b.id === 1 ? { r_total_time_ms: Number(ms.toFixed(3)) } : {}),
        cost_info: { query_cost: r2(b.record.cost) },
        ...(optimizedAway(b.record)
          ? { table: { message: optimizedAwayText(b.record, missing) } }
          : tables.length === 0
            ? {
                table: {
                  message: b.record.context.impossibleWhere === true ? 'Impossible WHERE' : 'No tables used',
                },
              }
            : { nested_loop: tables }),
      },
    };
  };
  const [top, ...rest] = blocks;
  const doc = top === undefined ? {} : (blockJson(top) as { query_block: Record<string, unknown> });
  if (rest.length > 0 && top !== undefined)
    (doc as { query_block: Record<string, unknown> }).query_block.subqueries = rest.map(blockJson);
  return {
    columns: [analyze ? 'ANALYZE' : 'EXPLAIN'],
    rows: [[JSON.stringify(doc, null, 2)]],
    affectedRows: 0,
    insertId: 0,
    warnings: 0,
    types: [T_STR],
  };
}
