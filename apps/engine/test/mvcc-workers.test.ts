// Sessions on worker threads keep locking reads: the version store is memory of one thread and
// would miss the other workers' versions, so under REPEATABLE READ a plain SELECT there reads as
// SERIALIZABLE: it waits for an uncommitted writer's X lock on another worker instead of reading
// a snapshot, and reads the new row once the writer commits. READ UNCOMMITTED reads the latest rows without locks. The workers run the built
// package (dist/session-worker.js, rebuilt when stale); this side runs src/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MysqlServer } from '../src/server/server.js';
import { WorkerSessionHost } from '../src/server/worker-session-host.js';
import { Database } from '../src/storage/database.js';

const engineDir = join(import.meta.dirname, '..');
const workerUrl = new URL('../dist/session-worker.js', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'mvcc-workers-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('sessions on worker threads', () => {
  it('keep locking reads: a plain SELECT meets the lock of a writer on another worker', async () => {
    const db = Database.create(join(dir, 'w.ekdb'), {
      innodb_buffer_pool_size: 256 * 16384,
      innodb_log_file_size: 1 << 20,
    });
    const host = await WorkerSessionHost.start(db, { threads: 2, workerUrl });
    const server = new MysqlServer(db, { port: 0, host });
    const address = await server.listen();
    const port = 'port' in address ? address.port : 0;
    const connect = () => mysql.createConnection({ host: '127.0.0.1', port, user: 'root', database: 'test' });
    const a = await connect();
    const b = await connect();
    try {
      expect(host.connectionsPerWorker()).toEqual([1, 1]);
      await a.query('CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL)');
      await a.query('INSERT INTO acc VALUES (1, 100)');
      await b.query('SET SESSION innodb_lock_wait_timeout = 5');
      await a.query('BEGIN');
      await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
      // a locking read: never the committed snapshot [[100]] while the writer is open
      let answered = false;
      const read = b.query({ sql: 'SELECT bal FROM acc WHERE id = 1', rowsAsArray: true }).then((r) => {
        answered = true;
        return r[0];
      });
      await pause(150);
      expect(answered).toBe(false); // waiting for the lock, not failed with 1205
      await a.query('COMMIT');
      expect(await read).toEqual([[0]]);
      const [after] = await b.query({ sql: 'SELECT bal FROM acc WHERE id = 1', rowsAsArray: true });
      expect(after).toEqual([[0]]);
      // READ UNCOMMITTED reads the latest rows without locks, there too
      await b.query("SET SESSION transaction_isolation = 'READ-UNCOMMITTED'");
      await a.query('BEGIN');
      await a.query('UPDATE acc SET bal = 7 WHERE id = 1');
      const [dirty] = await b.query({ sql: 'SELECT bal FROM acc WHERE id = 1', rowsAsArray: true });
      expect(dirty).toEqual([[7]]);
      await a.query('ROLLBACK');
    } finally {
      await a.end();
      await b.end();
      await server.close();
      await host.stop();
      db.close();
    }
  });
});
