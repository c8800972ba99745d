/**
 * The one error class of the SQL layer, carrying what a MySQL client reads: the error number
 * (`errno`), the SQLSTATE, the symbol (`code`, as in MySQL's `mysqld_error.h`), MySQL's wording
 * in `message`, and the position in the statement text where one is known.
 */
export class SqlError extends Error {
  override readonly name = 'SqlError';
  readonly errno: number;
  readonly sqlState: string;
  readonly code: string;
  /** 1-based line of the statement text, where known. */
  readonly line: number | undefined;
  /** 1-based column of the statement text, where known. */
  readonly column: number | undefined;

  constructor(code: ErrorCode | (string & {}), message: string, line?: number, column?: number) {
    super(message);
    const [errno, sqlState] = ERRORS[code] ?? [1105, 'HY000'];
    this.errno = errno;
    this.sqlState = sqlState;
    this.code = code;
    this.line = line;
    this.column = column;
  }
}

/** MySQL error symbols used by the engine: [errno, SQLSTATE] (MySQL 8.0 `mysqld_error.h`). */
const ERROR_TABLE = {
  ER_DUP_FIELDNAME: [1060, '42S21'],
  ER_DUP_KEYNAME: [1061, '42000'],
  ER_DUP_ENTRY: [1062, '23000'],
  ER_PARSE_ERROR: [1064, '42000'],
  ER_NONUNIQ_TABLE: [1066, '42000'],
  ER_TABLE_EXISTS_ERROR: [1050, '42S01'],
  ER_BAD_TABLE_ERROR: [1051, '42S02'],
  ER_NON_UNIQ_ERROR: [1052, '23000'],
  ER_BAD_FIELD_ERROR: [1054, '42S22'],
  ER_WRONG_FIELD_WITH_GROUP: [1055, '42000'],
  ER_BAD_NULL_ERROR: [1048, '23000'],
  ER_MULTIPLE_PRI_KEY: [1068, '42000'],
  ER_TOO_MANY_KEY_PARTS: [1070, '42000'],
  ER_TOO_MANY_KEYS: [1069, '42000'],
  ER_TOO_MANY_TABLES: [1116, 'HY000'],
  ER_TOO_MANY_FIELDS: [1117, 'HY000'],
  ER_CANT_DROP_FIELD_OR_KEY: [1091, '42000'],
  ER_UNKNOWN_TABLE: [1109, '42S02'],
  ER_INVALID_GROUP_FUNC_USE: [1111, 'HY000'],
  ER_WRONG_VALUE_COUNT_ON_ROW: [1136, '21S01'],
  ER_NO_SUCH_TABLE: [1146, '42S02'],
  ER_TOO_BIG_PRECISION: [1426, '42000'],
  ER_KEY_DOES_NOT_EXITS: [1176, '42000'],
  ER_UNKNOWN_EXPLAIN_FORMAT: [1791, 'HY000'],
  ER_UNKNOWN_SYSTEM_VARIABLE: [1193, 'HY000'],
  ER_INCORRECT_GLOBAL_LOCAL_VAR: [1238, 'HY000'],
  ER_GLOBAL_VARIABLE: [1229, 'HY000'],
  ER_WRONG_VALUE_FOR_VAR: [1231, '42000'],
  ER_WRONG_TYPE_FOR_VAR: [1232, '42000'],
  ER_NOT_SUPPORTED_YET: [1235, '42000'],
  ER_OPERAND_COLUMNS: [1241, '21000'],
  ER_SUBQUERY_NO_1_ROW: [1242, '21000'],
  ER_ILLEGAL_REFERENCE: [1247, '42S22'],
  ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT: [1222, '21000'],
  ER_WARN_DATA_OUT_OF_RANGE: [1264, '22003'],
  ER_TRUNCATED_WRONG_VALUE: [1292, '22007'],
  ER_SP_DOES_NOT_EXIST: [1305, '42000'],
  ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT: [1582, '42000'],
  ER_DATA_OUT_OF_RANGE: [1690, '22003'],
  ER_TOO_LONG_IDENT: [1059, '42000'],
  ER_DATA_TOO_LONG: [1406, '22001'],
  ER_WRONG_ARGUMENTS: [1210, 'HY000'],
  ER_VIEW_WRONG_LIST: [1353, 'HY000'],
  ER_WRONG_OBJECT: [1347, 'HY000'],
  ER_QUERY_INTERRUPTED: [1317, '70100'],
  ER_CANT_REMOVE_ALL_FIELDS: [1090, '42000'],
  ER_BLOB_KEY_WITHOUT_LENGTH: [1170, '42000'],
  ER_TOO_BIG_ROWSIZE: [1118, '42000'],
  ER_UNKNOWN_ERROR: [1105, 'HY000'],
  ER_NO_DEFAULT_FOR_FIELD: [1364, 'HY000'],
  ER_WRONG_AUTO_KEY: [1075, '42000'],
  ER_PRIMARY_CANT_HAVE_NULL: [1171, '42000'],
  ER_MIX_OF_GROUP_FUNC_AND_FIELDS: [1140, '42000'],
  ER_WRONG_USAGE: [1221, 'HY000'],
  ER_UNKNOWN_STMT_HANDLER: [1243, 'HY000'],
  ER_KEY_COLUMN_DOES_NOT_EXITS: [1072, '42000'],
  ER_NO_TABLES_USED: [1096, 'HY000'],
  ER_LOCK_WAIT_TIMEOUT: [1205, 'HY000'],
  ER_LOCK_TABLE_FULL: [1206, 'HY000'],
  ER_LOCK_DEADLOCK: [1213, '40001'],
  ER_NO_SUCH_THREAD: [1094, 'HY000'],
  ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: [1792, '25006'],
  ER_CANT_CHANGE_TX_CHARACTERISTICS: [1568, '25001'],
  ER_CONNECTION_KILLED: [1927, '70100'],
  ER_REGEXP_ERROR: [1139, '42000'],
} as const satisfies Record<string, readonly [number, string]>;

const ERRORS: Record<string, readonly [number, string]> = ERROR_TABLE;

/** A MySQL error symbol the engine raises. */
export type ErrorCode =
  | 'ER_DUP_FIELDNAME'
  | 'ER_DUP_KEYNAME'
  | 'ER_DUP_ENTRY'
  | 'ER_PARSE_ERROR'
  | 'ER_NONUNIQ_TABLE'
  | 'ER_TABLE_EXISTS_ERROR'
  | 'ER_BAD_TABLE_ERROR'
  | 'ER_NON_UNIQ_ERROR'
  | 'ER_BAD_FIELD_ERROR'
  | 'ER_WRONG_FIELD_WITH_GROUP'
  | 'ER_BAD_NULL_ERROR'
  | 'ER_MULTIPLE_PRI_KEY'
  | 'ER_TOO_MANY_KEY_PARTS'
  | 'ER_TOO_MANY_KEYS'
  | 'ER_TOO_MANY_TABLES'
  | 'ER_TOO_MANY_FIELDS'
  | 'ER_CANT_DROP_FIELD_OR_KEY'
  | 'ER_UNKNOWN_TABLE'
  | 'ER_INVALID_GROUP_FUNC_USE'
  | 'ER_WRONG_VALUE_COUNT_ON_ROW'
  | 'ER_NO_SUCH_TABLE'
  | 'ER_TOO_BIG_PRECISION'
  | 'ER_KEY_DOES_NOT_EXITS'
  | 'ER_UNKNOWN_EXPLAIN_FORMAT'
  | 'ER_UNKNOWN_SYSTEM_VARIABLE'
  | 'ER_INCORRECT_GLOBAL_LOCAL_VAR'
  | 'ER_GLOBAL_VARIABLE'
  | 'ER_WRONG_VALUE_FOR_VAR'
  | 'ER_WRONG_TYPE_FOR_VAR'
  | 'ER_NOT_SUPPORTED_YET'
  | 'ER_OPERAND_COLUMNS'
  | 'ER_SUBQUERY_NO_1_ROW'
  | 'ER_ILLEGAL_REFERENCE'
  | 'ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT'
  | 'ER_WARN_DATA_OUT_OF_RANGE'
  | 'ER_TRUNCATED_WRONG_VALUE'
  | 'ER_SP_DOES_NOT_EXIST'
  | 'ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT'
  | 'ER_DATA_OUT_OF_RANGE'
  | 'ER_TOO_LONG_IDENT'
  | 'ER_DATA_TOO_LONG'
  | 'ER_WRONG_ARGUMENTS'
  | 'ER_VIEW_WRONG_LIST'
  | 'ER_WRONG_OBJECT'
  | 'ER_QUERY_INTERRUPTED'
  | 'ER_CANT_REMOVE_ALL_FIELDS'
  | 'ER_BLOB_KEY_WITHOUT_LENGTH'
  | 'ER_TOO_BIG_ROWSIZE'
  | 'ER_UNKNOWN_ERROR'
  | 'ER_NO_DEFAULT_FOR_FIELD'
  | 'ER_WRONG_AUTO_KEY'
  | 'ER_PRIMARY_CANT_HAVE_NULL'
  | 'ER_MIX_OF_GROUP_FUNC_AND_FIELDS'
  | 'ER_WRONG_USAGE'
  | 'ER_UNKNOWN_STMT_HANDLER'
  | 'ER_KEY_COLUMN_DOES_NOT_EXITS'
  | 'ER_NO_TABLES_USED'
  | 'ER_LOCK_WAIT_TIMEOUT'
  | 'ER_LOCK_TABLE_FULL'
  | 'ER_LOCK_DEADLOCK'
  | 'ER_NO_SUCH_THREAD'
  | 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION'
  | 'ER_CANT_CHANGE_TX_CHARACTERISTICS'
  | 'ER_CONNECTION_KILLED'
  | 'ER_REGEXP_ERROR';

/** ER_NOT_SUPPORTED_YET with MySQL's wording: "This version of MySQL doesn't yet support '…'". */
export function notSupported(what: string): SqlError {
  return new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support '${what}'`);
}
