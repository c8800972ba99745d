import type { Database } from '../storage/database.js';
import type { BufferPoolStats } from '@enginekit/buffer-pool';
import { HANDLER_COUNTERS } from '../storage/counters.js';
import { arr, obj, placeholders, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { operatorMode, parseSql } from '../sql/parser.js';
import { splitStatements } from '../sql/split.js';
import { type StatementKind, statementKind } from './statement-kind.js';
import { STATUS, StatusCounters, SUMMED_INDEX, type StatusName, type StatusSpec } from '../exec/status.js';
import { T_DBL, T_INT, T_STR, type SqlType } from '../exec/types.js';
import { paramSignature } from '../plan/bind-expr.js';
import type { Planner } from '../plan/planner.js';
import { CostBasedPlanner } from '../plan/optimizer/cost-based-planner.js';
import { settingsFrom } from '../plan/optimizer/settings.js';
import { OptimizerTrace } from '../plan/optimizer/trace.js';
import '../plan/optimizer/trace-table.js';
import type { StatisticsSource } from '../storage/statistics.js';
import { RunState } from '../exec/scope.js';
import type { ResultField } from '../exec/result-fields.js';
import { Interrupt } from '../exec/interrupt.js';
import { setTimeBaseDay } from '../exec/convert.js';
import { toLocal, US_PER_MINUTE } from '../exec/time-zone.js';
import { splitDay } from '../storage/temporal.js';
import type { InterruptWord } from '../txn/process-list.js';
import { bindQuery, type QueryEnv } from '../plan/select.js';
import { type Account, type AccountName, Accounts } from './accounts.js';
import { type AccountContext, runAccountStatement } from './account-statements.js';
import {
  adminDenied,
  dbDenied,
  holds,
  mayUseDatabase,
  isAdmin,
  statementNeeds,
  tableDenied,
} from './privileges.js';
import { SqlDictionary } from './dictionary.js';
import { compileDdl } from './ddl.js';
import { compileDml } from './dml.js';
import { compileExplain } from './explain.js';
import { compileShow } from './show.js';
import { compileAnalyze } from './stats-statements.js';
import './stats-tables.js';
import './schema-tables.js';
import { apiValue, okResult, type QueryResult, type RowSink } from './result.js';
import { VARIABLES, Variables } from './variables.js';
import { Diagnostics } from './diagnostics.js';
import { UserVariables } from './user-variables.js';
import type { SessionView } from '../plan/session-view.js';
import { collationByName, DEFAULT_COLLATION } from '../storage/collation.js';
import { storageError } from './storage-errors.js';
import { SessionTransactions } from './transactions.js';
import { compileTxnStatement } from './txn-statements.js';
import { compileSqlPrepared, executeArguments } from './sql-prepared.js';
import { compileTableStatement } from './table-statements.js';
import { instanceOf } from './instance.js';
import { DEFAULT_SCHEMA } from '../storage/schema-name.js';
import { resolveTableName } from '../plan/table-name.js';
import { TemporaryTables } from './temporary-tables.js';
import { isSystemSchema } from '../plan/system-tables.js';
import { compileDatabaseStatement } from './database-statements.js';

export type { QueryResult };

/** A compiled statement: runs with parameter values. */
export interface Compiled {
  run(params: readonly unknown[]): QueryResult;
}

/** A statement prepared by `Session.prepare` (and by PREPARE … FROM, under its name). */
export interface NamedStatement {
  run(params?: readonly unknown[]): QueryResult;
  readonly paramCount: number;
  /** A query's result columns as planned with NULL parameters (undefined: not a query, or unknown). */
  describe():
    | { columns: string[]; types: readonly SqlType[]; fields?: readonly (ResultField | undefined)[] }
    | undefined;
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

/** Each handler counter's slot in the storage's HandlerStats, by its status name. */
const HANDLER_MAP: ReadonlyArray<readonly [number, StatusName]> = HANDLER_COUNTERS.map((name, i) => [
  i,
  name,
]);

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
  /** Where the optimizer reads table statistics (a test may inject a fixture). */
  statistics: StatisticsSource;
  /** A planner that replaces the cost-based optimizer (tests); unset: the optimizer. */
  plannerOverride: Planner | undefined;
  /** The trace of the last statement planned with `optimizer_trace` enabled. */
  lastTrace: { query: string; trace: string } | undefined;
  #trace: OptimizerTrace | undefined;
  /**
   * A statement that changed data commits as a transaction of its own (autocommit) and, by
   * default, waits there as `innodb_flush_log_at_trx_commit` says (1: the log is fsynced). A caller
   * that acknowledges asynchronously (the server, a benchmark of group commit) sets this and awaits
   * `db.redo.waitCommitted(session.lastCommitLsn)` itself, so concurrent commits share fsyncs.
   */
  deferCommitWait = false;
  /**
   * Where a SELECT's rows go as they are produced (the server's connection); undefined: into
   * the result's `rows`.
   */
  rowSink: RowSink | undefined;
  /** The commit LSN of the last statement that changed data (0n: none yet, or no redo log). */
  lastCommitLsn = 0n;
  #closed = false;
  /** The last optimizer settings and the variable values they were made from. */
  #settings:
    | {
        readonly names: readonly string[];
        readonly values: ReadonlyArray<string | number>;
        readonly statistics: StatisticsSource;
        readonly trace: OptimizerTrace | undefined;
        readonly settings: ReturnType<typeof settingsFrom>;
      }
    | undefined;
  /** The last statement's notes, warnings and error (SHOW WARNINGS). */
  readonly diagnostics: Diagnostics = new Diagnostics();
  /** User variables (`@x`). */
  readonly userVars: UserVariables = new UserVariables();
  /** The client's user name and host (USER()); the server sets them at connect. */
  user = 'root';
  host = 'localhost';
  /**
   * The current database (DATABASE()), which unqualified table names are in; null when none is
   * chosen (such a name is then error 1046). A session starts in `test`, the database every new
   * file has (with none when it was dropped); USE, COM_INIT_DB and the handshake's database change
   * it, DROP DATABASE of it clears it.
   */
  database: string | null = DEFAULT_SCHEMA;
  /** LAST_INSERT_ID(). */
  lastInsertId: number | bigint = 0;
  /**
   * ROW_COUNT() of the statement before the running one, and of the running one when it ends; 0
   * before the first, as on a new MariaDB connection.
   */
  #rowCount = 0;
  #lastRowCount = 0;
  /** FOUND_ROWS(): rows of the last SELECT (without its LIMIT under SQL_CALC_FOUND_ROWS). */
  foundRows = 0;
  /** When the running statement started, microseconds since the epoch (UTC): NOW()'s time. */
  statementTime = 0;
  /** What the binder sees of this session. */
  readonly view: SessionView;
  /** Statements prepared by PREPARE name FROM …, by lower-case name. */
  readonly namedStatements: Map<string, NamedStatement> = new Map();
  /** The session's transaction, its place in the process list, its lock-wait policy. */
  readonly txn: SessionTransactions;
  /** The session's TEMPORARY tables, which hide tables of the same names from its statements. */
  readonly temporaryTables: TemporaryTables;
  /**
   * The account a server connection logged in as: every statement is checked against its
   * privileges (1142, 1227). Undefined for the embedded API, whose caller owns the file.
   */
  account: AccountName | undefined;

  /**
   * A SQL session on `db` (which must be open). `connectionId`: the session's id in the process
   * list (default: the next free one).
   */
  /**
   * `connectionId`: the id a server gave the connection (else a new one); `interruptWord`: where
   * the session's interrupt word lives when another thread interrupts its statements (else a
   * word of its own, raised by KILL and {@link cancel}).
   */
  constructor(
    db: Database,
    options: { readonly connectionId?: number; readonly interruptWord?: InterruptWord } = {},
  ) {
    if (db.closed) throw new RangeError(`database ${db.path} is closed`);
    this.db = db;
    this.statistics = db;
    this.vars = new Variables(instanceOf(db).vars);
    this.counters = new StatusCounters(instanceOf(db).status);
    this.txn = new SessionTransactions(this, options.connectionId, options.interruptWord);
    this.temporaryTables = new TemporaryTables(this.txn.connectionId);
    // a file whose `test` was dropped starts a session with no current database
    if (!SqlDictionary.of(db).databases.has(DEFAULT_SCHEMA)) this.database = null;
    instanceOf(db).transactions.add(this.txn.trx);
    const self = this;
    this.view = {
      userVar: (name) => self.userVars.get(name),
      setUserVar: (name, t, v) => self.userVars.set(name, t, v),
      get database() {
        return self.database;
      },
      // a server session: the account it logged in as
      get user() {
        return `${self.account?.user ?? self.user}@${self.host}`;
      },
      get currentUser() {
        const a = self.account;
        return a === undefined
          ? `${self.user}@${self.host === 'localhost' ? 'localhost' : '%'}`
          : `${a.user}@${a.host}`;
      },
      get connectionId() {
        return self.connectionId;
      },
      get lastInsertId() {
        return self.lastInsertId;
      },
      set lastInsertId(v) {
        self.lastInsertId = v;
      },
      get rowCount() {
        return self.#rowCount;
      },
      get foundRows() {
        return self.foundRows;
      },
      get statementTime() {
        return self.statementTime;
      },
      get timeZone() {
        return String(self.vars.get('time_zone'));
      },
    };
  }

  /**
   * The storage name of the table a statement names by `parts` (`t` or `db.t`): an unqualified
   * name is in `schema` (default: the current database; none chosen is error 1046). A temporary
   * table of the session by that name hides any other: its hidden name is returned.
   */
  tableName(parts: readonly string[], schema: string | null = this.database): string {
    const name = resolveTableName(parts, schema);
    return this.temporaryTables.storedName(name) ?? name;
  }

  /**
   * True for a storage name no statement of this session may name: the engine's own `#` tables,
   * another session's temporary tables (its own are reached through {@link tableName}).
   */
  hiddenTable(stored: string): boolean {
    return stored.startsWith('#') && this.temporaryTables.visibleName(stored) === undefined;
  }

  /** USE / COM_INIT_DB: `name` becomes the current database (1049 for one that does not exist). */
  useDatabase(name: string): void {
    this.#checkOpen();
    // an account that holds nothing on the database may not choose it (1044), as MariaDB checks first
    if (this.account !== undefined) {
      const acc = Accounts.of(this.db).get(this.account) ?? noPrivileges(this.account);
      if (!mayUseDatabase(acc, name)) throw dbDenied(name, this.account);
    }
    if (!isSystemSchema(name) && !SqlDictionary.of(this.db).databases.has(name))
      throw new SqlError('ER_BAD_DB_ERROR', `Unknown database '${name}'`);
    this.database = isSystemSchema(name) ? name.toLowerCase() : name;
  }

  /** The session's connection id (CONNECTION_ID(), the Id of SHOW PROCESSLIST, KILL's argument). */
  get connectionId(): number {
    return this.txn.connectionId;
  }

  /** The planner for the next statement: the cost-based optimizer under the current variables. */
  get planner(): Planner {
    return this.plannerOverride ?? new CostBasedPlanner(this.optimizerSettings());
  }

  /**
   * The optimizer's settings from this session's variables. They depend only on the variables'
   * values (optimizer_switch's text above all, whose flags are parsed here), so they are kept
   * until one of the variables they were made from changes: a SET takes effect at the next
   * statement, and a statement under the same values parses nothing.
   */
  optimizerSettings(): ReturnType<typeof settingsFrom> {
    const cached = this.#settings;
    if (
      cached !== undefined &&
      cached.statistics === this.statistics &&
      cached.trace === this.#trace &&
      sameValues(this.vars, cached.names, cached.values)
    )
      return cached.settings;
    const names: string[] = [];
    const values: Array<string | number> = [];
    const settings = settingsFrom(
      (n) => {
        const v = this.vars.get(n);
        names.push(n);
        values.push(v);
        return v;
      },
      this.statistics,
      this.#trace,
    );
    this.#settings = { names, values, statistics: this.statistics, trace: this.#trace, settings };
    return settings;
  }

  get globalVars(): Variables {
    return instanceOf(this.db).vars;
  }

  get globalCounters(): StatusCounters {
    return instanceOf(this.db).status;
  }

  /** Run one or more statements (separated by `;`); returns the last one's result. */
  query(sql: string, params: readonly unknown[] = []): QueryResult {
    this.#checkOpen();
    if (typeof sql !== 'string') throw new TypeError(`sql must be a string, got ${typeof sql}`);
    const accountResult = runAccountStatement(sql, this.#accountContext());
    if (accountResult !== undefined) {
      this.counters.add('Questions', 1);
      return accountResult;
    }
    // a script is run statement by statement, each parsed from its own text (what the statement
    // knows as its text: a view's definition, error positions, the parser's gaps read by their
    // rewrites), so a statement runs before the next is parsed, as a client sending them would
    const texts = sql.includes(';') ? splitStatements(sql).map((p) => p.sql) : [sql];
    let last: QueryResult | undefined;
    let used = 0;
    for (const text of texts) {
      const stmts = parseSql(text, operatorMode(String(this.vars.get('sql_mode'))));
      // without a `?` or a `:` (the parser's `:name` markers) in the text there is no parameter
      // marker to find in the tree
      const marked = text.includes('?') || text.includes(':');
      for (const st of stmts) {
        const ph = marked ? placeholders(st) : [];
        const mine = params.slice(used, used + ph.length);
        used += ph.length;
        last = tagOf(st)[0] === 'Execute' ? this.#executeNamed(st, text) : this.#execute(st, text, ph, mine);
      }
    }
    if (last === undefined)
      throw new SqlError(
        'ER_PARSE_ERROR',
        "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1",
      );
    return last;
  }

  /**
   * How `sql` must be serialized against sessions on other threads, from its parse (the one the
   * statement then runs from): `ddl` when it changes the dictionary, else `rows`.
   */
  statementKind(sql: string): StatementKind {
    return statementKind(sql, operatorMode(String(this.vars.get('sql_mode'))));
  }

  /** Parse and plan once; `run(params)` executes (re-planned only if parameter types change). */
  prepare(sql: string): NamedStatement {
    this.#checkOpen();
    const stmts = parseSql(sql, operatorMode(String(this.vars.get('sql_mode'))));
    if (stmts.length !== 1)
      throw new SqlError(
        'ER_UNSUPPORTED_PS',
        'This command is not supported in the prepared statement protocol yet',
      );
    const st = stmts[0]!;
    const ph = placeholders(st);
    // the protocol counts parameters in 16 bits (COM_STMT_PREPARE_OK), as MySQL's limit
    if (ph.length > MAX_PLACEHOLDERS)
      throw new SqlError('ER_PS_MANY_PARAM', 'Prepared statement contains too many placeholders');
    const com = comName(st);
    const plans = new Map<string, { c: Compiled; run: RunState }>();
    // the tables the plans were made against: a DDL or a temporary table since makes them again
    // (MariaDB re-prepares such a statement)
    let schemaVersion = this.db.schemaVersion;
    let temporaryVersion = this.temporaryTables.version;
    return {
      paramCount: ph.length,
      describe: () => {
        const [tag, v] = tagOf(st);
        if (tag !== 'Query') return undefined;
        try {
          const index = new Map<unknown, number>();
          for (const [i, p] of ph.entries()) index.set(p, i);
          const run = this.#runState();
          run.params = ph.map(() => null);
          const plan = bindQuery(v, { env: this.#queryEnv(sql, index, run), run }, undefined);
          return {
            columns: [...plan.columns],
            types: plan.types,
            ...(plan.fields === undefined ? {} : { fields: plan.fields }),
          };
        } catch {
          return undefined;
        }
      },
      run: (params: readonly unknown[] = []) => {
        this.#checkOpen();
        if (this.account !== undefined) this.#authorize(st);
        if (params.length !== ph.length)
          throw new SqlError('ER_WRONG_ARGUMENTS', 'Incorrect arguments to EXECUTE');
        if (schemaVersion !== this.db.schemaVersion || temporaryVersion !== this.temporaryTables.version) {
          plans.clear();
          schemaVersion = this.db.schemaVersion;
          temporaryVersion = this.temporaryTables.version;
        }
        const sig = paramSignature(params);
        let entry = plans.get(sig);
        this.#beginStatement();
        if (entry === undefined) {
          const run = this.#runState();
          run.params = [...params];
          try {
            entry = { c: this.#compile(st, sql, ph, run), run };
          } catch (e) {
            const out = this.#lockError(run) ?? e;
            this.#endStatement(st, sql, out);
            throw out;
          }
          plans.set(sig, entry);
        }
        // every execution binds its own values (a DML statement reads them from its RunState)
        entry.run.params = [...params];
        return this.#measured(st, com, sql, () => this.#locked(entry!.run, () => entry!.c.run(params)), true);
      },
    };
  }

  /** SHOW SESSION STATUS as name → value. */
  status(): Record<string, number> {
    return Object.fromEntries(this.statusValues(false));
  }

  /**
   * SHOW [SESSION | GLOBAL] STATUS: every counter of the registry (`STATUS`), each read from its
   * owner — this session's map or the global one for counted ones, the buffer pool, the redo log,
   * the lock system, purge and the process list now. Without a redo log its counters are absent.
   */
  statusValues(global: boolean): Map<StatusName, number> {
    const inst = instanceOf(this.db);
    const all = this.globalCounters;
    const own = this.counters;
    const pool = this.db.pool.stats();
    const redo = this.db.redoStatus();
    const locks = inst.lockTable.counters();
    // the other worker threads' counts, added to every value read from the global map
    const others = inst.otherThreadsStatus?.();
    const out = new Map<StatusName, number>();
    for (const name of Object.keys(STATUS) as StatusName[]) {
      const spec: StatusSpec = STATUS[name];
      let v: number | undefined;
      switch (spec.owner) {
        case 'statement':
        case 'server':
        case 'host':
          if (spec.scope === 'session' && !global) v = own.get(name);
          else {
            const i = others === undefined ? undefined : SUMMED_INDEX.get(name);
            v = all.get(name) + (i === undefined ? 0 : others![i]!);
          }
          break;
        case 'buffer-pool':
          v = pool[name as keyof BufferPoolStats];
          break;
        case 'redo':
          v = redo[name];
          break;
        case 'lock-system':
          v = locks[name];
          break;
        case 'purge':
          v = this.db.historyLength;
          break;
        case 'processlist':
          // this session runs the statement that asks, whether or not it is marked yet
          v = inst.processList.running() + (this.txn.entry.command === 'Query' ? 0 : 1);
          break;
        case 'prepared-statements':
          v = inst.preparedStatements.value;
          break;
      }
      if (v !== undefined) out.set(name, v);
    }
    return out;
  }

  /** SHOW SESSION VARIABLES as name → value. */
  variables(): Record<string, string | number> {
    return Object.fromEntries(this.vars.values);
  }

  /** Stop the running statement (it fails with error 1317, changing nothing): KILL QUERY of this session. */
  cancel(): void {
    this.txn.kill(true);
  }

  /** Polled by the running statement: this session's interrupt word and max_statement_time. */
  readonly interrupt: Interrupt = new Interrupt(() => this.txn.entry.interrupt);

  /**
   * The session starts over as COM_RESET_CONNECTION asks (and a failed COM_CHANGE_USER, which keeps
   * the account): its transaction rolls back, user variables and PREPARE'd statements are
   * forgotten, temporary tables dropped, session variables take the global values again,
   * LAST_INSERT_ID() and FOUND_ROWS() are 0. The account and the current database stay.
   */
  reset(): void {
    if (this.txn.trx.active) this.txn.rollback();
    this.userVars.clear();
    this.#forgetNamedStatements();
    const globals = instanceOf(this.db).vars.values;
    this.vars.values.clear();
    for (const [k, v] of globals) this.vars.values.set(k, v);
    this.lastInsertId = 0;
    this.foundRows = 0;
    this.#dropTemporaryTables();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#forgetNamedStatements();
    this.txn.close();
    this.#dropTemporaryTables();
    instanceOf(this.db).transactions.delete(this.txn.trx);
  }

  /**
   * The session's temporary tables go with it. A failure here (a closed or failing file) leaves
   * them to the orphan sweep of the database's next open, which drops every one.
   */
  #dropTemporaryTables(): void {
    const temps = this.temporaryTables;
    if (temps.size === 0) return;
    const tables = temps.entries();
    for (const [visible] of tables) temps.remove(visible);
    if (this.db.closed) return;
    const dict = SqlDictionary.of(this.db);
    try {
      this.db.atomically(() => {
        for (const [, stored] of tables) {
          if (this.db.hasTable(stored)) this.db.dropTable(stored);
          dict.dropTable(stored);
        }
      });
    } catch {
      SqlDictionary.forget(this.db);
    }
  }

  /** Drops the PREPARE'd statements, which leave the server's Prepared_stmt_count. */
  #forgetNamedStatements(): void {
    instanceOf(this.db).preparedStatements.release(this.namedStatements.size);
    this.namedStatements.clear();
  }

  /** A statement execution's state, reading this session's time zone. */
  #runState(): RunState {
    const run = new RunState();
    run.timeZone = () => String(this.vars.get('time_zone'));
    run.interrupt = this.interrupt;
    return run;
  }

  /** Notes and warnings of the statement running now. */
  get warningCount(): number {
    return this.diagnostics.count;
  }

  /** A note or warning of the running statement (MySQL's error number and message). */
  warn(code: number, message: string, level: 'Note' | 'Warning' = 'Warning'): void {
    // sql_notes = 0 keeps notes out of the diagnostics (mysqldump's scripts turn them off)
    if (level === 'Note' && this.vars.get('sql_notes') === 0) return;
    this.diagnostics.add(level, code, message);
  }

  #checkOpen(): void {
    if (this.#closed) throw new SqlError('ER_UNKNOWN_ERROR', 'The session is closed');
    if (this.db.closed) throw new SqlError('ER_UNKNOWN_ERROR', 'The database is closed');
  }

  #execute(st: unknown, sql: string, ph: unknown[], params: readonly unknown[]): QueryResult {
    // privileges first, as MariaDB: a table the account may not read is 1142 even if it is missing
    if (this.account !== undefined) this.#authorize(st);
    const run = this.#runState();
    run.params = [...params];
    const tracing = String(this.vars.get('optimizer_trace')).includes('enabled=on') && !isTraceRead(st);
    this.#trace = tracing ? new OptimizerTrace() : undefined;
    let c: Compiled;
    this.#beginStatement();
    try {
      c = this.#compile(st, sql, ph, run);
    } catch (e) {
      // planning reads the trees too (records_in_range): a damaged page fails it as a read does
      const out =
        this.#lockError(run) ?? (e instanceof Error && e.name === 'CorruptionError' ? storageError(e) : e);
      this.#endStatement(st, sql, out);
      throw out;
    } finally {
      if (this.#trace !== undefined) this.lastTrace = { query: sql, trace: this.#trace.json() };
      this.#trace = undefined;
    }
    return this.#measured(st, comName(st), sql, () => this.#locked(run, () => c.run(params)), true);
  }

  /**
   * A statement that failed to bind in locked-tables mode: LOCK TABLES' error for the tables it
   * named before it failed (MariaDB opens a statement's tables before it resolves anything else:
   * a missing table is 1100, not 1146), or undefined.
   */
  #lockError(run: RunState): unknown {
    try {
      this.txn.tables.check(run.tables);
      return undefined;
    } catch (e) {
      return e;
    }
  }

  /** Runs `f` once the statement's tables pass LOCK TABLES' check (1100, 1099 in locked-tables mode). */
  #locked(run: RunState, f: () => QueryResult): QueryResult {
    this.txn.tables.check(run.tables);
    return f();
  }

  /** SELECT … INTO @var: the one row's value into the variable (none: warning 1329; several: 1172). */
  #selectInto(name: string, t: SqlType, count: number, value: unknown): QueryResult {
    if (count > 1) throw new SqlError('ER_TOO_MANY_ROWS', 'Result consisted of more than one row');
    if (count === 0) this.warn(1329, 'No data - zero rows fetched, selected, or processed');
    else this.userVars.set(name, t, value);
    return okResult(count, 0, this.diagnostics.count);
  }

  /** EXECUTE name USING …: the named statement runs as itself (counted, locked, committed as it is). */
  #executeNamed(st: unknown, sql: string): QueryResult {
    this.counters.add('Com_execute_sql', 1);
    let call: ReturnType<typeof executeArguments>;
    try {
      call = executeArguments(tagOf(st)[1], this);
    } catch (e) {
      this.#beginStatement();
      this.#endStatement(st, sql, e);
      throw e;
    }
    return call.p.run(call.params);
  }

  /** The local day of the last statement's start, and the UTC minute and zone it was computed for. */
  #baseDay = 0;
  #baseDayMinute = -1;
  #baseDayZone = '';

  /** A statement starts: a new diagnostics area; ROW_COUNT() now reads the previous statement's. */
  #beginStatement(): void {
    // a KILL QUERY that came between statements is spent; the deadline is this statement's
    this.txn.entry.resetQueryKill();
    this.interrupt.start(Number(this.vars.get('max_statement_time')));
    this.diagnostics.begin();
    this.statementTime = Math.round((performance.timeOrigin + performance.now()) * 1000);
    // the local day changes only at a whole minute (every zone's offset is whole minutes)
    const zone = String(this.vars.get('time_zone'));
    const minute = Math.floor(this.statementTime / US_PER_MINUTE);
    if (minute !== this.#baseDayMinute || zone !== this.#baseDayZone) {
      this.#baseDayMinute = minute;
      this.#baseDayZone = zone;
      this.#baseDay = splitDay(toLocal(this.statementTime, zone))[0];
    }
    setTimeBaseDay(this.#baseDay);
    this.#rowCount = this.#lastRowCount;
  }

  /** A statement ended (with its result or its error): diagnostics and ROW_COUNT() as MySQL keeps them. */
  #endStatement(st: unknown, sql: string, e: unknown, res?: QueryResult): void {
    if (e instanceof SqlError) this.diagnostics.fail(e);
    this.diagnostics.end(isDiagnosticStatement(st, sql));
    if (e !== undefined) this.#lastRowCount = -1;
    else if (res !== undefined) {
      this.#lastRowCount = res.columns.length > 0 ? -1 : res.affectedRows;
      // LAST_INSERT_ID(): the first value the last INSERT generated (one that generated none keeps it)
      if (res.insertId !== 0 && tagOf(st)[0] === 'Insert') this.lastInsertId = res.insertId;
    }
  }

  /**
   * Runs a statement, moving the storage counters it caused into the session's status (which
   * adds every change to the database's global status as well); `com` is its Com_* counter.
   */
  #measured(
    st: unknown,
    com: StatusName | undefined,
    sql: string,
    f: () => QueryResult,
    begun = false,
  ): QueryResult {
    const h = this.db.handler.counts;
    const before = this.#before;
    for (let k = 0; k < HANDLER_MAP.length; k++) before[k] = h[HANDLER_MAP[k]![0]]!;
    if (!begun) this.#beginStatement();
    // a statement run again after a lock wait was counted the first time
    if (this.txn.rerun) this.txn.rerun = false;
    else {
      this.counters.add('Questions', 1);
      if (com !== undefined) this.counters.add(com, 1);
    }
    const redo = this.db.redo;
    const lsn0 = redo === null ? 0n : redo.lsn;
    try {
      let res = this.txn.run(st, sql, f);
      const n = this.diagnostics.count;
      if (n !== res.warnings) res = { ...res, warnings: n };
      this.#endStatement(st, sql, undefined, res);
      return res;
    } catch (e) {
      this.#endStatement(st, sql, e);
      throw e;
    } finally {
      for (let k = 0; k < HANDLER_MAP.length; k++) {
        const [i, name] = HANDLER_MAP[k]!;
        const d = h[i]! - before[k]!;
        if (d !== 0) this.counters.add(name, d);
      }
      if (redo !== null && !this.db.closed) {
        // a transaction that ended in this statement committed at its commit mini-transaction; a
        // change outside any transaction (DDL, ANALYZE) is durable once the log is, to its end
        const trx = this.txn.trx;
        let lsn = trx.commitLsn;
        trx.commitLsn = 0n;
        if (lsn === 0n && redo.lsn !== lsn0 && !trx.active) lsn = redo.lsn;
        if (lsn !== 0n) {
          this.lastCommitLsn = lsn;
          if (!this.deferCommitWait) redo.commitSync(lsn);
        }
      }
    }
  }

  #accountContext(): AccountContext {
    const accounts = Accounts.of(this.db);
    return {
      accounts,
      name: this.account,
      database: this.database,
      account:
        this.account === undefined ? undefined : (accounts.get(this.account) ?? noPrivileges(this.account)),
    };
  }

  /** The privileges the statement needs, checked against the session's account (1142, 1227). */
  #authorize(st: unknown): void {
    const name = this.account!;
    const acc = Accounts.of(this.db).get(name) ?? noPrivileges(name);
    if (isAdmin(acc)) return;
    const { needs, admin } = statementNeeds(st, this.database);
    if (admin !== undefined) throw adminDenied(admin);
    for (const n of needs)
      if (!holds(acc, n.priv, n.db, n.table))
        throw n.table === '' ? dbDenied(n.db, name) : tableDenied(n, name);
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
      const into = intoVariable(v);
      if (into !== undefined && plan.columns.length !== 1)
        throw new SqlError(
          'ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT',
          'The used SELECT statements have a different number of columns',
        );
      return {
        run: (params) => {
          run.params = [...params];
          run.epoch++;
          const rows: unknown[][] = [];
          let firstRaw: unknown = null;
          let count = 0;
          const types = plan.types;
          const n = types.length;
          // a client's result goes to its sink row by row; SELECT … INTO keeps its one row here
          const sink = into === undefined ? this.rowSink : undefined;
          sink?.begin(plan.columns, types, plan.fields);
          plan.run((r) => {
            if (count++ === 0) firstRaw = r[0];
            const out = new Array<unknown>(n);
            for (let i = 0; i < n; i++) out[i] = apiValue(r[i], types[i]!);
            if (sink === undefined) rows.push(out);
            else sink.row(out);
            return true;
          });
          this.foundRows = plan.foundRows?.() ?? count;
          if (into !== undefined) return this.#selectInto(into, plan.types[0]!, count, firstRaw);
          return {
            columns: [...plan.columns],
            rows,
            affectedRows: 0,
            insertId: 0,
            warnings: this.diagnostics.count,
            types,
            ...(plan.fields === undefined ? {} : { fields: plan.fields }),
            ...(sink === undefined ? {} : { streamed: true }),
          };
        },
      };
    }
    if (tag === 'Explain') return compileExplain(v, ctx, obj(v).analyze === true);
    if (tag === 'Do') {
      // DO: the expressions run (their assignments and LAST_INSERT_ID(n) take effect), no rows
      const plan = bindQuery(v, { env: ctx.queryEnv(), run }, undefined);
      return {
        run: (params) => {
          run.params = [...params];
          run.epoch++;
          plan.run(() => true);
          return okResult(0, 0, this.diagnostics.count);
        },
      };
    }
    return (
      compileTxnStatement(tag, v, ctx) ??
      compileSqlPrepared(tag, v, ctx) ??
      compileTableStatement(tag, v, ctx) ??
      compileDatabaseStatement(tag, v, ctx) ??
      compileDml(tag, v, ctx) ??
      compileDdl(tag, v, ctx) ??
      compileShow(tag, v, ctx) ??
      (tag === 'Analyze' ? compileAnalyze(v, ctx) : undefined) ??
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
      optimizerTrace: () => this.lastTrace,
      tmpTableSize: Math.min(
        Number(this.vars.get('tmp_table_size')),
        Number(this.vars.get('max_heap_table_size')),
      ),
      divPrecisionIncrement: Number(this.vars.get('div_precision_increment')),
      schema: this.database,
      meta: (t) => dict.tables.get(t),
      view: (n) => {
        const sql = dict.views.get(n);
        return sql === undefined ? undefined : { sql, schema: dict.viewSchema(n) };
      },
      temporaryTable: (n) => this.temporaryTables.storedName(n),
      warn: (code, message, level) => this.warn(code, message, level),
      session: this.view,
      collation: collationByName(String(this.vars.get('collation_connection'))) ?? DEFAULT_COLLATION,
      paramIndex: (n) => {
        const i = index.get(n);
        if (i === undefined) throw new SqlError('ER_UNKNOWN_ERROR', 'parameter marker outside the statement');
        return i;
      },
      sysVar: (name, scope) => sysVar(this, name, scope),
    };
  }
}

/** An account that no longer exists (dropped while connected) holds nothing. */
function noPrivileges(name: AccountName): Account {
  return { ...name, hash: '', global: [], dbs: {}, tables: {} };
}

/** The most parameter markers one prepared statement may have (MySQL's UINT16_MAX). */
const MAX_PLACEHOLDERS = 65535;

/** Whether every variable in `names` still has the value in `values` (same index). */
function sameValues(
  vars: Variables,
  names: readonly string[],
  values: ReadonlyArray<string | number>,
): boolean {
  for (let i = 0; i < names.length; i++) if (vars.get(names[i]!) !== values[i]) return false;
  return true;
}

const T_SECONDS: SqlType = { ...T_DBL, scale: 6 };

function sysVar(
  s: Session,
  name: string,
  scope: 'session' | 'global' | undefined,
): { t: SqlType; v: unknown } {
  const lower = name.toLowerCase();
  if (lower === 'warning_count' || lower === 'error_count') {
    const d = s.diagnostics.previous;
    return { t: T_INT, v: lower === 'warning_count' ? d.length : d.filter((x) => x[0] === 'Error').length };
  }
  // whether a transaction is open (MariaDB's read-only session variable)
  if (lower === 'in_transaction' && scope !== 'global') return { t: T_INT, v: s.txn.active ? 1 : 0 };
  const vars = scope === 'global' ? s.globalVars : s.vars;
  const v = vars.get(name);
  if (typeof v !== 'number') return { t: T_STR, v };
  // a DOUBLE variable (max_statement_time) reads as MariaDB shows it, with 6 decimals
  return VARIABLES[lower]?.kind === 'double' ? { t: T_SECONDS, v } : { t: T_INT, v };
}

/**
 * SHOW WARNINGS / ERRORS / COUNT(*) …, and a SELECT of `@@warning_count` or `@@error_count`: they
 * read the previous statement's diagnostics and leave them in place.
 */
function isDiagnosticStatement(st: unknown, sql: string): boolean {
  const [tag, v] = tagOf(st);
  if (tag === 'ShowVariable') {
    const words = arr(obj(v).variable).map((w) => String(obj(w).value ?? '').toUpperCase());
    return words.includes('WARNINGS') || words.includes('ERRORS');
  }
  return tag === 'Query' && sql.includes('@@') && /@@(?:session\.)?(?:warning|error)_count/i.test(sql);
}

/** The user variable of `SELECT … INTO @x`, or undefined. */
function intoVariable(q: unknown): string | undefined {
  const into = obj(obj(tagOf(obj(q).body)[1]).into);
  const parts = arr(into.name);
  if (parts.length === 0) return undefined;
  const name = String(obj(tagOf(parts[0])[1]).value ?? '');
  if (!name.startsWith('@') || name.startsWith('@@'))
    throw new SqlError(
      'ER_NOT_SUPPORTED_YET',
      "This version of MySQL doesn't yet support 'SELECT … INTO a table'",
    );
  return name.slice(1);
}

/** A statement that reads the trace itself does not replace it. */
function isTraceRead(st: unknown): boolean {
  return JSON.stringify(st).toLowerCase().includes('optimizer_trace');
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
          : obj(v).object_type === 'Database' || obj(v).object_type === 'Schema'
            ? 'Com_drop_db'
            : undefined;
    case 'Set':
      return 'Com_set_option';
    case 'Use':
      return 'Com_change_db';
    case 'CreateDatabase':
    case 'CreateSchema':
      return 'Com_create_db';
    case 'ShowDatabases':
    case 'ShowSchemas':
      return 'Com_show_databases';
    case 'ShowStatus':
      return 'Com_show_status';
    case 'ShowVariables':
      return 'Com_show_variables';
    case 'PrepareFrom':
      return 'Com_prepare_sql';
    case 'Deallocate':
      return 'Com_dealloc_sql';
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
