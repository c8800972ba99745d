import type { Database } from '../storage/database.js';
import {
  H_DELETE,
  H_READ_FIRST,
  H_READ_KEY,
  H_READ_NEXT,
  H_READ_RND,
  H_READ_RND_NEXT,
  H_ROWS_READ,
  H_UPDATE,
  H_WRITE,
} from '../storage/counters.js';
import { obj, placeholders, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { parseSql } from '../sql/parser.js';
import { StatusCounters, type StatusName } from '../exec/status.js';
import { T_INT, T_STR, type SqlType } from '../exec/types.js';
import { paramType } from '../plan/bind-expr.js';
import { ruleBasedPlanner, type Planner } from '../plan/planner.js';
import { RunState } from '../plan/scope.js';
import { bindQuery, type QueryEnv } from '../plan/select.js';
import { SqlDictionary } from './dictionary.js';
import { compileDdl } from './ddl.js';
import { compileDml } from './dml.js';
import { compileShow } from './show.js';
import { apiValue, type QueryResult } from './result.js';
import { Variables } from './variables.js';

export type { QueryResult };

/** A compiled statement: runs with parameter values. */
export interface Compiled {
  run(params: readonly unknown[]): QueryResult;
}

/** What statement compilers get from the session. */
export interface StatementContext {
  readonly session: Session;
  readonly db: Database;
  readonly dict: SqlDictionary;
  readonly sql: string;
  readonly run: RunState;
  queryEnv(): QueryEnv;
}

const globals = new WeakMap<Database, { vars: Variables; status: StatusCounters }>();

function globalState(db: Database): { vars: Variables; status: StatusCounters } {
  let g = globals.get(db);
  if (g === undefined) {
    g = { vars: new Variables(), status: new StatusCounters() };
    globals.set(db, g);
  }
  return g;
}

const HANDLER_MAP: Array<[number, StatusName]> = [
  [H_DELETE, 'Handler_delete'],
  [H_READ_FIRST, 'Handler_read_first'],
  [H_READ_KEY, 'Handler_read_key'],
  [H_READ_NEXT, 'Handler_read_next'],
  [H_READ_RND, 'Handler_read_rnd'],
  [H_READ_RND_NEXT, 'Handler_read_rnd_next'],
  [H_UPDATE, 'Handler_update'],
  [H_WRITE, 'Handler_write'],
  [H_ROWS_READ, 'Innodb_rows_read'],
];

/**
 * A SQL session: its own system variables (copied from the globals when it starts), its own
 * status counters, prepared statements. Sessions share the database (its tables, dictionary and
 * buffer pool); a session holds no storage state, so the server can run many of them.
 */
export class Session {
  readonly db: Database;
  readonly vars: Variables;
  readonly counters: StatusCounters;
  readonly #before: Float64Array = new Float64Array(HANDLER_MAP.length);
  planner: Planner = ruleBasedPlanner;
  /**
   * A statement that changed data commits as a transaction of its own (autocommit) and, by
   * default, waits there as `innodb_flush_log_at_trx_commit` says (1: the log is fsynced). A caller
   * that acknowledges asynchronously (the server, a benchmark of group commit) sets this and awaits
   * `db.redo.waitCommitted(session.lastCommitLsn)` itself, so concurrent commits share fsyncs.
   */
  deferCommitWait = false;
  /** The commit LSN of the last statement that changed data (0n: none yet, or no redo log). */
  lastCommitLsn = 0n;
  #closed = false;
  #warnings = 0;
  #running: RunState | undefined;

  constructor(db: Database) {
    this.db = db;
    this.vars = new Variables(globalState(db).vars);
    this.counters = new StatusCounters(globalState(db).status);
  }

  get globalVars(): Variables {
    return globalState(this.db).vars;
  }

  get globalCounters(): StatusCounters {
    return globalState(this.db).status;
  }

  /** Run one or more statements (separated by `;`); returns the last one's result. */
  query(sql: string, params: readonly unknown[] = []): QueryResult {
    this.#checkOpen();
    if (typeof sql !== 'string') throw new TypeError(`sql must be a string, got ${typeof sql}`);
    const stmts = parseSql(sql);
    if (stmts.length === 0)
      throw new SqlError(
        'ER_PARSE_ERROR',
        "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1",
      );
    let last: QueryResult | undefined;
    let used = 0;
    for (const st of stmts) {
      const ph = placeholders(st);
      const mine = params.slice(used, used + ph.length);
      used += ph.length;
      last = this.#execute(st, sql, ph, mine);
    }
    return last!;
  }

  /** Parse and plan once; `run(params)` executes (re-planned only if parameter types change). */
  prepare(sql: string): { run(params?: readonly unknown[]): QueryResult; readonly paramCount: number } {
    this.#checkOpen();
    const stmts = parseSql(sql);
    if (stmts.length !== 1)
      throw new SqlError(
        'ER_UNKNOWN_ERROR',
        'This command is not supported in the prepared statement protocol yet',
      );
    const st = stmts[0]!;
    const ph = placeholders(st);
    const plans = new Map<string, { c: Compiled; run: RunState }>();
    return {
      paramCount: ph.length,
      run: (params: readonly unknown[] = []) => {
        this.#checkOpen();
        if (params.length !== ph.length)
          throw new SqlError('ER_WRONG_ARGUMENTS', 'Incorrect arguments to EXECUTE');
        let sig = '';
        for (const p of params) sig += paramType(p).kind;
        let entry = plans.get(sig);
        if (entry === undefined) {
          const run = new RunState();
          run.params = [...params];
          entry = { c: this.#compile(st, sql, ph, run), run };
          plans.set(sig, entry);
        }
        return this.#measured(st, () => entry!.c.run(params));
      },
    };
  }

  /** SHOW SESSION STATUS as name → value. */
  status(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, v] of this.counters.values) out[k] = v;
    const pool = this.db.pool.stats() as unknown as Record<string, number>;
    for (const [k, v] of Object.entries(pool)) if (typeof v === 'number') out[k] = v;
    for (const [k, v] of Object.entries(this.db.redoStatus())) out[k] = v;
    return out;
  }

  /** SHOW SESSION VARIABLES as name → value. */
  variables(): Record<string, string | number> {
    return Object.fromEntries(this.vars.values);
  }

  /** Stop the running statement (it fails with error 1317, changing nothing). */
  cancel(): void {
    if (this.#running !== undefined) this.#running.cancelled = true;
  }

  close(): void {
    this.#closed = true;
  }

  get warningCount(): number {
    return this.#warnings;
  }

  warn(): void {
    this.#warnings++;
  }

  #checkOpen(): void {
    if (this.#closed) throw new SqlError('ER_UNKNOWN_ERROR', 'The session is closed');
    if (this.db.closed) throw new SqlError('ER_UNKNOWN_ERROR', 'The database is closed');
  }

  #execute(st: unknown, sql: string, ph: unknown[], params: readonly unknown[]): QueryResult {
    const run = new RunState();
    run.params = [...params];
    const c = this.#compile(st, sql, ph, run);
    return this.#measured(st, () => c.run(params));
  }

  /**
   * Runs a statement, moving the storage counters it caused into the session's status (which
   * adds every change to the database's global status as well).
   */
  #measured(st: unknown, f: () => QueryResult): QueryResult {
    const h = this.db.handler.counts;
    const before = this.#before;
    for (let k = 0; k < HANDLER_MAP.length; k++) before[k] = h[HANDLER_MAP[k]![0]]!;
    this.#warnings = 0;
    this.counters.add('Questions', 1);
    const com = comName(st);
    if (com !== undefined) this.counters.add(com, 1);
    const redo = this.db.redo;
    const lsn0 = redo === null ? 0n : redo.lsn;
    try {
      return f();
    } finally {
      for (let k = 0; k < HANDLER_MAP.length; k++) {
        const [i, name] = HANDLER_MAP[k]!;
        const d = h[i]! - before[k]!;
        if (d !== 0) this.counters.add(name, d);
      }
      if (redo !== null && redo.lsn !== lsn0 && !this.db.closed) {
        const lsn = redo.commit(redo.newTrxId());
        this.lastCommitLsn = lsn;
        if (!this.deferCommitWait) redo.commitSync(lsn);
      }
    }
  }

  #compile(st: unknown, sql: string, ph: unknown[], run: RunState): Compiled {
    const index = new Map<unknown, number>();
    for (const [i, p] of ph.entries()) index.set(p, i);
    const ctx: StatementContext = {
      session: this,
      db: this.db,
      dict: SqlDictionary.of(this.db),
      sql,
      run,
      queryEnv: () => this.#queryEnv(sql, index, run),
    };
    const [tag, v] = tagOf(st);
    if (tag === 'Query') {
      const plan = bindQuery(v, { env: ctx.queryEnv(), run }, undefined);
      return {
        run: (params) => {
          run.params = [...params];
          run.epoch++;
          run.cancelled = false;
          this.#running = run;
          const rows: unknown[][] = [];
          const types = plan.types;
          const n = types.length;
          try {
            plan.run((r) => {
              const out = new Array<unknown>(n);
              for (let i = 0; i < n; i++) out[i] = apiValue(r[i], types[i]!);
              rows.push(out);
              return true;
            });
          } finally {
            this.#running = undefined;
          }
          return {
            columns: [...plan.columns],
            rows,
            affectedRows: 0,
            insertId: 0,
            warnings: this.#warnings,
            types,
          };
        },
      };
    }
    return (
      compileDml(tag, v, ctx) ??
      compileDdl(tag, v, ctx) ??
      compileShow(tag, v, ctx) ??
      unsupportedStatement(tag)
    );
  }

  #queryEnv(sql: string, index: Map<unknown, number>, _run: RunState): QueryEnv {
    const dict = SqlDictionary.of(this.db);
    return {
      sql,
      db: this.db,
      status: this.counters,
      planner: this.planner,
      sqlMode: String(this.vars.get('sql_mode')),
      sortBufferSize: Number(this.vars.get('sort_buffer_size')),
      joinBufferSize: Number(this.vars.get('join_buffer_size')),
      divPrecisionIncrement: Number(this.vars.get('div_precision_increment')),
      meta: (t) => dict.tables.get(t),
      view: (n) => dict.views.get(n),
      warn: () => this.warn(),
      paramIndex: (n) => {
        const i = index.get(n);
        if (i === undefined) throw new SqlError('ER_UNKNOWN_ERROR', 'parameter marker outside the statement');
        return i;
      },
      sysVar: (name, scope) => sysVar(this, name, scope),
    };
  }
}

function sysVar(
  s: Session,
  name: string,
  scope: 'session' | 'global' | undefined,
): { t: SqlType; v: unknown } {
  const vars = scope === 'global' ? s.globalVars : s.vars;
  const v = vars.get(name);
  return typeof v === 'number' ? { t: T_INT, v } : { t: T_STR, v };
}

function comName(st: unknown): StatusName | undefined {
  const [tag, v] = tagOf(st);
  switch (tag) {
    case 'Query':
      return 'Com_select';
    case 'Insert':
      return 'Com_insert';
    case 'Update':
      return 'Com_update';
    case 'Delete':
      return 'Com_delete';
    case 'CreateTable':
      return 'Com_create_table';
    case 'CreateIndex':
      return 'Com_create_index';
    case 'Drop':
      return obj(v).object_type === 'Index'
        ? 'Com_drop_index'
        : obj(v).object_type === 'Table'
          ? 'Com_drop_table'
          : undefined;
    case 'Set':
      return 'Com_set_option';
    case 'ShowStatus':
      return 'Com_show_status';
    case 'ShowVariables':
      return 'Com_show_variables';
    default:
      return undefined;
  }
}

function unsupportedStatement(tag: string): never {
  throw new SqlError(
    'ER_NOT_SUPPORTED_YET',
    `This version of MySQL doesn't yet support '${tag.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase()}'`,
  );
}
