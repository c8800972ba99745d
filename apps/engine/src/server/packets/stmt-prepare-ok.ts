import { CHARSET_BINARY, MYSQL_TYPE_VAR_STRING } from '../protocol.js';
import type { PacketWriter } from '../wire.js';
import { writeEof } from './eof.js';
import { writeColumnDefinition } from './column-definition.js';

/**
 * COM_STMT_PREPARE_OK: 0x00, statement id, column count, parameter count, a filler byte, the
 * warning count; then one definition per parameter and an EOF. The result's columns are sent
 * with each execution's result set (count 0 here: the engine plans a statement at its first
 * execution, when the parameter types are known).
 */
export function writePrepareOk(w: PacketWriter, statementId: number, paramCount: number): void {
  w.begin().u8(0x00).u32(statementId).u16(0).u16(paramCount).u8(0).u16(0).end();
  if (paramCount === 0) return;
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
