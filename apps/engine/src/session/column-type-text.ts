import type { ColumnType } from '../storage/types.js';

/**
 * A column's type as MariaDB 10.11 writes it in DESCRIBE, SHOW COLUMNS, SHOW CREATE TABLE and
 * information_schema.COLUMNS.COLUMN_TYPE: integers with their display width (`int(11)`,
 * `bigint(20) unsigned`, BOOL as `tinyint(1)`), DECIMAL with precision and scale, CHAR and
 * VARCHAR with their length. `declared` is the type text kept from CREATE TABLE (absent for tables
 * made through the storage API, whose stored type speaks for them).
 */
const WIDTH: Readonly<Record<string, [number, number]>> = {
  tinyint: [4, 3],
  smallint: [6, 5],
  mediumint: [9, 8],
  int: [11, 10],
  integer: [11, 10],
  bigint: [20, 20],
};

export function columnTypeText(declared: string | undefined, stored: ColumnType): string {
  if (declared !== undefined) {
    // ENUM and SET keep their members as declared
    if (/^(enum|set)\(/.test(declared)) return declared;
    if (declared === 'json') return 'longtext';
    const d = declared.toLowerCase();
    if (d === 'bool' || d === 'boolean') return 'tinyint(1)';
    if (d === 'year') return 'year(4)';
    const m = /^(tinyint|smallint|mediumint|int|integer|bigint)( unsigned)?$/.exec(d);
    if (m !== null) {
      const [signed, unsigned] = WIDTH[m[1]!]!;
      const name = m[1] === 'integer' ? 'int' : m[1]!;
      return m[2] === undefined ? `${name}(${signed})` : `${name}(${unsigned}) unsigned`;
    }
    return d;
  }
  switch (stored.kind) {
    case 'int':
      return 'int(11)';
    case 'bigint':
      return 'bigint(20)';
    case 'decimal':
      return `decimal(${stored.precision},${stored.scale})`;
    case 'char':
    case 'varchar':
      return `${stored.kind}(${stored.length})`;
    default:
      return stored.kind;
  }
}

/** Whether a column holds text (it has a collation in SHOW FULL COLUMNS). */
export function isTextType(stored: ColumnType): boolean {
  return stored.kind === 'char' || stored.kind === 'varchar';
}
