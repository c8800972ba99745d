import {
  CHARSET_UTF8MB4,
  CLIENT_CONNECT_ATTRS,
  CLIENT_CONNECT_WITH_DB,
  CLIENT_PLUGIN_AUTH,
  CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA,
  CLIENT_PROTOCOL_41,
  CLIENT_SECURE_CONNECTION,
  SERVER_CAPABILITIES,
  SERVER_STATUS_AUTOCOMMIT,
  SERVER_VERSION,
} from '../protocol.js';
import { MalformedPacketError, PacketReader, type PacketWriter } from '../wire.js';

export const NATIVE_PASSWORD = 'mysql_native_password';

/**
 * Initial handshake packet, protocol version 10: version, connection id, the 20-byte scramble in
 * two parts, capabilities, character set, status, and the auth plugin name.
 */
export function writeGreeting(w: PacketWriter, connectionId: number, scramble: Buffer): void {
  w.begin()
    .u8(10)
    .nulStr(SERVER_VERSION)
    .u32(connectionId)
    .bytes(scramble.subarray(0, 8))
    .u8(0)
    .u16(SERVER_CAPABILITIES & 0xffff)
    .u8(CHARSET_UTF8MB4)
    .u16(SERVER_STATUS_AUTOCOMMIT)
    .u16(SERVER_CAPABILITIES >>> 16)
    .u8(scramble.length + 1)
    .zeros(10)
    .bytes(scramble.subarray(8))
    .u8(0)
    .nulStr(NATIVE_PASSWORD)
    .end();
}

/** What the client's HandshakeResponse41 says. */
export interface HandshakeResponse {
  readonly capabilities: number;
  readonly maxPacketSize: number;
  readonly charset: number;
  readonly user: string;
  readonly authResponse: Buffer;
  readonly database: string | undefined;
  readonly authPlugin: string | undefined;
}

/** Parses HandshakeResponse41; a pre-4.1 client or a short packet is malformed. */
export function readHandshakeResponse(payload: Buffer): HandshakeResponse {
  const r = new PacketReader(payload);
  const capabilities = r.u32();
  if ((capabilities & CLIENT_PROTOCOL_41) === 0)
    throw new MalformedPacketError('Malformed communication packet.');
  const flags = capabilities & SERVER_CAPABILITIES;
  const maxPacketSize = r.u32();
  const charset = r.u8();
  r.bytes(23);
  const user = r.nulBytes().toString('utf8');
  let authResponse: Buffer;
  if (flags & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) authResponse = r.lenencBytes();
  else if (flags & CLIENT_SECURE_CONNECTION) authResponse = r.bytes(r.u8());
  else authResponse = r.nulBytes();
  const database =
    flags & CLIENT_CONNECT_WITH_DB && r.remaining > 0 ? r.nulBytes().toString('utf8') : undefined;
  const authPlugin =
    flags & CLIENT_PLUGIN_AUTH && r.remaining > 0 ? r.nulBytes().toString('utf8') : undefined;
  if (flags & CLIENT_CONNECT_ATTRS && r.remaining > 0) {
    const n = r.lenenc();
    r.bytes(n);
  }
  return {
    capabilities,
    maxPacketSize,
    charset,
    user,
    authResponse: Buffer.from(authResponse),
    database: database === '' ? undefined : database,
    authPlugin,
  };
}
