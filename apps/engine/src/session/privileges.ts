import { arr, identText, obj, type Obj, objectName, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import type { Account, AccountName, Privilege } from './accounts.js';

/** One privilege a statement needs on one table. */
export interface Need {
  readonly priv: Privilege;
  readonly db: string;
  readonly table: string;
}

/** What a statement needs beyond table privileges: administration (SUPER, as MariaDB names it). */
export type AdminNeed = 'SUPER' | undefined;

/** Whether `a` holds `priv` on `db`.`table` at the global, database or table level (table '': on the database itself). */
export function holds(a: Account, priv: Privilege, db: string, table: string): boolean {
  const has = (list: readonly string[] | undefined): boolean =>
    list !== undefined && (list.includes(priv) || list.includes('ALL'));
  return has(a.global) || has(a.dbs[db]) || has(a.tables[`${db}.${table}`]);
}

/** Global ALL: the account administers the server (accounts, SET GLOBAL, FLUSH HOSTS, KILL of others). */
export function isAdmin(a: Account): boolean {
  return a.global.includes('ALL');
}

/** Whether `a` holds any privilege on database `db` (else USE and connecting to it are 1044). */
export function mayUseDatabase(a: Account, db: string): boolean {
  if (a.global.length > 0) return true;
  if ((a.dbs[db]?.length ?? 0) > 0) return true;
  return Object.entries(a.tables).some(([k, v]) => k.startsWith(`${db}.`) && v.length > 0);
}

export function tableDenied(need: Need, who: AccountName): SqlError {
  return new SqlError(
    'ER_TABLEACCESS_DENIED_ERROR',
    `${need.priv} command denied to user '${who.user}'@'${who.host}' for table \`${need.db}\`.\`${need.table}\``,
  );
}

export function dbDenied(db: string, who: AccountName): SqlError {
  return new SqlError(
    'ER_DBACCESS_DENIED_ERROR',
    `Access denied for user '${who.user}'@'${who.host}' to database '${db}'`,
  );
}

export function adminDenied(what: string): SqlError {
  return new SqlError(
    'ER_SPECIFIC_ACCESS_DENIED_ERROR',
    `Access denied; you need (at least one of) the ${what} privilege(s) for this operation`,
  );
}

const needsOf = new WeakMap<object, Map<string | null, { needs: Need[]; admin: AdminNeed }>>();

/**
 * The table privileges a parsed statement needs, as MariaDB checks them: SELECT on every table a
 * query reads, INSERT / UPDATE / DELETE on the table a statement writes (and SELECT on the others
 * it reads), CREATE for CREATE TABLE and VIEW, DROP for DROP and TRUNCATE, ALTER for ALTER TABLE,
 * INDEX for CREATE and DROP INDEX, ALTER and DROP on a renamed table and CREATE and INSERT on its
 * new name, CREATE and DROP on a database created or dropped (a need with the table ''). A table
 * named without a database is in `currentDb` (with none chosen, it needs nothing here: the
 * statement fails with 1046). Kept per tree and current database (trees of repeated texts are
 * shared), so a statement run again is not walked again.
 */
export function statementNeeds(st: unknown, currentDb: string | null): { needs: Need[]; admin: AdminNeed } {
  if (st !== null && typeof st === 'object') {
    const hit = needsOf.get(st)?.get(currentDb);
    if (hit !== undefined) return hit;
  }
  const needs: Need[] = [];
  let admin: AdminNeed;
  const name = (n: unknown): { db: string | null; table: string } => {
    const parts = objectName(n);
    return parts.length >= 2
      ? { db: parts[parts.length - 2]!, table: parts[parts.length - 1]! }
      : { db: currentDb, table: parts[0] ?? '' };
  };
  const add = (priv: Privilege, n: unknown): void => {
    const { db, table } = name(n);
    if (table !== '' && db !== null) needs.push({ priv, db, table });
  };
  /** SELECT on every table read anywhere under `n`. */
  const reads = (n: unknown): void => {
    const walk = (x: unknown): void => {
      if (x === null || typeof x !== 'object') return;
      if (Array.isArray(x)) {
        for (const y of x) walk(y);
        return;
      }
      const o = x as Obj;
      const t = o.Table;
      if (t !== undefined && t !== null && typeof t === 'object' && 'name' in (t as Obj)) {
        add('SELECT', (t as Obj).name);
        return;
      }
      for (const v of Object.values(o)) walk(v);
    };
    walk(n);
  };
  const [tag, v] = tagOf(st);
  const o = obj(v);
  switch (tag) {
    case 'Query':
      reads(v);
      break;
    case 'Insert': {
      add('INSERT', obj(o.table).TableName ?? o.table);
      if (o.replace_into === true) add('DELETE', obj(o.table).TableName ?? o.table);
      reads(o.source);
      break;
    }
    case 'Update': {
      add('UPDATE', obj(obj(obj(o.table).relation).Table).name);
      for (const j of arr(obj(o.table).joins)) reads(j);
      reads(o.assignments);
      reads(o.from);
      reads(o.selection);
      break;
    }
    case 'Delete': {
      const targets = arr(o.tables);
      const from = arr(obj(o.from).WithFromKeyword ?? obj(o.from).WithoutKeyword ?? o.from);
      if (targets.length > 0) for (const t of targets) add('DELETE', t);
      else for (const f of from) add('DELETE', obj(obj(obj(f).relation).Table).name);
      reads(o.selection);
      for (const f of from) for (const j of arr(obj(f).joins)) reads(j);
      break;
    }
    case 'CreateTable':
      add('CREATE', o.name);
      if (o.query !== undefined && o.query !== null) reads(o.query);
      break;
    case 'CreateView':
      add('CREATE', o.name);
      reads(o.query);
      break;
    case 'AlterTable':
      add('ALTER', o.name);
      break;
    case 'CreateIndex':
      add('INDEX', o.table_name);
      break;
    case 'CreateDatabase':
    case 'CreateSchema':
      needs.push({
        priv: 'CREATE',
        db: objectName(o.db_name ?? obj(o.schema_name).Simple).at(-1)!,
        table: '',
      });
      break;
    case 'Drop':
      if (o.object_type === 'Database' || o.object_type === 'Schema')
        for (const n of arr(o.names)) needs.push({ priv: 'DROP', db: objectName(n).at(-1)!, table: '' });
      else if (o.object_type === 'Index') add('INDEX', o.table);
      else for (const n of arr(o.names)) add('DROP', n);
      break;
    case 'Truncate':
      for (const t of arr(o.table_names)) add('DROP', obj(t).name);
      break;
    case 'RenameTable':
      for (const r of arr(v)) {
        add('ALTER', obj(r).old_name);
        add('DROP', obj(r).old_name);
        add('CREATE', obj(r).new_name);
        add('INSERT', obj(r).new_name);
      }
      break;
    case 'Analyze':
      add('SELECT', o.table_name);
      add('INSERT', o.table_name);
      break;
    case 'Explain':
      return statementNeeds(o.statement, currentDb);
    case 'Set':
      if (setsGlobal(o)) admin = 'SUPER';
      break;
    default:
      break;
  }
  const out = { needs, admin };
  if (st !== null && typeof st === 'object') {
    let byDb = needsOf.get(st);
    if (byDb === undefined) needsOf.set(st, (byDb = new Map()));
    byDb.set(currentDb, out);
  }
  return out;
}

function setsGlobal(o: Obj): boolean {
  const walk = (x: unknown): boolean => {
    if (x === null || typeof x !== 'object') return false;
    if (Array.isArray(x)) return x.some(walk);
    const r = x as Obj;
    if (r.scope === 'Global') return true;
    const variable = arr(r.variable);
    if (variable.length > 0 && /^@@global$/i.test(identText(variable[0]))) return true;
    return Object.values(r).some(walk);
  };
  return walk(o);
}
