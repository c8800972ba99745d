import type { PacketWriter } from '../wire.js';

/** What an ERR packet carries. */
export interface ProtocolError {
  readonly errno: number;
  readonly sqlState: string;
  readonly message: string;
}

/** ERR_Packet (protocol 4.1): 0xff, error number, '#', SQLSTATE (5 characters), message. */
export function writeErr(w: PacketWriter, e: ProtocolError): void {
  const state = `${e.sqlState}HY000`.slice(0, 5);
  w.begin().u8(0xff).u16(e.errno).u8(0x23).str(state).str(e.message).end();
}

/** Errors the server itself raises, with MySQL's numbers and SQLSTATEs (`mysqld_error.h`). */
export const serverErrors = {
  accessDenied: (user: string, host: string, usingPassword: boolean): ProtocolError => ({
    errno: 1045,
    sqlState: '28000',
    message: `Access denied for user '${user}'@'${host}' (using password: ${usingPassword ? 'YES' : 'NO'})`,
  }),
  noSuchThread: (id: number): ProtocolError => ({
    errno: 1094,
    sqlState: 'HY000',
    message: `Unknown thread id: ${id}`,
  }),
  killDenied: (id: number): ProtocolError => ({
    errno: 1095,
    sqlState: 'HY000',
    message: `You are not owner of thread ${id}`,
  }),
  connectionKilled: (): ProtocolError => ({
    errno: 1927,
    sqlState: '70100',
    message: 'Connection was killed',
  }),
  tooManyConnections: (): ProtocolError => ({
    errno: 1040,
    sqlState: '08004',
    message: 'Too many connections',
  }),
  packetTooLarge: (): ProtocolError => ({
    errno: 1153,
    sqlState: '08S01',
    message: "Got a packet bigger than 'max_allowed_packet' bytes",
  }),
  dbAccessDenied: (who: { user: string; host: string }, db: string): ProtocolError => ({
    errno: 1044,
    sqlState: '42000',
    message: `Access denied for user '${who.user}'@'${who.host}' to database '${db}'`,
  }),
  needPrivilege: (what: string): ProtocolError => ({
    errno: 1227,
    sqlState: '42000',
    message: `Access denied; you need (at least one of) the ${what} privilege(s) for this operation`,
  }),
  hostBlocked: (host: string): ProtocolError => ({
    errno: 1129,
    sqlState: 'HY000',
    message: `Host '${host}' is blocked because of many connection errors; unblock with 'mariadb-admin flush-hosts'`,
  }),
  tooManyPrepared: (max: number): ProtocolError => ({
    errno: 1461,
    sqlState: '42000',
    message: `Can't create more than max_prepared_stmt_count statements (current value: ${max})`,
  }),
  malformed: (): ProtocolError => ({
    errno: 1835,
    sqlState: 'HY000',
    message: 'Malformed communication packet.',
  }),
  outOfOrder: (): ProtocolError => ({ errno: 1156, sqlState: '08S01', message: 'Got packets out of order' }),
  unknownCommand: (): ProtocolError => ({ errno: 1047, sqlState: '08S01', message: 'Unknown command' }),
  badDb: (name: string): ProtocolError => ({
    errno: 1049,
    sqlState: '42000',
    message: `Unknown database '${name}'`,
  }),
  unknownStatement: (id: number, command: string): ProtocolError => ({
    errno: 1243,
    sqlState: 'HY000',
    message: `Unknown prepared statement handler (${id}) given to ${command}`,
  }),
  wrongArguments: (command: string): ProtocolError => ({
    errno: 1210,
    sqlState: 'HY000',
    message: `Incorrect arguments to ${command}`,
  }),
  multiStatement: (near: string): ProtocolError => ({
    errno: 1064,
    sqlState: '42000',
    message: `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near.slice(0, 80)}' at line 1`,
  }),
  commitFailed: (why: string): ProtocolError => ({
    errno: 1180,
    sqlState: 'HY000',
    message: `Got error 5 "${why.slice(0, 100)}" during COMMIT`,
  }),
  inactive: (): ProtocolError => ({
    errno: 4031,
    sqlState: 'HY000',
    message:
      'The client was disconnected by the server because of inactivity. See wait_timeout and interactive_timeout for configuring this behavior.',
  }),
  noDatabase: (): ProtocolError => ({ errno: 1046, sqlState: '3D000', message: 'No database selected' }),
} as const;
