import type { Database } from '../storage/database.js';
import { declaredMembers } from '../exec/members.js';
import { asNumber } from './bind-members.js';
import type { Table } from '../storage/table.js';
import { arr, identText, obj, type Obj, objectName, type Pos, posOf, tagOf } from '../sql/ast.js';
import { selectItemTexts } from './select-items.js';
import { type ResultField, resultField } from '../exec/result-fields.js';
import { SqlError } from '../sql/errors.js';
import { Aggregator, type AggState } from '../exec/aggregate.js';
import { hashKey } from '../exec/compare.js';
import { coerce } from '../exec/convert.js';
import { FileSort } from '../exec/filesort.js';
import { TmpTable } from '../exec/tmp-table.js';
import { GroupMap, groupKeyText } from '../exec/group-map.js';
import { minMaxReads } from '../exec/min-max.js';
import { buildPipeline } from '../exec/pipeline.js';
import { computeWindows } from '../exec/window.js';
import type { StatusCounters } from '../exec/status.js';
import {
  type SqlType,
  T_BIN,
  T_DATE,
  T_DBL,
  T_FLOAT,
  T_INT,
  T_STR,
  T_UINT,
  dateTimeType,
  decType,
  timeType,
  unify,
} from '../exec/types.js';
import type { TableMeta } from '../storage/table-meta.js';
import { type BindCtx, type BindEnv, bindExpr, columnRef, exprTextAt, type SubPlan } from './bind-expr.js';
import { Block, type Bound } from '../exec/bound.js';
import type { Planner } from './planner.js';
import type { DerivedSource, RunState, Source } from '../exec/scope.js';
import { truthOf } from '../exec/truth.js';
import { conjuncts, factorOr } from './conjuncts.js';
import { bindFrom } from './from.js';
import { recursiveCte } from './recursive-cte.js';
import { keyBound, keyCollation, keyValueOf } from '../exec/collation-keys.js';
import { checkJoinTables } from './limits.js';

/** A bound, planned query: its result columns and a function that runs it. */
export interface QueryPlan extends SubPlan {
  readonly columns: readonly string[];
  readonly types: readonly SqlType[];
  /** Where each result column comes from, for its column definition (absent: all expressions). */
  readonly fields?: readonly (ResultField | undefined)[];
  /** SELECT SQL_CALC_FOUND_ROWS: the rows the last run found before its LIMIT (FOUND_ROWS()). */
  readonly foundRows?: () => number;
}

/** What binding a query needs from the session and the database. */
export interface QueryEnv extends Omit<BindEnv, 'bindSubquery'> {
  readonly db: Database;
  readonly status: StatusCounters;
  readonly planner: Planner;
  /** The database unqualified table names are in (the session's, or a view's own); null: none. */
  readonly schema: string | null;
  meta(table: string): TableMeta | undefined;
  /** A view's text and the database its unqualified names are in. */
  view(name: string): { readonly sql: string; readonly schema: string } | undefined;
  /** Binding a view's query: its tables are the view's, not names the statement uses. */
  readonly inView?: boolean;
  /**
   * The hidden storage name of the session's temporary table named `name`, which hides a table
   * or view of that name (never inside a view, whose names are the database's).
   */
  temporaryTable?(name: string): string | undefined;
  readonly sqlMode: string;
  /** sort_buffer_size, bytes. */
  readonly sortBufferSize: number;
  /** join_buffer_size, bytes. */
  readonly joinBufferSize: number;
  /** The last statement's optimizer trace (information_schema.OPTIMIZER_TRACE), if one was kept. */
  readonly optimizerTrace?: () => { readonly query: string; readonly trace: string } | undefined;
  /** min(tmp_table_size, max_heap_table_size), bytes: an internal temporary table's memory. */
  readonly tmpTableSize: number;
}

export interface Ctx {
  readonly env: QueryEnv;
  readonly run: RunState;
}

export function bindEnvOf(c: Ctx): BindEnv {
  const e = c.env;
  return {
    sql: e.sql,
    sysVar: (n, s) => e.sysVar(n, s),
    divPrecisionIncrement: e.divPrecisionIncrement,
    warn: (code, message, level) => e.warn(code, message, level),
    session: e.session,
    collation: e.collation,
    status: e.status,
    paramIndex: (n) => e.paramIndex(n),
    bindSubquery: (q, parent) => bindQuery(q, c, parent, parent.ctes),
  };
}

/** A stored column's SQL type; `declared` (the CREATE TABLE text) tells an UNSIGNED integer. */
export function storedType(t: Table['columns'][number]['type'], declared?: string): SqlType {
  switch (t.kind) {
    case 'int':
    case 'bigint':
      return declared?.endsWith('unsigned') === true ? T_UINT : T_INT;
    case 'decimal':
      return decType(t.precision, t.scale);
    case 'date':
      return T_DATE;
    case 'datetime':
    case 'timestamp':
      return dateTimeType(t.fsp, t.kind === 'timestamp');
    case 'time':
      return timeType(t.fsp);
    case 'double':
      return declared === 'float' || declared === 'float unsigned' ? T_FLOAT : T_DBL;
    case 'binary':
    case 'varbinary':
      return { ...T_BIN, len: t.length };
    default: {
      // a text column: its collation, or its bytes when it has none (tables of the storage API)
      const e = declaredMembers(declared);
      const base: SqlType = { ...T_STR, len: t.length, collation: t.collation ?? 'bytes' };
      if (declared === 'json') return { ...base, json: true };
      return e === undefined ? base : { ...base, members: e.members, ...(e.set ? { set: true } : {}) };
    }
  }
}

/**
 * Whether a `StraightJoin` variant (a key, or a unit variant's string) occurs anywhere in `n`:
 * a FROM clause with `a STRAIGHT_JOIN b` somewhere in it. A walk that stops at the first one.
 */
function mentionsStraightJoin(n: unknown): boolean {
  if (n === 'StraightJoin') return true;
  if (n === null || typeof n !== 'object') return false;
  if (Array.isArray(n)) {
    for (const x of n) if (mentionsStraightJoin(x)) return true;
    return false;
  }
  for (const k in n as Obj) {
    if (k === 'StraightJoin') return true;
    if (mentionsStraightJoin((n as Obj)[k])) return true;
  }
  return false;
}

/** Bind and plan a query expression (`Query` node). */
export function bindQuery(
  q: unknown,
  c: Ctx,
  parent: Block | undefined,
  ctes?: Map<string, DerivedSource>,
): QueryPlan {
  const qo = obj(q);
  let scope = ctes ?? parent?.ctes ?? new Map<string, DerivedSource>();
  const w = obj(qo.with);
  if (arr(w.cte_tables).length > 0) {
    scope = new Map(scope);
    for (const cte of arr(w.cte_tables)) {
      const co = obj(cte);
      const alias = obj(co.alias);
      const name = identText(alias.name);
      const rec = w.recursive === true ? recursiveCte(co, c, scope) : undefined;
      if (rec !== undefined) {
        scope.set(name.toLowerCase(), rec);
        continue;
      }
      const plan = bindQuery(co.query, c, undefined, scope);
      const cols = arr(alias.columns).map((x) => identText(obj(x).name));
      scope.set(name.toLowerCase(), materialized(plan, cols.length > 0 ? cols : plan.columns));
    }
  }
  const body = qo.body;
  const [tag, bv] = tagOf(body);
  const orderBy = arr(obj(obj(qo.order_by).kind).Expressions);
  const limit = limitOf(qo.limit_clause);
  if (tag === 'Select') return bindSelect(obj(bv), c, parent, scope, orderBy, limit);
  let inner: QueryPlan;
  if (tag === 'SetOperation') inner = bindSetOp(obj(bv), c, parent, scope);
  else if (tag === 'Query') inner = bindQuery(bv, c, parent, scope);
  else throw new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support '${tag}'`);
  if (orderBy.length === 0 && limit === undefined) return inner;
  return orderOutput(inner, orderBy, limit, c, parent);
}

interface LimitSpec {
  readonly limit: unknown;
  readonly offset: unknown;
}

function limitOf(lc: unknown): LimitSpec | undefined {
  if (lc === undefined || lc === null) return undefined;
  const [t, v] = tagOf(lc);
  const o = obj(v);
  if (t === 'LimitOffset') return { limit: o.limit, offset: obj(o.offset).value };
  if (t === 'OffsetCommaLimit') return { limit: o.limit, offset: o.offset };
  return undefined;
}

export function materialized(plan: QueryPlan, names: readonly string[]): DerivedSource {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n.toLowerCase())) throw new SqlError('ER_DUP_FIELDNAME', `Duplicate column name '${n}'`);
    seen.add(n.toLowerCase());
  }
  return {
    columns: names,
    types: plan.types,
    ...(plan.fields === undefined ? {} : { fields: plan.fields }),
    run: (emit) => plan.run(emit),
  };
}

/** Evaluate a LIMIT/OFFSET expression (a constant or a parameter). */
function constInt(n: unknown, c: Ctx, parent: Block | undefined): () => number {
  if (n === undefined || n === null) return () => 0;
  const b = new Block(parent, c.run);
  const e = bindExpr(n, { block: b, clause: 'limit clause', allowAgg: false, env: bindEnvOf(c) });
  return () => {
    const v = e.ev();
    const x = Number(coerce(v, e.t, T_INT) ?? 0);
    return Math.max(x, 0);
  };
}

interface SortKey {
  readonly ev: () => unknown;
  readonly desc: boolean;
}

/**
 * Sort [keys, row] pairs with a filesort of `sort_buffer_size` (rows travel through the sorter,
 * spilling to temp files past the buffer); counts Sort_* as MySQL.
 */
function sortRows(
  rows: Array<[unknown[], unknown[]]>,
  types: readonly SqlType[],
  desc: readonly boolean[],
  env: QueryEnv,
  how: 'Sort_scan' | 'Sort_range',
): Array<[unknown[], unknown[]]> {
  const fs = startSort(types, desc, env, how);
  for (const [k, r] of rows) fs.add(k, r);
  const out: Array<[unknown[], unknown[]]> = [];
  finishSort(fs, env, (r) => {
    out.push([[], r]);
    return true;
  });
  return out;
}

export function startSort(
  types: readonly SqlType[],
  desc: readonly boolean[],
  env: QueryEnv,
  how: 'Sort_scan' | 'Sort_range',
  keep?: number,
): FileSort {
  env.status.add(how, 1);
  return new FileSort(types, desc, env.sortBufferSize, keep);
}

export function finishSort(fs: FileSort, env: QueryEnv, emit: (row: unknown[]) => boolean): void {
  env.status.add('Sort_rows', fs.sortedRows);
  const passes = fs.drain(emit);
  if (passes > 0) env.status.add('Sort_merge_passes', passes);
}

/** Whether two expression texts are the same, but for letter case and blanks. */
function sameText(a: string, b: string): boolean {
  return a.replace(/\s+/g, '').toLowerCase() === b.replace(/\s+/g, '').toLowerCase();
}

function rowKey(row: readonly unknown[], types: readonly SqlType[]): string {
  let s = '';
  for (let i = 0; i < row.length; i++) {
    const v = keyValueOf(row[i], types[i]!);
    s += v === null ? '\u0001N' : types[i]?.kind === 'dec' ? `d${String(v)}` : String(hashKey(v));
    s += '\u0000';
  }
  return s;
}

/** Sort, dedupe and cut collected rows (after a set operation or with ORDER BY on output columns). */
function orderOutput(
  inner: QueryPlan,
  orderBy: unknown[],
  limit: LimitSpec | undefined,
  c: Ctx,
  parent: Block | undefined,
): QueryPlan {
  const keys = orderBy.map((o) => {
    const oo = obj(o);
    const e = oo.expr;
    const [t, v] = tagOf(e);
    let idx = -1;
    if (t === 'Value' && tagOf(obj(v).value)[0] === 'Number')
      idx = Number(arr(tagOf(obj(v).value)[1])[0]) - 1;
    else if (t === 'Identifier' || t === 'CompoundIdentifier') {
      const name = t === 'Identifier' ? identText(v) : identText(arr(v).at(-1));
      idx = inner.columns.findIndex((n) => n.toLowerCase() === name.toLowerCase());
    }
    if (idx < 0 || idx >= inner.columns.length) {
      const p = posOf(e);
      throw new SqlError(
        'ER_BAD_FIELD_ERROR',
        `Unknown column '${exprTextAt(c.env.sql, p?.line ?? 1, p?.column ?? 1)}' in 'order clause'`,
        p?.line,
        p?.column,
      );
    }
    return { idx, desc: obj(oo.options).asc === false };
  });
  const lim =
    limit === undefined
      ? undefined
      : { limit: constInt(limit.limit, c, parent), offset: constInt(limit.offset, c, parent) };
  return {
    columns: inner.columns,
    types: inner.types,
    ...(inner.fields === undefined ? {} : { fields: inner.fields }),
    correlated: inner.correlated,
    outerRefs: inner.outerRefs,
    outerValues: inner.outerValues,
    run(emit) {
      const rows: unknown[][] = [];
      inner.run((r) => {
        rows.push(r);
        return true;
      });
      let keyed: Array<[unknown[], unknown[]]> = rows.map((r) => [
        keys.map((k) => keyValueOf(r[k.idx], inner.types[k.idx]!)),
        r,
      ]);
      if (keys.length > 0)
        keyed = sortRows(
          keyed,
          keys.map((k) => (keyCollation(inner.types[k.idx]!) === undefined ? inner.types[k.idx]! : T_STR)),
          keys.map((k) => k.desc),
          c.env,
          'Sort_scan',
        );
      const off = lim === undefined ? 0 : lim.offset();
      const max = lim === undefined ? Number.POSITIVE_INFINITY : lim.limit();
      for (let i = off; i < keyed.length && i < off + max; i++) if (emit(keyed[i]![1]) === false) return;
    },
  };
}

function bindSetOp(o: Obj, c: Ctx, parent: Block | undefined, ctes: Map<string, DerivedSource>): QueryPlan {
  const side = (n: unknown): QueryPlan => {
    const [t, v] = tagOf(n);
    if (t === 'Select') return bindSelect(obj(v), c, parent, ctes, [], undefined);
    if (t === 'SetOperation') return bindSetOp(obj(v), c, parent, ctes);
    if (t === 'Query') return bindQuery(v, c, parent, ctes);
    throw new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support '${t}'`);
  };
  // a chain of set operations types each column once over all its SELECTs, as MariaDB does
  // (`SELECT 1 UNION SELECT 1.5 UNION SELECT 'x'` is text, and 1 is '1', not '1.0')
  const leaves = new Map<unknown, QueryPlan>();
  const collect = (n: unknown): void => {
    const [t, v] = tagOf(n);
    if (t === 'SetOperation') {
      collect(obj(v).left);
      collect(obj(v).right);
    } else leaves.set(n, side(n));
  };
  collect(o.left);
  collect(o.right);
  const plans = [...leaves.values()];
  const width = plans[0]!.columns.length;
  if (plans.some((p) => p.columns.length !== width))
    throw new SqlError(
      'ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT',
      'The used SELECT statements have a different number of columns',
    );
  const types = plans[0]!.types.map((_, i) => unify(plans.map((p) => p.types[i]!)));
  const build = (n: unknown): QueryPlan => {
    const [t, v] = tagOf(n);
    return t === 'SetOperation'
      ? combineSetOp(obj(v), build(obj(v).left), build(obj(v).right), types, c)
      : leaves.get(n)!;
  };
  return combineSetOp(o, build(o.left), build(o.right), types, c);
}

/** Set operation `o` over the plans of its two sides, every row converted to `types`. */
function combineSetOp(o: Obj, l: QueryPlan, r: QueryPlan, types: SqlType[], c: Ctx): QueryPlan {
  const op = String(o.op);
  const all = o.set_quantifier === 'All';
  const fix = (p: QueryPlan, row: unknown[]): unknown[] =>
    row.map((v, i) => (v === null ? null : coerce(v, p.types[i]!, types[i]!)));
  const outerRefs = new Map([...l.outerRefs, ...r.outerRefs]);
  return {
    columns: l.columns,
    types,
    correlated: l.correlated || r.correlated,
    outerRefs,
    outerValues:
      l.outerValues === null || r.outerValues === null ? null : [...l.outerValues, ...r.outerValues],
    run(emit) {
      if (op === 'Union') {
        const seen = all ? null : new Set<string>();
        // UNION DISTINCT deduplicates in a temporary table, which goes to disk past tmp_table_size
        const table = all
          ? null
          : new TmpTable(types, c.env.tmpTableSize, c.env.sortBufferSize, c.env.status, types.length);
        if (table !== null) c.env.status.add('Created_tmp_tables', 1);
        let go = true;
        try {
          for (const p of [l, r]) {
            if (!go) break;
            p.run((row) => {
              const x = fix(p, row);
              if (seen !== null) {
                const k = rowKey(x, types);
                if (seen.has(k)) return true;
                if (table!.full) {
                  table!.spill(x, k, x);
                  return true;
                }
                seen.add(k);
                table!.grew(k);
              }
              if (emit(x) === false) {
                go = false;
                return false;
              }
              return true;
            });
          }
          if (go && table?.onDisk === true)
            table.drain((_k, row, first) => (first ? emit(row) !== false : true));
        } finally {
          table?.close();
        }
        return;
      }
      const right = new Map<string, number>();
      r.run((row) => {
        const k = rowKey(fix(r, row), types);
        right.set(k, (right.get(k) ?? 0) + 1);
        return true;
      });
      const seen = new Set<string>();
      l.run((row) => {
        const x = fix(l, row);
        const k = rowKey(x, types);
        const inRight = (right.get(k) ?? 0) > 0;
        if (op === 'Intersect' ? !inRight : inRight) {
          if (all && op === 'Except') right.set(k, right.get(k)! - 1);
          return true;
        }
        if (all && op === 'Intersect') right.set(k, right.get(k)! - 1);
        if (!all) {
          if (seen.has(k)) return true;
          seen.add(k);
        }
        return emit(x) !== false;
      });
    },
  };
}

function bindSelect(
  sel: Obj,
  c: Ctx,
  parent: Block | undefined,
  ctes: Map<string, DerivedSource>,
  orderBy: unknown[],
  limit: LimitSpec | undefined,
): QueryPlan {
  const block = new Block(parent, c.run, ctes);
  const benv = bindEnvOf(c);
  const where = bindFrom(sel, block, c, ctes);
  checkJoinTables(block.sources.length);
  if (sel.selection !== undefined && sel.selection !== null) {
    const ctx: BindCtx = { block, clause: 'where clause', allowAgg: false, env: benv };
    for (const x of conjuncts(sel.selection, []).flatMap(factorOr)) where.push(bindExpr(x, ctx));
  }
  for (const nw of arr(sel.named_window)) {
    const [id, spec] = arr(nw);
    block.namedWindows.set(identText(id).toLowerCase(), spec);
  }
  // select list (an unaliased item is named by its text as written)
  const selectEnd = obj(obj(obj(sel.select_token).span).end);
  const itemTexts =
    typeof selectEnd.line === 'number' && selectEnd.line > 0
      ? selectItemTexts(c.env.sql, selectEnd as unknown as Pos, arr(sel.projection).length)
      : undefined;
  const items: Bound[] = [];
  const names: string[] = [];
  const aliases = new Map<string, Bound>();
  const fieldCtx: BindCtx = { block, clause: 'field list', allowAgg: true, env: benv };
  for (const [itemNo, it] of arr(sel.projection).entries()) {
    const [t, v] = tagOf(it);
    if (t === 'Wildcard' || t === 'QualifiedWildcard') {
      const qparts = t === 'QualifiedWildcard' ? objectName(tagOf(arr(v)[0])[1] ?? arr(v)[0]) : [];
      const qual = qparts.at(-1);
      const qschema = qparts.length >= 2 ? qparts.at(-2) : undefined;
      let any = false;
      const order = block.starOrder;
      const inOrder =
        order === undefined
          ? block.sources
          : [...order.map((i) => block.sources[i]!), ...block.sources.slice(order.length)];
      for (const s of inOrder) {
        if (qual !== undefined && s.alias.toLowerCase() !== qual.toLowerCase()) continue;
        if (qschema !== undefined && s.schema !== qschema) continue;
        any = true;
        s.columns.forEach((col, i) => {
          if (col.invisible === true || (qual === undefined && col.hiddenUnqualified === true)) return;
          items.push(columnRef(block, s.idx, i));
          names.push(col.name);
        });
      }
      if (!any) {
        if (qual !== undefined) throw new SqlError('ER_BAD_TABLE_ERROR', `Unknown table '${qual}'`);
        throw new SqlError('ER_NO_TABLES_USED', 'No tables used');
      }
      continue;
    }
    if (t === 'UnnamedExpr') {
      const b = bindExpr(v, fieldCtx);
      items.push(b);
      const p = posOf(v);
      const [et, ev] = tagOf(v);
      // a string literal names its column by its value, without the quotes (as MySQL)
      const sv = et === 'Value' ? tagOf(obj(ev).value) : undefined;
      names.push(
        sv !== undefined && (sv[0] === 'SingleQuotedString' || sv[0] === 'DoubleQuotedString')
          ? String(sv[1])
          : et === 'Identifier'
            ? identText(ev)
            : et === 'CompoundIdentifier'
              ? identText(arr(ev).at(-1))
              : (itemTexts?.[itemNo] ??
                (p === undefined ? b.text : exprTextAt(c.env.sql, p.line, p.column, true) || b.text)),
      );
      continue;
    }
    if (t === 'ExprWithAlias') {
      const o = obj(v);
      const b = bindExpr(o.expr, fieldCtx);
      const alias = identText(o.alias);
      items.push(b);
      names.push(alias);
      if (!aliases.has(alias.toLowerCase())) aliases.set(alias.toLowerCase(), b);
      continue;
    }
    throw new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support '${t}'`);
  }
  // GROUP BY: columns first, then select aliases; an integer is a select-list position
  const groupNodes = arr(arr(obj(sel.group_by).Expressions)[0]);
  const groupCtx: BindCtx = {
    block,
    clause: 'group statement',
    allowAgg: false,
    env: benv,
    aliases,
    aliasFirst: false,
  };
  // collated text groups by its weight string; the select list shows each group's first value
  const groupRaw = groupNodes.map((g) => ordinalOr(g, items) ?? bindExpr(g, groupCtx));
  const groups = groupRaw.map(keyBound);
  // WITH ROLLUP: after each group, a row per grouping prefix that ends there (MariaDB's
  // rollup_send_data), in group order; MariaDB refuses an ORDER BY beside it
  const rollup = groups.length > 0 && arr(arr(obj(sel.group_by).Expressions)[1]).includes('Rollup');
  if (rollup && orderBy.length > 0)
    throw new SqlError('ER_WRONG_USAGE', 'Incorrect usage of CUBE/ROLLUP and ORDER BY');
  const having =
    sel.having === undefined || sel.having === null
      ? undefined
      : bindExpr(sel.having, {
          block,
          clause: 'having clause',
          allowAgg: true,
          env: benv,
          aliases: havingAliases(aliases, groupNodes),
          aliasFirst: true,
        });
  const orderCtx: BindCtx = {
    block,
    clause: 'order clause',
    allowAgg: true,
    env: benv,
    aliases,
    aliasFirst: true,
  };
  const keyTypes: SqlType[] = [];
  const orderPlain: (Bound | undefined)[] = [];
  const sortKeys: SortKey[] = [];
  const sortBy = (raw: Bound, desc: boolean): void => {
    orderPlain.push(raw);
    // an ENUM or SET sorts by its number (its members' declaration order)
    const b = keyBound(asNumber(raw));
    keyTypes.push(b.t);
    sortKeys.push({ ev: b.ev, desc });
  };
  const ordering = orderBy.map((o) => {
    const oo = obj(o);
    return {
      raw: ordinalOr(oo.expr, items) ?? bindExpr(oo.expr, orderCtx),
      desc: obj(oo.options).asc === false,
    };
  });
  // a constant changes no row's place: an ORDER BY of constants only (ORDER BY NULL, the idiom
  // that turns off GROUP BY's sort) sorts nothing, as MariaDB removes constant ORDER BY items
  if (!ordering.every((o) => o.raw.lit !== undefined)) for (const o of ordering) sortBy(o.raw, o.desc);
  // MariaDB sorts a GROUP BY's result by the group columns, ascending, when there is no ORDER BY
  // (a query block of its own: a subquery's groups go unsorted, their order serving nothing)
  // (with ROLLUP the groups come out in that order already)
  else if (ordering.length === 0 && parent === undefined && !rollup)
    for (const g of groupRaw) sortBy(g, false);
  const aggregated = groups.length > 0 || block.aggs.length > 0;
  if (!aggregated)
    for (const w of where)
      if (w.agg) throw new SqlError('ER_INVALID_GROUP_FUNC_USE', 'Invalid use of group function');
  const distinct = sel.distinct === 'Distinct' || tagOf(sel.distinct)[0] === 'Distinct';
  const lim =
    limit === undefined
      ? undefined
      : { limit: constInt(limit.limit, c, parent), offset: constInt(limit.offset, c, parent) };
  const straight = obj(sel.select_modifiers).straight_join === true || mentionsStraightJoin(sel.from);
  // GROUP BY on plain columns of the one table, in that order: a read in that order brings each
  // group's rows together, and the groups out sorted (the sort the query asks for, when it asks
  // for that one or none)
  const groupOrder =
    groups.length > 0 && !distinct && block.windows.length === 0
      ? orderColumns(
          block.sources,
          groupRaw,
          groupRaw.map(() => ({ ev: () => null, desc: false })),
        )
      : undefined;
  const orderSpec = sortKeys.length > 0 ? orderColumns(block.sources, orderPlain, sortKeys) : undefined;
  const order =
    groups.length === 0 && !aggregated && !distinct && block.windows.length === 0
      ? orderSpec
      : groupOrder !== undefined &&
          (sortKeys.length === 0 ||
            (orderSpec !== undefined &&
              orderSpec.source === groupOrder.source &&
              sameColumns(orderSpec.columns, groupOrder.columns)))
        ? { source: groupOrder.source, columns: groupOrder.columns, desc: orderSpec?.desc === true }
        : undefined;
  // a literal LIMIT (and OFFSET): the rows an ordered read stops after, for EXPLAIN
  const limitCount =
    limit?.limit === undefined || limit.limit === null ? undefined : literalCount(limit.limit);
  const offsetCount = literalCount(limit?.offset);
  const limitRows =
    limitCount === undefined || offsetCount === undefined ? undefined : limitCount + offsetCount;
  // MIN and MAX only, of plain columns of the one table, no GROUP BY: MariaDB's opt_sum_query
  const only = block.sources.length === 1 ? block.sources[0]! : undefined;
  const minMax =
    only?.table !== undefined &&
    groups.length === 0 &&
    block.aggs.length > 0 &&
    block.windows.length === 0 &&
    items.every((b) => b.refs.length === 0 && b.sub !== true) &&
    (having === undefined || having.refs.length === 0) &&
    block.aggs.every(
      (a) =>
        (a.fn === 'min' || a.fn === 'max') &&
        a.arg?.col?.src === only &&
        !a.arg.outer &&
        a.arg.t.members === undefined &&
        a.arg.t.timestamp !== true &&
        a.arg.t.json !== true &&
        ORDERABLE.has(a.arg.t.kind),
    )
      ? block.aggs.map((a) => ({ fn: a.fn as 'min' | 'max', column: a.arg!.col!.c }))
      : undefined;
  // a block without tables has no stage to test its WHERE on: its one row is tested before the sink
  const tableless = block.sources.length === 0 ? where.map(truthOf) : [];
  const literal = (b: Bound): boolean =>
    b.lit !== undefined || (b.cmp !== undefined && literal(b.cmp.l) && literal(b.cmp.r));
  const impossibleWhere = tableless.some((f, i) => literal(where[i]!) && f() !== true);
  const stages = c.env.planner.plan(block.sources, block.sources.length === 0 ? [] : where, straight, {
    nested: parent !== undefined,
    correlated: block.outerRefs.size > 0,
    // ROLLUP reads its rows sorted (or in group order), never through a temporary table
    temporary: (groups.length > 0 && !rollup) || distinct,
    filesort: sortKeys.length > 0 || rollup,
    ...(impossibleWhere ? { impossibleWhere } : {}),
    ...(order === undefined
      ? {}
      : { order: order.columns, orderSource: order.source, orderDesc: order.desc }),
    ...(minMax === undefined ? {} : { minMax: { items: minMax, frame: block.frame } }),
    ...(limitRows === undefined || aggregated || distinct ? {} : { limitRows }),
  });
  const frame = block.frame;
  const nslots = block.nslots;
  // a rollup row shows NULL for the grouping values it rolls up: the columns grouped by are NULL
  // in its frame, and a select item that is a grouping expression (by position or by text) NULL
  // while its level is rolled up
  const rollupSlots = groupRaw.map((g) =>
    g.col !== undefined && block.sources.includes(g.col.src) ? [g.col.src.offset + g.col.c] : [],
  );
  let rollLevel = groupRaw.length;
  const outEvs = items.map((b) => {
    const j = rollup
      ? groupRaw.findIndex((g) => g === b || (g.col === undefined && sameText(g.text, b.text)))
      : -1;
    if (j < 0) return b.ev;
    const ev = b.ev;
    return () => (rollLevel <= j ? null : ev());
  });
  const nout = outEvs.length;
  const types = items.map((b) => b.t);
  const havingOk =
    having === undefined
      ? () => true
      : (
          (tr) => () =>
            tr() === true
        )(truthOf(having));
  const agg = new Aggregator(block.aggs);
  const groupEvs = groups.map((g) => g.ev);
  const groupTypes = groups.map((g) => g.t);
  const status = c.env.status;
  const keyDesc = sortKeys.map((k) => k.desc);
  const nkeys = sortKeys.length;
  const keyValues = new Array<unknown>(nkeys).fill(null);
  // the one table read in ORDER BY order: rows go out as read, and LIMIT stops the read; read in
  // GROUP BY order: each group goes out when the next one starts (MariaDB's end_send_group), with
  // no temporary table
  const inOrder = stages[0]?.ordered === true;
  const streaming = inOrder && groups.length > 0;
  const sorting = sortKeys.length > 0 && !inOrder;
  // a backward read that must lock reads forward instead (it takes a forward walk's locks), and
  // the rows are sorted as without the index's order
  const backwardTable = stages[0]?.backward === true ? stages[0].src.table : undefined;
  // MIN/MAX from index ends (a read that locks reads the table as planned instead)
  const minMaxRead = stages[0]?.minMax !== undefined ? minMaxReads(stages[0], frame) : undefined;
  const minMaxTable = stages[0]?.src.table;
  // per execution state
  let sorter: FileSort | null = null;
  let seen: Set<string> | null = null;
  let seenTable: TmpTable | null = null;
  let groupTable: TmpTable | null = null;
  let emitted = 0;
  let skipped = 0;
  let offset = 0;
  let max = Number.POSITIVE_INFINITY;
  let emitFn: (row: unknown[]) => boolean | undefined = () => true;
  let stopped = false;
  // with window functions the rows past HAVING are kept, the windows computed over all of them,
  // and then each row goes on to the select list, DISTINCT, ORDER BY and LIMIT
  const windowed = block.windows.length > 0;
  let windowRows: unknown[][] = [];
  const produce = (): boolean => {
    if (!havingOk()) return true;
    if (windowed) {
      windowRows.push(frame.v.slice());
      return true;
    }
    return output();
  };
  const output = (): boolean => {
    const row = new Array<unknown>(nout);
    for (let i = 0; i < nout; i++) row[i] = outEvs[i]!();
    if (seen !== null) {
      const k = rowKey(row, types);
      if (seen.has(k)) return true;
      if (seenTable!.full) {
        seenTable!.spill(row, k, [row, frame.v.slice()]);
        return true;
      }
      seen.add(k);
      seenTable!.grew(k);
    }
    return distinctRow(row);
  };
  /** A row past DISTINCT: into the ORDER BY sort, or out. */
  const distinctRow = (row: unknown[]): boolean => {
    if (sorter !== null) {
      for (let i = 0; i < nkeys; i++) keyValues[i] = sortKeys[i]!.ev();
      // the filesort encodes the key values at once: one array serves every row
      sorter.add(keyValues, row);
      return true;
    }
    return pass(row);
  };
  // SQL_CALC_FOUND_ROWS: every row is counted, the ones past the LIMIT too
  const calcFound = obj(sel.select_modifiers).sql_calc_found_rows === true;
  let found = 0;
  const pass = (row: unknown[]): boolean => {
    c.run.interrupt.poll();
    found++;
    if (skipped < offset) {
      skipped++;
      return true;
    }
    if (emitted >= max) return calcFound;
    emitted++;
    if (emitFn(row) === false) {
      stopped = true;
      return false;
    }
    return emitted < max || calcFound;
  };
  const groupsMap = new GroupMap<{ first: unknown[]; states: AggState[] }>(groupTypes);
  const ngroup = groupEvs.length;
  const groupValues: unknown[] = new Array<unknown>(ngroup).fill(null);
  // the GROUP BY temporary table's handler calls, as MariaDB's end_update counts them: a key
  // lookup per row (Handler_read_key), then a row written (a new group) or updated
  const tmpCalls = { writes: 0, updates: 0 };
  const sinkAgg = (): boolean => {
    for (let i = 0; i < ngroup; i++) groupValues[i] = groupEvs[i]!();
    let g = groupsMap.find(groupValues);
    if (g === undefined) {
      tmpCalls.writes++;
      const table = groupTable!;
      const text = groupKeyText(groupValues, groupTypes);
      if (table.full) {
        table.spill(groupValues.slice(), text, frame.v.slice());
        return true;
      }
      g = { first: frame.v.slice(), states: agg.init() };
      groupsMap.insert(g);
      table.grew(text);
    } else tmpCalls.updates++;
    agg.step(g.states);
    return true;
  };
  // the group being read, when the rows come in group order: its key, its first row, its states
  const streamKey: unknown[] = new Array<unknown>(ngroup).fill(null);
  let streamFirst: unknown[] | null = null;
  let streamStates: AggState[] = [];
  /** Output the group being read (its first row, its aggregates); false: stop the read. */
  const endGroup = (): boolean => {
    const live = frame.v;
    frame.v = streamFirst!;
    agg.finish(streamStates, frame.v);
    const more = produce();
    frame.v = live;
    return more;
  };
  const sinkStream = (): boolean => {
    let same = streamFirst !== null;
    for (let i = 0; i < ngroup; i++) {
      const v = groupEvs[i]!();
      // NULLs group together; a DECIMAL's key is its bigint, collated text its weight string
      if (same && streamKey[i] !== v) same = false;
      groupValues[i] = v;
    }
    if (!same) {
      if (streamFirst !== null && !endGroup()) {
        streamFirst = null;
        return false;
      }
      for (let i = 0; i < ngroup; i++) streamKey[i] = groupValues[i];
      streamFirst = frame.v.slice();
      streamStates = agg.init();
    }
    agg.step(streamStates);
    return true;
  };
  // WITH ROLLUP: the rows in group order (read so, or sorted by their group) with one set of
  // states per grouping prefix (index k: the first k grouping values; k = ngroup the group itself)
  let rollupSort: FileSort | null = null;
  const sinkRollup = (): boolean => {
    for (let i = 0; i < ngroup; i++) groupValues[i] = groupEvs[i]!();
    rollupSort!.add(groupValues, frame.v.slice());
    return true;
  };
  const rollKey: unknown[] = new Array<unknown>(ngroup).fill(null);
  let rollFirst: unknown[] | null = null;
  let rollStates: AggState[][] = [];
  /** The row of grouping prefix k (its group's first row, the values past k NULL). */
  const rollOut = (k: number): boolean => {
    const live = frame.v;
    const v = k === ngroup ? rollFirst! : rollFirst!.slice();
    for (let i = k; i < ngroup; i++) for (const slot of rollupSlots[i]!) v[slot] = null;
    frame.v = v;
    rollLevel = k;
    agg.finish(rollStates[k]!, v);
    const more = produce();
    rollLevel = ngroup;
    frame.v = live;
    return more;
  };
  /** The prefixes from the group itself down to `to` end; false: stop the read. */
  const rollEnd = (to: number): boolean => {
    for (let k = ngroup; k >= to; k--) if (!rollOut(k)) return false;
    return true;
  };
  const rollRow = (row: unknown[]): boolean => {
    frame.v = row;
    let diff = rollFirst === null ? 0 : ngroup;
    for (let i = 0; i < ngroup; i++) {
      const v = groupEvs[i]!();
      if (diff === ngroup && rollKey[i] !== v) diff = i;
      groupValues[i] = v;
    }
    if (rollFirst === null || diff < ngroup) {
      if (rollFirst !== null && !rollEnd(diff + 1)) {
        rollFirst = null;
        return false;
      }
      for (let i = 0; i < ngroup; i++) rollKey[i] = groupValues[i];
      for (let k = rollFirst === null ? 0 : diff + 1; k <= ngroup; k++) rollStates[k] = agg.init();
      rollFirst = row.slice();
    }
    frame.v = row;
    for (let k = 0; k <= ngroup; k++) agg.step(rollStates[k]!);
    return true;
  };
  /** Add the temporary table's calls to the status (GROUP BY only: a plain aggregate has none). */
  const flushTmpCalls = (readBack: number): void => {
    if (groups.length === 0) return;
    const rows = tmpCalls.writes + tmpCalls.updates;
    if (rows > 0) status.add('Handler_read_key', rows);
    if (tmpCalls.writes > 0) status.add('Handler_tmp_write', tmpCalls.writes);
    if (tmpCalls.updates > 0) status.add('Handler_tmp_update', tmpCalls.updates);
    if (readBack > 0) status.add('Handler_read_rnd_next', readBack);
    tmpCalls.writes = 0;
    tmpCalls.updates = 0;
  };
  const sink = rollup
    ? streaming
      ? () => rollRow(frame.v)
      : sinkRollup
    : streaming
      ? sinkStream
      : aggregated
        ? sinkAgg
        : produce;
  const pipeline = buildPipeline(
    stages,
    frame,
    c.run,
    status,
    tableless.length === 0 ? sink : () => !tableless.every((f) => f() === true) || sink(),
    c.env.joinBufferSize,
  );
  const outerRefs = block.outerRefs;
  return {
    columns: names,
    types,
    fields: items.map(resultField),
    correlated: outerRefs.size > 0,
    outerRefs,
    outerValues: block.uncacheable || block.outerOpaque ? null : block.outerColumns.map((o) => o.ev),
    ...(calcFound ? { foundRows: () => found } : {}),
    run(emit) {
      frame.v = new Array<unknown>(nslots).fill(null);
      emitted = 0;
      skipped = 0;
      found = 0;
      stopped = false;
      offset = lim === undefined ? 0 : lim.offset();
      max = lim === undefined ? Number.POSITIVE_INFINITY : lim.limit();
      emitFn = emit;
      const sortNow = sorting || backwardTable?.readsLock() === true;
      if (max === 0 && !sortNow && !calcFound) return;
      seen = distinct ? new Set() : null;
      seenTable = distinct
        ? new TmpTable(types, c.env.tmpTableSize, c.env.sortBufferSize, status, nout)
        : null;
      if (distinct) status.add('Created_tmp_tables', 1);
      sorter = sortNow
        ? startSort(
            keyTypes,
            keyDesc,
            c.env,
            // a sort of grouped rows reads the temporary table: Sort_scan, as MySQL counts it
            !aggregated && (stages[0]?.access.kind === 'ref' || stages[0]?.access.kind === 'range')
              ? 'Sort_range'
              : 'Sort_scan',
            // a LIMIT reads its offset and count of the sorted rows: the sort keeps no more
            // (SQL_CALC_FOUND_ROWS counts them all)
            lim === undefined || calcFound ? undefined : offset + max,
          )
        : null;
      try {
        windowRows = [];
        runBody();
        if (windowed) {
          computeWindows(windowRows, frame, block.windows, c.run.interrupt);
          for (const r of windowRows) {
            frame.v = r;
            if (!output()) break;
          }
          windowRows = [];
        }
        if (seenTable?.onDisk === true && !stopped) drainDistinct(seenTable);
      } catch (e) {
        sorter?.close();
        groupTable?.close();
        seenTable?.close();
        throw e;
      }
      seenTable?.close();
      if (sorter === null || stopped) return;
      const fs = sorter;
      sorter = null;
      if (groups.length === 0) finishSort(fs, c.env, (r) => pass(r));
      else {
        // a filesort of the in-memory temporary table sorts row positions (HEAP reads a row by
        // position fast, so no addon fields) and reads each row it returns back: Handler_read_rnd
        let reads = 0;
        try {
          finishSort(fs, c.env, (r) => {
            reads++;
            return pass(r);
          });
        } finally {
          if (reads > 0) status.add('Handler_read_rnd', reads);
        }
      }
    },
  };
  function runBody(): void {
    if (minMaxRead !== undefined && minMaxTable?.readsLock() === false) {
      frame.v = new Array<unknown>(nslots).fill(null);
      const states = agg.init();
      minMaxRead(() => agg.step(states));
      agg.finish(states, frame.v);
      produce();
    } else if (streaming && !rollup) {
      streamFirst = null;
      pipeline();
      if (streamFirst !== null) endGroup();
      streamFirst = null;
    } else if (rollup) {
      const sort = streaming
        ? null
        : startSort(
            groupTypes,
            groupTypes.map(() => false),
            c.env,
            'Sort_scan',
          );
      rollupSort = sort;
      rollFirst = null;
      rollStates = [];
      try {
        pipeline();
        if (sort !== null) finishSort(sort, c.env, rollRow);
        // a row that stopped the read left no group open
        if (rollFirst !== null) rollEnd(0);
      } finally {
        rollFirst = null;
        rollupSort = null;
        sort?.close();
      }
    } else if (aggregated) {
      groupsMap.clear();
      const table = new TmpTable(
        groupTypes,
        c.env.tmpTableSize,
        c.env.sortBufferSize,
        status,
        nslots,
        48 * block.aggs.length,
      );
      groupTable = table;
      tmpCalls.writes = 0;
      tmpCalls.updates = 0;
      pipeline();
      if (groupsMap.size > 0 || groups.length > 0)
        status.add('Created_tmp_tables', groups.length > 0 ? 1 : 0);
      if (groupsMap.size === 0 && groups.length === 0 && !table.onDisk) {
        frame.v = new Array<unknown>(nslots).fill(null);
        agg.finish(agg.init(), frame.v);
        produce();
      } else {
        // the groups are read back by a scan of the temporary table: Handler_read_rnd_next per
        // row, and once more for the end unless the reader stopped first
        let more = true;
        let read = 0;
        try {
          for (const g of groupsMap.list) {
            c.run.interrupt.poll();
            read++;
            frame.v = g.first;
            agg.finish(g.states, frame.v);
            if (!produce()) {
              more = false;
              break;
            }
          }
          if (more) drainGroups(table);
        } finally {
          flushTmpCalls(more ? read + 1 : read);
        }
      }
      table.close();
      groupTable = null;
    } else pipeline();
  }
  /** The groups that went to disk, one at a time in key order. */
  function drainGroups(table: TmpTable): void {
    let first: unknown[] | null = null;
    let states: AggState[] = [];
    const finish = (): boolean => {
      frame.v = first!;
      agg.finish(states, frame.v);
      return produce();
    };
    let more = true;
    table.drain((_key, row, isFirst) => {
      if (isFirst && first !== null && !finish()) {
        more = false;
        return false;
      }
      if (isFirst) {
        first = row;
        states = agg.init();
      }
      frame.v = row;
      agg.step(states);
      return true;
    });
    if (more && first !== null) finish();
  }
  /** The DISTINCT rows that went to disk: the first of each key goes on. */
  function drainDistinct(table: TmpTable): void {
    table.drain((_key, payload, isFirst) => {
      if (!isFirst) return true;
      frame.v = payload[1] as unknown[];
      return distinctRow(payload[0] as unknown[]);
    });
  }
}

/** Whether two column lists are the same columns in the same order. */
function sameColumns(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** The value of a number literal node (`2`, `1.5`), else undefined. */
function numberLiteral(n: unknown): number | undefined {
  const [t, v] = tagOf(n);
  if (t !== 'Value') return undefined;
  const [vt, vv] = tagOf(obj(v).value);
  return vt === 'Number' ? Number(arr(vv)[0]) : undefined;
}

/** A LIMIT or OFFSET written as a non-negative integer literal (absent: 0), else undefined. */
function literalCount(n: unknown): number | undefined {
  if (n === undefined || n === null) return 0;
  const k = numberLiteral(n);
  return k !== undefined && Number.isSafeInteger(k) && k >= 0 ? k : undefined;
}

/** `ORDER BY 2` / `GROUP BY 1`: the select item at that position. */
function ordinalOr(n: unknown, items: Bound[]): Bound | undefined {
  const k = numberLiteral(n);
  if (k === undefined || !Number.isInteger(k)) return undefined;
  if (k < 1 || k > items.length)
    throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${k}' in 'order clause'`);
  return items[k - 1]!;
}

/**
 * ORDER BY as columns of the query's one stored table, when every key is a plain column of it,
 * all ascending or all descending (`desc`), and sorting by it equals sorting by its stored key
 * (not an ENUM or SET, which sort by number; not a TIMESTAMP, stored in UTC but sorted by its
 * session-time value): the planner may then read the table in that order, forward or backward,
 * and leave the filesort out. Undefined otherwise.
 */
function orderColumns(
  sources: readonly Source[],
  plain: readonly (Bound | undefined)[],
  keys: readonly SortKey[],
): { source: number; columns: number[]; desc: boolean } | undefined {
  if (keys.length === 0) return undefined;
  // every key a column of one base table (the planner decides whether the join reads it first)
  const src = plain[0]?.col?.src;
  if (src === undefined || src.table === undefined || !sources.includes(src)) return undefined;
  const desc = keys[0]!.desc;
  const columns: number[] = [];
  for (const [i, b] of plain.entries()) {
    if (keys[i]!.desc !== desc || b === undefined || b.col === undefined || b.col.src !== src)
      return undefined;
    const t = b.t;
    if (t.members !== undefined || t.timestamp === true || t.json === true) return undefined;
    if (!ORDERABLE.has(t.kind)) return undefined;
    columns.push(b.col.c);
  }
  return { source: src.idx, columns, desc };
}

const ORDERABLE = new Set(['int', 'dec', 'dbl', 'date', 'time', 'datetime', 'str']);

/**
 * The select-list aliases HAVING sees before columns: as MariaDB resolves a HAVING name, a
 * select-list alias wins over a column of the same name, unless that name is also a column the
 * query groups by (then the grouped column wins).
 */
function havingAliases(aliases: Map<string, Bound>, groupNodes: readonly unknown[]): Map<string, Bound> {
  const grouped = new Set<string>();
  for (const g of groupNodes) {
    const [tag, v] = tagOf(g);
    if (tag === 'Identifier') grouped.add(identText(v).toLowerCase());
    else if (tag === 'CompoundIdentifier') grouped.add(identText(arr(v).at(-1)).toLowerCase());
  }
  if (grouped.size === 0) return aliases;
  const out = new Map(aliases);
  for (const name of grouped) out.delete(name);
  return out;
}
