import type { PacketWriter } from '../wire.js';

/** EOF_Packet (protocol 4.1, without CLIENT_DEPRECATE_EOF): 0xfe, warnings, status (the writer's). */
export function writeEof(w: PacketWriter, warnings = 0): void {
  w.begin().u8(0xfe).u16(warnings).u16(w.serverStatus()).end();
}
