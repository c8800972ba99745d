import type { Table } from '../storage/table.js';
import { type FieldValue, textBlobBytes } from '../storage/types.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { invalidPreview, invalidTextAt } from '../sql/client-text.js';
import { SqlError } from '../sql/errors.js';
import { syntaxErrorNear } from '../sql/syntax-error.js';
import { coerce, numericPrefix } from '../exec/convert.js';
import { pow10, rescale } from '../exec/decimal.js';
import { buildPipeline } from '../exec/pipeline.js';
import { isNumeric, type SqlType, T_BIN, T_DATE, T_DBL, T_INT, T_STR } from '../exec/types.js';
import { isFault, parseJson } from '../exec/json.js';
import { memberText } from './enum-set.js';
import { type BindCtx, bindExpr } from '../plan/bind-expr.js';
import { Block, type Bound } from '../exec/bound.js';
import type { Source } from '../exec/scope.js';
import { bindQuery, finishSort, startSort, storedType } from '../plan/select.js';
import { indexHints } from '../plan/from.js';
import { asNumber } from '../plan/bind-members.js';
import { keyBound } from '../exec/collation-keys.js';
import { storageError } from './storage-errors.js';
import { HIDDEN_PK, type TableMeta } from '../storage/table-meta.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { lockTargetExclusive, readSemiConsistent } from './transactions.js';
import { compileInsert, evaluateStored } from './dml-insert.js';
import { temporalField, yearValue } from './field-values.js';
import { isMultiDelete, isMultiUpdate, multiDelete, multiUpdate } from './dml-multi.js';
import { dottedName, quotedName, splitName } from '../storage/schema-name.js';

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

  /** The session's time_zone: TIMESTAMP values are stored in UTC. */
  readonly timeZone: string;

  /** Where the notes of a stored value go (the statement's diagnostics). */
  readonly #warn: Warn;
  /** How a value that does not fit is treated (strict mode's errors by default). */
  readonly #mode: ConvertMode;

  constructor(
    table: Table,
    meta: TableMeta | undefined,
    timeZone = 'SYSTEM',
    warn: Warn = () => {},
    mode: ConvertMode = STRICT,
  ) {
    this.table = table;
    this.meta = meta;
    this.timeZone = timeZone;
    this.#warn = warn;
    this.#mode = mode;
    this.types = table.columns.map((c, i) => storedType(c.type, meta?.types[i]));
  }

  /** A SQL value of type `t` as the stored field of column `c`; `rowNo` (1-based) for messages. */
  field(c: number, v: unknown, t: SqlType, rowNo: number): FieldValue {
    const col = this.table.columns[c]!;
    const lenient = this.#mode.lenient;
    if (v === null) {
      if (col.nullable === true) return null;
      const message = `Column '${col.name}' cannot be null`;
      const implicit = this.#mode.nullToDefault ? implicitDefault(col.type, this.types[c]!) : undefined;
      if (implicit === undefined) throw new SqlError('ER_BAD_NULL_ERROR', message);
      // IGNORE, and a multiple-row statement outside strict mode: the type's implicit default
      this.#warn(1048, message, 'Warning');
      return implicit;
    }
    // strict mode's error, or outside it (and under IGNORE) a warning (`e`'s, or `warning`'s)
    // and `fitted`
    const fault = <T>(e: SqlError, fitted: T, warning: SqlError = e): T => {
      if (!lenient) throw e;
      this.#warn(warning.errno, warning.message, 'Warning');
      return fitted;
    };
    const range = (): SqlError =>
      new SqlError(
        'ER_WARN_DATA_OUT_OF_RANGE',
        `Out of range value for column '${col.name}' at row ${rowNo}`,
      );
    const truncated = (): SqlError =>
      new SqlError('WARN_DATA_TRUNCATED', `Data truncated for column '${col.name}' at row ${rowNo}`);
    const ty = col.type;
    // text stored in a number column must be a number, as strict mode has it: no digits at all
    // is 1366, digits followed by anything but spaces 1265, trailing spaces a note 1265 (outside
    // strict mode the first two are warnings, and the number is what the text starts with)
    const numericText = (kind: string): void => {
      const f = numericTextFault(v as string);
      if (f === 'spaces') this.#warn(1265, `Data truncated for column '${col.name}' at row ${rowNo}`, 'Note');
      if (f === 'wrong')
        fault(
          new SqlError(
            'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
            `Incorrect ${kind} value: '${v as string}' for column ${quotedName(this.table.name)}.\`${col.name}\` at row ${rowNo}`,
          ),
          0,
        );
      if (f === 'truncated') fault(truncated(), 0);
    };
    switch (ty.kind) {
      case 'int':
      case 'bigint': {
        if (t.kind === 'str') numericText('integer');
        let x = integerValue(v, t);
        const decl = this.meta?.types[c] ?? ty.kind;
        if (decl === 'year') return yearValue(x, t, range);
        const r = RANGES[decl];
        // out of range: outside strict mode the nearest end of the range
        if (ty.kind === 'bigint' && ty.unsigned === true) {
          // BIGINT UNSIGNED: 0 … 2^64 − 1
          if (BigInt(x) < 0n) return fault(range(), 0);
          if (BigInt(x) > UINT64_MAX) return fault(range(), exactField(UINT64_MAX));
          x = typeof x === 'bigint' ? exactField(x) : x;
        } else if (r === undefined) {
          if (typeof x === 'bigint' && x < INT64_MIN) return fault(range(), exactField(INT64_MIN));
          if (typeof x === 'bigint' && x > INT64_MAX) return fault(range(), exactField(INT64_MAX));
        } else if (typeof x === 'bigint' || x < r[0] || x > r[1])
          return fault(range(), (typeof x === 'bigint' ? x < 0n : x < r[0]) ? r[0] : r[1]);
        return x;
      }
      case 'decimal': {
        if (t.kind === 'str') numericText('decimal');
        const x = coerce(v, t, {
          kind: 'dec',
          scale: ty.scale,
          iscale: ty.scale,
          prec: ty.precision,
        }) as bigint;
        const top = pow10(ty.precision);
        if (x >= top || x <= -top) return fault(range(), exactField(x < 0n ? 1n - top : top - 1n));
        return exactField(x);
      }
      case 'double': {
        if (t.kind === 'str') numericText('double');
        const float = this.types[c]!.float === true;
        const end = (negative: boolean): number => (negative ? -1 : 1) * (float ? FLT_MAX : Number.MAX_VALUE);
        // text past the largest double converts to ±DBL_MAX, but is out of range for a column
        if (t.kind === 'str') {
          const p = Number(numericPrefix(v as string));
          if (!Number.isFinite(p)) return fault(range(), end(p < 0));
        }
        const x = coerce(v, t, T_DBL) as number;
        if (!Number.isFinite(x)) return fault(range(), end(x < 0));
        if (!float) return x;
        // a FLOAT keeps the nearest single-precision value; past its range it is out of range
        const f = Math.fround(x);
        if (!Number.isFinite(f)) return fault(range(), end(f < 0));
        return f;
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
      case 'datetime':
      case 'timestamp':
      case 'time':
        return temporalField(col.name, ty, v, t, rowNo, this.timeZone);
      case 'binary':
      case 'varbinary': {
        // the bytes: a binary string's own, a text's UTF-8; BINARY(n) is padded with 0x00 to n
        let b = Buffer.from(coerce(v, t, T_BIN) as string, 'latin1');
        if (b.length > ty.length) b = fault(tooLong(col.name, rowNo), b.subarray(0, ty.length), truncated());
        if (ty.kind === 'binary' && b.length < ty.length)
          b = Buffer.concat([b, Buffer.alloc(ty.length - b.length)]);
        return new Uint8Array(b);
      }
      default: {
        // the column's type, worked out once (storedType): an ENUM or SET carries its members
        const e = this.types[c]!;
        if (e.members !== undefined) {
          // ENUM and SET: a member's text, or a position / bit mask given as a number
          const given = isNumeric(t)
            ? (coerce(v, t, T_INT) as number | bigint)
            : (coerce(v, t, T_STR) as string);
          return memberText(
            given,
            e.members,
            e.set === true,
            ty.kind === 'varchar' ? (ty.collation ?? 'utf8mb4_bin') : 'utf8mb4_bin',
            col.name,
            rowNo,
            // outside strict mode an unknown member is warning 1265 (ENUM: '', SET: the members known)
            lenient ? () => this.#warn(1265, truncated().message, 'Warning') : undefined,
          );
        }
        let s = coerce(v, t, T_STR) as string;
        if (t.binary === true) s = Buffer.from(s, 'latin1').toString('utf8');
        // a JSON column's CHECK (json_valid(…)), as MariaDB declares it
        if (e.json === true && isFault(parseJson(s)))
          throw new SqlError(
            'ER_CONSTRAINT_FAILED',
            `CONSTRAINT \`${splitName(this.table.name).table}.${col.name}\` failed for ${quotedName(this.table.name)}`,
          );
        const bad = invalidTextAt(s);
        if (bad >= 0)
          s = fault(
            new SqlError(
              'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
              `Incorrect string value: '${invalidPreview(s, bad)}' for column ${quotedName(this.table.name)}.\`${col.name}\` at row ${rowNo}`,
            ),
            s.slice(0, bad),
          );
        // CHAR(n) is padded with spaces and read back without them (PAD_CHAR_TO_FULL_LENGTH off)
        if (ty.kind === 'char') s = s.replace(/ +$/, '');
        // TEXT is limited by bytes (MySQL's 65,535 for TEXT …), VARCHAR and CHAR by characters
        if (ty.kind === 'varchar' && ty.blob === true) {
          const limit = textBlobBytes(ty.length);
          if (Buffer.byteLength(s, 'utf8') > limit)
            s = fault(tooLong(col.name, rowNo), utf8Prefix(s, limit), truncated());
        } else {
          const chars = [...s];
          const n = (ty as { length: number }).length;
          if (chars.length > n) s = fault(tooLong(col.name, rowNo), chars.slice(0, n).join(''), truncated());
        }
        return s;
      }
    }
  }

  /** The PK field values of a full stored row (what `get`, `update` and `delete` take). */
  pkOf(row: readonly FieldValue[]): FieldValue[] {
    return this.table.primary.columns.map((c) => row[c]!);
  }
}

/**
 * The table a DML statement writes, by storage name (`alias`: the name the statement uses for
 * it, if not its own); recorded as written for LOCK TABLES' check.
 */
export function tableOf(ctx: StatementContext, name: string, alias: string = splitName(name).table): Table {
  ctx.run.tables.push({ stored: name, name: alias, write: true });
  if (!ctx.db.hasTable(name) || ctx.session.hiddenTable(name)) {
    if (ctx.dict.views.has(name))
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        "This version of MySQL doesn't yet support 'writes through a view'",
      );
    throw new SqlError('ER_NO_SUCH_TABLE', `Table '${dottedName(name)}' doesn't exist`);
  }
  return ctx.db.table(name);
}

/** Bind `UPDATE`/`DELETE`'s single table and WHERE; returns the block, its source and conjuncts. */
function bindTarget(
  ctx: StatementContext,
  name: string,
  alias: string,
  selection: unknown,
  factor: Obj,
): { block: Block; src: Source; where: Bound[]; bctx: BindCtx } {
  const table = tableOf(ctx, name, alias);
  const meta = ctx.dict.tables.get(name);
  const env = ctx.queryEnv();
  const block = new Block(undefined, ctx.run);
  const src: Source = {
    idx: 0,
    alias,
    ...(alias === splitName(name).table ? { schema: splitName(name).schema } : {}),
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
    hints: indexHints(factor, table, alias),
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

/** ORDER BY and LIMIT of an UPDATE or a single-table DELETE. */
export interface RowOrder {
  /** The ORDER BY keys (none: the order the rows are read in). */
  readonly keys: readonly Bound[];
  readonly desc: readonly boolean[];
  /** LIMIT's row count, evaluated at each run (undefined: no LIMIT). */
  readonly limit: (() => number) | undefined;
}

const NO_ORDER: RowOrder = { keys: [], desc: [], limit: undefined };

/**
 * Binds an UPDATE's or DELETE's ORDER BY and LIMIT (`o.order_by`, `o.limit`): as MySQL, the rows
 * (a multiple-table UPDATE's joined rows) are taken in that order and the statement stops after
 * LIMIT of them matched.
 */
export function rowOrder(o: Obj, bctx: BindCtx): RowOrder {
  const order = arr(o.order_by);
  const keys = order.map((x) =>
    keyBound(asNumber(bindExpr(obj(x).expr, { ...bctx, clause: 'order clause' }))),
  );
  const desc = order.map((x) => obj(obj(x).options).asc === false);
  if (o.limit === undefined || o.limit === null) return { keys, desc, limit: undefined };
  const e = bindExpr(o.limit, { ...bctx, clause: 'limit clause' });
  return { keys, desc, limit: () => Math.max(Number(coerce(e.ev(), e.t, T_INT) ?? 0), 0) };
}

/**
 * Rows matching WHERE (of `sources` joined: a multiple-table UPDATE's or DELETE's), read fully
 * before anything is written: in ORDER BY order when the statement has one (a filesort of every
 * matching row), and no more than LIMIT of them (without ORDER BY the read stops at the LIMIT-th
 * row, so it locks no row past it).
 */
export function matching(
  ctx: StatementContext,
  block: Block,
  sources: readonly Source[],
  where: Bound[],
  each: () => void,
  order: RowOrder = NO_ORDER,
): void {
  const stages = ctx.session.planner.plan(sources, where);
  const frame = block.frame;
  frame.v = new Array<unknown>(block.nslots).fill(null);
  const max = order.limit === undefined ? Number.POSITIVE_INFINITY : order.limit();
  if (max <= 0) return;
  let n = 0;
  const take = (): boolean => {
    each();
    return ++n < max;
  };
  if (order.keys.length === 0) {
    buildPipeline(stages, frame, ctx.run, ctx.session.counters, take)();
    return;
  }
  const env = ctx.queryEnv();
  const how = stages[0]?.access.kind === 'range' ? 'Sort_range' : 'Sort_scan';
  const sort = startSort(
    order.keys.map((k) => k.t),
    order.desc,
    env,
    how,
  );
  try {
    buildPipeline(stages, frame, ctx.run, ctx.session.counters, () => {
      sort.add(
        order.keys.map((k) => k.ev()),
        frame.v.slice(),
      );
      return true;
    })();
    finishSort(sort, env, (row) => {
      frame.v = row;
      return take();
    });
  } finally {
    sort.close();
  }
}

/** Whether two stored field values are the same (bytes by content). */
function sameStored(a: FieldValue, b: FieldValue): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(b);
  return a === b;
}

export function fieldOf(v: unknown, t: SqlType): FieldValue {
  if (v === null) return null;
  if (t.kind === 'dec') return exactField(v as bigint);
  // a binary string's frame value holds one byte per character
  if (t.binary === true) return new Uint8Array(Buffer.from(v as string, 'latin1'));
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
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Writes one row's new values; under UPDATE IGNORE a row whose new key is taken keeps its old
 * values and the statement goes on (the table checks every unique key before it changes
 * anything). MariaDB says nothing of such a row: no warning, as here. Whether the row was written.
 */
export function updateRow(
  table: Table,
  pk: readonly FieldValue[],
  values: FieldValue[],
  ignore: boolean,
): boolean {
  try {
    table.update(pk, values);
    return true;
  } catch (e) {
    if (!ignore || !(e instanceof Error) || e.name !== 'DuplicateEntryError') throw e;
    return false;
  }
}

function update(o: Obj, ctx: StatementContext): Compiled {
  if (o.from !== undefined && o.from !== null)
    throw new SqlError('ER_NOT_SUPPORTED_YET', "This version of MySQL doesn't yet support 'UPDATE … FROM'");
  // SQLite's UPDATE OR IGNORE / OR REPLACE, which the dialect reads: not MariaDB's grammar
  if (o.or !== undefined && o.or !== null) throw syntaxErrorNear(ctx.sql, /\bOR\b/i.exec(ctx.sql)?.index);
  const ignore = o.ignore === true;
  if (isMultiUpdate(o)) return multiUpdate(o, ctx, ignore);
  const rel = obj(o.table).relation;
  const [, tv] = tagOf(rel);
  const to = obj(tv);
  const name = ctx.session.tableName(objectName(to.name));
  const alias =
    to.alias === undefined || to.alias === null ? splitName(name).table : identText(obj(to.alias).name);
  const { block, src, where, bctx } = bindTarget(ctx, name, alias, o.selection, to);
  const order = rowOrder(o, bctx);
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
      const sqlMode = String(ctx.session.vars.get('sql_mode'));
      const w = statementWriter(ctx, table, ctx.dict.tables.get(name), convertMode(sqlMode, ignore, true));
      const frame = block.frame;
      const changes: Array<[FieldValue[], FieldValue[]]> = [];
      let matched = 0;
      lockTargetExclusive(table);
      readSemiConsistent(table);
      matching(
        ctx,
        block,
        [src],
        where,
        () => {
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
          if (neu.some((x, i) => !sameStored(x, old[i]!))) {
            // a changed row takes its ON UPDATE values (CURRENT_TIMESTAMP) where not assigned
            const onUpdate = w.meta?.onUpdate;
            if (onUpdate !== undefined)
              onUpdate.forEach((json, c) => {
                if (json === null || sets.some((x) => x.c === c)) return;
                const d = evaluateStored(json, ctx);
                neu[c] = w.field(c, d.v, d.t, matched);
              });
            changes.push([old, neu]);
          }
        },
        order,
      );
      // on a failure the session rolls the statement back (undo log)
      let affected = 0;
      try {
        for (const [old, neu] of changes) if (updateRow(table, w.pkOf(old), neu, ignore)) affected++;
      } catch (e) {
        throw storageError(e);
      }
      return okResult(affected);
    },
  };
}

function del(o: Obj, ctx: StatementContext): Compiled {
  const from = tagOf(o.from)[1];
  if (isMultiDelete(o)) {
    // MariaDB's grammar has no ORDER BY or LIMIT for a multiple-table DELETE
    if (arr(o.order_by).length > 0 || (o.limit !== undefined && o.limit !== null)) {
      const word = arr(o.order_by).length > 0 ? /\bORDER\s+BY\b/gi : /\bLIMIT\b/gi;
      let at: number | undefined;
      for (const m of ctx.sql.matchAll(word)) at = m.index;
      throw syntaxErrorNear(ctx.sql, at);
    }
    return multiDelete(o, ctx);
  }
  const first = obj(arr(from)[0]);
  const [, tv] = tagOf(first.relation);
  const to = obj(tv);
  const name = ctx.session.tableName(objectName(to.name));
  const alias =
    to.alias === undefined || to.alias === null ? splitName(name).table : identText(obj(to.alias).name);
  // a single-table DELETE takes no index hints in MariaDB's grammar
  if (arr(to.index_hints).length > 0) {
    const at = /\b(?:USE|FORCE|IGNORE)\s+(?:INDEX|KEY)\b/i.exec(ctx.sql);
    throw syntaxErrorNear(ctx.sql, at?.index);
  }
  const { block, src, where, bctx } = bindTarget(ctx, name, alias, o.selection, to);
  const order = rowOrder(o, bctx);
  return {
    run: () => {
      ctx.run.epoch++;
      const table = ctx.db.table(name);
      // a DELETE converts no values: its writer only reads keys
      const w = statementWriter(ctx, table, ctx.dict.tables.get(name), STRICT);
      const frame = block.frame;
      const rows: FieldValue[][] = [];
      lockTargetExclusive(table);
      matching(
        ctx,
        block,
        [src],
        where,
        () => {
          rows.push(src.columns.map((col, c) => fieldOf(frame.v[c], col.t)));
        },
        order,
      );
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

/** A note or warning of the statement that stores a value. */
export type Warn = (code: number, message: string, level: 'Note' | 'Warning') => void;

/**
 * How a row writer treats a value its column cannot hold. Strict mode (`STRICT_TRANS_TABLES` or
 * `STRICT_ALL_TABLES` in sql_mode, the default) fails the statement; outside it, and under
 * INSERT / UPDATE IGNORE, the value is fitted (the nearest end of a range, text cut to the
 * column, a number's leading digits) with the error as a warning (`lenient`). A NULL for a NOT
 * NULL column becomes the type's implicit default with warning 1048 under IGNORE and, outside
 * strict mode, in a statement of several rows or an UPDATE (`nullToDefault`); a single-row
 * INSERT of NULL stays error 1048, as MariaDB's.
 */
export interface ConvertMode {
  readonly lenient: boolean;
  readonly nullToDefault: boolean;
}

export const STRICT: ConvertMode = { lenient: false, nullToDefault: false };

/** The conversion mode of a writing statement: from sql_mode, IGNORE, and whether it may write several rows. */
export function convertMode(sqlMode: string, ignore: boolean, severalRows: boolean): ConvertMode {
  const strict = /\bSTRICT_(?:TRANS|ALL)_TABLES\b/i.test(sqlMode);
  return { lenient: ignore || !strict, nullToDefault: ignore || (!strict && severalRows) };
}

/** A statement's row writer for `table`: its time zone, its diagnostics, its conversion mode. */
export function statementWriter(
  ctx: StatementContext,
  table: Table,
  meta: TableMeta | undefined,
  mode: ConvertMode,
): RowWriter {
  return new RowWriter(
    table,
    meta,
    String(ctx.session.vars.get('time_zone')),
    (c, m, l) => ctx.session.warn(c, m, l),
    mode,
  );
}

/** The largest FLOAT. */
const FLT_MAX = 3.4028234663852886e38;

/** Strict mode's error for text or bytes longer than the column (outside it: 1265, cut). */
const tooLong = (column: string, rowNo: number): SqlError =>
  new SqlError('ER_DATA_TOO_LONG', `Data too long for column '${column}' at row ${rowNo}`);

/** The longest prefix of `s` whose UTF-8 takes at most `bytes` bytes. */
function utf8Prefix(s: string, bytes: number): string {
  let n = 0;
  let out = '';
  for (const ch of s) {
    n += Buffer.byteLength(ch, 'utf8');
    if (n > bytes) break;
    out += ch;
  }
  return out;
}

/**
 * The implicit default of a NOT NULL column of type `ty` (MySQL's: 0, the empty string, an
 * ENUM's first member), or undefined for a temporal type, whose zero value the engine does not
 * store.
 */
function implicitDefault(ty: Table['columns'][number]['type'], sql: SqlType): FieldValue | undefined {
  switch (ty.kind) {
    case 'int':
    case 'bigint':
    case 'double':
      return 0;
    case 'decimal':
      return exactField(0n);
    case 'binary':
      return new Uint8Array(ty.length);
    case 'varbinary':
      return new Uint8Array(0);
    case 'date':
    case 'datetime':
    case 'timestamp':
    case 'time':
      return undefined;
    default:
      if (sql.members !== undefined && sql.set !== true) return sql.members[0] ?? '';
      return '';
  }
}

/**
 * Whether a text is a number as a number column reads it: 'none' for a number (spaces before it
 * allowed), 'spaces' for one followed by white space, 'truncated' for one followed by anything
 * else ('12abc', '0x1A', '2.5e'), 'wrong' for no number at all ('', 'abc', '-', '.').
 */
export function numericTextFault(s: string): 'none' | 'spaces' | 'truncated' | 'wrong' {
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(s);
  if (m === null) return 'wrong';
  const rest = s.slice(m[0].length);
  return rest === '' ? 'none' : /^\s+$/.test(rest) ? 'spaces' : 'truncated';
}
