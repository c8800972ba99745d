import { CHARSET_BINARY, MYSQL_TYPE_VAR_STRING } from '../protocol.js';
import type { ColumnMeta } from '../column-types.js';
import type { PacketWriter } from '../wire.js';
import { writeEof } from './eof.js';
import { writeColumnDefinition } from './column-definition.js';

/**
 * COM_STMT_PREPARE_OK: 0x00, statement id, column count, parameter count, a filler byte, the
 * warning count; then one definition per parameter and an EOF, then one per result column and
 * an EOF. The columns of a query are those planned with NULL parameters (the engine plans again
 * at each execution with the parameters' types, and every result set carries its own
 * definitions); libmysqlclient needs the count to know that the statement returns rows.
 */
export function writePrepareOk(
  w: PacketWriter,
  statementId: number,
  paramCount: number,
  columns: readonly ColumnMeta[] = [],
): void {
  w.begin().u8(0x00).u32(statementId).u16(columns.length).u16(paramCount).u8(0).u16(0).end();
  if (paramCount > 0) writeParams(w, paramCount);
  if (columns.length === 0) return;
  for (const c of columns) writeColumnDefinition(w, c);
  writeEof(w);
}

function writeParams(w: PacketWriter, paramCount: number): void {
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
