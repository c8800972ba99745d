// Account statements on worker threads: the accounts live in the dictionary every worker reads,
// so CREATE USER and GRANT run on any worker (as DDL: the metadata lock in X, every other thread
// rereads the dictionary), the main thread authenticates against the new account, and a grant
// applies from the grantee's next statement on whichever worker it runs. The workers run the
// built package (dist/session-worker.js, rebuilt when stale); this side runs src/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MysqlServer } from '../../src/server/server.js';
import { WorkerSessionHost } from '../../src/server/worker-session-host.js';
import { Database } from '../../src/storage/database.js';

const engineDir = join(import.meta.dirname, '..', '..');
const workerUrl = new URL('../../dist/session-worker.js', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'workers-accounts-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('accounts with sessions on worker threads', () => {
  it('CREATE USER and GRANT on a worker; the login and the grantee on another worker see them', async () => {
    const db = Database.create(join(dir, 'a.ekdb'), { innodb_log_file_size: 1 << 20 });
    const host = await WorkerSessionHost.start(db, { threads: 2, workerUrl });
    const server = new MysqlServer(db, { port: 0, host });
    const address = await server.listen();
    const port = 'port' in address ? address.port : 0;
    const connect = (user: string, password?: string) =>
      mysql.createConnection({ host: '127.0.0.1', port, user, ...(password ? { password } : {}) });
    const admin = await connect('root');
    await admin.query('USE test');
    let bob: mysql.Connection | undefined;
    try {
      await admin.query('CREATE TABLE t (id INT PRIMARY KEY)');
      await admin.query('INSERT INTO t VALUES (1)');
      await admin.query("CREATE USER 'bob'@'%' IDENTIFIED BY 'pw'");
      bob = await connect('bob', 'pw');
      expect(host.connectionsPerWorker()).toEqual([1, 1]);
      await expect(bob.query('SELECT id FROM test.t')).rejects.toMatchObject({ errno: 1142 });
      await admin.query("GRANT SELECT ON test.t TO 'bob'@'%'");
      const [rows] = await bob.query({ sql: 'SELECT id FROM test.t', rowsAsArray: true });
      expect(rows).toEqual([[1]]);
      await admin.query("REVOKE SELECT ON test.t FROM 'bob'@'%'");
      await expect(bob.query('SELECT id FROM test.t')).rejects.toMatchObject({ errno: 1142 });
      await expect(connect('bob', 'wrong')).rejects.toMatchObject({ errno: 1045 });
    } finally {
      await bob?.end();
      await admin.end();
      await server.close();
      await host.stop();
      db.close();
    }
  });
});
