import { TableHandler } from '../handler/table-handler.js';
import type { Database } from '../storage/database.js';
import type { AutoIncrementCounters } from './auto-increment.js';
import { instanceOf } from './instance.js';
import { declaredMembers } from '../exec/members.js';
import type { Table } from '../storage/table.js';
import type { FieldValue } from '../storage/types.js';
import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import type { SqlType } from '../exec/types.js';
import { T_STR } from '../exec/types.js';
import { type BindCtx, bindExpr } from '../plan/bind-expr.js';
import { Block } from '../exec/bound.js';
import { bindQuery } from '../plan/select.js';
import { duplicateMessage, storageError } from './storage-errors.js';
import { convertMode, statementWriter, tableOf } from './dml.js';
import { HIDDEN_PK } from '../storage/table-meta.js';
import { okResult } from './result.js';
import { keyFieldValue } from './field-values.js';
import { bindUpsert } from './dml-upsert.js';
import type { Compiled, StatementContext } from './session.js';
import { lockTargetExclusive, lockTargetShared } from './transactions.js';
import { tableOf as tableOfName } from '../storage/schema-name.js';

/**
 * INSERT and REPLACE: VALUES rows or a SELECT, column lists, DEFAULT, AUTO_INCREMENT, INSERT
 * IGNORE, and INSERT … ON DUPLICATE KEY UPDATE.
 */

/**
 * The value an auto-increment or hidden row-id column gives next, without taking it (the
 * server's counter of the table: session/auto-increment.ts).
 */
export function peekNextValue(db: Database, t: Table, c: number): number {
  return instanceOf(db).autoIncrement.peek(t, c);
}

export function compileInsert(o: Obj, ctx: StatementContext): Compiled {
  const [, tn] = tagOf(o.table);
  const name = ctx.session.tableName(objectName(tn ?? o.table_name ?? o.table));
  const table0 = tableOf(ctx, name);
  const meta = ctx.dict.tables.get(name);
  // INSERT … SET a = 1, b = 2: one row of VALUES for those columns
  const sets = arr(o.assignments).map(obj);
  const colNames =
    sets.length > 0
      ? sets.map((a) => objectName(tagOf(a.target)[1]).at(-1)!)
      : arr(o.columns).map((c) => {
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
  const [onTag, onValue] = tagOf(o.on);
  if (o.on !== undefined && o.on !== null && onTag !== 'DuplicateKeyUpdate')
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      `This version of MySQL doesn't yet support 'INSERT … ON ${onTag}'`,
    );
  const upsert =
    onTag === 'DuplicateKeyUpdate' ? bindUpsert(onValue, table0, meta, tableOfName(name), ctx) : undefined;
  const source = sets.length > 0 ? { body: { Values: { rows: [sets.map((a) => a.value)] } } } : obj(o.source);
  const [bt, bv] = tagOf(source.body);
  const env = ctx.queryEnv();
  let rowsOf: () => Array<{ values: unknown[]; types: SqlType[] }>;
  // a NULL for a NOT NULL column outside strict mode: an error in a one-row VALUES, else a warning
  const several = bt !== 'Values' || arr(obj(bv).rows).length > 1;
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
      // VALUES () with no column list (or an empty one): every column takes its default
      if (exprs.length === 0 && colNames.length === 0) return targets.map(() => null);
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
      const counters = instanceOf(ctx.db).autoIncrement;
      const w = statementWriter(
        ctx,
        table,
        meta,
        convertMode(String(ctx.session.vars.get('sql_mode')), ignore, several),
      );
      // the target's reads lock the latest rows: duplicate checks S, REPLACE's clashing rows X
      if (replace || upsert !== undefined) lockTargetExclusive(table);
      else lockTargetShared(table);
      const input = rowsOf();
      const full: FieldValue[][] = [];
      // rows whose AUTO_INCREMENT value is generated, taken as each row is written (below)
      const generated = new Set<number>();
      // rows that give their AUTO_INCREMENT value: the counter moves past it as the row is written
      const explicit = new Set<number>();
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
          if (meta !== undefined && c === meta.autoIncrement) {
            generated.add(ri);
            continue;
          }
          if (meta?.hiddenPk === true && col.name === HIDDEN_PK) {
            row[c] = counters.take(table, c);
            continue;
          }
          const def = meta?.defaults[c];
          if (def !== null && def !== undefined) {
            const d = evaluateStored(def, ctx);
            row[c] = w.field(c, d.v, d.t, ri + 1);
          } else if (col.nullable === true) row[c] = null;
          else {
            // a NOT NULL ENUM without a default takes its first member, as MySQL
            const first = declaredMembers(meta?.types[c]);
            if (first !== undefined && !first.set) row[c] = first.members[0]!;
            else
              throw new SqlError(
                'ER_NO_DEFAULT_FOR_FIELD',
                `Field '${col.name}' doesn't have a default value`,
              );
          }
        }
        if (meta !== undefined && meta.autoIncrement >= 0 && given[meta.autoIncrement]) explicit.add(ri);
        full.push(row);
      });
      // all rows converted: insert; on any failure the session rolls the statement back (undo log)
      const auto =
        meta !== undefined && meta.autoIncrement >= 0
          ? new AutoIncrementBlock(
              counters,
              table,
              meta.autoIncrement,
              bt === 'Values' ? full.length : undefined,
            )
          : undefined;
      let affected = 0;
      let skipped = 0;
      try {
        for (const [ri, row] of full.entries()) {
          // a generated AUTO_INCREMENT value is taken when its row is written, so a row that
          // INSERT IGNORE skips as a duplicate can give its value back (MySQL's
          // restore_auto_increment: the next row takes the same value)
          let taken = 0;
          if (generated.has(ri) && auto !== undefined) {
            taken = auto.take();
            row[auto.column] = taken;
            if (insertId === 0) insertId = taken;
          } else if (explicit.has(ri) && auto !== undefined) auto.explicit(Number(row[auto.column]));
          auto?.rowDone();
          if (upsert !== undefined) {
            const n = upsert.apply(table, w, row, ri + 1);
            if (n !== undefined) {
              affected += n;
              continue;
            }
          }
          if (replace) {
            // REPLACE: rows clashing on the primary key or a unique index go first (MySQL counts
            // each as one more affected row)
            for (const ix of [table.primary, ...table.secondary.filter((x) => x.unique)]) {
              const prefix = ix.columns.map((c) => keyFieldValue(row[c]!, table.columns[c]!.type));
              if (prefix.some((v) => v === null)) continue;
              const clash: FieldValue[][] = [];
              new TableHandler(table).lookup(ix.name, prefix, (r) => {
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
              ctx.session.warn(1062, duplicateMessage(e));
              if (taken !== 0 && auto!.giveBack(taken) && insertId === taken) insertId = 0;
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

/** A DEFAULT (or ON UPDATE) expression kept as the parser's JSON, evaluated now; its type with it. */
export function evaluateStored(json: string, ctx: StatementContext): { v: unknown; t: SqlType } {
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
  return { v: b.ev(), t: b.t };
}

/**
 * The AUTO_INCREMENT values one INSERT statement generates, handed out as InnoDB does
 * (innodb_autoinc_lock_mode 1; handler::update_auto_increment, ha_innobase::get_auto_increment):
 * a block reserved from the shared counter for the rows the statement has left (a VALUES list
 * knows them; INSERT … SELECT does not and reserves 1, 2, 4, … values at a time), a value given
 * back when its row is skipped as a duplicate so the next row takes it, a value given explicitly
 * moving the counter past it, and what the statement leaves unused lost: the next statement
 * starts after its block.
 */
class AutoIncrementBlock {
  readonly column: number;
  readonly #counters: AutoIncrementCounters;
  readonly #table: Table;
  /** Rows not yet written (a VALUES list), or undefined when unknown. */
  #rowsLeft: number | undefined;
  #interval = 1;
  #next = 0;
  #end = 0;

  constructor(counters: AutoIncrementCounters, table: Table, column: number, rows: number | undefined) {
    this.#counters = counters;
    this.#table = table;
    this.column = column;
    this.#rowsLeft = rows;
  }

  take(): number {
    if (this.#next >= this.#end) {
      let n: number;
      if (this.#rowsLeft !== undefined) n = Math.max(this.#rowsLeft, 1);
      else {
        n = this.#interval;
        this.#interval = Math.min(this.#interval * 2, MAX_AUTO_INCREMENT_BLOCK);
      }
      this.#next = this.#counters.takeBlock(this.#table, this.column, n);
      this.#end = this.#next + n;
    }
    return this.#next++;
  }

  /** Value `v`, the last taken, was not stored: the next row takes it. */
  giveBack(v: number): boolean {
    if (v !== this.#next - 1) return false;
    this.#next--;
    return true;
  }

  /** A row gave value `v`: the counter moves past it, and so does this block when `v` is in it. */
  explicit(v: number): void {
    this.#counters.raise(this.#table, this.column, v);
    if (v >= this.#next) this.#end = this.#next;
  }

  rowDone(): void {
    if (this.#rowsLeft !== undefined && this.#rowsLeft > 0) this.#rowsLeft--;
  }
}

/** The most values one reservation of an INSERT … SELECT takes (MySQL's AUTO_INC_DEFAULT_NB_MAX). */
const MAX_AUTO_INCREMENT_BLOCK = 65535;
