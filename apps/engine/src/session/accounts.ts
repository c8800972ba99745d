import { createHash } from 'node:crypto';
import { SqlError } from '../sql/errors.js';
import { SqlDictionary } from './dictionary.js';
import type { Database } from '../storage/database.js';

/** The privileges the engine checks, in the order MariaDB's SHOW GRANTS lists them. */
export const PRIVILEGES = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'CREATE',
  'DROP',
  'INDEX',
  'ALTER',
] as const;
export type Privilege = (typeof PRIVILEGES)[number];

/** A user and the host pattern it may connect from (`%` any; `localhost` loopback and the socket). */
export interface AccountName {
  readonly user: string;
  readonly host: string;
}

/** One account as stored: its password hash and its grants at each level. */
export interface Account extends AccountName {
  /** mysql_native_password's stored form: '*' + HEX(SHA1(SHA1(password))), '' for none. */
  hash: string;
  /** Global (`*.*`) privileges; `ALL` at this level also allows administration. */
  global: string[];
  /** Per database name. */
  dbs: Record<string, string[]>;
  /** Per `database.table`. */
  tables: Record<string, string[]>;
}

/** mysql_native_password's stored hash of a password: '*' and SHA1(SHA1(password)) in hex. */
export function passwordHash(password: string): string {
  if (password === '') return '';
  const once = createHash('sha1').update(Buffer.from(password, 'utf8')).digest();
  return `*${createHash('sha1').update(once).digest('hex').toUpperCase()}`;
}

/** The 20-byte double hash `checkNativePassword` compares with, or undefined (no password). */
export function hashBytes(a: Account): Buffer | undefined {
  return a.hash === '' ? undefined : Buffer.from(a.hash.slice(1), 'hex');
}

/** `'user'@'host'` as MySQL's messages quote an account. */
export function quoted(a: AccountName): string {
  return `'${a.user}'@'${a.host}'`;
}

const KEY = (a: AccountName): string => `${a.user}@${a.host}`;

/**
 * The accounts of a database, kept in its dictionary (`#sql_meta`, one JSON row per account under
 * `u:user@host`) so they live in the database file and survive reopening.
 */
export class Accounts {
  readonly #dict: SqlDictionary;

  private constructor(db: Database) {
    this.#dict = SqlDictionary.of(db);
  }

  static of(db: Database): Accounts {
    return new Accounts(db);
  }

  all(): Account[] {
    return [...this.#dict.accounts.values()];
  }

  get(a: AccountName): Account | undefined {
    return this.#dict.accounts.get(KEY(a));
  }

  /**
   * The account a client logging in as `user` from `address` (undefined: the unix socket) uses:
   * of the accounts of that user whose host matches, the most specific (an exact host, then
   * `localhost`, then patterns, `%` last), as MariaDB sorts them.
   */
  find(user: string, address: string | undefined): Account | undefined {
    const mine = this.all().filter((a) => a.user === user && hostMatches(a.host, address));
    mine.sort((x, y) => specificity(y.host) - specificity(x.host));
    return mine[0];
  }

  create(a: AccountName, password: string, ifNotExists = false): boolean {
    if (this.get(a) !== undefined) {
      if (ifNotExists) return false;
      throw new SqlError('ER_CANNOT_USER', `Operation CREATE USER failed for ${quoted(a)}`);
    }
    this.#put({ user: a.user, host: a.host, hash: passwordHash(password), global: [], dbs: {}, tables: {} });
    return true;
  }

  drop(a: AccountName, ifExists = false): void {
    if (this.get(a) === undefined) {
      if (ifExists) return;
      throw new SqlError('ER_CANNOT_USER', `Operation DROP USER failed for ${quoted(a)}`);
    }
    this.#dict.dropAccount(KEY(a));
  }

  setPassword(a: AccountName, password: string, op = 'ALTER USER'): void {
    const acc = this.get(a);
    if (acc === undefined) throw new SqlError('ER_CANNOT_USER', `Operation ${op} failed for ${quoted(a)}`);
    this.#put({ ...acc, hash: passwordHash(password) });
  }

  /** GRANT `privs` (or ALL) at a level: `db` undefined is global, `table` undefined the database. */
  grant(a: AccountName, privs: readonly string[], db: string | undefined, table: string | undefined): void {
    const acc = this.get(a);
    if (acc === undefined)
      throw new SqlError('ER_PASSWORD_NO_MATCH', "Can't find any matching row in the user table");
    const next = clone(acc);
    const list = levelOf(next, db, table);
    for (const p of privs) if (!list.includes(p)) list.push(p);
    this.#put(next);
  }

  revoke(a: AccountName, privs: readonly string[], db: string | undefined, table: string | undefined): void {
    const acc = this.get(a);
    if (acc === undefined)
      throw new SqlError(
        'ER_NONEXISTING_GRANT',
        `There is no such grant defined for user '${a.user}' on host '${a.host}'`,
      );
    const next = clone(acc);
    const list = levelOf(next, db, table);
    if (list.length === 0) {
      if (table !== undefined)
        throw new SqlError(
          'ER_NONEXISTING_TABLE_GRANT',
          `There is no such grant defined for user '${a.user}' on host '${a.host}' on table '${table}'`,
        );
      throw new SqlError(
        'ER_NONEXISTING_GRANT',
        `There is no such grant defined for user '${a.user}' on host '${a.host}'`,
      );
    }
    const drop = new Set(privs.includes('ALL') ? ['ALL', ...PRIVILEGES] : privs);
    const kept =
      list.includes('ALL') && !drop.has('ALL')
        ? PRIVILEGES.filter((p) => !drop.has(p))
        : list.filter((p) => !drop.has(p));
    list.length = 0;
    list.push(...kept);
    if (db === undefined) next.global = list;
    else if (table === undefined) {
      if (list.length === 0) delete next.dbs[db];
    } else if (list.length === 0) delete next.tables[`${db}.${table}`];
    this.#put(next);
  }

  #put(a: Account): void {
    this.#dict.putAccount(KEY(a), a);
  }
}

function clone(a: Account): Account {
  return {
    ...a,
    global: [...a.global],
    dbs: Object.fromEntries(Object.entries(a.dbs).map(([k, v]) => [k, [...v]])),
    tables: Object.fromEntries(Object.entries(a.tables).map(([k, v]) => [k, [...v]])),
  };
}

function levelOf(a: Account, db: string | undefined, table: string | undefined): string[] {
  if (db === undefined) return a.global;
  if (table === undefined) {
    a.dbs[db] ??= [];
    return a.dbs[db]!;
  }
  const k = `${db}.${table}`;
  a.tables[k] ??= [];
  return a.tables[k]!;
}

/** Whether a client at `address` (undefined: the unix socket) matches the host pattern. */
export function hostMatches(pattern: string, address: string | undefined): boolean {
  if (pattern === '%') return true;
  const a = address === undefined ? 'localhost' : address.startsWith('::ffff:') ? address.slice(7) : address;
  if (pattern === 'localhost')
    return address === undefined || a === 'localhost' || a === '::1' || a.startsWith('127.');
  if (!pattern.includes('%') && !pattern.includes('_')) return pattern === a;
  const re = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${re}$`).test(a);
}

function specificity(host: string): number {
  if (host === '%') return 0;
  if (host.includes('%') || host.includes('_')) return 1;
  if (host === 'localhost') return 2;
  return 3;
}
