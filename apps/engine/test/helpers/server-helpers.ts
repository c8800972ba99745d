import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { Database } from '../../src/storage/database.js';
import { MysqlServer, type ServeOptions } from '../../src/server/server.js';
import { WorkerSessionHost } from '../../src/server/worker-session-host.js';

export interface Running {
  /** The server's database (with worker threads: read after its dictionary is brought up to date). */
  readonly db: Database;
  readonly server: MysqlServer;
  readonly port: number;
  connect(opts?: Partial<mysql.ConnectionOptions>): Promise<mysql.Connection>;
  stop(): Promise<void>;
}

/** The built session worker (tests that use `threads` build the package first: buildFresh). */
export const WORKER_URL: URL = new URL('../../dist/session-worker.js', import.meta.url);

/**
 * A server on a free loopback port: over a temporary database with sessions on the main thread
 * (`threads` 0), or over a database file with its redo log and sessions on `threads` workers.
 */
export async function startServer(options: ServeOptions = {}, threads = 0): Promise<Running> {
  const dir = threads === 0 ? undefined : mkdtempSync(join(tmpdir(), 'engine-server-'));
  const db =
    dir === undefined
      ? Database.temporary()
      : Database.create(join(dir, 'served.ekdb'), { innodb_log_file_size: 1 << 20 });
  const host =
    threads === 0 ? undefined : await WorkerSessionHost.start(db, { threads, workerUrl: WORKER_URL });
  const server = new MysqlServer(db, { port: 0, ...options, ...(host === undefined ? {} : { host }) });
  const address = await server.listen();
  const port = 'port' in address ? address.port : 0;
  const open: mysql.Connection[] = [];
  return {
    get db(): Database {
      return host === undefined ? db : host.current();
    },
    server,
    port,
    async connect(opts = {}) {
      const c = await mysql.createConnection({
        host: '127.0.0.1',
        port,
        user: options.user ?? 'root',
        ...(options.password === undefined ? {} : { password: options.password }),
        ...opts,
      });
      c.on('error', () => undefined);
      open.push(c);
      return c;
    },
    async stop() {
      for (const c of open) c.destroy();
      await server.close();
      await host?.stop();
      db.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The MySQL error a client's query rejected with (its errno, SQLSTATE and message); throws if it did not. */
export async function failure(
  p: Promise<unknown>,
): Promise<{ errno: number; sqlState: string; message: string }> {
  try {
    await p;
  } catch (e) {
    const x = e as { errno: number; sqlState: string; message: string };
    return { errno: x.errno, sqlState: x.sqlState, message: x.message };
  }
  throw new Error('expected an error');
}

/** A query's rows as arrays. */
export const rows = async (c: mysql.Connection, sql: string): Promise<unknown[][]> =>
  ((await c.query({ sql, rowsAsArray: true }))[0] as unknown[][]).map((r) => [...r]);

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
