import type { Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { invalidPreview, invalidTextAt } from '../sql/client-text.js';
import { SqlError } from '../sql/errors.js';
import { coerce, numericPrefix } from '../exec/convert.js';
import { pow10, rescale } from '../exec/decimal.js';
import { buildPipeline } from '../exec/pipeline.js';
import { type SqlType, T_DATE, T_DBL, T_INT, T_STR } from '../exec/types.js';
import { type BindCtx, bindExpr } from '../plan/bind-expr.js';
import { Block, type Bound } from '../plan/bound.js';
import type { Source } from '../plan/scope.js';
import { bindQuery, storedType } from '../plan/select.js';
import { storageError } from './storage-errors.js';
import { HIDDEN_PK, type TableMeta } from './meta.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { lockTargetExclusive, lockTargetShared } from './transactions.js';

const INT32 = 2147483647;
const RANGES: Record<string, [number, number]> = {
  tinyint: [-128, 127],
  smallint: [-32768, 32767],
  mediumint: [-8388608, 8388607],
  int: [-INT32 - 1, INT32],
  integer: [-INT32 - 1, INT32],
  'tinyint unsigned': [0, 255],
  'smallint unsigned': [0, 65535],
  'mediumint unsigned': [0, 16777215],
  'int unsigned': [0, 4294967295],
  'integer unsigned': [0, 4294967295],
  bool: [-128, 127],
  boolean: [-128, 127],
};

/** Converts SQL values to stored field values for one table, with MySQL's strict-mode errors. */
export class RowWriter {
  readonly table: Table;
  readonly meta: TableMeta | undefined;
  readonly types: SqlType[];

  constructor(table: Table, meta: TableMeta | undefined) {
    this.table = table;
    this.meta = meta;
    this.types = table.columns.map((c) => storedType(c.type));
  }

  /** A SQL value of type `t` as the stored field of column `c`; `rowNo` (1-based) for messages. */
  field(c: number, v: unknown, t: SqlType, rowNo: number): FieldValue {
    const col = this.table.columns[c]!;
    if (v === null) {
      if (col.nullable !== true)
        throw new SqlError('ER_BAD_NULL_ERROR', `Column '${col.name}' cannot be null`);
      return null;
    }
    const range = (): SqlError =>
      new SqlError(
        'ER_WARN_DATA_OUT_OF_RANGE',
        `Out of range value for column '${col.name}' at row ${rowNo}`,
      );
    const ty = col.type;
    switch (ty.kind) {
      case 'int':
      case 'bigint': {
        if (t.kind === 'str' && !/^\s*[+-]?\d+(\.\d*)?(e[+-]?\d+)?\s*$/i.test(v as string))
          throw new SqlError(
            'ER_TRUNCATED_WRONG_VALUE',
            `Incorrect integer value: '${v as string}' for column '${col.name}' at row ${rowNo}`,
          );
        const x = integerValue(v, t);
        const decl = this.meta?.types[c] ?? ty.kind;
        const r = RANGES[decl];
        if (r === undefined) {
          if (typeof x === 'bigint' && (x < INT64_MIN || x > INT64_MAX)) throw range();
          // BIGINT UNSIGNED is kept in the signed 64-bit column: 0 … 2^63 − 1
          if (decl === 'bigint unsigned' && x < 0) throw range();
        } else if (typeof x === 'bigint' || x < r[0] || x > r[1]) throw range();
        return x;
      }
      case 'decimal': {
        const x = coerce(v, t, {
          kind: 'dec',
          scale: ty.scale,
          iscale: ty.scale,
          prec: ty.precision,
        }) as bigint;
        if (x >= pow10(ty.precision) || x <= -pow10(ty.precision)) throw range();
        return exactField(x);
      }
      case 'double': {
        // text past the largest double converts to ±DBL_MAX, but is out of range for a column
        if (t.kind === 'str' && !Number.isFinite(Number(numericPrefix(v as string)))) throw range();
        const x = coerce(v, t, T_DBL) as number;
        if (!Number.isFinite(x)) throw range();
        return x;
      }
      case 'date': {
        const x = coerce(v, t, T_DATE) as number | null;
        if (x === null)
          throw new SqlError(
            'ER_TRUNCATED_WRONG_VALUE',
            `Incorrect date value: '${String(coerce(v, t, T_STR))}' for column '${col.name}' at row ${rowNo}`,
          );
        return x;
      }
      default: {
        let s = coerce(v, t, T_STR) as string;
        const bad = invalidTextAt(s);
        if (bad >= 0)
          throw new SqlError(
            'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
            `Incorrect string value: '${invalidPreview(s, bad)}' for column \`test\`.\`${this.table.name}\`.\`${col.name}\` at row ${rowNo}`,
          );
        // CHAR(n) is padded with spaces and read back without them (PAD_CHAR_TO_FULL_LENGTH off)
        if (ty.kind === 'char') s = s.replace(/ +$/, '');
        if ([...s].length > ty.length)
          throw new SqlError('ER_DATA_TOO_LONG', `Data too long for column '${col.name}' at row ${rowNo}`);
        return s;
      }
    }
  }

  /** The PK field values of a full stored row. */
  pkOf(row: readonly FieldValue[]): FieldValue[] {
    return this.table.primary.columns.map((c) => row[c]!);
  }
}

/** The next value of an auto-increment or hidden row-id column (from the table's maximum, once). */
function nextValue(t: Table, meta: TableMeta, c: number): number {
  if (meta.next === undefined || meta.next === 1) {
    let max = 0;
    t.scan((r) => {
      if (r.nulls[c] === 0 && r.nums[c]! > max) max = r.nums[c]!;
      return true;
    });
    meta.next = Math.max(meta.next ?? 1, max + 1);
  }
  return meta.next++;
}

function tableOf(ctx: StatementContext, name: string): Table {
  if (!ctx.db.hasTable(name) || name.startsWith('#')) {
    if (ctx.dict.views.has(name))
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        "This version of MySQL doesn't yet support 'writes through a view'",
      );
    throw new SqlError('ER_NO_SUCH_TABLE', `Table 'test.${name}' doesn't exist`);
  }
  return ctx.db.table(name);
}

function insert(o: Obj, ctx: StatementContext): Compiled {
  const [, tn] = tagOf(o.table);
  const name = objectName(tn ?? o.table_name ?? o.table).at(-1)!;
  const table0 = tableOf(ctx, name);
  const meta = ctx.dict.tables.get(name);
  const colNames = arr(o.columns).map((c) => {
    const [, v] = tagOf(c);
    return Array.isArray(c) ? objectName(c).at(-1)! : identText(v ?? c);
  });
  const visible = table0.columns
    .map((c, i) => [c, i] as const)
    .filter(([c]) => !(meta?.hiddenPk === true && c.name === HIDDEN_PK));
  const targets =
    colNames.length === 0
      ? visible.map(([, i]) => i)
      : colNames.map((n) => {
          const i = table0.columns.findIndex(
            (c) => c.name.toLowerCase() === n.toLowerCase() && c.name !== HIDDEN_PK,
          );
          if (i < 0) throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${n}' in 'field list'`);
          return i;
        });
  const replace = o.replace_into === true;
  const ignore = o.ignore === true;
  if (o.on !== undefined && o.on !== null)
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      "This version of MySQL doesn't yet support 'INSERT … ON DUPLICATE KEY UPDATE'",
    );
  const source = obj(o.source);
  const [bt, bv] = tagOf(source.body);
  const env = ctx.queryEnv();
  let rowsOf: () => Array<{ values: unknown[]; types: SqlType[] }>;
  if (bt === 'Values') {
    const block = new Block(undefined, ctx.run);
    const bctx: BindCtx = {
      block,
      clause: 'field list',
      allowAgg: false,
      env: { ...env, bindSubquery: (q, parent) => bindQuery(q, { env, run: ctx.run }, parent) },
    };
    const rows = arr(obj(bv).rows).map((r, ri) => {
      const exprs = arr(obj(r).content ?? r);
      if (exprs.length !== targets.length)
        throw new SqlError(
          'ER_WRONG_VALUE_COUNT_ON_ROW',
          `Column count doesn't match value count at row ${ri + 1}`,
        );
      return exprs.map((e) => (isDefault(e) ? null : bindExpr(e, bctx)));
    });
    rowsOf = () =>
      rows.map((r) => ({
        values: r.map((b) => (b === null ? DEFAULT : b.ev())),
        types: r.map((b) => b?.t ?? T_STR),
      }));
  } else {
    const plan = bindQuery(source, { env, run: ctx.run }, undefined);
    if (plan.columns.length !== targets.length)
      throw new SqlError('ER_WRONG_VALUE_COUNT_ON_ROW', "Column count doesn't match value count at row 1");
    rowsOf = () => {
      const out: Array<{ values: unknown[]; types: SqlType[] }> = [];
      plan.run((r) => {
        out.push({ values: r, types: plan.types as SqlType[] });
        return true;
      });
      return out;
    };
  }
  return {
    run: () => {
      const table = ctx.db.table(name);
      const w = new RowWriter(table, meta);
      // the target's reads lock the latest rows: duplicate checks S, REPLACE's clashing rows X
      if (replace) lockTargetExclusive(table);
      else lockTargetShared(table);
      const input = rowsOf();
      const full: FieldValue[][] = [];
      let insertId: number | bigint = 0;
      const ncol = table.columns.length;
      input.forEach((r, ri) => {
        const row: FieldValue[] = new Array(ncol).fill(null);
        const given = new Array<boolean>(ncol).fill(false);
        targets.forEach((c, k) => {
          const v = r.values[k];
          if (v === DEFAULT) return;
          given[c] = true;
          if (meta !== undefined && c === meta.autoIncrement && (v === null || v === 0)) {
            given[c] = false;
            return;
          }
          row[c] = w.field(c, v, r.types[k]!, ri + 1);
        });
        for (let c = 0; c < ncol; c++) {
          if (given[c]) continue;
          const col = table.columns[c]!;
          if (meta !== undefined && (c === meta.autoIncrement || (meta.hiddenPk && col.name === HIDDEN_PK))) {
            const n = nextValue(table, meta, c);
            row[c] = n;
            if (c === meta.autoIncrement && insertId === 0) insertId = n;
            continue;
          }
          const def = meta?.defaults[c];
          if (def !== null && def !== undefined)
            row[c] = w.field(c, defaultValue(def, ctx), defaultType(def), ri + 1);
          else if (col.nullable === true) row[c] = null;
          else
            throw new SqlError('ER_NO_DEFAULT_FOR_FIELD', `Field '${col.name}' doesn't have a default value`);
        }
        if (meta !== undefined && meta.autoIncrement >= 0 && given[meta.autoIncrement]) {
          const x = Number(row[meta.autoIncrement]);
          if (meta.next === undefined || meta.next === 1) nextValue(table, meta, meta.autoIncrement);
          if (x >= (meta.next ?? 1)) meta.next = x + 1;
        }
        full.push(row);
      });
      // all rows converted: insert; on any failure the session rolls the statement back (undo log)
      let affected = 0;
      let skipped = 0;
      try {
        for (const row of full) {
          if (replace) {
            // REPLACE: rows clashing on the primary key or a unique index go first (MySQL counts
            // each as one more affected row)
            for (const ix of [table.primary, ...table.secondary.filter((x) => x.unique)]) {
              const prefix = ix.columns.map((c) => row[c]!);
              if (prefix.some((v) => v === null)) continue;
              const clash: FieldValue[][] = [];
              table.lookup(ix.name, prefix, (r) => {
                clash.push(r.toArray());
                return true;
              });
              for (const r of clash) {
                table.delete(w.pkOf(r));
                affected++;
              }
            }
          }
          try {
            table.insert(row);
          } catch (e) {
            if (ignore && e instanceof Error && e.name === 'DuplicateEntryError') {
              skipped++;
              ctx.session.warn();
              continue;
            }
            throw e;
          }
          affected++;
        }
      } catch (e) {
        throw storageError(e);
      }
      void skipped;
      return okResult(affected, insertId, ctx.session.warningCount);
    },
  };
}

const DEFAULT: unique symbol = Symbol('DEFAULT');

function isDefault(e: unknown): boolean {
  const [t, v] = tagOf(e);
  return t === 'Identifier' && identText(v).toUpperCase() === 'DEFAULT';
}

function defaultValue(json: string, ctx: StatementContext): unknown {
  const node = JSON.parse(json) as unknown;
  const env = ctx.queryEnv();
  const block = new Block(undefined, ctx.run);
  const b = bindExpr(node, {
    block,
    clause: 'field list',
    allowAgg: false,
    env: {
      ...env,
      bindSubquery: () => {
        throw new SqlError(
          'ER_NOT_SUPPORTED_YET',
          "This version of MySQL doesn't yet support 'subquery in DEFAULT'",
        );
      },
    },
  });
  lastDefaultType = b.t;
  return b.ev();
}

let lastDefaultType: SqlType = T_STR;
function defaultType(_json: string): SqlType {
  return lastDefaultType;
}

/** Bind `UPDATE`/`DELETE`'s single table and WHERE; returns the block, its source and conjuncts. */
function bindTarget(
  ctx: StatementContext,
  name: string,
  alias: string,
  selection: unknown,
): { block: Block; src: Source; where: Bound[]; bctx: BindCtx } {
  const table = tableOf(ctx, name);
  const meta = ctx.dict.tables.get(name);
  const env = ctx.queryEnv();
  const block = new Block(undefined, ctx.run);
  const src: Source = {
    idx: 0,
    alias,
    columns: table.columns.map((c) => ({
      name: c.name,
      t: storedType(c.type),
      nullable: c.nullable === true,
      ...(meta?.hiddenPk === true && c.name === HIDDEN_PK ? { invisible: true } : {}),
    })),
    offset: 0,
    table,
    ...(meta ? { meta } : {}),
    joinType: 'inner',
    on: [],
    hints: { force: [], use: [], ignore: [] },
    used: new Set(table.columns.map((_, i) => i)),
  };
  block.sources.push(src);
  block.nslots = table.columns.length;
  const bctx: BindCtx = {
    block,
    clause: 'where clause',
    allowAgg: false,
    env: { ...env, bindSubquery: (q, parent) => bindQuery(q, { env, run: ctx.run }, parent) },
  };
  const where: Bound[] = [];
  const split = (n: unknown): void => {
    const [t, v] = tagOf(n);
    if (t === 'BinaryOp' && obj(v).op === 'And') {
      split(obj(v).left);
      split(obj(v).right);
    } else where.push(bindExpr(n, bctx));
  };
  if (selection !== undefined && selection !== null) split(selection);
  return { block, src, where, bctx };
}

/** Rows matching WHERE, read fully before anything is written. */
function matching(ctx: StatementContext, block: Block, src: Source, where: Bound[], each: () => void): void {
  const stages = ctx.session.planner.plan([src], where);
  const frame = block.frame;
  frame.v = new Array<unknown>(block.nslots).fill(null);
  buildPipeline(stages, frame, ctx.run, ctx.session.counters, () => {
    each();
    return true;
  })();
}

function fieldOf(v: unknown, t: SqlType): FieldValue {
  if (v === null) return null;
  if (t.kind === 'dec') return exactField(v as bigint);
  return v as FieldValue;
}

/** A scaled integer as a stored field value: a number when safe, else the bigint itself. */
function exactField(x: bigint): number | bigint {
  return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x;
}

/**
 * A value as an integer for an integer column, unclamped (a string or DOUBLE beyond 64 bits
 * stays beyond, so the range check refuses it as strict mode does).
 */
function integerValue(v: unknown, t: SqlType): number | bigint {
  if (t.kind === 'dec') return exactField(rescale(v as bigint, t.iscale, 0));
  if (t.kind === 'str') {
    const d = coerce(v, t, { kind: 'dec', scale: 0, iscale: 0, prec: 65 }) as bigint;
    return exactField(d);
  }
  if (t.kind === 'dbl') {
    const x = v as number;
    const r = x < 0 ? -Math.round(-x) : Math.round(x);
    if (Number.isSafeInteger(r)) return r;
    return Number.isFinite(r) ? BigInt(r) : 2n ** 64n;
  }
  return coerce(v, t, T_INT) as number | bigint;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function update(o: Obj, ctx: StatementContext): Compiled {
  if (arr(obj(o.table).joins).length > 0 || (o.from !== undefined && o.from !== null))
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      "This version of MySQL doesn't yet support 'multi-table UPDATE'",
    );
  const rel = obj(o.table).relation;
  const [, tv] = tagOf(rel);
  const to = obj(tv);
  const name = objectName(to.name).at(-1)!;
  const alias = to.alias === undefined || to.alias === null ? name : identText(obj(to.alias).name);
  const { block, src, where, bctx } = bindTarget(ctx, name, alias, o.selection);
  const sets = arr(o.assignments).map((a) => {
    const ao = obj(a);
    const [, tgt] = tagOf(ao.target);
    const cn = objectName(tgt).at(-1)!;
    const c = src.columns.findIndex((x) => x.name.toLowerCase() === cn.toLowerCase() && x.invisible !== true);
    if (c < 0) throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${cn}' in 'field list'`);
    return { c, e: bindExpr(ao.value, { ...bctx, clause: 'field list' }) };
  });
  return {
    run: () => {
      ctx.run.epoch++;
      const table = ctx.db.table(name);
      const w = new RowWriter(table, ctx.dict.tables.get(name));
      const frame = block.frame;
      const changes: Array<[FieldValue[], FieldValue[]]> = [];
      let matched = 0;
      lockTargetExclusive(table);
      matching(ctx, block, src, where, () => {
        matched++;
        const old = src.columns.map((col, c) => fieldOf(frame.v[c], col.t));
        const neu = old.slice();
        // MySQL assigns left to right, later assignments seeing earlier ones
        const saved = frame.v.slice();
        for (const s of sets) {
          const v = s.e.ev();
          neu[s.c] = w.field(s.c, v, s.e.t, matched);
          frame.v[s.c] = v === null ? null : coerce(v, s.e.t, src.columns[s.c]!.t);
        }
        frame.v = saved;
        if (neu.some((x, i) => x !== old[i])) changes.push([old, neu]);
      });
      // on a failure the session rolls the statement back (undo log)
      try {
        for (const [old, neu] of changes) table.update(w.pkOf(old), neu);
      } catch (e) {
        throw storageError(e);
      }
      return okResult(changes.length);
    },
  };
}

function del(o: Obj, ctx: StatementContext): Compiled {
  const from = tagOf(o.from)[1];
  if (
    arr(from).length !== 1 ||
    arr(obj(arr(from)[0]).joins).length > 0 ||
    arr(o.tables).length > 0 ||
    (o.using !== undefined && o.using !== null)
  )
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      "This version of MySQL doesn't yet support 'multi-table DELETE'",
    );
  const first = obj(arr(from)[0]);
  const [, tv] = tagOf(first.relation);
  const to = obj(tv);
  const name = objectName(to.name).at(-1)!;
  const alias = to.alias === undefined || to.alias === null ? name : identText(obj(to.alias).name);
  const { block, src, where } = bindTarget(ctx, name, alias, o.selection);
  return {
    run: () => {
      ctx.run.epoch++;
      const table = ctx.db.table(name);
      const w = new RowWriter(table, ctx.dict.tables.get(name));
      const frame = block.frame;
      const rows: FieldValue[][] = [];
      lockTargetExclusive(table);
      matching(ctx, block, src, where, () => {
        rows.push(src.columns.map((col, c) => fieldOf(frame.v[c], col.t)));
      });
      for (const r of rows) table.delete(w.pkOf(r));
      return okResult(rows.length);
    },
  };
}

export function compileDml(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  switch (tag) {
    case 'Insert':
      return insert(obj(v), ctx);
    case 'Update':
      return update(obj(v), ctx);
    case 'Delete':
      return del(obj(v), ctx);
    default:
      return undefined;
  }
}
