import type { Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { coerce } from '../exec/convert.js';
import { pow10, rescale } from '../exec/decimal.js';
import { buildPipeline } from '../exec/pipeline.js';
import { type SqlType, T_DATE, T_DBL, T_INT, T_STR } from '../exec/types.js';
import { type BindCtx, bindExpr } from '../plan/bind-expr.js';
import { Block, type Bound } from '../plan/bound.js';
import type { Source } from '../plan/scope.js';
import { bindQuery, storedType } from '../plan/select.js';
import { storageError } from './ddl.js';
import { HIDDEN_PK, type TableMeta } from './meta.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { lockTargetExclusive } from './transactions.js';
import { compileInsert } from './dml-insert.js';
import { isMultiDelete, isMultiUpdate, multiDelete, multiUpdate } from './dml-multi.js';

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
    this.types = table.columns.map((c, i) => storedType(c.type, meta?.types[i]));
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

export function tableOf(ctx: StatementContext, name: string): Table {
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
    columns: table.columns.map((c, i) => ({
      name: c.name,
      t: storedType(c.type, meta?.types[i]),
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
export function matching(
  ctx: StatementContext,
  block: Block,
  src: Source,
  where: Bound[],
  each: () => void,
): void {
  const stages = ctx.session.planner.plan([src], where);
  const frame = block.frame;
  frame.v = new Array<unknown>(block.nslots).fill(null);
  buildPipeline(stages, frame, ctx.run, ctx.session.counters, () => {
    each();
    return true;
  })();
}

export function fieldOf(v: unknown, t: SqlType): FieldValue {
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
  if (o.from !== undefined && o.from !== null)
    throw new SqlError('ER_NOT_SUPPORTED_YET', "This version of MySQL doesn't yet support 'UPDATE … FROM'");
  if (isMultiUpdate(o)) return multiUpdate(o, ctx);
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
  if (isMultiDelete(o)) return multiDelete(o, ctx);
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
      return compileInsert(obj(v), ctx);
    case 'Update':
      return update(obj(v), ctx);
    case 'Delete':
      return del(obj(v), ctx);
    default:
      return undefined;
  }
}
