import { arr, obj, objectName } from '../sql/ast.js';
import { parseSql } from '../sql/parser.js';
import { isSystemSchema } from '../plan/system-tables.js';
import { resolveTableName } from '../plan/table-name.js';
import type { SqlDictionary } from './dictionary.js';

/**
 * The stored tables view `stored` reads, through the views it reads, by storage name (undefined:
 * no such view): the names of its query's FROM items that are neither its CTEs nor system
 * tables, in its own database when unqualified. LOCK TABLES of a view locks these.
 */
export function viewTables(dict: SqlDictionary, stored: string): string[] | undefined {
  const sql = dict.views.get(stored);
  if (sql === undefined) return undefined;
  const out = new Set<string>();
  const seen = new Set<string>([stored]);
  const visit = (view: string, text: string): void => {
    for (const name of namedTables(parseSql(text)[0], dict.viewSchema(view))) {
      const inner = dict.views.get(name);
      if (inner === undefined) out.add(name);
      else if (!seen.has(name)) {
        seen.add(name);
        visit(name, inner);
      }
    }
  };
  visit(stored, sql);
  return [...out];
}

/**
 * The storage names of the tables and views the FROM items of statement `tree` name, their
 * unqualified names in `schema`: neither its CTEs nor system tables.
 */
export function namedTables(tree: unknown, schema: string | null): string[] {
  const ctes = new Set<string>();
  const names: string[][] = [];
  walk(tree, ctes, names);
  const out: string[] = [];
  for (const parts of names) {
    if (parts.length === 1 && ctes.has(parts[0]!.toLowerCase())) continue;
    if (parts.length > 1 && isSystemSchema(parts[parts.length - 2]!)) continue;
    out.push(resolveTableName(parts, schema));
  }
  return out;
}

/** Collects the table names of FROM items (`Table` factors) and the CTE names under `node`. */
function walk(node: unknown, ctes: Set<string>, names: string[][]): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, ctes, names);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = obj(node);
  for (const [k, v] of Object.entries(o)) {
    if (k === 'cte_tables')
      for (const c of arr(v)) {
        const alias = obj(obj(c).alias).name;
        const n = obj(alias).value;
        if (typeof n === 'string') ctes.add(n.toLowerCase());
      }
    if (k === 'Table' && Array.isArray(obj(v).name)) names.push(objectName(obj(v).name));
    walk(v, ctes, names);
  }
}
