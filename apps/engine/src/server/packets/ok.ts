import type { PacketWriter } from '../wire.js';

/** OK_Packet (protocol 4.1): 0x00, affected rows, last insert id, status (the writer's), warnings, info. */
export function writeOk(
  w: PacketWriter,
  affectedRows = 0,
  insertId: number | bigint = 0,
  warnings = 0,
  info = '',
): void {
  w.begin().u8(0x00).lenenc(affectedRows);
  if (typeof insertId === 'bigint') {
    if (insertId < 0xfbn) w.u8(Number(insertId));
    else w.u8(0xfe).i64(insertId);
  } else w.lenenc(insertId);
  w.u16(w.serverStatus()).u16(warnings).str(info).end();
}
