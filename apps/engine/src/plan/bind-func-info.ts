import { normInt } from '../exec/convert.js';
import { type SqlType, T_INT, T_STR, T_UINT } from '../exec/types.js';
import { type BindCtx, castEv, arity } from './bind-expr.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * MySQL's information functions: who and where the session is (DATABASE, USER, CURRENT_USER,
 * VERSION, CONNECTION_ID) and what earlier statements did (LAST_INSERT_ID, ROW_COUNT, FOUND_ROWS).
 * Each reads the session when it runs, so a prepared statement sees the values of its execution.
 */

/** The server version MariaDB clients and tools read (the engine answers as a MySQL 8.0 server). */
export const SERVER_VERSION = '8.0.36-enginekit';

function live(t: SqlType, ev: Ev, args: readonly Bound[], text: string): Bound {
  let refs: number[] = [];
  for (const a of args) refs = [...new Set([...refs, ...a.refs])];
  return {
    t,
    ev,
    refs,
    outer: args.some((a) => a.outer),
    agg: args.some((a) => a.agg),
    text,
  };
}

export function infoFunction(name: string, args: Bound[], ctx: BindCtx, text: string): Bound | undefined {
  const s = ctx.env.session;
  switch (name) {
    case 'database':
    case 'schema':
      arity(name, args, 0);
      return live(T_STR, () => s.database, args, text);
    case 'user':
    case 'session_user':
    case 'system_user':
      arity(name, args, 0);
      return live(T_STR, () => s.user, args, text);
    case 'current_user':
      arity(name, args, 0);
      return live(T_STR, () => s.currentUser, args, text);
    case 'version':
      arity(name, args, 0);
      return live(T_STR, () => SERVER_VERSION, args, text);
    case 'connection_id':
      arity(name, args, 0);
      return live(T_UINT, () => s.connectionId, args, text);
    case 'row_count':
      arity(name, args, 0);
      return live(T_INT, () => s.rowCount, args, text);
    case 'found_rows':
      arity(name, args, 0);
      return live(T_INT, () => s.foundRows, args, text);
    case 'last_insert_id': {
      arity(name, args, 0, 1);
      if (args.length === 0) return live(T_UINT, () => s.lastInsertId, args, text);
      // LAST_INSERT_ID(expr): returns expr and remembers it for the next LAST_INSERT_ID()
      const ev = castEv(args[0]!, T_INT);
      return live(
        T_UINT,
        () => {
          const v = ev() as number | bigint | null;
          s.lastInsertId = v === null ? 0 : typeof v === 'bigint' ? normInt(BigInt.asUintN(64, v)) : v;
          return v;
        },
        args,
        text,
      );
    }
    default:
      return undefined;
  }
}
