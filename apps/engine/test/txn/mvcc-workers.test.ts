// Consistent reads on worker threads: the transaction system (ids, active transactions, read
// views) is shared memory and the versions live in undo pages of the shared buffer pool, so a
// plain SELECT on one worker reads the snapshot of its read view while a writer on another worker
// holds an uncommitted change, without waiting for its lock; a REPEATABLE READ snapshot holds
// across statements while another worker commits; READ UNCOMMITTED reads the latest rows. The
// workers run the built package (dist/session-worker.js, rebuilt when stale); this side runs src/.
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
const dir = mkdtempSync(join(tmpdir(), 'mvcc-workers-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('sessions on worker threads', () => {
  it('read the snapshot of their read view while a writer on another worker holds the row', async () => {
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
      await a.query('INSERT INTO acc VALUES (1, 100), (2, 200)');
      await b.query('SET SESSION innodb_lock_wait_timeout = 5');
      await a.query('BEGIN');
      await a.query('UPDATE acc SET bal = 0 WHERE id = 1');
      // a consistent read: the committed version, at once, although the writer holds the row
      const [snap] = await b.query({ sql: 'SELECT bal FROM acc WHERE id = 1', rowsAsArray: true });
      expect(snap).toEqual([[100]]);
      // b's REPEATABLE READ snapshot, opened now, outlives a's commit
      await b.query('BEGIN');
      const [first] = await b.query({ sql: 'SELECT SUM(bal) FROM acc', rowsAsArray: true });
      expect(first).toEqual([['300']]);
      await a.query('COMMIT');
      const [again] = await b.query({ sql: 'SELECT SUM(bal) FROM acc', rowsAsArray: true });
      expect(again).toEqual([['300']]);
      // a locking read sees the latest committed row
      const [locked] = await b.query({
        sql: 'SELECT bal FROM acc WHERE id = 1 FOR UPDATE',
        rowsAsArray: true,
      });
      expect(locked).toEqual([[0]]);
      await b.query('COMMIT');
      const [after] = await b.query({ sql: 'SELECT bal FROM acc WHERE id = 1', rowsAsArray: true });
      expect(after).toEqual([[0]]);
      // a writer on b's worker waits for a's row lock on the other worker
      await a.query('BEGIN');
      await a.query('UPDATE acc SET bal = 5 WHERE id = 2');
      let answered = false;
      const write = b.query('UPDATE acc SET bal = bal + 1 WHERE id = 2').then(() => {
        answered = true;
      });
      await pause(150);
      expect(answered).toBe(false);
      await a.query('COMMIT');
      await write;
      const [two] = await b.query({ sql: 'SELECT bal FROM acc WHERE id = 2', rowsAsArray: true });
      expect(two).toEqual([[6]]);
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
