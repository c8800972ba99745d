import type { StatementKind } from '../session/statement-kind.js';
import {
  COM_FIELD_LIST,
  COM_QUERY,
  COM_RESET_CONNECTION,
  COM_STMT_EXECUTE,
  COM_STMT_PREPARE,
} from './protocol.js';

/**
 * The kind of a command payload (see `StatementKind`): COM_QUERY takes the kind of its text's
 * parse (`kindOf`, the session's), COM_STMT_EXECUTE the kind of the text its statement was
 * prepared from (`prepared`, by statement id; an unknown id is `rows`, and gets its error from
 * the processor); commands that run no statement are `none`, but COM_RESET_CONNECTION of a
 * session with temporary tables (`temporaryTables`) is `ddl`: it drops them.
 */
export function commandKind(
  payload: Uint8Array,
  prepared: (id: number) => string | undefined,
  kindOf: (sql: string) => StatementKind,
  temporaryTables = false,
): StatementKind {
  switch (payload[0]) {
    // a reset drops the session's temporary tables
    case COM_RESET_CONNECTION:
      return temporaryTables ? 'ddl' : 'none';
    case COM_QUERY:
      return kindOf(Buffer.from(payload.buffer, payload.byteOffset + 1, payload.length - 1).toString('utf8'));
    case COM_STMT_PREPARE:
    case COM_FIELD_LIST:
      return 'rows';
    case COM_STMT_EXECUTE: {
      if (payload.length < 5) return 'rows';
      const id = payload[1]! | (payload[2]! << 8) | (payload[3]! << 16) | (payload[4]! << 24);
      const sql = prepared(id >>> 0);
      return sql === undefined ? 'rows' : kindOf(sql);
    }
    default:
      return 'none';
  }
}
