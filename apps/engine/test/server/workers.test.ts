// Sessions on worker threads sharing one buffer pool, through the real mysql2 client: several
// connections spread over 2 workers insert and read at once and every row is there afterwards
// (checkIndexes), a table created on one worker is visible from the other at its next statement,
// and `enginekit serve --threads 2` shuts down cleanly on SIGTERM. The workers run the built
// package (dist/session-worker.js, rebuilt when stale); this side runs src/.
import { spawn } from 'node:child_process';
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
const dir = mkdtempSync(join(tmpdir(), 'server-workers-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(name: string, threads: number) {
  const db = Database.create(join(dir, `${name}.ekdb`), {
    innodb_buffer_pool_size: 256 * 16384,
    innodb_log_file_size: 1 << 20,
  });
  const host = await WorkerSessionHost.start(db, { threads, workerUrl });
  const server = new MysqlServer(db, { port: 0, host });
  const address = await server.listen();
  const port = 'port' in address ? address.port : 0;
  const conns: mysql.Connection[] = [];
  return {
    db,
    host,
    connect: async () => {
      const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', database: 'test' });
      conns.push(c);
      return c;
    },
    /** Ends the clients, the server and the workers; leaves the Database open. */
    stop: async () => {
      for (const c of conns) await c.end().catch(() => undefined);
      await server.close();
      await host.stop();
    },
  };
}

describe('sessions on 2 worker threads over one buffer pool', () => {
  it('one set of global variables: a SET GLOBAL on one worker is what every thread and every new session sees', async () => {
    const s = await start('globals', 2);
    try {
      const a = await s.connect();
      const b = await s.connect();
      expect(s.host.connectionsPerWorker()).toEqual([1, 1]);
      await a.query('SET GLOBAL max_statement_time = 2.5');
      await a.query('SET GLOBAL max_connections = 7');
      // the other worker's globals, and a session it opens next, take the value (messages
      // between threads: poll briefly)
      let seen: unknown;
      for (let i = 0; i < 100; i++) {
        const [rows] = await b.query('SELECT @@GLOBAL.max_statement_time AS g');
        seen = (rows as Array<{ g: unknown }>)[0]!.g;
        if (Number(seen) === 2.5) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(Number(seen)).toBe(2.5);
      const c = await s.connect(); // on the worker of b: least connections, the first one
      const [rows] = await c.query('SELECT @@SESSION.max_statement_time AS s, @@GLOBAL.max_connections AS m');
      expect(rows).toEqual([{ s: 2.5, m: 7 }]);
      // the main thread admits connections by the same max_connections
      const more = [];
      for (let i = 0; i < 4; i++) more.push(await s.connect());
      await expect(s.connect()).rejects.toMatchObject({ errno: 1040 });
    } finally {
      await s.stop();
      s.db.close();
    }
  });

  it('8 connections insert and read at once; every row and index entry is there', async () => {
    const s = await start('many', 2);
    const admin = await s.connect();
    await admin.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, v VARCHAR(40))');
    await admin.query('CREATE INDEX k_1 ON t (k)');
    const clients = await Promise.all(Array.from({ length: 8 }, () => s.connect()));
    expect(s.host.connectionsPerWorker()).toEqual([5, 4]); // least connections first
    const PER = 300;
    await Promise.all(
      clients.map(async (c, n) => {
        for (let b = 0; b < PER; b += 25) {
          const values = Array.from({ length: 25 }, (_, j) => {
            const id = n * 100_000 + b + j;
            return `(${id}, ${id % 97}, 'client ${n} row ${b + j}')`;
          });
          await c.query(`INSERT INTO t VALUES ${values.join(', ')}`);
          // reads between the writes, on both workers at once
          const [r] = await c.query('SELECT COUNT(*) AS n FROM t WHERE id >= ? AND id < ?', [
            n * 100_000,
            n * 100_000 + PER,
          ]);
          expect(Number((r as { n: number }[])[0]!.n)).toBe(b + 25);
          await c.execute('SELECT v FROM t WHERE id = ?', [n * 100_000 + b]);
        }
      }),
    );
    const [total] = await clients[3]!.query('SELECT COUNT(*) AS n, COUNT(DISTINCT k) AS k FROM t');
    expect(total).toEqual([{ n: 8 * PER, k: 97 }]);
    const [byK] = await clients[4]!.query('SELECT COUNT(*) AS n FROM t WHERE k = 5');
    expect(Number((byK as { n: number }[])[0]!.n)).toBe(
      Array.from({ length: 8 * PER }, (_, i) => (Math.floor(i / PER) * 100_000 + (i % PER)) % 97).filter(
        (k) => k === 5,
      ).length,
    );
    await s.stop();
    const t = s.db.table('t');
    expect(t.rows).toBe(8 * PER);
    t.checkIndexes();
    s.db.pool.checkValid();
    const path = s.db.path;
    s.db.close();
    const again = Database.open(path);
    expect(again.table('t').rows).toBe(8 * PER);
    again.table('t').checkIndexes();
    again.close();
  });

  it('a table created on one worker is visible from the other at its next statement', async () => {
    const s = await start('ddl', 2);
    const a = await s.connect();
    const b = await s.connect();
    expect(s.host.connectionsPerWorker()).toEqual([1, 1]); // a on one worker, b on the other
    await a.query('CREATE TABLE made_on_a (id INT PRIMARY KEY, v VARCHAR(10))');
    await b.query("INSERT INTO made_on_a VALUES (1, 'from b')");
    await a.query("INSERT INTO made_on_a VALUES (2, 'from a')");
    const [rows] = await b.query('SELECT * FROM made_on_a ORDER BY id');
    expect(rows).toEqual([
      { id: 1, v: 'from b' },
      { id: 2, v: 'from a' },
    ]);
    await b.query('DROP TABLE made_on_a');
    await expect(a.query('SELECT * FROM made_on_a')).rejects.toMatchObject({ errno: 1146 });
    await s.stop();
    expect(s.db.hasTable('made_on_a')).toBe(false);
    s.db.close();
  });

  it('SHOW GLOBAL STATUS sums the workers (statements, transactions, connections); SHOW SESSION STATUS is the session alone', async () => {
    const s = await start('status', 2);
    const a = await s.connect();
    const b = await s.connect();
    expect(s.host.connectionsPerWorker()).toEqual([1, 1]);
    const globalValue = async (c: mysql.Connection, name: string) => {
      const [r] = await c.query(`SHOW GLOBAL STATUS LIKE '${name}'`);
      return Number((r as { Value: string }[])[0]!.Value);
    };
    const globalSelects = (c: mysql.Connection) => globalValue(c, 'Com_select');
    // every count of the registry is summed: transaction statements and connections too
    const commits = await globalValue(a, 'Com_commit');
    for (const c of [a, b]) {
      await c.query('BEGIN');
      await c.query('COMMIT');
    }
    expect(await globalValue(a, 'Com_commit')).toBe(commits + 2);
    expect(await globalValue(b, 'Connections')).toBe(2);
    expect(await globalValue(a, 'Max_used_connections')).toBe(2);
    expect(await globalValue(b, 'Threads_connected')).toBe(2);
    const before = await globalSelects(a);
    for (let i = 0; i < 3; i++) await a.query('SELECT 1');
    for (let i = 0; i < 5; i++) await b.query('SELECT 2');
    expect(await globalSelects(a)).toBe(before + 8);
    expect(await globalSelects(b)).toBe(before + 8);
    const [own] = await b.query("SHOW SESSION STATUS LIKE 'Com_select'");
    expect(Number((own as { Value: string }[])[0]!.Value)).toBe(5);
    // the sums are not kept: another query on a still counts from its own worker's value
    await a.query('SELECT 3');
    expect(await globalSelects(b)).toBe(before + 9);
    await s.stop();
    s.db.close();
  });

  it('enginekit serve --threads 2 shuts down cleanly on SIGTERM and the file keeps the rows', async () => {
    const socket = join(dir, 'serve.sock');
    const path = join(dir, 'serve.ekdb');
    const child = spawn(
      process.execPath,
      [
        join(engineDir, 'dist', 'cli.js'),
        'serve',
        '--db',
        path,
        '--create',
        '--socket',
        socket,
        '--threads',
        '2',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ENGINEKIT_PASSWORD: 'w' },
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(String(d)));
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    expect(line).toContain(`listening on unix socket ${socket}`);
    const c = await mysql.createConnection({
      socketPath: socket,
      user: 'root',
      password: 'w',
      database: 'test',
    });
    const d = await mysql.createConnection({
      socketPath: socket,
      user: 'root',
      password: 'w',
      database: 'test',
    });
    await c.query('CREATE TABLE kept (id INT PRIMARY KEY)');
    await Promise.all([
      c.query('INSERT INTO kept VALUES (1), (2), (3)'),
      d.query('INSERT INTO kept VALUES (4), (5)'),
    ]);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    await c.end().catch(() => undefined);
    await d.end().catch(() => undefined);
    const db = Database.open(path);
    expect(db.table('kept').rows).toBe(5);
    db.table('kept').checkIndexes();
    db.close();
  });
});
