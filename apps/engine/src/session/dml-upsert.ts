import { TableHandler } from '../handler/table-handler.js';
import type { Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { arr, obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { coerce } from '../exec/convert.js';
import type { SqlType } from '../exec/types.js';
import { type BindCtx, bindExpr } from '../plan/bind-expr.js';
import { Block, type Bound } from '../exec/bound.js';
import type { Source } from '../exec/scope.js';
import { bindQuery, storedType } from '../plan/select.js';
import type { RowWriter } from './dml.js';
import { HIDDEN_PK, type TableMeta } from '../storage/table-meta.js';
import type { StatementContext } from './session.js';
import { keyFieldValue } from './field-values.js';

/**
 * INSERT … ON DUPLICATE KEY UPDATE col = expr, …: a row whose primary key or a unique key is
 * already in the table updates the first row it clashes with (keys in order: the primary key,
 * then the unique indexes) instead of being inserted. The assignments read the existing row's
 * columns, and `VALUES(col)` reads the value the insert would have written; they apply left to
 * right, later ones seeing earlier ones, as MySQL does. MySQL counts 1 affected row per insert,
 * 2 per row updated and 0 per row left as it was.
 */
export interface Upsert {
  /** Updates the row `row` clashes with: 2 if it changed, 0 if not; undefined if nothing clashes. */
  apply(table: Table, w: RowWriter, row: FieldValue[], rowNo: number): number | undefined;
}

const DECODER = new TextDecoder();

/** A stored field as the runtime value of its SQL type (text decoded, DECIMAL as its scaled bigint). */
function runtimeOf(f: FieldValue, t: SqlType): unknown {
  if (f === null) return null;
  if (f instanceof Uint8Array)
    return t.binary === true ? Buffer.from(f).toString('latin1') : DECODER.decode(f);
  if (t.kind === 'dec') return typeof f === 'bigint' ? f : BigInt(f as number);
  return f;
}

export function bindUpsert(
  assignments: unknown,
  table: Table,
  meta: TableMeta | undefined,
  alias: string,
  ctx: StatementContext,
): Upsert {
  const types = table.columns.map((c, i) => storedType(c.type, meta?.types[i]));
  const ncol = types.length;
  const env = ctx.queryEnv();
  const block = new Block(undefined, ctx.run);
  const src: Source = {
    idx: 0,
    alias,
    columns: table.columns.map((c, i) => ({
      name: c.name,
      t: types[i]!,
      nullable: c.nullable === true,
      ...(meta?.hiddenPk === true && c.name === HIDDEN_PK ? { invisible: true } : {}),
    })),
    offset: 0,
    table,
    meta,
    derived: undefined,
    joinType: 'inner',
    on: [],
    hints: { force: [], use: [], ignore: [] },
    used: new Set(table.columns.map((_, i) => i)),
  };
  block.sources.push(src);
  // slots 0 … n−1: the existing row; n … 2n−1: the row the insert would have written
  block.nslots = 2 * ncol;
  const frame = block.frame;
  const valuesOf = (name: string): Bound => {
    const c = table.columns.findIndex((x) => x.name.toLowerCase() === name.toLowerCase());
    if (c < 0) throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${name}' in 'field list'`);
    return { t: types[c]!, ev: () => frame.v[ncol + c], refs: [0], outer: false, agg: false, text: name };
  };
  const bctx: BindCtx = {
    block,
    clause: 'field list',
    allowAgg: false,
    env: { ...env, bindSubquery: (q, parent) => bindQuery(q, { env, run: ctx.run }, parent) },
    insertValues: valuesOf,
  };
  const sets = arr(assignments).map((a) => {
    const ao = obj(a);
    const [, tgt] = tagOf(ao.target);
    const parts = objectName(tgt);
    const cn = parts.at(-1)!;
    const c = src.columns.findIndex((x) => x.name.toLowerCase() === cn.toLowerCase() && x.invisible !== true);
    if (c < 0 || (parts.length > 1 && parts.at(-2)!.toLowerCase() !== alias.toLowerCase()))
      throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${parts.join('.')}' in 'field list'`);
    return { c, e: bindExpr(ao.value, bctx) };
  });
  const keys = [table.primary, ...table.secondary.filter((x) => x.unique)];
  return {
    apply(t, w, row, rowNo) {
      let old: FieldValue[] | undefined;
      for (const ix of keys) {
        const prefix = ix.columns.map((c) => keyFieldValue(row[c]!, t.columns[c]!.type));
        if (prefix.some((v) => v === null)) continue;
        new TableHandler(t).lookup(ix.name, prefix, (r) => {
          old = r.toArray();
          return false;
        });
        if (old !== undefined) break;
      }
      if (old === undefined) return undefined;
      frame.v = new Array<unknown>(2 * ncol);
      for (let c = 0; c < ncol; c++) {
        frame.v[c] = runtimeOf(old[c]!, types[c]!);
        frame.v[ncol + c] = runtimeOf(row[c]!, types[c]!);
      }
      const before = frame.v.slice(0, ncol);
      const neu: FieldValue[] = old.map((f, c) =>
        f instanceof Uint8Array && types[c]!.binary !== true ? DECODER.decode(f) : f,
      );
      for (const s of sets) {
        const v = s.e.ev();
        neu[s.c] = w.field(s.c, v, s.e.t, rowNo);
        frame.v[s.c] = v === null ? null : coerce(v, s.e.t, types[s.c]!);
      }
      let changed = false;
      for (let c = 0; c < ncol && !changed; c++) {
        const a = before[c];
        const b = frame.v[c];
        changed = a === null || b === null ? a !== b : a !== b && String(a) !== String(b);
      }
      if (!changed) return 0;
      t.update(w.pkOf(old), neu);
      return 2;
    },
  };
}
