import mysql from 'mysql2/promise';
import { Database } from '../src/storage/database.js';
import { MysqlServer, type ServeOptions } from '../src/server/server.js';

export interface Running {
  readonly db: Database;
  readonly server: MysqlServer;
  readonly port: number;
  connect(opts?: Partial<mysql.ConnectionOptions>): Promise<mysql.Connection>;
  stop(): Promise<void>;
}

/** A server over a temporary database on a free loopback port. */
export async function startServer(options: ServeOptions = {}): Promise<Running> {
  const db = Database.temporary();
  const server = new MysqlServer(db, { port: 0, ...options });
  const address = await server.listen();
  const port = 'port' in address ? address.port : 0;
  const open: mysql.Connection[] = [];
  return {
    db,
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
      db.close();
    },
  };
}
