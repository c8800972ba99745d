import {
  CLIENT_CONNECT_ATTRS,
  CLIENT_PLUGIN_AUTH,
  CLIENT_SECURE_CONNECTION,
  COM_CHANGE_USER,
} from '../protocol.js';
import { MalformedPacketError, PacketReader } from '../wire.js';

/** What a COM_CHANGE_USER packet asks for. */
export interface ChangeUserRequest {
  readonly user: string;
  readonly authResponse: Buffer;
  /** The database to start in; undefined when the packet names none (an empty name). */
  readonly database: string | undefined;
  readonly authPlugin: string | undefined;
}

/**
 * Parses COM_CHANGE_USER (0x11): the user name (NUL-terminated), the auth response (a length byte
 * then the bytes, with CLIENT_SECURE_CONNECTION; else NUL-terminated), the database
 * (NUL-terminated), then optionally the character set (2 bytes), the auth plugin's name (with
 * CLIENT_PLUGIN_AUTH) and connection attributes (with CLIENT_CONNECT_ATTRS). `capabilities` are the
 * ones the client's handshake response announced. A packet that ends early is malformed.
 */
export function readChangeUser(payload: Buffer, capabilities: number): ChangeUserRequest {
  const r = new PacketReader(payload);
  if (r.u8() !== COM_CHANGE_USER) throw new MalformedPacketError('Malformed communication packet.');
  const user = r.nulBytes().toString('utf8');
  const authResponse =
    capabilities & CLIENT_SECURE_CONNECTION ? Buffer.from(r.bytes(r.u8())) : Buffer.from(r.nulBytes());
  const database = r.remaining > 0 ? r.nulBytes().toString('utf8') : '';
  if (r.remaining >= 2) r.u16();
  const authPlugin =
    capabilities & CLIENT_PLUGIN_AUTH && r.remaining > 0 ? r.nulBytes().toString('utf8') : undefined;
  if (capabilities & CLIENT_CONNECT_ATTRS && r.remaining > 0) r.bytes(r.lenenc());
  return { user, authResponse, database: database === '' ? undefined : database, authPlugin };
}
