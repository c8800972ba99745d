// Group commit through the server: concurrent mysql2 connections in autocommit share fsyncs, and
// each OK arrives only once its commit is durable (innodb_flush_log_at_trx_commit=1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/storage/database.js';
import { MysqlServer } from '../../../src/server/server.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('group commit through the server', () => {
  it('16 connections inserting at once need far fewer fsyncs than commits; every OK is durable', async () => {
    const path = join(dir, 'g.ekdb');
    const db = Database.create(path, {});
    const server = new MysqlServer(db, { port: 0 });
    const address = await server.listen();
    const port = 'port' in address ? address.port : 0;
    const conns = await Promise.all(
      Array.from({ length: 16 }, () => mysql.createConnection({ host: '127.0.0.1', port, user: 'root' })),
    );
    try {
      await conns[0]!.query('CREATE TABLE g (id INT PRIMARY KEY, who INT)');
      const redo = db.redo!;
      const f0 = redo.stats.Innodb_os_log_fsyncs;
      let next = 0;
      await Promise.all(
        conns.map(async (c, who) => {
          for (let k = 0; k < 8; k++) {
            await c.query(`INSERT INTO g VALUES (${next++}, ${who})`);
          }
        }),
      );
      const fsyncs = redo.stats.Innodb_os_log_fsyncs - f0;
      expect(db.table('g').rows).toBe(128);
      expect(fsyncs).toBeGreaterThan(0);
      expect(fsyncs).toBeLessThan(64);
      // Replies keep their order: a SELECT after an INSERT on the same connection sees it.
      await conns[1]!.query('INSERT INTO g VALUES (1000, 1)');
      const [rows] = await conns[1]!.query('SELECT who FROM g WHERE id = 1000');
      expect(rows).toEqual([{ who: 1 }]);
    } finally {
      for (const c of conns) c.destroy();
      await server.close();
      db.close();
    }
  });

  it('the OK of a commit is sent only when its durability wait resolves', async () => {
    const path = join(dir, 'w.ekdb');
    const db = Database.create(path, {});
    const server = new MysqlServer(db, { port: 0 });
    const address = await server.listen();
    const port = 'port' in address ? address.port : 0;
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    try {
      await c.query('CREATE TABLE w (id INT PRIMARY KEY)');
      const redo = db.redo!;
      const gates: Array<() => void> = [];
      const real = redo.waitCommitted.bind(redo);
      redo.waitCommitted = (lsn: bigint) =>
        new Promise<void>((resolve) => gates.push(() => real(lsn).then(resolve)));
      let done = false;
      const q = c.query('INSERT INTO w VALUES (1)').then(() => {
        done = true;
      });
      await new Promise((r) => setTimeout(r, 150));
      expect(gates.length).toBe(1);
      expect(done).toBe(false);
      for (const g of gates) g();
      await q;
      expect(done).toBe(true);
      redo.waitCommitted = real;
    } finally {
      c.destroy();
      await server.close();
      db.close();
    }
  });

  it('a COMMIT whose log write fails gets 1180 instead of its OK; the connection stays usable', async () => {
    const path = join(dir, 'f.ekdb');
    const db = Database.create(path, {});
    const server = new MysqlServer(db, { port: 0 });
    const address = await server.listen();
    const port = 'port' in address ? address.port : 0;
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    const redo = db.redo!;
    const real = redo.waitCommitted.bind(redo);
    try {
      await c.query('CREATE TABLE f (id INT PRIMARY KEY)');
      const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      redo.waitCommitted = () => Promise.reject(full);
      await expect(c.query('INSERT INTO f VALUES (1)')).rejects.toMatchObject({ errno: 1180 });
      redo.waitCommitted = real;
      const [rows] = await c.query('SELECT COUNT(*) AS n FROM f');
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      redo.waitCommitted = real;
      c.destroy();
      await server.close();
      db.close();
    }
  });
});
