import type { ColumnMeta } from '../column-types.js';
import type { PacketWriter } from '../wire.js';

/**
 * ColumnDefinition41: catalog "def", schema, table (as the query names it), original table, name,
 * original name, then the fixed part (0x0c, character set, length, type, flags, decimals, two
 * filler bytes).
 */
export function writeColumnDefinition(w: PacketWriter, c: ColumnMeta): void {
  w.begin()
    .lenencStr('def')
    .lenencStr(c.schema ?? '')
    .lenencStr(c.table ?? '')
    .lenencStr(c.orgTable ?? '')
    .lenencStr(c.name)
    .lenencStr(c.orgName ?? '')
    .u8(0x0c)
    .u16(c.charset)
    .u32(c.length)
    .u8(c.type)
    .u16(c.flags)
    .u8(c.decimals)
    .zeros(2)
    .end();
}
