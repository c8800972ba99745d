/**
 * Names of tables in several databases (schemas) held by one database file. The storage layer
 * knows one flat namespace of table names; a table of database `d` named `t` is stored under the
 * name `d/t`, as InnoDB names its tables internally, except that the tables of the database
 * `test` keep their bare name `t` (a file written before databases existed held only `test`'s
 * tables under bare names, so those files open unchanged). A `/` or `@` inside a database or
 * table name is written `@002f` / `@0040` (MariaDB's file-name encoding of those characters), so
 * the separator is never ambiguous.
 */

/** The database every new file has, and the one a file from before databases holds. */
export const DEFAULT_SCHEMA = 'test';

function encode(part: string): string {
  return part.replace(/[@/]/g, (ch) => (ch === '@' ? '@0040' : '@002f'));
}

function decode(part: string): string {
  return part.replace(/@0040|@002f/g, (m) => (m === '@0040' ? '@' : '/'));
}

/** The storage name of table `table` of database `schema`. */
export function storageName(schema: string, table: string): string {
  return schema === DEFAULT_SCHEMA ? encode(table) : `${encode(schema)}/${encode(table)}`;
}

/** The database and table a storage name stands for. */
export function splitName(stored: string): { readonly schema: string; readonly table: string } {
  const slash = stored.indexOf('/');
  if (slash < 0) return { schema: DEFAULT_SCHEMA, table: decode(stored) };
  return { schema: decode(stored.slice(0, slash)), table: decode(stored.slice(slash + 1)) };
}

/** The database a stored table belongs to. */
export function schemaOf(stored: string): string {
  return splitName(stored).schema;
}

/** The table's own name (without its database). */
export function tableOf(stored: string): string {
  return splitName(stored).table;
}

/** `db.t`, as MariaDB's messages name a table ("Table 'db.t' doesn't exist"). */
export function dottedName(stored: string): string {
  const { schema, table } = splitName(stored);
  return `${schema}.${table}`;
}

/** `` `db`.`t` ``, as the lock and status reports name a table. */
export function quotedName(stored: string): string {
  const { schema, table } = splitName(stored);
  return `\`${schema}\`.\`${table}\``;
}
