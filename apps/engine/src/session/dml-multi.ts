import type { Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { arr, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { coerce } from '../exec/convert.js';
import { type BindCtx, bindExpr } from '../plan/bind-expr.js';
import { Block, type Bound } from '../exec/bound.js';
import { conjuncts } from '../plan/conjuncts.js';
import { bindFrom } from '../plan/from.js';
import type { Source } from '../exec/scope.js';
import { bindEnvOf } from '../plan/select.js';
import { storageError } from './storage-errors.js';
import {
  convertMode,
  fieldOf,
  matching,
  type RowOrder,
  type RowWriter,
  rowOrder,
  STRICT,
  statementWriter,
  updateRow,
} from './dml.js';
import { okResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';
import { lockTargetExclusive } from './transactions.js';

/**
 * Multi-table UPDATE and DELETE, as MySQL runs them: the tables are joined as a SELECT would
 * join them (`UPDATE t1 JOIN t2 ON … SET t1.a = t2.b WHERE …`, `UPDATE t1, t2 SET …`,
 * `DELETE t1, t2 FROM t1 JOIN t2 …`, `DELETE FROM t1 USING t1 JOIN t2 …`), every matching row
 * combination is read first, and then each row of a target table is changed once: an UPDATE's
 * assignments take the values of the first combination that matched it, later ones are ignored.
 * A multiple-table UPDATE's ORDER BY and LIMIT order and count the joined rows (MariaDB 10.3.2+).
 * `affectedRows` counts the rows changed (UPDATE) or deleted (DELETE) in all targets.
 */

interface Joined {
  readonly block: Block;
  readonly where: Bound[];
  readonly bctx: BindCtx;
}

function join(from: unknown[], selection: unknown, ctx: StatementContext): Joined {
  const env = ctx.queryEnv();
  const c = { env, run: ctx.run };
  const block = new Block(undefined, ctx.run);
  const where = bindFrom({ from }, block, c, new Map());
  const bctx: BindCtx = { block, clause: 'where clause', allowAgg: false, env: bindEnvOf(c) };
  if (selection !== undefined && selection !== null)
    for (const x of conjuncts(selection, [])) where.push(bindExpr(x, bctx));
  return { block, where, bctx };
}

/** The FROM source a target name (an alias, or a table's name) refers to. */
/** A target of the statement is written (LOCK TABLES checks it when the statement runs). */
function writes(ctx: StatementContext, s: Source): void {
  ctx.run.tables.push({ stored: s.table!.name, name: s.alias, write: true });
}

function targetSource(block: Block, parts: readonly string[], what: string): Source {
  const n = parts.at(-1)!.toLowerCase();
  const db = parts.length > 1 ? parts.at(-2) : undefined;
  const s = block.sources.find(
    (x) => x.alias.toLowerCase() === n && x.table !== undefined && (db === undefined || x.schema === db),
  );
  if (s === undefined) throw new SqlError('ER_UNKNOWN_TABLE', `Unknown table '${parts.at(-1)}' in ${what}`);
  return s;
}

/**
 * Runs the join; `each` sees every matching row combination in the block's frame, in `order`'s
 * order and no more than its LIMIT of them when given (a multiple-table UPDATE's ORDER BY and
 * LIMIT, which count joined rows, as MariaDB's).
 */
function scan(
  ctx: StatementContext,
  j: Joined,
  targets: readonly Source[],
  each: () => void,
  order?: RowOrder,
): void {
  for (const t of targets) for (let i = 0; i < t.columns.length; i++) t.used.add(i);
  lockTargetExclusive(targets[0]!.table!);
  matching(ctx, j.block, j.block.sources, j.where, each, order);
}

/** A target's current row (stored field values) from the frame, and its primary-key text. */
function rowOf(s: Source, frame: readonly unknown[]): FieldValue[] {
  return s.columns.map((col, c) => fieldOf(frame[s.offset + c], col.t));
}

function keyText(w: RowWriter, row: readonly FieldValue[]): string {
  return JSON.stringify(w.pkOf(row), (_k, v) => (typeof v === 'bigint' ? `n${v}` : v));
}

/** `UPDATE t1 JOIN t2 … SET …`: the table clause holds joins (or a comma list). */
export function isMultiUpdate(o: Obj): boolean {
  return arr(obj(o.table).joins).length > 0;
}

export function multiUpdate(o: Obj, ctx: StatementContext, ignore: boolean): Compiled {
  const j = join([o.table], o.selection, ctx);
  const { block } = j;
  const sets = arr(o.assignments).map((a) => {
    const ao = obj(a);
    const parts = objectName(tagOf(ao.target)[1]);
    const cn = parts.at(-1)!;
    let src: Source | undefined;
    let c = -1;
    for (const s of block.sources) {
      if (s.table === undefined) continue;
      if (parts.length > 1 && s.alias.toLowerCase() !== parts.at(-2)!.toLowerCase()) continue;
      if (parts.length > 2 && s.schema !== parts.at(-3)) continue;
      const i = s.columns.findIndex((x) => x.name.toLowerCase() === cn.toLowerCase() && x.invisible !== true);
      if (i < 0) continue;
      if (src !== undefined)
        throw new SqlError('ER_NON_UNIQ_ERROR', `Column '${cn}' in field list is ambiguous`);
      src = s;
      c = i;
    }
    if (src === undefined)
      throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${parts.join('.')}' in 'field list'`);
    return { src, c, e: bindExpr(ao.value, { ...j.bctx, clause: 'field list' }) };
  });
  const targets = [...new Set(sets.map((s) => s.src))];
  for (const t of targets) writes(ctx, t);
  const order = rowOrder(o, j.bctx);
  return {
    run: () => {
      ctx.run.epoch++;
      const writers = new Map(
        targets.map((s) => [
          s,
          statementWriter(
            ctx,
            s.table!,
            s.meta,
            convertMode(String(ctx.session.vars.get('sql_mode')), ignore, true),
          ),
        ]),
      );
      const frame = block.frame;
      // per target: primary key → [old row, new row], the first combination that matched
      const changes = new Map<Source, Map<string, [FieldValue[], FieldValue[]]>>(
        targets.map((s) => [s, new Map()]),
      );
      let rowNo = 0;
      scan(
        ctx,
        j,
        targets,
        () => {
          rowNo++;
          const saved = frame.v.slice();
          const pending = new Map<Source, [FieldValue[], FieldValue[]]>();
          for (const s of targets) {
            const w = writers.get(s)!;
            const old = rowOf(s, frame.v);
            if (changes.get(s)!.has(keyText(w, old))) continue;
            pending.set(s, [old, old.slice()]);
          }
          // MySQL assigns left to right, later assignments seeing earlier ones
          for (const a of sets) {
            const p = pending.get(a.src);
            if (p === undefined) continue;
            const v = a.e.ev();
            p[1][a.c] = writers.get(a.src)!.field(a.c, v, a.e.t, rowNo);
            frame.v[a.src.offset + a.c] = v === null ? null : coerce(v, a.e.t, a.src.columns[a.c]!.t);
          }
          frame.v = saved;
          for (const [s, p] of pending) changes.get(s)!.set(keyText(writers.get(s)!, p[0]), p);
        },
        order,
      );
      let affected = 0;
      try {
        for (const [s, m] of changes) {
          const w = writers.get(s)!;
          const table: Table = s.table!;
          for (const [old, neu] of m.values()) {
            if (!neu.some((x, i) => !sameField(x, old[i]!))) continue;
            if (updateRow(table, w.pkOf(old), neu, ignore)) affected++;
          }
        }
      } catch (e) {
        throw storageError(e);
      }
      return okResult(affected);
    },
  };
}

function sameField(a: FieldValue, b: FieldValue): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return String(a) === String(b);
}

/** `DELETE t1 FROM t1 JOIN t2 …`, `DELETE FROM t1 USING …`, or a FROM with joins. */
export function isMultiDelete(o: Obj): boolean {
  const from = arr(tagOf(o.from)[1]);
  return (
    arr(o.tables).length > 0 ||
    (o.using !== undefined && o.using !== null) ||
    from.length !== 1 ||
    arr(obj(from[0]).joins).length > 0
  );
}

export function multiDelete(o: Obj, ctx: StatementContext): Compiled {
  const from = arr(tagOf(o.from)[1]);
  const using = o.using !== undefined && o.using !== null;
  // DELETE FROM t1, t2 USING <join>: the targets are FROM's tables; else the listed ones
  const relations = using ? arr(o.using) : from;
  const targetNames = using
    ? from.map((f) => objectName(obj(tagOf(obj(f).relation)[1]).name))
    : arr(o.tables).length > 0
      ? arr(o.tables).map((t) => objectName(t))
      : [objectName(obj(tagOf(obj(from[0]).relation)[1]).name)];
  const j = join(relations, o.selection, ctx);
  const targets = targetNames.map((p) => targetSource(j.block, p, 'MULTI DELETE'));
  for (const t of targets) writes(ctx, t);
  return {
    run: () => {
      ctx.run.epoch++;
      const frame = j.block.frame;
      const rows = new Map<Source, Map<string, FieldValue[]>>(targets.map((s) => [s, new Map()]));
      const writers = new Map(targets.map((s) => [s, statementWriter(ctx, s.table!, s.meta, STRICT)]));
      scan(ctx, j, targets, () => {
        for (const s of targets) {
          // an outer join's missing side is no row to delete
          if (s.table!.primary.columns.some((c) => frame.v[s.offset + c] === null)) continue;
          const row = rowOf(s, frame.v);
          rows.get(s)!.set(keyText(writers.get(s)!, row), row);
        }
      });
      let affected = 0;
      for (const [s, m] of rows)
        for (const r of m.values()) {
          s.table!.delete(writers.get(s)!.pkOf(r));
          affected++;
        }
      return okResult(affected);
    },
  };
}
