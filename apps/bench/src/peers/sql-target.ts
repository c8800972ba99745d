import { type Database, Session } from '@enginekit/engine';
import { dropOsCache } from '../internal/os-cache.js';
import type { TpchFiles } from '../internal/tpch-files.js';
import type { MariaDb } from './mariadb.js';

/**
 * How a run starts. `warm`: a pool that already holds (or will hold) the data. `model`: an empty
 * pool over the hdd model — seeded, machine-independent modeled seconds (enginekit only).
 * `disk`: an empty pool over the real file on this machine's disk, the OS page cache dropped
 * first (as root), timed in wall seconds.
 */
export type Start = 'warm' | 'model' | 'disk';

/**
 * A SQL system an experiment runs the post's statements on: enginekit through
 * `@enginekit/engine`'s Session (what a user of the engine gets), or a private MariaDB. One
 * adapter per system, so an experiment is written once against this interface.
 */
export interface SqlTarget {
  readonly name: 'enginekit' | 'MariaDB';
  /** Whether the target can run over the hdd model (`open(…, 'model')`). */
  readonly models: boolean;
  /**
   * (Re)start with an `innodb_buffer_pool_size` of `poolBytes`, as `start` says. Returns, for a
   * cold start on the disk, whether the OS page cache was dropped (false when not root).
   */
  open(poolBytes: number, start: Start): Promise<boolean>;
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
  readonly models = true;
  readonly #files: TpchFiles;
  #db: Database | undefined;
  #session: Session | undefined;

  constructor(files: TpchFiles) {
    this.#files = files;
  }

  async open(poolBytes: number, start: Start): Promise<boolean> {
    await this.close();
    const dropped = start === 'disk' && dropOsCache();
    this.#db = this.#files.open(poolBytes, start === 'model' ? 'hdd' : undefined);
    this.#session = new Session(this.#db);
    return dropped;
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
  readonly models = false;
  readonly server: MariaDb;

  constructor(server: MariaDb) {
    this.server = server;
  }

  async open(poolBytes: number, start: Start): Promise<boolean> {
    if (start === 'model') throw new Error('MariaDB has no disk model: start it cold on the disk');
    if (start === 'disk' || poolBytes !== this.server.poolSize) return this.server.restart(poolBytes);
    return false;
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
