/**
 * What the SQL layer keeps about a table beyond the storage schema, persisted as JSON in the
 * dictionary table `#sql_meta` (created on first use): column defaults and AUTO_INCREMENT, the
 * declared type names (TINYINT, TEXT, …), and whether the table has a hidden row-id key
 * (`DB_ROW_ID`, as InnoDB gives a table created without a primary key).
 */
export interface TableMeta {
  /** Per stored column: declared type text (for SHOW CREATE TABLE / DESCRIBE). */
  readonly types: string[];
  /** Per stored column: default value text as written, or null. */
  readonly defaults: (string | null)[];
  /** The AUTO_INCREMENT column, or -1. */
  readonly autoIncrement: number;
  /** Whether column 0… is the hidden DB_ROW_ID primary key (the last stored column). */
  readonly hiddenPk: boolean;
  /** The table's default collation (CREATE TABLE … COLLATE=), when not utf8mb4_general_ci. */
  readonly collation?: string;
  /** Per stored column: its ON UPDATE expression (CURRENT_TIMESTAMP) as the parser's JSON, or null. */
  readonly onUpdate?: (string | null)[];
  /** Per stored column: its COMMENT, or null (absent when no column has one). */
  readonly comments?: (string | null)[];
  /** The table's COMMENT, when it has one. */
  readonly comment?: string;
  /** The AUTO_INCREMENT table option: the least value the counter starts from. */
  readonly autoIncrementStart?: number;
  /** The ROW_FORMAT table option as given (upper case); shown, the rows being InnoDB's Dynamic ones. */
  readonly rowFormat?: string;
}

export const HIDDEN_PK = 'DB_ROW_ID';
