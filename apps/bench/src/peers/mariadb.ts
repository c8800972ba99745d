import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { onExit } from '../internal/cleanup.js';
import { dropOsCache } from '../internal/os-cache.js';

/** Where Debian's mariadb-server puts the server and its bootstrap script. */
const MARIADBD = ['/usr/sbin/mariadbd', '/usr/bin/mariadbd'];
const INSTALL_DB = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'];

export interface MariaDbBinaries {
  readonly mariadbd: string;
  readonly installDb: string;
  /** `MariaDB 10.11.19-MariaDB-0+deb12u1` (from `mariadbd --version`). */
  readonly version: string;
}

/** The installed server, or undefined (with `ENGINEKIT_BENCH_MARIADB=0`, always undefined). */
export function findMariaDb(): MariaDbBinaries | undefined {
  if (process.env.ENGINEKIT_BENCH_MARIADB === '0') return undefined;
  const mariadbd = MARIADBD.find((p) => existsSync(p));
  const installDb = INSTALL_DB.find((p) => existsSync(p));
  if (mariadbd === undefined || installDb === undefined) return undefined;
  let version = 'unknown';
  try {
    const text = execFileSync(mariadbd, ['--version'], { encoding: 'utf8' }).trim();
    version = `MariaDB ${/Ver\s+(\S+)/.exec(text)?.[1] ?? text}`;
  } catch {
    return undefined;
  }
  return { mariadbd, installDb, version };
}

/** The one line an experiment prints when there is no server to compare with. */
export const MARIADB_ABSENT =
  'MariaDB is not installed (no mariadbd): enginekit runs alone; `apt-get install mariadb-server` adds the MariaDB columns';

export interface MariaDbStartOptions {
  /** `innodb_buffer_pool_size`, bytes (MariaDB rounds it up to its chunk size). */
  readonly innodb_buffer_pool_size: number;
  readonly log?: (line: string) => void;
  /**
   * Server settings in place of the experiments' cold-start ones (O_DIRECT, no pool dump or
   * load, a 256M redo log, flush at commit 2, no query cache, no binlog), after the datadir,
   * socket and pool; `[]` for the server's defaults.
   */
  readonly settings?: readonly string[];
  /** The database created and selected (default `dbt3`). */
  readonly database?: string;
}

const COLD_START_SETTINGS: readonly string[] = [
  '--innodb-flush-method=O_DIRECT',
  '--innodb-buffer-pool-load-at-startup=0',
  '--innodb-buffer-pool-dump-at-shutdown=0',
  '--innodb-log-file-size=256M',
  '--innodb-flush-log-at-trx-commit=2',
  '--local-infile=1',
  '--query-cache-type=0',
  '--skip-log-bin',
];

/**
 * A private MariaDB server for one experiment: a datadir in a temp folder, a unix socket, no
 * TCP (`--skip-networking`), `O_DIRECT` data files and no buffer-pool load or dump, so a restart
 * is a cold start. {@link stop} (and any exit of the process) ends it and removes the folder.
 */
export class MariaDb {
  readonly binaries: MariaDbBinaries;
  readonly dir: string;
  readonly socket: string;
  #child: ChildProcess | undefined;
  #conn: mysql.Connection | undefined;
  #poolSize = 0;
  #release: () => void = () => {};
  #settings: readonly string[] = COLD_START_SETTINGS;
  #database = 'dbt3';
  /** Further server options for the next start (e.g. `--innodb-sort-buffer-size=8M`). */
  extraArgs: string[] = [];
  readonly #log: (line: string) => void;

  private constructor(binaries: MariaDbBinaries, dir: string, log: (line: string) => void) {
    this.binaries = binaries;
    this.dir = dir;
    this.socket = join(dir, 'mysqld.sock');
    this.#log = log;
  }

  /** Bootstraps a datadir and starts the server with the given pool. */
  static async start(binaries: MariaDbBinaries, options: MariaDbStartOptions): Promise<MariaDb> {
    const base = process.env.ENGINEKIT_BENCH_DIR ?? tmpdir();
    mkdirSync(base, { recursive: true });
    const server = new MariaDb(
      binaries,
      mkdtempSync(join(base, 'enginekit-mariadb-')),
      options.log ?? (() => {}),
    );
    server.#release = onExit(() => server.killNow());
    if (options.settings !== undefined) server.#settings = options.settings;
    if (options.database !== undefined) server.#database = options.database;
    try {
      execFileSync(
        binaries.installDb,
        [
          '--no-defaults',
          `--datadir=${join(server.dir, 'data')}`,
          '--auth-root-authentication-method=normal',
          '--user=root',
          '--skip-test-db',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      await server.#launch(options.innodb_buffer_pool_size);
      await server.query(`CREATE DATABASE ${server.#database}`);
      await server.query(`USE ${server.#database}`);
      return server;
    } catch (e) {
      await server.stop();
      throw e;
    }
  }

  get poolSize(): number {
    return this.#poolSize;
  }

  async #launch(poolBytes: number): Promise<void> {
    const args = [
      '--no-defaults',
      `--datadir=${join(this.dir, 'data')}`,
      `--socket=${this.socket}`,
      `--pid-file=${join(this.dir, 'mysqld.pid')}`,
      `--log-error=${join(this.dir, 'error.log')}`,
      '--skip-networking',
      '--user=root',
      `--innodb-buffer-pool-size=${poolBytes}`,
      ...this.#settings,
      ...this.extraArgs,
    ];
    const child = spawn(this.binaries.mariadbd, args, { stdio: 'ignore' });
    this.#child = child;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`mariadbd exited with ${child.exitCode}: ${this.#errorTail()}`);
      try {
        this.#conn = await mysql.createConnection({
          socketPath: this.socket,
          user: 'root',
          multipleStatements: false,
          infileStreamFactory: (path: string) => createReadStream(path),
        });
        break;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(`mariadbd did not accept connections in 30 s: ${String(e)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.#poolSize = poolBytes;
    this.#log(
      `MariaDB started (innodb_buffer_pool_size ${Math.round(poolBytes / 2 ** 20)} MiB) in ${this.dir}`,
    );
  }

  #errorTail(): string {
    try {
      return readFileSync(join(this.dir, 'error.log'), 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return '(no error log)';
    }
  }

  /** Runs one statement; rows for a query. */
  async query<T = Record<string, unknown>>(sql: string): Promise<T[]> {
    if (this.#conn === undefined) throw new Error('MariaDB is not running');
    const [rows] = await this.#conn.query(sql);
    return (Array.isArray(rows) ? rows : []) as T[];
  }

  /** SHOW SESSION STATUS as name → number (non-numeric values left out). */
  async status(): Promise<Record<string, number>> {
    const rows = await this.query<{ Variable_name: string; Value: string }>('SHOW SESSION STATUS');
    const out: Record<string, number> = {};
    for (const r of rows) {
      const n = Number(r.Value);
      if (r.Value !== '' && Number.isFinite(n)) out[r.Variable_name] = n;
    }
    return out;
  }

  /**
   * A cold restart: shut down cleanly, drop the OS page cache (as root, unless `dropCache` is
   * false; skipped otherwise), start again with `innodb_buffer_pool_size` bytes, and select the
   * database. Returns whether the OS cache was dropped.
   */
  async restart(poolBytes: number, dropCache = true): Promise<boolean> {
    await this.#shutdown();
    const dropped = dropCache && dropOsCache();
    await this.#launch(poolBytes);
    await this.query(`USE ${this.#database}`);
    return dropped;
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    try {
      await this.#conn?.end();
    } catch {
      // the server may already be gone
    }
    this.#conn = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
    this.#child = undefined;
  }

  /** Stops the server and removes its folder. */
  async stop(): Promise<void> {
    try {
      await this.#shutdown();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
      this.#release();
    }
  }

  /** For the process's exit hook: SIGKILL and remove the folder, synchronously. */
  killNow(): void {
    try {
      this.#child?.kill('SIGKILL');
    } catch {
      // already gone
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
