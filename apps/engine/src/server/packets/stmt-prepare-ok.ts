import type { ColumnMeta } from '../column-types.js';
import { CHARSET_BINARY, MYSQL_TYPE_VAR_STRING } from '../protocol.js';
import type { PacketWriter } from '../wire.js';
import { writeEof } from './eof.js';
import { writeColumnDefinition } from './column-definition.js';

/**
 * COM_STMT_PREPARE_OK: 0x00, statement id, column count, parameter count, a filler byte, the
 * warning count; then one definition per parameter and an EOF, then one definition per result
 * column and an EOF. Clients decide from the column count whether an execution returns rows
 * (libmysqlclient's `mysql_stmt_result_metadata`, which sysbench reads before fetching); each
 * execution's result set sends its own column definitions, with the types of that execution's
 * parameters.
 */
export function writePrepareOk(
  w: PacketWriter,
  statementId: number,
  paramCount: number,
  columns: readonly ColumnMeta[] = [],
): void {
  w.begin().u8(0x00).u32(statementId).u16(columns.length).u16(paramCount).u8(0).u16(0).end();
  if (paramCount > 0) {
    for (let i = 0; i < paramCount; i++) {
      writeColumnDefinition(w, {
        name: '?',
        kind: 'str',
        type: MYSQL_TYPE_VAR_STRING,
        charset: CHARSET_BINARY,
        length: 0,
        flags: 0,
        decimals: 0,
      });
    }
    writeEof(w);
  }
  if (columns.length > 0) {
    for (const c of columns) writeColumnDefinition(w, c);
    writeEof(w);
  }
}
