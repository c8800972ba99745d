import { type Database, Session } from '@enginekit/engine';
import type { TpchFiles } from '../internal/tpch-files.js';
import type { MariaDb } from './mariadb.js';

/**
 * A SQL system an experiment runs the post's statements on: enginekit through
 * `@enginekit/engine`'s Session (what a user of the engine gets), or a private MariaDB. One
 * adapter per system, so an experiment is written once against this interface.
 */
export interface SqlTarget {
  readonly name: 'enginekit' | 'MariaDB';
  /**
   * (Re)start with an `innodb_buffer_pool_size` of `poolBytes`. `cold`: an empty pool (enginekit
   * reopens its file through the hdd model; MariaDB restarts and the OS cache is dropped).
   */
  open(poolBytes: number, cold: boolean): Promise<void>;
  exec(sql: string): Promise<void>;
  /** Rows as arrays, every value as text (numbers as the server prints them). */
  query(sql: string): Promise<string[][]>;
  /** SHOW SESSION STATUS, numeric values. */
  status(): Promise<Record<string, number>>;
  /** enginekit only: modeled disk milliseconds since {@link open} (undefined on MariaDB). */
  modeledMs(): number | undefined;
  close(): Promise<void>;
}

const text = (v: unknown): string => (v === null || v === undefined ? 'NULL' : String(v));

export class EngineTarget implements SqlTarget {
  readonly name = 'enginekit' as const;
  readonly #files: TpchFiles;
  #db: Database | undefined;
  #session: Session | undefined;

  constructor(files: TpchFiles) {
    this.#files = files;
  }

  async open(poolBytes: number, cold: boolean): Promise<void> {
    await this.close();
    this.#db = this.#files.open(poolBytes, cold ? 'hdd' : undefined);
    this.#session = new Session(this.#db);
  }

  #s(): Session {
    if (this.#session === undefined) throw new Error('enginekit target is not open');
    return this.#session;
  }

  async exec(sql: string): Promise<void> {
    this.#s().query(sql);
  }

  async query(sql: string): Promise<string[][]> {
    return this.#s()
      .query(sql)
      .rows.map((r) => r.map(text));
  }

  async status(): Promise<Record<string, number>> {
    return this.#s().status();
  }

  modeledMs(): number | undefined {
    const device = this.#db?.device as { stats?: () => { modeledMs: number } } | undefined;
    return device?.stats?.().modeledMs ?? 0;
  }

  async close(): Promise<void> {
    this.#session?.close();
    this.#db?.close();
    this.#session = undefined;
    this.#db = undefined;
  }
}

export class MariaDbTarget implements SqlTarget {
  readonly name = 'MariaDB' as const;
  readonly server: MariaDb;

  constructor(server: MariaDb) {
    this.server = server;
  }

  async open(poolBytes: number, cold: boolean): Promise<void> {
    if (cold || poolBytes !== this.server.poolSize) await this.server.restart(poolBytes);
  }

  async exec(sql: string): Promise<void> {
    await this.server.query(sql);
  }

  async query(sql: string): Promise<string[][]> {
    const rows = await this.server.query<Record<string, unknown>>(sql);
    return rows.map((r) => Object.values(r).map(text));
  }

  async status(): Promise<Record<string, number>> {
    return this.server.status();
  }

  modeledMs(): number | undefined {
    return undefined;
  }

  async close(): Promise<void> {
    await this.server.stop();
  }
}

/** Wall milliseconds of one awaited call. */
export async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t0 };
}
