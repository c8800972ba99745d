import { type Database, TEMPORARY_TABLE_PREFIX } from '../storage/database.js';
import { TableHandler } from '../handler/table-handler.js';
import type { Table } from '../storage/table.js';
import type { Account } from './accounts.js';
import { instanceOf } from './instance.js';
import type { TableMeta } from '../storage/table-meta.js';
import { DEFAULT_SCHEMA, schemaOf } from '../storage/schema-name.js';

const META_TABLE = '#sql_meta';
const DECODER = new TextDecoder();

/**
 * The SQL layer's part of the data dictionary, one per open database (shared by its sessions):
 * table metadata beyond the storage schema and view definitions, stored as JSON rows of the
 * table `#sql_meta` (name VARCHAR(200) PRIMARY KEY, json VARCHAR(8000)) so they survive reopening.
 * Keys are `t:<table>`, `v:<view>` (storage names: see storage/schema-name.ts), `u:<user>@<host>`
 * (an account) and `s:<database>` (a database and its options). A file whose dictionary has no
 * `s:` key (one written before databases, or a new one) holds the database `test` alone; the
 * first CREATE or DROP DATABASE writes every database's key, and the key `s` marks that the list
 * is complete (so dropping `test` does not bring it back at the next open).
 */
export class SqlDictionary {
  readonly #db: Database;
  readonly tables: Map<string, TableMeta> = new Map();
  readonly views: Map<string, string> = new Map();
  /**
   * The database a view's unqualified table names are in: the one current when it was created
   * (MariaDB resolves them then). Kept for views whose database differs from their own.
   */
  readonly #viewSchemas: Map<string, string> = new Map();
  /** Accounts by `user@host` (see accounts.ts). */
  readonly accounts: Map<string, Account> = new Map();
  /** Databases by name (case-sensitive, as MariaDB's on Linux), with their options. */
  readonly databases: Map<string, DatabaseMeta> = new Map();
  #listed = false;

  private constructor(db: Database) {
    this.#db = db;
    if (db.hasTable(META_TABLE)) {
      new TableHandler(db.table(META_TABLE)).rndScan((row) => {
        const key = DECODER.decode(row.src[0]!.subarray(row.off[0]!, row.off[0]! + row.len[0]!));
        const json = DECODER.decode(row.src[1]!.subarray(row.off[1]!, row.off[1]! + row.len[1]!));
        if (key.startsWith('t:')) {
          // a temporary table's row outlives the table when a crash ended its session (the open
          // drops the table; the row is rewritten when its hidden name is given out again)
          const name = key.slice(2);
          if (!name.startsWith(TEMPORARY_TABLE_PREFIX) || db.hasTable(name))
            this.tables.set(name, JSON.parse(json) as TableMeta);
        } else if (key.startsWith('v:')) {
          // a view is its text, or { sql, schema } when its names resolve in another database
          const v = JSON.parse(json) as string | { sql: string; schema: string };
          if (typeof v === 'string') this.views.set(key.slice(2), v);
          else {
            this.views.set(key.slice(2), v.sql);
            this.#viewSchemas.set(key.slice(2), v.schema);
          }
        } else if (key.startsWith('u:')) this.accounts.set(key.slice(2), JSON.parse(json) as Account);
        else if (key.startsWith('s:')) this.databases.set(key.slice(2), JSON.parse(json) as DatabaseMeta);
        else if (key === 's') this.#listed = true;
        return true;
      });
    }
    if (!this.#listed && this.databases.size === 0) this.databases.set(DEFAULT_SCHEMA, {});
  }

  /** Drops the cached dictionary of `db` (its tables were reloaded from the pages). */
  static forget(db: Database): void {
    instanceOf(db).dictionary = undefined;
  }

  /** The dictionary of `db`, kept by its instance (read from `#sql_meta` on first use). */
  static of(db: Database): SqlDictionary {
    const instance = instanceOf(db);
    instance.dictionary ??= new SqlDictionary(db);
    return instance.dictionary;
  }

  #store(): Table {
    if (!this.#db.hasTable(META_TABLE))
      return this.#db.createTable({
        name: META_TABLE,
        columns: [
          { name: 'name', type: { kind: 'varchar', length: 200 } },
          { name: 'json', type: { kind: 'varchar', length: 8000 } },
        ],
        primaryKey: ['name'],
      });
    return this.#db.table(META_TABLE);
  }

  #put(key: string, value: unknown): void {
    this.#db.schemaChanged();
    const t = this.#store();
    const json = JSON.stringify(value);
    if (new TableHandler(t).get([key]) !== undefined) t.update([key], [key, json]);
    else t.insert([key, json]);
  }

  #remove(key: string): void {
    this.#db.schemaChanged();
    if (this.#db.hasTable(META_TABLE)) this.#db.table(META_TABLE).delete([key]);
  }

  putTable(name: string, meta: TableMeta): void {
    this.tables.set(name, meta);
    this.#put(`t:${name}`, meta);
  }

  dropTable(name: string): void {
    this.tables.delete(name);
    this.#remove(`t:${name}`);
  }

  /** A view's text, and the database its unqualified names are in (default: the view's own). */
  putView(name: string, sql: string, schema: string = schemaOf(name)): void {
    this.views.set(name, sql);
    if (schema === schemaOf(name)) {
      this.#viewSchemas.delete(name);
      this.#put(`v:${name}`, sql);
    } else {
      this.#viewSchemas.set(name, schema);
      this.#put(`v:${name}`, { sql, schema });
    }
  }

  /** The database a view's unqualified table names are in. */
  viewSchema(name: string): string {
    return this.#viewSchemas.get(name) ?? schemaOf(name);
  }

  dropView(name: string): void {
    this.views.delete(name);
    this.#viewSchemas.delete(name);
    this.#remove(`v:${name}`);
  }

  putAccount(key: string, account: Account): void {
    this.accounts.set(key, account);
    this.#put(`u:${key}`, account);
  }

  dropAccount(key: string): void {
    this.accounts.delete(key);
    this.#remove(`u:${key}`);
  }

  /** Writes the list of databases out in full once (until then it was implicit: `test` alone). */
  #listDatabases(): void {
    if (this.#listed) return;
    for (const [name, meta] of this.databases) this.#put(`s:${name}`, meta);
    this.#put('s', true);
    this.#listed = true;
  }

  putDatabase(name: string, meta: DatabaseMeta): void {
    this.#listDatabases();
    this.databases.set(name, meta);
    this.#put(`s:${name}`, meta);
  }

  dropDatabase(name: string): void {
    this.#listDatabases();
    this.databases.delete(name);
    this.#remove(`s:${name}`);
  }

  /** User tables (the dictionary's own table hidden), of one database when `schema` is given. */
  userTables(schema?: string): Table[] {
    return this.#db
      .tables()
      .filter((t) => !t.name.startsWith('#') && (schema === undefined || schemaOf(t.name) === schema));
  }

  /** Storage names of the views, of one database when `schema` is given. */
  viewNames(schema?: string): string[] {
    return [...this.views.keys()].filter((v) => schema === undefined || schemaOf(v) === schema);
  }
}

/** What the dictionary keeps of a database: its default collation when CREATE DATABASE named one. */
export interface DatabaseMeta {
  readonly collation?: string;
}
