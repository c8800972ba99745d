import type { SqlType } from '../exec/types.js';
import type { QueryEnv } from './select.js';

/**
 * Read-only tables of the `information_schema` and `mysql` schemas, computed when a query reads
 * them. A module that owns the facts registers its table here (statistics register STATISTICS and
 * innodb_index_stats, the server PROCESSLIST, the optimizer OPTIMIZER_TRACE); the binder finds them
 * by schema and name, case-insensitively, as MySQL does for these schemas.
 *
 * Rows hold runtime values of the declared column types (see exec/types.ts): numbers for `int`,
 * strings for `str`, days for `date`, `null` for NULL.
 */
export interface SystemTable {
  readonly columns: readonly string[];
  readonly types: readonly SqlType[];
  rows(env: QueryEnv): Iterable<readonly unknown[]>;
}

export const SYSTEM_SCHEMAS: readonly string[] = ['information_schema', 'mysql'];

const registry = new Map<string, SystemTable>();

function keyOf(schema: string, name: string): string {
  return `${schema.toLowerCase()}.${name.toLowerCase()}`;
}

export function registerSystemTable(schema: string, name: string, table: SystemTable): void {
  if (!SYSTEM_SCHEMAS.includes(schema.toLowerCase())) throw new RangeError(`not a system schema: ${schema}`);
  registry.set(keyOf(schema, name), table);
}

export function isSystemSchema(schema: string): boolean {
  return SYSTEM_SCHEMAS.includes(schema.toLowerCase());
}

export function systemTable(schema: string, name: string): SystemTable | undefined {
  return registry.get(keyOf(schema, name));
}

/** Names registered in one schema (SHOW TABLES FROM information_schema). */
export function systemTableNames(schema: string): string[] {
  const prefix = `${schema.toLowerCase()}.`;
  return [...registry.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
}
