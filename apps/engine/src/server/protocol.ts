/**
 * Numbers of the MySQL client/server protocol used by the server (MySQL 8.0 `include/mysql_com.h`
 * and `include/field_types.h`).
 */

/** Command bytes (the first byte of a client's command packet). */
export const COM_QUIT = 0x01;
export const COM_INIT_DB = 0x02;
export const COM_QUERY = 0x03;
export const COM_FIELD_LIST = 0x04;
export const COM_STATISTICS = 0x09;
/** The deprecated kill command older clients send (`mysql_kill()`): KILL CONNECTION of a 4-byte id. */
export const COM_PROCESS_KILL = 0x0c;
export const COM_PING = 0x0e;
export const COM_STMT_PREPARE = 0x16;
export const COM_STMT_EXECUTE = 0x17;
export const COM_STMT_SEND_LONG_DATA = 0x18;
export const COM_STMT_CLOSE = 0x19;
export const COM_STMT_RESET = 0x1a;
export const COM_CHANGE_USER = 0x11;
export const COM_RESET_CONNECTION = 0x1f;

/** Capability flags. */
export const CLIENT_LONG_PASSWORD = 0x1;
export const CLIENT_FOUND_ROWS = 0x2;
export const CLIENT_LONG_FLAG = 0x4;
export const CLIENT_CONNECT_WITH_DB = 0x8;
export const CLIENT_PROTOCOL_41 = 0x200;
export const CLIENT_TRANSACTIONS = 0x2000;
export const CLIENT_SECURE_CONNECTION = 0x8000;
export const CLIENT_MULTI_STATEMENTS = 0x10000;
export const CLIENT_PLUGIN_AUTH = 0x80000;
export const CLIENT_CONNECT_ATTRS = 0x100000;
export const CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x200000;

/** What the server offers: no SSL, no compression, no multi-statements, EOF packets (no DEPRECATE_EOF). */
export const SERVER_CAPABILITIES: number =
  CLIENT_LONG_PASSWORD |
  CLIENT_FOUND_ROWS |
  CLIENT_LONG_FLAG |
  CLIENT_CONNECT_WITH_DB |
  CLIENT_PROTOCOL_41 |
  CLIENT_TRANSACTIONS |
  CLIENT_SECURE_CONNECTION |
  CLIENT_PLUGIN_AUTH |
  CLIENT_CONNECT_ATTRS |
  CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;

/** Server status bits in OK and EOF packets: a transaction is open, autocommit is on, it is READ ONLY. */
export const SERVER_STATUS_IN_TRANS = 0x1;
export const SERVER_STATUS_AUTOCOMMIT = 0x2;
export const SERVER_STATUS_IN_TRANS_READONLY = 0x2000;

/** Column types (`enum_field_types`). */
export const MYSQL_TYPE_DECIMAL = 0;
export const MYSQL_TYPE_TINY = 1;
export const MYSQL_TYPE_SHORT = 2;
export const MYSQL_TYPE_LONG = 3;
export const MYSQL_TYPE_FLOAT = 4;
export const MYSQL_TYPE_DOUBLE = 5;
export const MYSQL_TYPE_NULL = 6;
export const MYSQL_TYPE_TIMESTAMP = 7;
export const MYSQL_TYPE_LONGLONG = 8;
export const MYSQL_TYPE_INT24 = 9;
export const MYSQL_TYPE_DATE = 10;
export const MYSQL_TYPE_TIME = 11;
export const MYSQL_TYPE_DATETIME = 12;
export const MYSQL_TYPE_YEAR = 13;
export const MYSQL_TYPE_VARCHAR = 15;
export const MYSQL_TYPE_BIT = 16;
export const MYSQL_TYPE_JSON = 245;
export const MYSQL_TYPE_NEWDECIMAL = 246;
export const MYSQL_TYPE_ENUM = 247;
export const MYSQL_TYPE_SET = 248;
export const MYSQL_TYPE_TINY_BLOB = 249;
export const MYSQL_TYPE_MEDIUM_BLOB = 250;
export const MYSQL_TYPE_LONG_BLOB = 251;
export const MYSQL_TYPE_BLOB = 252;
export const MYSQL_TYPE_VAR_STRING = 253;
export const MYSQL_TYPE_STRING = 254;
export const MYSQL_TYPE_GEOMETRY = 255;

/** Column flags (a column definition's 16 flag bits). */
export const NOT_NULL_FLAG = 0x1;
export const PRI_KEY_FLAG = 0x2;
export const UNIQUE_KEY_FLAG = 0x4;
export const MULTIPLE_KEY_FLAG = 0x8;
export const BLOB_FLAG = 0x10;
export const UNSIGNED_FLAG = 0x20;
export const ZEROFILL_FLAG = 0x40;
export const BINARY_FLAG = 0x80;
export const ENUM_FLAG = 0x100;
export const AUTO_INCREMENT_FLAG = 0x200;
export const TIMESTAMP_FLAG = 0x400;
export const SET_FLAG = 0x800;
export const NO_DEFAULT_VALUE_FLAG = 0x1000;
export const PART_KEY_FLAG = 0x4000;

/** Character sets (collation ids): utf8mb4_general_ci for text, binary for numbers and dates. */
export const CHARSET_UTF8MB4 = 45;
/** utf8mb4_bin. */
export const CHARSET_UTF8MB4_BIN = 46;
export const CHARSET_BINARY = 63;

/** The version string the greeting carries (and `@@version` answers). */
export const SERVER_VERSION = '8.0.36-enginekit';
