import { T_INT, T_STR } from '../exec/types.js';
import { registerSystemTable } from '../plan/system-tables.js';
import { arr, identText, obj } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import type { ProcessEntry } from '../txn/process-list.js';
import { processListOf } from '../txn/registry.js';
import { okResult, type QueryResult } from './result.js';
import type { Compiled, StatementContext } from './session.js';

/**
 * BEGIN / START TRANSACTION [READ ONLY | READ WRITE], COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO
 * [SAVEPOINT], RELEASE SAVEPOINT, KILL [CONNECTION | QUERY] n, SHOW [FULL] PROCESSLIST.
 */
export function compileTxnStatement(tag: string, v: unknown, ctx: StatementContext): Compiled | undefined {
  const txn = ctx.session.txn;
  const o = obj(v);
  switch (tag) {
    case 'StartTransaction': {
      if (arr(o.statements).length > 0) return undefined;
      const modes = arr(o.modes).map((m) => obj(m).AccessMode);
      const readOnly = modes.includes('ReadOnly') ? true : modes.includes('ReadWrite') ? false : undefined;
      return ok(() => {
        txn.count('Com_begin');
        txn.start(readOnly);
      });
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
    case 'Kill': {
      const id = Number(o.id);
      const query = o.modifier === 'Query';
      return ok(() => {
        txn.count('Com_kill');
        const e = processListOf(ctx.db).get(id);
        if (e === undefined) throw new SqlError('ER_NO_SUCH_THREAD', `Unknown thread id: ${id}`);
        e.kill(query);
      });
    }
    case 'ShowProcessList': {
      const full = o.full === true;
      return {
        run: (): QueryResult => {
          txn.count('Com_show_processlist');
          const rows = processListOf(ctx.db)
            .list()
            .map((e) => processRow(e, full ? undefined : 100));
          return { columns: [...COLUMNS_SHOW], rows, affectedRows: 0, insertId: 0, warnings: 0 };
        },
      };
    }
    default:
      return undefined;
  }
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
  return [e.id, e.user, e.host, 'test', e.command, Math.floor((Date.now() - e.since) / 1000), e.state, info];
}

registerSystemTable('information_schema', 'PROCESSLIST', {
  columns: ['ID', 'USER', 'HOST', 'DB', 'COMMAND', 'TIME', 'STATE', 'INFO'],
  types: [T_INT, T_STR, T_STR, T_STR, T_STR, T_INT, T_STR, T_STR],
  rows: (env) =>
    processListOf(env.db)
      .list()
      .map((e) => processRow(e, undefined)),
});
