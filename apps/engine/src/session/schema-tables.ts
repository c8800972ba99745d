import { T_INT, T_STR } from '../exec/types.js';
import { registerSystemTable } from '../plan/system-tables.js';
import { splitName } from '../storage/schema-name.js';
import { SqlDictionary } from './dictionary.js';
import { columnRows } from './show.js';
import { defaultText } from './column-default-text.js';

/**
 * information_schema.SCHEMATA (every database, the system schemas too) and
 * information_schema.COLUMNS (every column of every table, as SHOW FULL COLUMNS lists them), with
 * MariaDB 10.11's column names. Importing this module registers them.
 */

const DEFAULT_COLLATION_NAME = 'utf8mb4_general_ci';

registerSystemTable('information_schema', 'SCHEMATA', {
  columns: [
    'CATALOG_NAME',
    'SCHEMA_NAME',
    'DEFAULT_CHARACTER_SET_NAME',
    'DEFAULT_COLLATION_NAME',
    'SQL_PATH',
    'SCHEMA_COMMENT',
  ],
  types: [T_STR, T_STR, T_STR, T_STR, T_STR, T_STR],
  *rows(env) {
    const rows: unknown[][] = [
      ['def', 'information_schema', 'utf8mb3', 'utf8mb3_general_ci', null, ''],
      ['def', 'mysql', 'utf8mb4', DEFAULT_COLLATION_NAME, null, ''],
    ];
    for (const [name, meta] of SqlDictionary.of(env.db).databases) {
      const collation = meta.collation ?? DEFAULT_COLLATION_NAME;
      rows.push(['def', name, collation.slice(0, collation.indexOf('_')), collation, null, '']);
    }
    yield* rows.sort((a, b) => (String(a[1]) < String(b[1]) ? -1 : 1));
  },
});

registerSystemTable('information_schema', 'COLUMNS', {
  columns: [
    'TABLE_CATALOG',
    'TABLE_SCHEMA',
    'TABLE_NAME',
    'COLUMN_NAME',
    'ORDINAL_POSITION',
    'COLUMN_DEFAULT',
    'IS_NULLABLE',
    'DATA_TYPE',
    'CHARACTER_MAXIMUM_LENGTH',
    'CHARACTER_OCTET_LENGTH',
    'NUMERIC_PRECISION',
    'NUMERIC_SCALE',
    'DATETIME_PRECISION',
    'CHARACTER_SET_NAME',
    'COLLATION_NAME',
    'COLUMN_TYPE',
    'COLUMN_KEY',
    'EXTRA',
    'PRIVILEGES',
    'COLUMN_COMMENT',
    'IS_GENERATED',
    'GENERATION_EXPRESSION',
  ],
  types: [
    T_STR,
    T_STR,
    T_STR,
    T_STR,
    T_INT,
    T_STR,
    T_STR,
    T_STR,
    T_INT,
    T_INT,
    T_INT,
    T_INT,
    T_INT,
    T_STR,
    T_STR,
    T_STR,
    T_STR,
    T_STR,
    T_STR,
    T_STR,
    T_STR,
    T_STR,
  ],
  *rows(env) {
    const dict = SqlDictionary.of(env.db);
    for (const t of dict.userTables()) {
      const { schema, table } = splitName(t.name);
      const meta = dict.tables.get(t.name);
      const rows = columnRows(t, meta);
      const defaults = meta?.defaults ?? [];
      for (const [i, r] of rows.entries()) {
        const [field, type, collation, nullable, key, dflt, extra, privileges, comment] = r as string[];
        const text = collation !== null && collation !== 'binary';
        // the row's own column (a hidden primary key has no row)
        const at = t.columns.findIndex((c) => c.name === field);
        const def = defaults[at];
        yield [
          'def',
          schema,
          table,
          field,
          i + 1,
          // information_schema writes a string default quoted, NULL as the word
          def !== null && def !== undefined
            ? defaultText(def, t.columns[at]?.type).sql
            : dflt === null
              ? nullable === 'YES'
                ? 'NULL'
                : null
              : dflt,
          nullable,
          type!.replace(/[ (].*$/, ''),
          ...typeMeasures(type!),
          text ? 'utf8mb4' : null,
          text ? collation : null,
          type,
          key,
          extra,
          privileges,
          comment,
          'NEVER',
          null,
        ];
      }
    }
  },
});

/** The largest value of each integer type, in digits (signed, unsigned), as NUMERIC_PRECISION gives it. */
const INTEGER_DIGITS: Record<string, [number, number]> = {
  tinyint: [3, 3],
  smallint: [5, 5],
  mediumint: [7, 8],
  int: [10, 10],
  bigint: [19, 20],
};

/** The most bytes of each TEXT and BLOB size (also its most characters, as MariaDB reports them). */
const LOB_BYTES: Record<string, number> = {
  tinytext: 255,
  tinyblob: 255,
  text: 65535,
  blob: 65535,
  mediumtext: 16777215,
  mediumblob: 16777215,
  longtext: 4294967295,
  longblob: 4294967295,
};

/**
 * CHARACTER_MAXIMUM_LENGTH, CHARACTER_OCTET_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE and
 * DATETIME_PRECISION of a column, from its COLUMN_TYPE text (utf8mb4: four bytes a character).
 */
function typeMeasures(type: string): (number | null)[] {
  const base = type.replace(/[ (].*$/, '');
  const args = /\(([^)]*)\)/.exec(type)?.[1];
  const chars = (n: number): (number | null)[] => [n, 4 * n, null, null, null];
  const integer = INTEGER_DIGITS[base];
  if (integer !== undefined) return [null, null, integer[/ unsigned/.test(type) ? 1 : 0], 0, null];
  switch (base) {
    case 'decimal': {
      const [p, sc] = (args ?? '10,0').split(',').map(Number);
      return [null, null, p!, sc ?? 0, null];
    }
    case 'double':
      return [null, null, 22, null, null];
    case 'float':
      return [null, null, 12, null, null];
    case 'char':
    case 'varchar':
      return chars(Number(args));
    case 'binary':
    case 'varbinary':
      return [Number(args), Number(args), null, null, null];
    case 'datetime':
    case 'timestamp':
    case 'time':
      return [null, null, null, null, args === undefined ? 0 : Number(args)];
    case 'enum':
    case 'set': {
      const members = [...type.matchAll(/'((?:[^']|'')*)'/g)].map(
        (m) => [...m[1]!.replace(/''/g, "'")].length,
      );
      const n =
        base === 'enum'
          ? Math.max(0, ...members)
          : members.reduce((a, b) => a + b, 0) + Math.max(0, members.length - 1);
      return chars(n);
    }
    default: {
      const lob = LOB_BYTES[base];
      return lob === undefined ? [null, null, null, null, null] : [lob, lob, null, null, null];
    }
  }
}
