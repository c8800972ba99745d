import { arr, identText, obj, type Obj, objectName, posOf, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { parseSql } from '../sql/parser.js';
import { type BindCtx, bindCompare, bindExpr, columnRef } from './bind-expr.js';
import type { Block, Bound } from '../exec/bound.js';
import { conjuncts } from './conjuncts.js';
import type { SqlType } from '../exec/types.js';
import type { Table } from '../storage/table.js';
import type { ColumnInfo, DerivedSource, Source } from '../exec/scope.js';
import type { TableMeta } from '../storage/table-meta.js';
import { bindEnvOf, bindQuery, type Ctx, materialized, storedType } from './select.js';
import { isSystemSchema, systemTable } from './system-tables.js';
import { resolveTableName } from './table-name.js';
import { dottedName, schemaOf } from '../storage/schema-name.js';

/**
 * The FROM clause: stored tables (index hints checked), CTEs, views and derived tables as
 * sources with their slots in the block's frame; JOIN … ON / USING / NATURAL, LEFT JOIN.
 */

/** Add the FROM items to the block; returns ON conjuncts of inner joins (to join WHERE). */
export function bindFrom(sel: Obj, block: Block, c: Ctx, ctes: Map<string, DerivedSource>): Bound[] {
  const where: Bound[] = [];
  const benv = bindEnvOf(c);
  const addRelation = (rel: unknown, joinType: 'inner' | 'left'): Source => {
    const [t, v] = tagOf(rel);
    const o = obj(v);
    if (t === 'NestedJoin') {
      const twj = obj(o.table_with_joins);
      const first = addRelation(twj.relation, joinType);
      for (const j of arr(twj.joins)) addJoin(j);
      return first;
    }
    let alias: string;
    let tableSchema: string | undefined;
    let tableName: string | undefined;
    let source: Omit<Source, 'idx' | 'offset' | 'joinType' | 'on' | 'used'>;
    const aliasNode = obj(o.alias);
    const aliasName = aliasNode.name === undefined ? undefined : identText(aliasNode.name);
    if (t === 'Table') {
      const parts = objectName(o.name);
      const name = parts[parts.length - 1]!;
      alias = aliasName ?? name;
      const qualifier = parts.length > 1 ? parts[parts.length - 2]! : undefined;
      const cte = qualifier === undefined ? ctes.get(name.toLowerCase()) : undefined;
      // an unqualified name is in the current database, which may be a system schema (USE information_schema)
      const schema =
        qualifier ??
        (cte === undefined && c.env.schema !== null && isSystemSchema(c.env.schema)
          ? c.env.schema
          : undefined);
      const named =
        cte === undefined && (schema === undefined || !isSystemSchema(schema))
          ? resolveTableName(parts, c.env.schema)
          : undefined;
      // a temporary table of the session hides a table or view of its name
      const temporary =
        named === undefined || c.env.inView === true ? undefined : c.env.temporaryTable?.(named);
      const stored = temporary ?? named;
      tableName = named;
      const view = named === undefined || temporary !== undefined ? undefined : c.env.view(named);
      // the names the statement itself uses (LOCK TABLES checks them when it runs)
      if (stored !== undefined && c.env.inView !== true)
        c.run.tables.push({ stored, name: alias, write: false });
      if (named !== undefined && aliasName === undefined) tableSchema = schemaOf(named);
      if (schema !== undefined && isSystemSchema(schema)) {
        const sys = systemTable(schema, name);
        if (sys === undefined) {
          const p = posOf(o.name);
          throw new SqlError(
            'ER_UNKNOWN_TABLE',
            `Unknown table '${name}' in ${schema.toLowerCase()}`,
            p?.line,
            p?.column,
          );
        }
        const env = c.env;
        // the mysql schema's names compare by their bytes (utf8mb3_bin in MariaDB)
        const types =
          schema.toLowerCase() === 'mysql'
            ? sys.types.map((x) => (x.kind === 'str' ? { ...x, collation: 'utf8mb4_bin' as const } : x))
            : sys.types;
        source = derivedSource(alias, {
          columns: sys.columns,
          types,
          run(emit) {
            for (const r of sys.rows(env)) if (emit([...r]) === false) return;
          },
        });
      } else if (cte !== undefined) source = derivedSource(alias, cte);
      else if (view !== undefined) {
        const viewSql = view.sql;
        const stmt = obj(parseSql(viewSql)[0]);
        const cv = obj(stmt.CreateView);
        // the view's own text and database: its names and messages come from there
        const env = { ...c.env, sql: viewSql, schema: view.schema, inView: true };
        const plan = bindQuery(cv.query, { ...c, env }, undefined, ctes);
        const cols = arr(cv.columns).map((x) => identText(obj(x).name));
        source = derivedSource(alias, materialized(plan, cols.length > 0 ? cols : plan.columns));
      } else {
        const name = stored!;
        if (!c.env.db.hasTable(name) || (name.startsWith('#') && temporary === undefined)) {
          const p = posOf(o.name);
          throw new SqlError(
            'ER_NO_SUCH_TABLE',
            `Table '${dottedName(name)}' doesn't exist`,
            p?.line,
            p?.column,
          );
        }
        const table = c.env.db.table(name);
        const meta = c.env.meta(name);
        const types = storedTypes(table.columns, meta);
        const hiddenPk = meta?.hiddenPk === true;
        const columns: ColumnInfo[] = new Array<ColumnInfo>(types.length);
        for (let i = 0; i < types.length; i++) {
          const col = table.columns[i]!;
          columns[i] =
            hiddenPk && col.name === 'DB_ROW_ID'
              ? { name: col.name, t: types[i]!, nullable: col.nullable === true, invisible: true }
              : { name: col.name, t: types[i]!, nullable: col.nullable === true };
        }
        source = { alias, columns, table, ...(meta ? { meta } : {}), hints: indexHints(o, table, alias) };
      }
    } else if (t === 'Derived') {
      if (o.lateral === true)
        throw new SqlError('ER_NOT_SUPPORTED_YET', "This version of MySQL doesn't yet support 'LATERAL'");
      if (aliasName === undefined)
        throw new SqlError('ER_DERIVED_MUST_HAVE_ALIAS', 'Every derived table must have its own alias');
      alias = aliasName;
      const plan = bindQuery(o.subquery, c, undefined, ctes);
      const cols = arr(aliasNode.columns).map((x) => identText(obj(x).name));
      source = derivedSource(alias, materialized(plan, cols.length > 0 ? cols : plan.columns));
    } else
      throw new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support '${t} in FROM'`);
    // two tables of the same name in two databases are two sources (`a.t`, `b.t`)
    if (block.sources.some((s) => s.alias.toLowerCase() === alias.toLowerCase() && s.schema === tableSchema))
      throw new SqlError('ER_NONUNIQ_TABLE', `Not unique table/alias: '${alias}'`);
    // every source with the same fields in the same order (one object shape; a spread of the
    // optional fields made a slow object per table per statement)
    const s: Source = {
      idx: block.sources.length,
      alias: source.alias,
      schema: tableSchema,
      columns: source.columns,
      offset: block.nslots,
      table: source.table,
      tableName: source.table === undefined ? undefined : tableName,
      meta: source.meta,
      derived: source.derived,
      joinType,
      on: [],
      hints: source.hints,
      used: new Set(),
    };
    block.nslots += s.columns.length;
    block.sources.push(s);
    return s;
  };
  /**
   * A join: its relation joins every source before it (inner, or LEFT: its ON kept apart). With
   * `swapped` (a RIGHT JOIN turned into a LEFT JOIN), `relation` is the RIGHT JOIN's left side and
   * the sources before it are the right side alone.
   */
  const addJoin = (j: unknown, swapped?: unknown): void => {
    const jo = obj(j);
    const [op, cons] = tagOf(jo.join_operator);
    const left = op === 'Left' || op === 'LeftOuter' || swapped !== undefined;
    if (swapped === undefined && (op === 'Right' || op === 'RightOuter' || op === 'FullOuter'))
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support '${op === 'FullOuter' ? 'FULL JOIN' : 'RIGHT JOIN of a join'}'`,
      );
    const before = block.sources.length;
    const s = addRelation(swapped ?? jo.relation, left ? 'left' : 'inner');
    const [ct, cv] = tagOf(cons);
    const conds: Bound[] = [];
    const ctx: BindCtx = { block, clause: 'on clause', allowAgg: false, env: benv };
    if (ct === 'On') for (const x of conjuncts(cv, [])) conds.push(bindExpr(x, ctx));
    else if (ct === 'Using' || ct === 'Natural') {
      const names =
        ct === 'Using'
          ? arr(cv).map((x) => {
              const [, iv] = tagOf(x);
              return Array.isArray(x) ? objectName(x).at(-1)! : identText(iv ?? x);
            })
          : s.columns
              .filter((col) =>
                block.sources
                  .slice(0, before)
                  .some((p) =>
                    p.columns.some((pc) => pc.name.toLowerCase() === col.name.toLowerCase() && !pc.invisible),
                  ),
              )
              .map((col) => col.name);
      for (const name of names) {
        const rc = s.columns.findIndex((col) => col.name.toLowerCase() === name.toLowerCase());
        let lsrc: Source | undefined;
        let lc = -1;
        for (const p of block.sources.slice(0, before)) {
          const i = p.columns.findIndex(
            (col) => col.name.toLowerCase() === name.toLowerCase() && col.hiddenUnqualified !== true,
          );
          if (i >= 0) {
            lsrc = p;
            lc = i;
          }
        }
        if (rc < 0 || lsrc === undefined)
          throw new SqlError('ER_BAD_FIELD_ERROR', `Unknown column '${name}' in 'from clause'`);
        conds.push(bindCompare('=', columnRef(block, lsrc.idx, lc), columnRef(block, s.idx, rc), `${name}`));
        s.columns[rc]!.hiddenUnqualified = true;
      }
    }
    if (left) s.on.push(...conds);
    else where.push(...conds);
  };
  for (const twj of arr(sel.from)) {
    const tw = obj(twj);
    // FROM DUAL: no table (DUAL is a reserved word; a table of that name is written `dual`)
    if (isDual(tw.relation) && arr(tw.joins).length === 0 && arr(sel.from).length === 1) continue;
    const joins = arr(tw.joins);
    const [op0] = tagOf(obj(joins[0]).join_operator);
    if ((op0 === 'Right' || op0 === 'RightOuter') && tagOf(tw.relation)[0] !== 'NestedJoin') {
      // a RIGHT JOIN b ON c is b LEFT JOIN a ON c; SELECT * still lists a's columns first (ON),
      // or the join columns and b's first (USING, NATURAL), as MySQL does
      const first = addRelation(obj(joins[0]).relation, 'inner');
      addJoin(joins[0], tw.relation);
      const [ct] = tagOf(tagOf(obj(joins[0]).join_operator)[1]);
      if (ct === 'On' || ct === 'None') block.swapForStar(first.idx, first.idx + 1);
      for (const j of joins.slice(1)) addJoin(j);
      continue;
    }
    addRelation(tw.relation, 'inner');
    for (const j of joins) addJoin(j);
  }
  return where;
}

function isDual(rel: unknown): boolean {
  const [t, v] = tagOf(rel);
  if (t !== 'Table' || (obj(v).alias !== undefined && obj(v).alias !== null)) return false;
  const parts = arr(obj(v).name);
  if (parts.length !== 1) return false;
  const id = obj(tagOf(parts[0])[1] ?? parts[0]);
  return id.quote_style === undefined && String(id.value).toUpperCase() === 'DUAL';
}

/** A stored table's column types, made once per column list and declared types (neither changes in place). */
const typesOf = new WeakMap<readonly unknown[], WeakMap<object, readonly SqlType[]>>();
const NO_META = {};

function storedTypes(columns: Table['columns'], meta: TableMeta | undefined): readonly SqlType[] {
  let byMeta = typesOf.get(columns);
  if (byMeta === undefined) typesOf.set(columns, (byMeta = new WeakMap()));
  const key = meta?.types ?? NO_META;
  let t = byMeta.get(key);
  if (t === undefined) {
    t = columns.map((col, i) => storedType(col.type, meta?.types[i]));
    byMeta.set(key, t);
  }
  return t;
}

function derivedSource(
  alias: string,
  d: DerivedSource,
): Omit<Source, 'idx' | 'offset' | 'joinType' | 'on' | 'used'> {
  return {
    alias,
    columns: d.columns.map((n, i) => ({ name: n, t: d.types[i]!, nullable: true })),
    derived: d,
    hints: { force: [], use: [], ignore: [] },
  };
}

/**
 * A table factor's USE / FORCE / IGNORE INDEX hints (`o`: the factor's AST), each index checked
 * to exist in `table` (1176 otherwise).
 */
export function indexHints(o: Obj, table: Table, alias: string): Source['hints'] {
  const hints = { force: [] as string[], use: [] as string[], ignore: [] as string[] };
  for (const h of arr(o.index_hints)) {
    const ho = obj(h);
    const names = arr(ho.index_names).map(identText);
    for (const ix of names) {
      if (
        ix.toUpperCase() !== 'PRIMARY' &&
        !table.secondary.some((s) => s.name.toLowerCase() === ix.toLowerCase())
      )
        throw new SqlError('ER_KEY_DOES_NOT_EXITS', `Key '${ix}' doesn't exist in table '${alias}'`);
    }
    const list =
      ho.hint_type === 'Force' ? hints.force : ho.hint_type === 'Ignore' ? hints.ignore : hints.use;
    list.push(...names.map((x) => (x.toUpperCase() === 'PRIMARY' ? 'PRIMARY' : x)));
  }
  return hints;
}
