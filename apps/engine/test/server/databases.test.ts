// Databases over the wire: the database named in the handshake, COM_INIT_DB (mysql2's
// changeUser with a database) and USE, with sessions on the main thread and on worker threads
// (where one worker's CREATE DATABASE must be seen by the others and by the next login).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect as netConnect } from 'node:net';
import { fileURLToPath } from 'node:url';
import type mysql from 'mysql2/promise';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { type Running, startServer } from '../helpers/server-helpers.js';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
beforeAll(() => buildFresh(engineDir), 300_000);

const running: Running[] = [];
afterAll(async () => {
  for (const r of running) await r.stop();
});

async function errnoOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (e) {
    return (e as { errno?: number }).errno;
  }
  return undefined;
}

function frame(payload: Buffer): Buffer {
  const n = payload.length;
  return Buffer.concat([Buffer.from([n & 0xff, (n >> 8) & 0xff, n >> 16, 0]), payload]);
}

/** The payloads of the packets in `b`. */
function packets(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i + 4 <= b.length; i += 4 + b.readUIntLE(i, 3))
    out.push(b.subarray(i + 4, i + 4 + b.readUIntLE(i, 3)));
  return out;
}

/** Whether `b` holds whole packets only. */
function whole(b: Buffer): boolean {
  return packets(b).reduce((n, p) => n + 4 + p.length, 0) === b.length;
}

/**
 * A client without a library: logs in as root (no password, no database), sends the commands
 * (payloads) in one write, and resolves with the packets that answered them once `answered` says
 * they are all there.
 */
function rawCommands(
  port: number,
  commands: Buffer[],
  answered: (p: Buffer[]) => boolean,
): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const sock = netConnect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    let phase: 'greeting' | 'login' | 'commands' = 'greeting';
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no full answer in ${phase}: ${got.toString('hex')}`));
    }, 10_000);
    sock.on('error', reject);
    sock.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length < 4 || !whole(got)) return;
      if (phase === 'greeting') {
        // HandshakeResponse41 (PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH), root, empty auth
        const body = Buffer.concat([
          Buffer.from([0x00, 0x82, 0x08, 0x00, 0, 0, 0, 1, 45]),
          Buffer.alloc(23),
          Buffer.from('root\0\0mysql_native_password\0'),
        ]);
        const f = frame(body);
        f[3] = 1;
        got = Buffer.alloc(0);
        phase = 'login';
        sock.write(f);
      } else if (phase === 'login') {
        expect(got[4]).toBe(0x00);
        got = Buffer.alloc(0);
        phase = 'commands';
        sock.write(Buffer.concat(commands.map(frame)));
      } else if (answered(packets(got))) {
        clearTimeout(timer);
        sock.destroy();
        resolve(packets(got));
      }
    });
  });
}

const COM_INIT_DB = 0x02;
const COM_QUERY = 0x03;

async function one(c: mysql.Connection, sql: string): Promise<unknown> {
  const [rows] = await c.query({ sql, rowsAsArray: true });
  return (rows as unknown[][])[0]?.[0];
}

for (const threads of [0, 2]) {
  describe(`databases over the protocol, ${threads === 0 ? 'sessions on the main thread' : `${threads} session workers`}`, () => {
    it('takes the handshake database, COM_INIT_DB and USE; sysbench’s sbtest works', async () => {
      const s = await startServer({}, threads);
      running.push(s);
      const admin = await s.connect();
      // no database named: the session starts in test
      expect(await one(admin, 'SELECT DATABASE()')).toBe('test');
      expect(await errnoOf(s.connect({ database: 'sbtest' }))).toBe(1049);
      await admin.query('CREATE DATABASE sbtest');
      await admin.query('CREATE TABLE sbtest.sbtest1 (id INT PRIMARY KEY, k INT, c CHAR(120))');
      await admin.query('CREATE TABLE t (id INT PRIMARY KEY)');

      // another connection (on another worker too) names the new database in its handshake
      const c = await s.connect({ database: 'sbtest' });
      expect(await one(c, 'SELECT DATABASE()')).toBe('sbtest');
      await c.query("INSERT INTO sbtest1 VALUES (1, 10, 'x'), (2, 20, 'y')");
      expect(await one(c, 'SELECT SUM(k) FROM sbtest1')).toBe('30');
      await c.execute('UPDATE sbtest1 SET k = k + ? WHERE id = ?', [1, 1]);
      const [pk] = await c.execute('SELECT k FROM sbtest1 WHERE id = ?', [1]);
      expect(pk).toEqual([{ k: 11 }]);
      expect(await errnoOf(c.query('SELECT * FROM t'))).toBe(1146);

      // COM_INIT_DB (what `mysql -D` and the C API's mysql_select_db send), then a query in it
      const p = await rawCommands(
        s.port,
        [
          Buffer.concat([Buffer.from([COM_INIT_DB]), Buffer.from('nosuch')]),
          Buffer.concat([Buffer.from([COM_INIT_DB]), Buffer.from('sbtest')]),
          Buffer.concat([Buffer.from([COM_QUERY]), Buffer.from('SELECT DATABASE(), COUNT(*) FROM sbtest1')]),
        ],
        // the error, the OK, then column count, two definitions, EOF, one row, EOF
        (q) => q.length >= 8,
      );
      expect(p[0]![0]).toBe(0xff);
      expect(p[0]!.readUInt16LE(1)).toBe(1049);
      expect(p[1]![0]).toBe(0x00);
      expect(p[6]).toEqual(Buffer.from('\x06sbtest\x012', 'latin1'));

      // USE
      await c.query('USE sbtest');
      expect(await one(c, 'SELECT COUNT(*) FROM sbtest1')).toBe(2);
      await c.query('USE test');
      expect(await one(c, 'SELECT COUNT(*) FROM t')).toBe(0);
      await c.query('USE sbtest');
      expect(await errnoOf(c.query('USE nosuch'))).toBe(1049);
      expect(await one(c, 'SELECT DATABASE()')).toBe('sbtest');
      const [fields] = await c.query('SELECT id FROM sbtest1 LIMIT 0');
      expect(fields).toEqual([]);

      // DROP DATABASE on one connection: the other's current database is gone
      await admin.query('DROP DATABASE sbtest');
      expect(await errnoOf(c.query('SELECT * FROM sbtest1'))).toBe(1146);
      expect(await one(admin, 'SELECT DATABASE()')).toBe('test');
    });
  });
}
