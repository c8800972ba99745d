import { T_INT, T_STR } from '../exec/types.js';
import { registerSystemTable } from '../plan/system-tables.js';
import { arr, identText, obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import type { ProcessEntry } from '../txn/process-list.js';
import { instanceOf } from './instance.js';
import { Accounts } from './accounts.js';
import { isAdmin } from './privileges.js';
import type { IsolationLevel } from '../txn/transaction.js';
import { checkLockList } from './table-locks.js';
import { okResult, type QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

/**
 * BEGIN / START TRANSACTION [READ ONLY | READ WRITE] [WITH CONSISTENT SNAPSHOT], SET [GLOBAL |
 * SESSION] TRANSACTION ISOLATION LEVEL …, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO
 * [SAVEPOINT], RELEASE SAVEPOINT, LOCK TABLES, UNLOCK TABLES, KILL [CONNECTION | QUERY] n, SHOW
 * [FULL] PROCESSLIST.
 */
export function compileTxnStatement(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  const txn = ctx.session.txn;
  const o = obj(v);
  switch (tag) {
    case 'StartTransaction': {
      if (arr(o.statements).length > 0) return undefined;
      const modes = arr(o.modes).map((m) => obj(m).AccessMode);
      const readOnly = modes.includes('ReadOnly') ? true : modes.includes('ReadWrite') ? false : undefined;
      // the parser's rewrite blanked WITH CONSISTENT SNAPSHOT out; the text still has it
      const snapshot = /\bWITH\s+CONSISTENT\s+SNAPSHOT\b/i.test(stripComments(ctx.sql));
      return ok(() => {
        txn.count('Com_begin');
        txn.start(readOnly, snapshot);
      });
    }
    case 'Set': {
      const [t, sv] = tagOf(v);
      if (t !== 'SetTransaction') return undefined;
      return setTransaction(arr(obj(sv).modes), ctx);
    }
    case 'Commit':
      if (o.chain === true) return undefined;
      return ok(() => {
        txn.count('Com_commit');
        txn.commit();
      });
    case 'Rollback': {
      if (o.chain === true) return undefined;
      const sp = o.savepoint;
      if (sp !== undefined && sp !== null) {
        const name = identText(sp);
        return ok(() => {
          txn.count('Com_rollback_to_savepoint');
          txn.rollbackToSavepoint(name);
        });
      }
      return ok(() => {
        txn.count('Com_rollback');
        txn.rollback();
      });
    }
    case 'Savepoint': {
      const name = identText(o.name);
      return ok(() => {
        txn.count('Com_savepoint');
        txn.savepoint(name);
      });
    }
    case 'ReleaseSavepoint': {
      const name = identText(o.name);
      return ok(() => {
        txn.count('Com_release_savepoint');
        txn.releaseSavepoint(name);
      });
    }
    case 'LockTables': {
      const requests = arr(o.tables).map((x) => {
        const t = obj(x);
        const table = identText(t.table);
        const parts = t.schema === undefined ? [table] : [identText(t.schema), table];
        return {
          stored: ctx.session.tableName(parts),
          name: t.alias === undefined ? table : identText(t.alias),
          write: obj(t.lock_type).Write !== undefined,
        };
      });
      checkLockList(requests);
      const wait = typeof o.wait === 'number' ? o.wait : undefined;
      return ok(() => {
        txn.count('Com_lock_tables');
        txn.lockTables(requests, wait);
      });
    }
    case 'UnlockTables':
      return ok(() => {
        txn.count('Com_unlock_tables');
        txn.unlockTables();
      });
    case 'Kill': {
      const id = Number(o.id);
      const query = o.modifier === 'Query';
      return ok(() => {
        txn.count('Com_kill');
        const e = instanceOf(ctx.db).processList.get(id);
        if (e === undefined) throw new SqlError('ER_NO_SUCH_THREAD', `Unknown thread id: ${id}`);
        // another user's connection needs CONNECTION ADMIN (here: global ALL), as MariaDB
        const me = ctx.session.account;
        if (me !== undefined && e.user !== me.user) {
          const acc = Accounts.of(ctx.db).get(me);
          if (acc === undefined || !isAdmin(acc))
            throw new SqlError('ER_KILL_DENIED_ERROR', `You are not owner of thread ${id}`);
        }
        e.kill(query);
      });
    }
    case 'ShowProcessList': {
      const full = o.full === true;
      return {
        run: (): QueryResult => {
          txn.count('Com_show_processlist');
          const rows = instanceOf(ctx.db)
            .processList.list()
            .map((e) => processRow(e, full ? undefined : 100));
          return { columns: [...COLUMNS_SHOW], rows, affectedRows: 0, insertId: 0, warnings: 0 };
        },
      };
    }
    default:
      return undefined;
  }
}

const LEVELS: Readonly<Record<string, IsolationLevel>> = {
  ReadUncommitted: 'READ-UNCOMMITTED',
  ReadCommitted: 'READ-COMMITTED',
  RepeatableRead: 'REPEATABLE-READ',
  Serializable: 'SERIALIZABLE',
};

/**
 * SET [GLOBAL | SESSION] TRANSACTION ISOLATION LEVEL … | READ ONLY | READ WRITE: GLOBAL and
 * SESSION set `transaction_isolation` / `transaction_read_only` of that scope; without a scope
 * the characteristics are the next transaction's only, refused (1568) while one is open, as MySQL.
 */
function setTransaction(modes: unknown[], ctx: StatementContext): Compiled {
  // the parser drops the scope: read it from the text
  const m = /^\s*SET\s+(?:@@)?(GLOBAL|SESSION|LOCAL)?\b/i.exec(stripComments(ctx.sql));
  const scope = m?.[1]?.toUpperCase();
  let level: IsolationLevel | undefined;
  let readOnly: boolean | undefined;
  for (const mode of modes) {
    const o = obj(mode);
    if (o.IsolationLevel !== undefined) {
      level = LEVELS[String(o.IsolationLevel)];
      if (level === undefined)
        throw new SqlError('ER_PARSE_ERROR', `unknown isolation level ${String(o.IsolationLevel)}`);
    }
    if (o.AccessMode !== undefined) readOnly = o.AccessMode === 'ReadOnly';
  }
  const txn = ctx.session.txn;
  return ok(() => {
    if (scope === undefined) {
      if (txn.active)
        throw new SqlError(
          'ER_CANT_CHANGE_TX_CHARACTERISTICS',
          "Transaction characteristics can't be changed while a transaction is in progress",
        );
      if (level !== undefined) txn.nextIsolation = level;
      if (readOnly !== undefined) txn.nextReadOnly = readOnly;
      return;
    }
    const global = scope === 'GLOBAL';
    const vars = global ? ctx.session.globalVars : ctx.session.vars;
    const sc = global ? 'global' : 'session';
    if (level !== undefined) vars.set('transaction_isolation', level, sc, undefined);
    if (readOnly !== undefined) vars.set('transaction_read_only', readOnly ? 1 : 0, sc, undefined);
  });
}

/** `sql` without its comments (a comment could hide or fake a keyword). */
function stripComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(--\s|#)[^\n]*/g, ' ');
}

function ok(f: () => void): Compiled {
  return {
    run: () => {
      f();
      return okResult();
    },
  };
}

const COLUMNS_SHOW = ['Id', 'User', 'Host', 'db', 'Command', 'Time', 'State', 'Info'] as const;

function processRow(e: ProcessEntry, infoChars: number | undefined): unknown[] {
  const info = e.info === null ? null : infoChars === undefined ? e.info : e.info.slice(0, infoChars);
  return [e.id, e.user, e.host, e.db(), e.command, Math.floor((Date.now() - e.since) / 1000), e.state, info];
}

registerSystemTable('information_schema', 'PROCESSLIST', {
  columns: ['ID', 'USER', 'HOST', 'DB', 'COMMAND', 'TIME', 'STATE', 'INFO'],
  types: [T_INT, T_STR, T_STR, T_STR, T_STR, T_INT, T_STR, T_STR],
  rows: (env) =>
    instanceOf(env.db)
      .processList.list()
      .map((e) => processRow(e, undefined)),
});
